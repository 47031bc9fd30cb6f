package response

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tcpfluid/tcpfluid/model"
)

// FairnessExperiment states the experiment a fairness result ran, as another simulator
// would need it to run the same: the dumbbell with every buffer in packets, each flow's
// access link, start and round trip, the packets on the wire and the engine.
type FairnessExperiment struct {
	Engine string `json:"engine"`
	// Form is the fluid engine's form (none for the packet engine).
	Form string `json:"form,omitempty"`
	// MSSBytes is each packet's payload and HeaderBytes its TCP/IP header on the wire, bytes.
	MSSBytes    float64 `json:"mss_bytes"`
	HeaderBytes float64 `json:"header_bytes"`
	// RwndPkts is the receiver window, packets of MSSBytes (2^30 bytes: window scaling).
	RwndPkts float64 `json:"rwnd_pkts"`
	// InitialCwndPkts is every sender's first window, packets.
	InitialCwndPkts float64 `json:"initial_cwnd_pkts"`
	// The bottleneck R1 → R2 and the shared link R2 → receiver: rate bit/s, one-way delay
	// s, drop-tail buffer in packets.
	BottleneckBps        float64        `json:"bottleneck_bps"`
	BottleneckDelayS     float64        `json:"bottleneck_delay_s"`
	BottleneckBufferPkts float64        `json:"bottleneck_buffer_pkts"`
	OutBps               float64        `json:"out_bps"`
	OutDelayS            float64        `json:"out_delay_s"`
	OutBufferPkts        float64        `json:"out_buffer_pkts"`
	Flows                []FairnessFlow `json:"flows"`
	DurationS            float64        `json:"duration_s"`
	MeasureFromS         float64        `json:"measure_from_s"`
	DropRule             model.DropRule `json:"drop_rule"`
	LossP                float64        `json:"loss_p"`
	SACK                 bool           `json:"sack"`
	// JitterS is the senders' jitter, s (the packet engine's, or the one the fluid's
	// counted form counts ACKs for).
	JitterS float64 `json:"jitter_s"`
	// Seeds are the seeds the result is the mean over, when there are several.
	Seeds []uint64 `json:"seeds,omitempty"`
}

// FairnessFlow is one flow of a fairness experiment: its access link sender → R1 (rate
// bit/s, one-way delay s, buffer packets), its start, s, and its round-trip propagation
// time, s.
type FairnessFlow struct {
	Algorithm        string  `json:"algorithm"`
	StartS           float64 `json:"start_s"`
	AccessBps        float64 `json:"access_bps"`
	AccessDelayS     float64 `json:"access_delay_s"`
	AccessBufferPkts float64 `json:"access_buffer_pkts"`
	RTTS             float64 `json:"rtt_s"`
}

// describe states the validated scenario sc as a FairnessExperiment: links 0 and 1 are
// the bottleneck and the shared link to the receiver, link 2 + i flow i's access link
// (scenario).
func (s *FairnessSettings) describe(sc *model.Scenario) FairnessExperiment {
	bn, out := sc.Links[0], sc.Links[1]
	e := FairnessExperiment{Engine: s.Engine, Form: s.Form, MSSBytes: s.MSSBytes, HeaderBytes: s.HeaderBytes,
		BottleneckBps: bn.CapacityBps, BottleneckDelayS: bn.DelayS, BottleneckBufferPkts: bn.BufferPkts,
		OutBps: out.CapacityBps, OutDelayS: out.DelayS, OutBufferPkts: out.BufferPkts,
		DurationS: s.DurationS, MeasureFromS: s.MeasureFromS, DropRule: sc.DropRule, LossP: s.LossP,
		SACK: s.SACK, JitterS: s.JitterS, Seeds: s.severalSeeds()}
	if len(sc.Flows) > 0 {
		e.RwndPkts, e.InitialCwndPkts = sc.FlowRwndPkts(0), sc.Flows[0].InitialCwnd
	}
	for i, f := range sc.Flows {
		acc := sc.Links[2+i]
		e.Flows = append(e.Flows, FairnessFlow{Algorithm: f.Algorithm, StartS: f.StartS, AccessBps: acc.CapacityBps,
			AccessDelayS: acc.DelayS, AccessBufferPkts: acc.BufferPkts, RTTS: sc.PathRTTS(sc.PathIndex(f.Path))})
	}
	return e
}

// Spread is a quantity over seeds: mean, sample standard deviation (0 for one seed),
// minimum, maximum and the number of seeds.
type Spread struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	N    int     `json:"n"`
}

// SpreadOf summarises xs; the zero Spread for none.
func SpreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := Spread{Min: math.Inf(1), Max: math.Inf(-1), N: len(xs)}
	s.Mean, s.SD = stat.MeanStdDev(xs, nil)
	if len(xs) < 2 {
		s.SD = 0
	}
	for _, x := range xs {
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	return s
}

// DiffCI95 is the half-width of the 95% confidence interval of s.Mean − o.Mean, each a mean
// over its own seeds (Welch's t: the two variances of the means, the Welch–Satterthwaite
// degrees of freedom); 0 when neither varies, as one seed does not.
func (s Spread) DiffCI95(o Spread) float64 {
	var v, den float64 // the difference's variance, and Welch–Satterthwaite's denominator
	for _, x := range []Spread{s, o} {
		if w := x.meanVariance(); w > 0 {
			v += w
			den += w * w / float64(x.N-1)
		}
	}
	if !(v > 0) {
		return 0
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: v * v / den}.Quantile(0.975) * math.Sqrt(v)
}

// meanVariance is the variance of the mean over the seeds, 0 with fewer than two.
func (s Spread) meanVariance() float64 {
	if s.N < 2 {
		return 0
	}
	return s.SD * s.SD / float64(s.N)
}

// SeedSpread is a fairness run over several seeds: Jain's index and each flow's fraction
// of the bottleneck.
type SeedSpread struct {
	Seeds  []uint64 `json:"seeds"`
	Jain   Spread   `json:"jain"`
	Shares []Spread `json:"shares"`
	// LossEvents and Timeouts are each flow's counts over the whole run.
	LossEvents []Spread `json:"loss_events"`
	Timeouts   []Spread `json:"timeouts"`
}

func spreadOver(seeds []uint64, runs []FairnessResult) *SeedSpread {
	out := &SeedSpread{Seeds: seeds}
	jain := make([]float64, len(runs))
	for k, r := range runs {
		jain[k] = r.Jain
	}
	out.Jain = SpreadOf(jain)
	over := func(i int, of func(Share) float64) Spread {
		xs := make([]float64, len(runs))
		for k, r := range runs {
			xs[k] = of(r.Shares[i])
		}
		return SpreadOf(xs)
	}
	for i := range runs[0].Shares {
		out.Shares = append(out.Shares, over(i, func(s Share) float64 { return s.Fraction }))
		out.LossEvents = append(out.LossEvents, over(i, func(s Share) float64 { return float64(s.LossEvents) }))
		out.Timeouts = append(out.Timeouts, over(i, func(s Share) float64 { return float64(s.Timeouts) }))
	}
	return out
}

// JainMean is Jain's index over the seeds when there are several, else the run's.
func (r *FairnessResult) JainMean() float64 {
	if r.OverSeeds != nil {
		return r.OverSeeds.Jain.Mean
	}
	return r.Jain
}

// ShareMeans are the flows' fractions of the bottleneck over the seeds when there are
// several, else the run's.
func (r *FairnessResult) ShareMeans() []float64 {
	out := make([]float64, len(r.Shares))
	for i, sh := range r.Shares {
		out[i] = sh.Fraction
		if r.OverSeeds != nil {
			out[i] = r.OverSeeds.Shares[i].Mean
		}
	}
	return out
}

// LossMeans are each flow's loss events and timeouts over the whole run, means over the
// seeds when there are several.
func (r *FairnessResult) LossMeans() (losses, timeouts []float64) {
	if r.OverSeeds != nil {
		return r.OverSeeds.CountMeans()
	}
	for _, sh := range r.Shares {
		losses, timeouts = append(losses, float64(sh.LossEvents)), append(timeouts, float64(sh.Timeouts))
	}
	return losses, timeouts
}

// CountMeans are each flow's mean loss events and timeouts over the seeds.
func (s *SeedSpread) CountMeans() (losses, timeouts []float64) {
	for i := range s.LossEvents {
		losses, timeouts = append(losses, s.LossEvents[i].Mean), append(timeouts, s.Timeouts[i].Mean)
	}
	return losses, timeouts
}

// FairnessReference is a simulator's measurement of a fairness experiment beside
// tcpfluid's: its Jain index and shares over its seeds, and the differences tcpfluid −
// simulator of the means (Jain, and each flow's fraction of the bottleneck).
type FairnessReference struct {
	Simulator string `json:"simulator"` // ns2
	Source    string `json:"source"`    // the stored file, testdata/reference/ns2/fairness-MODE-ALGO.json
	// Module is what the simulator ran for the tested algorithm (ns-2's select_ca name).
	Module string `json:"module"`
	// SeedSpread is the simulator's over its seeds: Jain's index, each flow's share, and
	// each flow's loss events and timeouts over the whole runs (where they differ from
	// tcpfluid's, the shares usually do for that reason).
	SeedSpread
	// JainDiff and ShareDiffs are tcpfluid's means − the simulator's; MaxShareDiff the
	// largest |ShareDiffs|.
	JainDiff     float64   `json:"jain_diff"`
	ShareDiffs   []float64 `json:"share_diffs"`
	MaxShareDiff float64   `json:"max_share_diff"`
	// Tolerance is the agreement asked of Jain's index and every share, as a difference of
	// means; Verdict is "within" when |JainDiff| and MaxShareDiff are both at most it, else
	// "outside".
	Tolerance float64 `json:"tolerance"`
	Verdict   string  `json:"verdict"`
	// JainDiffCI95 and ShareDiffsCI95 are the half-widths of the differences' 95% intervals
	// from the two spreads over seeds (Spread.DiffCI95). Decided reports whether the seeds
	// decide Verdict: "within" when every interval lies within Tolerance, "outside" when
	// one lies wholly beyond it; undecided, more seeds of either side would.
	JainDiffCI95   float64   `json:"jain_diff_ci95"`
	ShareDiffsCI95 []float64 `json:"share_diffs_ci95"`
	Decided        bool      `json:"decided"`
	// Differences lists where the simulator's experiment is not tcpfluid's (header bytes,
	// jitter, receiver window, SACK, ...): the comparison holds the topology equal, not these.
	Differences []string `json:"differences,omitempty"`
}
