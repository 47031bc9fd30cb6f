package validate

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
	"github.com/tcpfluid/tcpfluid/response"
)

// ErrOutOfTolerance is returned (wrapped) by callers that turn a failed validation into an
// error, such as `tcpfluid validate`, which exits with code 1 on it.
var ErrOutOfTolerance = errors.New("fluid and packet engines disagree beyond tolerance")

// Form is the fluid form every validation runs: FormHybridRecovery counts as a
// packet sender does (it holds the window for one round trip after each loss event, as
// fast recovery does, keeps ⌊W⌋ packets in flight and grows per ACK at the window reached
// in the round), so the two engines model the same cycle.
const Form = fluid.FormHybridRecovery

// Report is the side-by-side comparison of the engines; its JSON is
// `tcpfluid validate --format json`.
type Report struct {
	Scenario string     `json:"scenario,omitempty"`
	Point    *PointSpec `json:"point,omitempty"`
	Form     string     `json:"form"`
	DropRule string     `json:"drop_rule,omitempty"`
	Seed     uint64     `json:"seed"`
	Metrics  []Metric   `json:"metrics"`
	OK       bool       `json:"ok"`
	// Notes say what the engines did that the metrics alone do not show, such as packet
	// senders' retransmission timeouts, which the fluid laws do not model.
	Notes []string `json:"notes,omitempty"`
	// Headline says what the scenario's headline metrics are and why (Headlines).
	Headline string `json:"headline,omitempty"`
	// SACK and JitterS are the packet engine's settings besides the seed (Validate).
	SACK    bool `json:"sack,omitempty"`
	sackWhy string
	JitterS float64 `json:"jitter_s,omitempty"`
	// Groups is the number of independent groups of flows Validate ran one at a time.
	Groups int `json:"groups,omitempty"`
	// Fluid and Packet are the engines' results (for a point: over the whole run,
	// warm-up included).
	Fluid  *model.Result `json:"-"`
	Packet *model.Result `json:"-"`
}

// Failed lists the gating metrics out of tolerance (not the informational ones).
func (v *Report) Failed() []Metric {
	var out []Metric
	for _, m := range v.Metrics {
		if !m.OK && !m.Informational {
			out = append(out, m)
		}
	}
	return out
}

// add appends a metric and updates the verdict.
func (v *Report) add(m Metric) {
	v.Metrics = append(v.Metrics, m)
	v.OK = v.OK && (m.OK || m.Informational)
}

// Scenario runs a validated scenario in both engines with the same seed (the fluid in
// Form) and compares, per flow (per subflow of a multi-path flow), the mean
// window, the mean throughput and the loss events; per congested link the mean queue, and
// per link the utilisation; and Jain's index over the flows when there are several
// (the generic metrics, tolerances Tol*). A scenario with a headline (Headlines, by
// scenario name) adds the quantities its source reports, within TolHeadline.
//
// Flows that share no link with each other are separate experiments, and each group runs
// alone in both engines (results merged back in scenario order): alone, the group's first
// flow draws its random losses from the stream the fluid engine uses (packet.Settings),
// so both engines see the same losses and their difference is the models', not the noise
// of two loss sequences (seed000-colo-random-loss: four such groups). With the
// proportional drop rule the packet senders get jitter of two packet times at the slowest
// link (packet.Settings.JitterS), without which a drop-tail queue's phase effect, not
// random drops in proportion to arrivals, decides which flow loses at an overflow.
//
// The Report's OK is false when a gating metric is out of tolerance. With a headline,
// the generic metrics of a flow whose packet sender timed out, and of the links it
// crosses, inform but do not gate: the fluid laws model at most Reno's timeout at a second
// loss in a window it repairs, not when a packet sender's timer fires, its backoff and the
// go-back-N that follows, which move the mean window and queue far more than the data
// delivered; what the timeouts cost is what the headline measures. The error is for runs
// that failed.
func Scenario(ctx context.Context, sc *model.Scenario, seed uint64) (*Report, error) {
	set := packet.Settings{Seed: seed}
	hl, haveHeadline := HeadlineOf(sc.Name)
	if haveHeadline {
		set.SACK = hl.SACK
	}
	if sc.DropRule == model.DropProportional {
		set.JitterS = phaseJitterS(sc)
	}
	groups := independentGroups(sc)
	var fl, pk *model.Result
	for _, g := range groups {
		sub := g.scenario(sc)
		f, err := fluid.Run(ctx, sub, fluid.Settings{Seed: seed, Form: Form})
		if err != nil {
			return nil, fmt.Errorf("fluid engine: %w", err)
		}
		p, err := packet.Run(ctx, sub, set)
		if err != nil {
			return nil, fmt.Errorf("packet engine: %w", err)
		}
		fl, pk = g.merge(sc, fl, f), g.merge(sc, pk, p)
	}
	sortResult(fl)
	sortResult(pk)
	v := &Report{Scenario: sc.Name, Form: Form, DropRule: string(fl.DropRule), Seed: seed, OK: true, Fluid: fl, Packet: pk,
		SACK: set.SACK, sackWhy: hl.SACKWhy, JitterS: set.JitterS, Groups: len(groups)}
	if len(fl.Flows) != len(pk.Flows) {
		return nil, fmt.Errorf("%w: the fluid engine has %d flow rows, the packet engine %d", model.ErrEngine, len(fl.Flows), len(pk.Flows))
	}
	// informs: rows whose packet sender timed out, and the links they cross (only with a
	// headline, which then carries the comparison).
	informs := make([]bool, len(fl.Flows))
	informLink := map[string]bool{}
	for r := range fl.Flows {
		if haveHeadline && pk.Flows[r].Timeouts > 0 {
			informs[r] = true
			for _, l := range sc.Paths[sc.PathIndex(fl.Flows[r].Path)].Links {
				informLink[l] = true
			}
		}
	}
	var fx, px []float64
	for r := range fl.Flows {
		f, p := fl.Flows[r], pk.Flows[r]
		for _, m := range []Metric{
			Compare("mean_cwnd_pkts", f.MeanCwndPkts, p.MeanCwndPkts, 1, TolCwnd),
			Compare("mean_throughput_bps", f.MeanThroughputBps, p.MeanThroughputBps, 0, TolThroughput),
			Compare("loss_events", float64(f.LossEvents), float64(p.LossEvents), 1, TolLossEvents),
		} {
			m.SetRow(sc, f)
			m.Informational = informs[r]
			v.add(m)
		}
		fx = append(fx, f.MeanThroughputBps)
		px = append(px, p.MeanThroughputBps)
	}
	for i, l := range sc.Links {
		f, p := fl.Links[i], pk.Links[i]
		if congested(f) || congested(p) {
			m := Compare("mean_queue_pkts", f.MeanQueuePkts, p.MeanQueuePkts, 1, TolQueue)
			m.Link, m.Informational = l.Name, informLink[l.Name]
			v.add(m)
		}
		m := Compare("utilisation", f.Utilisation, p.Utilisation, 0, utilisationTolerance(f, p))
		m.Link, m.Informational = l.Name, informLink[l.Name]
		v.add(m)
	}
	if len(fl.Flows) > 1 {
		m := Compare("jain", response.Jain(fx), response.Jain(px), 0, TolJain)
		m.Informational = len(informLink) > 0
		v.add(m)
	}
	if haveHeadline {
		v.Headline = hl.About
		for _, m := range hl.Metrics(sc, fl, pk) {
			m.Headline = true
			v.add(m)
		}
	}
	v.notes(sc, haveHeadline, informs)
	return v, nil
}

// notes explains timeouts, headers, groups, SACK, jitter and informational metrics.
func (v *Report) notes(sc *model.Scenario, haveHeadline bool, informs []bool) {
	if v.Groups > 1 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d groups of flows share no link: each ran alone in both engines, with common random numbers", v.Groups))
	}
	if v.SACK {
		v.Notes = append(v.Notes, "packet senders use SACK recovery (packet.Settings.SACK): "+v.sackWhy)
	}
	if v.JitterS > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("drop rule proportional: packet senders hold each packet a further U(0, %.3g ms), two packet times at the slowest link, against drop-tail phase effects", 1e3*v.JitterS))
	}
	for r, f := range v.Packet.Flows {
		if n := f.Timeouts; n > 0 || v.Fluid.Flows[r].Timeouts > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("%s: the packet sender timed out %d time(s) in %d loss events, the fluid %d time(s)",
				rowName(f), n, f.LossEvents, v.Fluid.Flows[r].Timeouts))
		}
	}
	for i, f := range sc.Flows {
		if f.HeaderBytes > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("flow %d (%s): %g header bytes per packet on the wire in the packet engine; the fluid engine sends MSS-byte packets",
				i, f.Name, f.HeaderBytes))
		}
	}
	for r, in := range informs {
		if in {
			v.Notes = append(v.Notes, fmt.Sprintf("%s: the packet sender timed out, so its generic metrics and its links' inform and the headline decides", rowName(v.Packet.Flows[r])))
		}
	}
	if haveHeadline {
		v.Notes = append(v.Notes, "headline: "+v.Headline)
	}
}

// rowName names a result row: "flow 0 (name)".
func rowName(f model.FlowResult) string { return fmt.Sprintf("flow %d (%s)", f.Flow, f.Name) }

// phaseJitterS is two packet times, s, of the largest packet any TCP flow puts on the
// wire at the slowest link: the sender jitter Validate gives packet senders under the
// proportional drop rule. One packet time (Floyd and Jacobson's) still leaves seed 001's
// MPTCP subflow on path 2 three times its share of a 400 s run; two remove the phase
// effect, and more (1 ms, 2 ms) change the shares no further.
func phaseJitterS(sc *model.Scenario) float64 {
	var bytes float64
	for _, f := range sc.Flows {
		bytes = math.Max(bytes, f.MSSBytes+f.HeaderBytes)
	}
	slowest := math.Inf(1)
	for _, l := range sc.Links {
		slowest = math.Min(slowest, l.CapacityBps)
	}
	if !(slowest > 0) || math.IsInf(slowest, 1) {
		return 0
	}
	return 2 * bytes * 8 / slowest
}
