package validate

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/internal/settings"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
	"github.com/tcpfluid/tcpfluid/response"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// PointSpec is one response point: one long-lived flow alone on an uncongested path of
// round-trip time RTTS whose only loss is the loss process.
type PointSpec struct {
	Algorithm string             `json:"algorithm"`
	Params    map[string]float64 `json:"params,omitempty"`
	LossModel string             `json:"loss_model"` // periodic or random
	P         float64            `json:"p"`          // loss rate per packet
	RTTS      float64            `json:"rtt_s"`      // default 0.1 s
	MSSBytes  float64            `json:"mss_bytes"`  // default 1460 bytes
	Seed      uint64             `json:"seed"`
	// WarmupLosses loss events of the packet engine are discarded; default 20.
	WarmupLosses int `json:"warmup_losses"`
	// Losses are the packet engine's measured loss events; defaults: periodic 20 (the
	// sawtooth is deterministic), random 400, or as many as 10^8 packets hold below
	// p = 4e-6 (at least 40: 100 at p = 1e-6, a packet run of a minute or so).
	Losses int `json:"losses"`
	// StartCwndPkts is the window both engines start from in congestion avoidance, set by
	// Point from a fluid pre-run (see startWindow).
	StartCwndPkts float64 `json:"start_cwnd_pkts"`
	// Batches are the batch means of the paired confidence interval (random loss only);
	// default 10.
	Batches int `json:"batches"`
}

func (s *PointSpec) defaults() error {
	if _, err := model.New(s.Algorithm); err != nil {
		return fmt.Errorf("%w: algorithm: %w", model.ErrSettings, err)
	}
	if err := settings.LossModel(&s.LossModel); err != nil {
		return err
	}
	if !(s.P > 0 && s.P < 1) {
		return fmt.Errorf("%w: loss rate p = %v, want 0 < p < 1", model.ErrSettings, s.P)
	}
	if err := settings.RTT(&s.RTTS); err != nil {
		return err
	}
	if err := settings.MSS(&s.MSSBytes); err != nil {
		return err
	}
	if s.WarmupLosses == 0 {
		s.WarmupLosses = 20
	}
	if s.Losses == 0 {
		s.Losses = 20
		if s.LossModel == "random" {
			s.Losses = int(math.Max(40, math.Min(400, math.Round(1e8*s.P))))
		}
	}
	if s.Batches == 0 {
		s.Batches = 10
	}
	if s.LossModel == "periodic" {
		s.Batches = 1 // deterministic: no confidence interval
	}
	if s.WarmupLosses < 0 || s.Losses < 1 || (s.LossModel == "random" && (s.Batches < 2 || s.Losses < s.Batches)) {
		return fmt.Errorf("%w: warm-up %d, losses %d, batches %d: want warm-up >= 0, losses >= 1, and for random loss batches >= 2 and losses >= batches",
			model.ErrSettings, s.WarmupLosses, s.Losses, s.Batches)
	}
	return nil
}

// Point runs one response point in both engines and compares the mean window
// and the mean throughput over the same stretch of losses. The packet engine runs
// WarmupLosses + Losses loss events; its measurement runs from the loss that ends the
// warm-up to the last, and the fluid's (Form) over the loss events nearest to
// the same delivered-packet counts. Under random loss both engines draw from the seed's
// common stream (packet.Settings documents it), so each sees its losses after the same
// numbers of packets, and each error carries a paired 95% confidence interval from Batches
// batch means. Tolerances: TolPointPeriodic, TolPointRandom.
func Point(ctx context.Context, spec PointSpec) (*Report, error) {
	if err := spec.defaults(); err != nil {
		return nil, err
	}
	sc, err := response.PointScenario(spec.Algorithm, spec.Params, spec.RTTS, spec.MSSBytes)
	if err != nil {
		return nil, err
	}
	sc.Links[0].Loss, sc.Links[0].LossP = model.LossModel(spec.LossModel), spec.P
	total := spec.WarmupLosses + spec.Losses
	// The duration only bounds the runs, which end at their loss counts: one loss per 1/p
	// packets at no less than one packet per RTT, with room for timeouts.
	sc.DurationS = float64(2*total+2*startLosses) * spec.RTTS / spec.P * 4
	if spec.StartCwndPkts, err = startWindow(ctx, sc, spec.Seed); err != nil {
		return nil, err
	}
	sc.Flows[0].InitialCwnd, sc.Flows[0].InitialSsthresh = spec.StartCwndPkts, spec.StartCwndPkts
	t0 := time.Now()
	pk, err := packet.Run(ctx, sc, packet.Settings{Seed: spec.Seed, StopAfterLosses: total + 1, RecordLosses: true})
	packetWall := time.Since(t0).Seconds()
	if err != nil {
		return nil, fmt.Errorf("packet engine: %w", err)
	}
	if len(pk.Losses) < total+1 {
		return nil, fmt.Errorf("%w: packet engine: %s at p = %g: %d loss events in %g s, want %d", model.ErrEngine, spec.Algorithm, spec.P, len(pk.Losses), pk.DurationS, total+1)
	}
	// The fluid merges losses inside one recovery and never times out: it needs at most
	// as many loss events as the packet engine to deliver as much, and the margin covers
	// the rest.
	t0 = time.Now()
	fl, err := fluid.Run(ctx, sc, fluid.Settings{Seed: spec.Seed, Form: Form,
		StopAfterLosses: 2*total + 10, RecordLosses: true})
	fluidWall := time.Since(t0).Seconds()
	if err != nil {
		return nil, fmt.Errorf("fluid engine: %w", err)
	}
	pb := make([]int, spec.Batches+1) // packet loss records delimiting the batches
	fb := make([]int, spec.Batches+1) // the fluid's nearest in delivered packets
	for b := range pb {
		pb[b] = spec.WarmupLosses + b*spec.Losses/spec.Batches
		fb[b] = nearestDelivered(fl.Losses, pk.Losses[pb[b]].DeliveredPkts)
		if fb[b] < 0 {
			return nil, fmt.Errorf("%w: fluid engine: %s at p = %g delivered %g packets in %d loss events, want %g to match the packet engine",
				model.ErrEngine, spec.Algorithm, spec.P, fl.Flows[0].DeliveredPkts, len(fl.Losses), pk.Losses[pb[b]].DeliveredPkts)
		}
	}
	last := spec.Batches
	fw, fr := stretch(fl.Losses[fb[0]], fl.Losses[fb[last]], spec.MSSBytes)
	pw, pr := stretch(pk.Losses[pb[0]], pk.Losses[pb[last]], spec.MSSBytes)
	tol := TolPointPeriodic
	if spec.LossModel == "random" {
		tol = TolPointRandom
	}
	v := &Report{Point: &spec, Form: Form, Seed: spec.Seed, OK: true, Fluid: fl, Packet: pk, FluidWallS: fluidWall, PacketWallS: packetWall}
	if pk.Flows[0].Timeouts > 0 {
		var pc, fc timeoutCount
		pc.add(pk.Flows[0])
		fc.add(fl.Flows[0])
		v.Notes = append(v.Notes, timeoutNote(pc, fc))
	}
	cwnd := tol.Judge("mean_cwnd_pkts", fw, pw)
	thr := tol.Judge("mean_throughput_bps", fr, pr)
	if spec.LossModel == "random" {
		// Paired batch means of the relative differences: the batches span the same losses
		// in both engines, so their errors cancel in the difference.
		dw, dr := make([]float64, spec.Batches), make([]float64, spec.Batches)
		for b := range dw {
			fbw, fbr := stretch(fl.Losses[fb[b]], fl.Losses[fb[b+1]], spec.MSSBytes)
			pbw, pbr := stretch(pk.Losses[pb[b]], pk.Losses[pb[b+1]], spec.MSSBytes)
			dw[b], dr[b] = (fbw-pbw)/pw, (fbr-pbr)/pr
		}
		cwnd.setCI95(ci95(dw))
		thr.setCI95(ci95(dr))
	}
	v.add(cwnd)
	v.add(thr)
	return v, nil
}

// startLosses is the length of the fluid pre-run that finds a point's starting window.
const startLosses = 60

// startWindow is the fluid's mean window over the second half of a pre-run of startLosses
// loss events from slow start, packets: the window both engines of a point start from,
// in congestion avoidance, so that their warm-up is short. MIMD and CUBIC sawtooths
// approach their cycle by a factor of 1 − b or less per loss, so from slow start's overshoot
// (10^5 packets at p = 10^-6) they would need a hundred losses or more; from the fluid's
// mean they are within a few percent at once.
func startWindow(ctx context.Context, sc *model.Scenario, seed uint64) (float64, error) {
	fl, err := fluid.Run(ctx, sc, fluid.Settings{Seed: seed, Form: Form, StopAfterLosses: startLosses, RecordLosses: true})
	if err != nil {
		return 0, fmt.Errorf("fluid engine: %w", err)
	}
	if len(fl.Losses) < startLosses {
		return 0, fmt.Errorf("%w: fluid engine: %d loss events in %g s, want %d", model.ErrEngine, len(fl.Losses), fl.DurationS, startLosses)
	}
	w, _ := stretch(fl.Losses[startLosses/2], fl.Losses[startLosses-1], 1)
	return math.Max(w, 1), nil
}

// stretch is the mean window (packets) and throughput (bit/s) between two loss records.
func stretch(a, b model.LossRecord, mssBytes float64) (cwnd, bps float64) {
	dt := b.TS - a.TS
	if !(dt > 0) {
		return 0, 0
	}
	return (b.CwndTimePktS - a.CwndTimePktS) / dt, (b.DeliveredPkts - a.DeliveredPkts) * mssBytes * 8 / dt
}

// nearestDelivered is the index of flow 0's loss record whose delivered count is nearest
// to d, or -1 when the records end before d.
func nearestDelivered(ls []model.LossRecord, d float64) int {
	best := -1
	for i, l := range ls {
		if l.Flow != 0 {
			continue
		}
		if best < 0 || math.Abs(l.DeliveredPkts-d) < math.Abs(ls[best].DeliveredPkts-d) {
			best = i
		}
		if l.DeliveredPkts > d {
			return best
		}
	}
	return -1
}

// ci95 is the half width of the 95% confidence interval of the mean of xs (Student t).
func ci95(xs []float64) float64 {
	_, sd := stat.MeanStdDev(xs, nil)
	n := float64(len(xs))
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * sd / math.Sqrt(n)
}
