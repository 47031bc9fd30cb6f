package reference

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tcpfluid/tcpfluid/response"
)

// Batches is the number of batch means of a response point's confidence interval.
const Batches = 10

// ResponseStats is a response point as one engine measured it.
type ResponseStats struct {
	MeanCwndPkts float64 `json:"mean_cwnd_pkts"` // time average over whole loss cycles, packets
	CI95Pkts     float64 `json:"ci95_pkts"`      // half width, batch means (10 batches, Student t)
	GoodputBps   float64 `json:"goodput_bps"`    // acknowledged payload over the stretch, bit/s
	LossEvents   int     `json:"loss_events"`    // window reductions in the stretch
	MeasuredS    float64 `json:"measured_s"`     // simulated seconds of the stretch
	// PktsPerLossEvent is acknowledged packets per reduction over the stretch (1/p when every
	// loss cost its own reduction).
	PktsPerLossEvent float64 `json:"pkts_per_loss_event"`
	WarmupLosses     int     `json:"warmup_losses"`
}

// ConvergeStats is the converge experiment as a simulator ran it.
type ConvergeStats struct {
	BDPPkts        float64 `json:"bdp_pkts"`
	FirstLossS     float64 `json:"first_loss_s"`      // since the flow started
	CwndAtLossPkts float64 `json:"cwnd_at_loss_pkts"` // the window when the first loss was detected
	MinAfterPkts   float64 `json:"min_after_pkts"`    // the smallest window between it and the return
	// RecoveryS is from the first loss until the window is back at the BDP after falling
	// below it; nil when it never came back within the run (or never fell below).
	RecoveryS *float64 `json:"recovery_s"`
	// BackS is RecoveryS measured from the start of the run.
	BackS    *float64 `json:"back_s"`
	Timeouts int      `json:"timeouts"`
}

// ShareStats is one flow's part of a fairness run.
type ShareStats struct {
	Flow          int     `json:"flow"`
	Algorithm     string  `json:"algorithm"`
	RTTS          float64 `json:"rtt_s"`
	ThroughputBps float64 `json:"throughput_bps"`
	Fraction      float64 `json:"fraction"` // of the bottleneck capacity
	LossEvents    int     `json:"loss_events"`
	Timeouts      int     `json:"timeouts"`
}

// FairnessStats is a fairness run as tcpfluid's fairness command measures it: shares of
// the bottleneck from MeasureFromS to the end and Jain's index of the throughputs.
type FairnessStats struct {
	Jain        float64      `json:"jain"`
	MeasureS    [2]float64   `json:"measure_s"`
	Shares      []ShareStats `json:"shares"`
	Utilisation float64      `json:"utilisation"`
}

// Measurement is one simulator run of one experiment, measured.
type Measurement struct {
	Simulator  string         `json:"simulator"`
	Version    string         `json:"version"`
	Experiment string         `json:"experiment"`
	Kind       string         `json:"kind"`
	Algorithm  string         `json:"algorithm"`
	Module     string         `json:"module"`
	Seed       uint64         `json:"seed"`
	WallS      float64        `json:"wall_s"`
	SimulatedS float64        `json:"simulated_s"`
	SentPkts   float64        `json:"sent_pkts"`
	DropPkts   float64        `json:"dropped_pkts"`
	Reductions int            `json:"loss_events"` // whole run, every flow
	Timeouts   int            `json:"timeouts"`
	Recovery   string         `json:"recovery,omitempty"`
	Response   *ResponseStats `json:"response,omitempty"`
	Converge   *ConvergeStats `json:"converge,omitempty"`
	Fairness   *FairnessStats `json:"fairness,omitempty"`
	Scenario   *ScenarioStats `json:"scenario,omitempty"`
	// Spec is the experiment as it was run (Run sets it), so that a point can be re-run.
	Spec *Experiment `json:"spec,omitempty"`
}

// LossRate is the loss per packet the run realized, its packets dropped over those sent,
// or 0 when it reports neither. A run's losses fall short of p or beyond it by chance,
// and a mean window moves with them as p^−d: the stored ns-2 seed 1 dropped 0.943–0.950·p
// at 1e-3 for every algorithm (they share its random stream), which lifted its windows
// 2.7% (Reno) to 5.9% (Scalable) above those of seeds 2 and 3, whose windows agree with
// seed 1's within 1% once each is taken at its own rate. A response point is therefore
// judged against tcpfluid at the loss rate the simulator realized (Row.FluidAtLoss).
func (m *Measurement) LossRate() float64 {
	if !(m.SentPkts > 0) || !(m.DropPkts >= 0) {
		return 0
	}
	return m.DropPkts / m.SentPkts
}

// PooledLossRate is the loss per packet over every run of ms together (the seeds of one
// point), or 0 when none reports it.
func PooledLossRate(ms []*Measurement) float64 {
	var sent, dropped float64
	for _, m := range ms {
		if m.LossRate() > 0 {
			sent, dropped = sent+m.SentPkts, dropped+m.DropPkts
		}
	}
	if !(sent > 0) {
		return 0
	}
	return dropped / sent
}

// Measure turns a parsed run of experiment e into its Measurement.
func Measure(e *Experiment, r *Run) (*Measurement, error) {
	if len(r.Flows) != len(e.Flows) {
		return nil, fmt.Errorf("%w: %s reported %d flows, the experiment has %d", ErrRun, r.Simulator, len(r.Flows), len(e.Flows))
	}
	m := &Measurement{Simulator: r.Simulator, Experiment: e.Name, Kind: e.Kind, Algorithm: e.Flows[0].Algorithm,
		Module: r.Flows[0].Module, Seed: e.Seed, DropPkts: r.Drops, Recovery: r.Config["recovery"]}
	m.Version = r.Config["ns2_version"]
	if r.Simulator == NS3 {
		m.Version = r.Config["ns3_version"]
	}
	for _, f := range r.Flows {
		m.SimulatedS = math.Max(m.SimulatedS, f.EndS)
		m.SentPkts += f.SentPkts
		m.Reductions += f.Reductions
		m.Timeouts += f.Timeouts
	}
	var err error
	switch e.Kind {
	case KindResponse:
		m.Response, err = responseStats(r.Flows[0].Losses, e.WarmupLosses, e.MSSBytes)
	case KindConverge:
		m.Converge = convergeStats(e, r.Simulator, r.Flows[0])
	case KindFairness:
		m.Fairness, err = fairnessStats(e, r)
	case KindScenario:
		m.Scenario, err = scenarioStats(e, r)
	}
	return m, err
}

// responseStats measures whole loss cycles: from the first record whose index passes the
// warm-up to the last record, with Batches batch means for the confidence interval.
func responseStats(ls []LossRecord, warmup int, mss float64) (*ResponseStats, error) {
	first := -1
	for i, l := range ls {
		if l.Index > warmup {
			first = i
			break
		}
	}
	last := len(ls) - 1
	if first < 0 || last-first < Batches {
		return nil, fmt.Errorf("%w: %d loss records, %d after the %d warm-up loss events: too few to measure", ErrRun, len(ls), last-first, warmup)
	}
	a, b := ls[first], ls[last]
	dt := b.TS - a.TS
	s := &ResponseStats{
		MeanCwndPkts: (b.CwndTimePktS - a.CwndTimePktS) / dt,
		GoodputBps:   (b.AckedPkts - a.AckedPkts) * mss * 8 / dt,
		LossEvents:   b.Index - a.Index,
		MeasuredS:    dt,
		WarmupLosses: warmup,
	}
	if s.LossEvents > 0 {
		s.PktsPerLossEvent = (b.AckedPkts - a.AckedPkts) / float64(s.LossEvents)
	}
	n := last - first
	means := make([]float64, Batches)
	for k := 0; k < Batches; k++ {
		i0, i1 := first+k*n/Batches, first+(k+1)*n/Batches
		means[k] = (ls[i1].CwndTimePktS - ls[i0].CwndTimePktS) / (ls[i1].TS - ls[i0].TS)
	}
	_, sd := stat.MeanStdDev(means, nil)
	s.CI95Pkts = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: Batches - 1}.Quantile(0.975) * sd / math.Sqrt(Batches)
	return s, nil
}

func convergeStats(e *Experiment, sim string, f FlowRun) *ConvergeStats {
	c := &ConvergeStats{BDPPkts: e.PipePkts(sim), FirstLossS: f.FirstLossS - e.Flows[0].StartS,
		CwndAtLossPkts: f.CwndAtLossPkts, MinAfterPkts: f.MinAfterPkts, Timeouts: f.Timeouts}
	if !math.IsNaN(f.BackS) && !math.IsNaN(f.FirstLossS) {
		rec, back := f.BackS-f.FirstLossS, f.BackS-e.Flows[0].StartS
		c.RecoveryS, c.BackS = &rec, &back
	}
	return c
}

// fairnessStats takes each flow's acknowledged packets at the samples nearest to
// MeasureFromS and to the end.
func fairnessStats(e *Experiment, r *Run) (*FairnessStats, error) {
	fs := &FairnessStats{}
	var rates []float64
	total := 0.0
	for i, f := range r.Flows {
		if len(f.Samples) < 2 {
			return nil, fmt.Errorf("%w: flow %d has %d samples", ErrRun, i, len(f.Samples))
		}
		a := nearest(f.Samples, e.MeasureFromS)
		b := f.Samples[len(f.Samples)-1]
		dt := b.TS - a.TS
		if !(dt > 0) {
			return nil, fmt.Errorf("%w: flow %d: empty measurement interval", ErrRun, i)
		}
		fs.MeasureS = [2]float64{a.TS, b.TS}
		rate := (b.AckedPkts - a.AckedPkts) * e.MSSBytes * 8 / dt
		rates = append(rates, rate)
		total += rate
		fs.Shares = append(fs.Shares, ShareStats{Flow: i, Algorithm: e.Flows[i].Algorithm, RTTS: e.RTTS(i),
			ThroughputBps: rate, Fraction: rate / e.BandwidthBps, LossEvents: f.Reductions, Timeouts: f.Timeouts})
	}
	fs.Jain = Jain(rates)
	fs.Utilisation = total / e.BandwidthBps
	return fs, nil
}

func nearest(ss []Sample, t float64) Sample {
	best := ss[0]
	for _, s := range ss {
		if math.Abs(s.TS-t) < math.Abs(best.TS-t) {
			best = s
		}
	}
	return best
}

// Jain is Jain's fairness index (Σx)² / (n·Σx²).
func Jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return 0
	}
	return s * s / (float64(len(xs)) * s2)
}

// Spread is the mean of values over seeds with their sample standard deviation, minimum
// and maximum (response.Spread, the same JSON).
type Spread = response.Spread

// SpreadOf summarises xs.
func SpreadOf(xs []float64) Spread { return response.SpreadOf(xs) }

// FairnessSummary is a fairness experiment over several seeds: Jain's index and each
// flow's fraction of the bottleneck, mean and spread.
type FairnessSummary struct {
	// SeedSpread: Jain's index, each flow's share, and each flow's loss events and
	// timeouts over its whole runs.
	response.SeedSpread
	WallS float64 `json:"wall_s"` // all seeds together
}

// SummarizeFairness summarises fairness measurements of one experiment over seeds.
func SummarizeFairness(ms []*Measurement) *FairnessSummary {
	if len(ms) == 0 || ms[0].Fairness == nil {
		return nil
	}
	s := &FairnessSummary{}
	var jain []float64
	n := len(ms[0].Fairness.Shares)
	shares, losses, timeouts := make([][]float64, n), make([][]float64, n), make([][]float64, n)
	for _, m := range ms {
		if m.Fairness == nil {
			continue
		}
		s.Seeds = append(s.Seeds, m.Seed)
		s.WallS += m.WallS
		jain = append(jain, m.Fairness.Jain)
		for i, sh := range m.Fairness.Shares {
			if i < n {
				shares[i] = append(shares[i], sh.Fraction)
				losses[i] = append(losses[i], float64(sh.LossEvents))
				timeouts[i] = append(timeouts[i], float64(sh.Timeouts))
			}
		}
	}
	s.Jain = SpreadOf(jain)
	for i := range n {
		s.Shares = append(s.Shares, SpreadOf(shares[i]))
		s.LossEvents = append(s.LossEvents, SpreadOf(losses[i]))
		s.Timeouts = append(s.Timeouts, SpreadOf(timeouts[i]))
	}
	return s
}
