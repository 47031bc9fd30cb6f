package response

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/internal/settings"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// Fairness modes.
const (
	ModeSame         = "same"         // N flows of one algorithm, staggered starts
	ModeRTT          = "rtt"          // one flow per RTT
	ModeFriendliness = "friendliness" // one flow against N flows of another algorithm
)

// FairnessSettings configures Fairness. Zero fields take the documented defaults; the
// topology defaults to seed 000's dumbbell: access 200 Mb/s 10 ms, bottleneck 100 Mb/s
// 100 ms (one way), buffer 1 BDP, MSS 1460 bytes.
type FairnessSettings struct {
	Mode       string   // same (default), rtt or friendliness
	Algorithms []string // default ["reno"]; one result each
	Flows      int      // same mode: flows; default 3
	// StartGapS staggers the starts in every mode: flow i starts at i·StartGapS, s (the
	// rtt mode's flows in the order of RTTsS, the friendliness mode's tested flow first);
	// default 0 (the CLI's: 10 s in the same mode).
	StartGapS float64
	// RTTsS are the rtt mode's round-trip propagation times, s; default 50, 75, 100 ms.
	// Each flow gets its own access link, whose one-way delay makes up the rest of its
	// flow's RTT after the bottleneck's (BottleneckDelayS; in the rtt mode it defaults to
	// a quarter of the smallest RTT, and may be at most half of it); the link to the
	// receiver has none, and AccessDelayS is not used.
	RTTsS []float64
	// Against and AgainstFlows: the friendliness mode's competitors; default reno, 4.
	Against      string
	AgainstFlows int

	AccessBps, AccessDelayS         float64 // default 200 Mb/s, 10 ms
	BottleneckBps, BottleneckDelayS float64 // default 100 Mb/s, 100 ms
	BufferBDP                       float64 // default 1
	// BufferPkts is the bottleneck's buffer in packets instead, when > 0 (BufferBDP is then
	// not used).
	BufferPkts float64
	MSSBytes   float64 // payload per packet, bytes; default 1460
	// RwndBytes is every receiver's window, bytes (window scaling on); default 2^30.
	RwndBytes float64
	// HeaderBytes is the TCP/IP header every packet carries on the wire on top of its
	// payload, bytes (model.Flow.HeaderBytes); default 0, the MSS is the whole packet.
	// ns-2.35's TCP/Linux with timestamps sends 50 (40 + a 10-byte option): the shares
	// are of payload, so a header takes 50/1510 = 3.3% of the bottleneck from every flow.
	HeaderBytes float64
	// SACK gives every sender selective acknowledgements (model.Scenario.SACK), as ns-2's
	// TCP/Linux and ns-3's senders have; default off.
	SACK bool
	// InitialCwndPkts is every sender's first window, packets (model.Flow.InitialCwnd);
	// default 1, ns-2's windowInit_ (ns-3's TcpSocket starts at 10).
	InitialCwndPkts float64
	LossP           float64 // random loss on the bottleneck; default 0
	DropRule        model.DropRule
	// Engine runs the scenario in tcpfluid's fluid engine (EngineFluid, the default) or
	// its packet engine (EnginePacket).
	Engine string
	// Form is the fluid engine's form: fluid.FormHybrid (the default) or
	// fluid.FormHybridRecovery, counted as a packet sender counts; the packet engine has none.
	Form string
	// JitterS is the senders' jitter (ns-2's overhead_): in the packet engine each data
	// packet waits a further U(0, JitterS) s, and the linux variants' senders wait as
	// ns-2's delayed send does (packet.Settings.JitterS); in the fluid's
	// counted form the replicas of ns-2's TCP/Linux count the ACKs such a sender counts
	// (fluid.Settings.SendJitterS); default 0.
	JitterS float64
	// Seeds runs every algorithm once per seed and adds the mean and spread over them
	// (FairnessResult.OverSeeds); default [Seed].
	Seeds     []uint64
	DurationS float64 // default 1000 s
	// MeasureFromS starts the measurement of the run's Jain index and shares; default:
	// half the duration (after convergence).
	MeasureFromS float64
	// WindowS is the length of the windows of the Jain series; default DurationS/30.
	WindowS float64
	Params  map[string]map[string]float64
	Seed    uint64
	Workers int
}

// Engines of Fairness.
const (
	EngineFluid  = "fluid"  // package fluid, the hybrid form
	EnginePacket = "packet" // package packet
)

// Share is one flow's part of the bottleneck over the measurement interval.
type Share struct {
	Flow          int     `json:"flow"`
	Algorithm     string  `json:"algorithm"`
	RTTS          float64 `json:"rtt_s"`
	ThroughputBps float64 `json:"throughput_bps"`
	Fraction      float64 `json:"fraction"` // of the bottleneck capacity
	// LossEvents (window reductions, timeouts among them) and Timeouts count the whole
	// run, as the simulators' stored runs do.
	LossEvents int `json:"loss_events"`
	Timeouts   int `json:"timeouts"`
}

// JainPoint is Jain's index over one window ending at TS.
type JainPoint struct {
	TS   float64 `json:"t_s"`
	Jain float64 `json:"jain"`
}

// FairnessResult is one algorithm's fairness run.
type FairnessResult struct {
	Algorithm  string      `json:"algorithm"`
	Flows      int         `json:"flows"`
	Jain       float64     `json:"jain"`
	MeasureS   [2]float64  `json:"measure_s"`
	JainSeries []JainPoint `json:"jain_series"`
	Shares     []Share     `json:"shares"`
	// RTTExponent is e in throughput ∝ RTT^−e fitted over the shares (rtt mode);
	// synchronized Reno gives 2 (docs/references.md "Fairness").
	RTTExponent *float64 `json:"rtt_unfairness_exponent,omitempty"`
	RTTExpR2    *float64 `json:"rtt_unfairness_r2,omitempty"`
	// AlgorithmShare is the tested flow's fraction of the bottleneck (friendliness mode).
	AlgorithmShare *float64 `json:"algorithm_share,omitempty"`
	Utilisation    float64  `json:"utilisation"`
	LossEvents     int      `json:"loss_events"`
	// Experiment is the scenario this result ran, as built (buffers in packets).
	Experiment FairnessExperiment `json:"experiment"`
	// OverSeeds is the mean and spread over FairnessSettings.Seeds when there are several;
	// the fields above are the first seed's run.
	OverSeeds *SeedSpread `json:"over_seeds,omitempty"`
	// Reference is a simulator's measurement of the same experiment beside this one, when
	// the caller has one (reference.CompareFairness fills it from the stored ns-2 set).
	Reference *FairnessReference `json:"reference,omitempty"`

	mode string // the run's mode, for the JSON (MarshalJSON)
}

// FairnessReport is the JSON of `tcpfluid fairness`.
type FairnessReport struct {
	Mode      string         `json:"mode"`
	LossModel string         `json:"loss_model"`
	DropRule  model.DropRule `json:"drop_rule"`
	Form      string         `json:"form,omitempty"` // the fluid form; none for the packet engine
	Engine    string         `json:"engine"`
	// Seeds are the seeds run when there were several (FairnessSettings.Seeds); a
	// single-seed report, as before there was a choice, names none.
	Seeds   []uint64         `json:"seeds,omitempty"`
	Results []FairnessResult `json:"results"`
	// Notes say why a result has no Reference when a caller compared them
	// (reference.CompareFairness).
	Notes []string `json:"notes,omitempty"`
}

func (s *FairnessSettings) defaults() error {
	switch s.Mode {
	case "":
		s.Mode = ModeSame
	case ModeSame, ModeRTT, ModeFriendliness:
	default:
		return fmt.Errorf("%w: mode %q, want same, rtt or friendliness", model.ErrSettings, s.Mode)
	}
	if len(s.Algorithms) == 0 {
		s.Algorithms = []string{"reno"}
	}
	if s.Flows == 0 {
		s.Flows = 3
	}
	if s.Flows < 1 || s.Flows > 10000 {
		return fmt.Errorf("%w: flows %d, want 1 to 10000", model.ErrSettings, s.Flows)
	}
	if len(s.RTTsS) == 0 {
		s.RTTsS = []float64{0.05, 0.075, 0.1}
	}
	for _, r := range s.RTTsS {
		if !(r > 0) || math.IsInf(r, 0) {
			return fmt.Errorf("%w: rtt %v s, want > 0", model.ErrSettings, r)
		}
	}
	if s.Against == "" {
		s.Against = "reno"
	}
	if s.AgainstFlows == 0 {
		s.AgainstFlows = 4
	}
	if s.AgainstFlows < 1 {
		return fmt.Errorf("%w: against flows %d, want >= 1", model.ErrSettings, s.AgainstFlows)
	}
	settings.Default(&s.AccessBps, 200e6)
	settings.Default(&s.AccessDelayS, 0.01)
	settings.Default(&s.BottleneckBps, 100e6)
	if s.Mode == ModeRTT {
		least := slices.Min(s.RTTsS)
		settings.Default(&s.BottleneckDelayS, least/4)
		if s.BottleneckDelayS > least/2 {
			return fmt.Errorf("%w: bottleneck delay %v s in the rtt mode, want at most half the smallest RTT (%v s): each access link makes up the rest of its RTT",
				model.ErrSettings, s.BottleneckDelayS, least)
		}
	}
	settings.Default(&s.BottleneckDelayS, 0.1)
	settings.Default(&s.BufferBDP, 1)
	settings.Default(&s.RwndBytes, model.DefaultScaledRwndBytes)
	settings.Default(&s.InitialCwndPkts, model.DefaultInitialCwnd)
	for _, q := range []struct {
		name, unit string
		v          float64
		ok         bool
	}{
		{"access rate", "bit/s", s.AccessBps, s.AccessBps > 0},
		{"access delay", "s", s.AccessDelayS, s.AccessDelayS > 0},
		{"bottleneck rate", "bit/s", s.BottleneckBps, s.BottleneckBps > 0},
		{"bottleneck delay", "s", s.BottleneckDelayS, s.BottleneckDelayS > 0},
		{"buffer", "bdp", s.BufferBDP, s.BufferBDP > 0},
		{"buffer", "packets", s.BufferPkts, s.BufferPkts >= 0},
		{"receiver window", "bytes", s.RwndBytes, s.RwndBytes > 0 && s.RwndBytes <= model.DefaultScaledRwndBytes},
		{"initial window", "packets", s.InitialCwndPkts, s.InitialCwndPkts >= 1},
	} {
		if !q.ok || math.IsInf(q.v, 0) {
			return fmt.Errorf("%w: %s %v %s, want a finite value > 0 (0: the default; a receiver window at most 2^30 bytes, an initial window at least 1 packet)", model.ErrSettings, q.name, q.v, q.unit)
		}
	}
	if !(s.LossP >= 0 && s.LossP < 1) {
		return fmt.Errorf("%w: loss rate p = %v, want 0 <= p < 1 (0: none)", model.ErrSettings, s.LossP)
	}
	settings.Default(&s.DurationS, 1000)
	if !(s.DurationS > 0) || math.IsInf(s.DurationS, 0) {
		return fmt.Errorf("%w: duration %v s, want > 0", model.ErrSettings, s.DurationS)
	}
	settings.Default(&s.MeasureFromS, s.DurationS/2)
	if !(s.MeasureFromS >= 0 && s.MeasureFromS < s.DurationS) {
		return fmt.Errorf("%w: measure-from %v s, want in [0, duration %v s)", model.ErrSettings, s.MeasureFromS, s.DurationS)
	}
	settings.Default(&s.WindowS, s.DurationS/30)
	// Shares are measured between the samples (every WindowS) nearest to MeasureFromS and
	// to the end: two windows at least keep them apart.
	if span := s.DurationS - s.MeasureFromS; !(s.WindowS > 0 && s.WindowS <= span/2) {
		return fmt.Errorf("%w: window %v s, want > 0 and at most half the measured %v s (duration %v s from %v s), so that the measurement spans two windows",
			model.ErrSettings, s.WindowS, span, s.DurationS, s.MeasureFromS)
	}
	if s.StartGapS < 0 || math.IsNaN(s.StartGapS) || math.IsInf(s.StartGapS, 0) {
		return fmt.Errorf("%w: start gap %v s, want >= 0", model.ErrSettings, s.StartGapS)
	}
	if err := settings.MSS(&s.MSSBytes); err != nil {
		return err
	}
	if !(s.HeaderBytes >= 0) || math.IsInf(s.HeaderBytes, 0) {
		return fmt.Errorf("%w: header %v bytes, want a finite value >= 0", model.ErrSettings, s.HeaderBytes)
	}
	switch s.Engine {
	case "":
		s.Engine = EngineFluid
	case EngineFluid, EnginePacket:
	default:
		return fmt.Errorf("%w: engine %q, want %s or %s", model.ErrSettings, s.Engine, EngineFluid, EnginePacket)
	}
	if !(s.JitterS >= 0) || math.IsInf(s.JitterS, 0) {
		return fmt.Errorf("%w: jitter %v s, want a finite value >= 0", model.ErrSettings, s.JitterS)
	}
	switch {
	case s.Form == "" && s.Engine == EngineFluid:
		s.Form = fluid.FormHybrid
	case s.Form != "" && s.Engine == EnginePacket:
		return fmt.Errorf("%w: form %q with engine %s: the packet engine has no forms", model.ErrSettings, s.Form, s.Engine)
	case s.Engine == EngineFluid && s.Form != fluid.FormHybrid && s.Form != fluid.FormHybridRecovery:
		return fmt.Errorf("%w: form %q, want %s or %s", model.ErrSettings, s.Form, fluid.FormHybrid, fluid.FormHybridRecovery)
	}
	if s.JitterS > 0 && s.Engine == EngineFluid && s.Form != fluid.FormHybridRecovery {
		return fmt.Errorf("%w: jitter %v s with engine %s in form %s: only the packet engine and the fluid's %s form count a jittered sender's packets",
			model.ErrSettings, s.JitterS, s.Engine, s.Form, fluid.FormHybridRecovery)
	}
	if len(s.Seeds) == 0 {
		s.Seeds = []uint64{s.Seed}
	}
	return settings.Workers(&s.Workers)
}

// Fairness runs the chosen mode for every algorithm on the dumbbell, once per seed.
func Fairness(ctx context.Context, s FairnessSettings) (*FairnessReport, error) {
	if err := s.defaults(); err != nil {
		return nil, err
	}
	scs := make([]*model.Scenario, len(s.Algorithms))
	for i, algo := range s.Algorithms {
		sc, err := s.scenario(algo)
		if err != nil {
			return nil, err
		}
		scs[i] = sc
	}
	ns := len(s.Seeds)
	runs := make([]FairnessResult, len(s.Algorithms)*ns)
	err := settings.Parallel(ctx, s.Workers, len(runs), func(ctx context.Context, j int) error {
		i := j / ns
		sc := scs[i].Clone()
		res, err := s.run(ctx, sc, s.Seeds[j%ns])
		if err != nil {
			return fmt.Errorf("fairness of %s: %w", s.Algorithms[i], err)
		}
		runs[j] = s.measure(sc, res)
		return nil
	})
	if err != nil {
		return nil, err
	}
	results := make([]FairnessResult, len(s.Algorithms))
	for i := range results {
		results[i] = runs[i*ns]
		results[i].Experiment = s.describe(scs[i])
		if ns > 1 {
			results[i].OverSeeds = spreadOver(s.Seeds, runs[i*ns:(i+1)*ns])
		}
	}
	loss := "droptail"
	if s.LossP > 0 {
		loss = "droptail+random"
	}
	return &FairnessReport{Mode: s.Mode, LossModel: loss, DropRule: scs[0].DropRule, Form: s.Form, Engine: s.Engine,
		Seeds: s.severalSeeds(), Results: results}, nil
}

// severalSeeds is Seeds when there are several, else nil.
func (s *FairnessSettings) severalSeeds() []uint64 {
	if len(s.Seeds) < 2 {
		return nil
	}
	return s.Seeds
}

// run runs one scenario in the settings' engine.
func (s *FairnessSettings) run(ctx context.Context, sc *model.Scenario, seed uint64) (*model.Result, error) {
	if s.Engine == EnginePacket {
		return packet.Run(ctx, sc, packet.Settings{Seed: seed, SampleS: s.WindowS, JitterS: s.JitterS, SACK: s.SACK})
	}
	return fluid.Run(ctx, sc, fluid.Settings{Seed: seed, SampleS: s.WindowS, SACK: s.SACK, Form: s.Form, SendJitterS: s.JitterS})
}

// Scenario is the dumbbell Fairness runs for algo, validated (buffers resolved to
// packets): what a simulator must run to be compared with it (reference.Fairness).
func (s FairnessSettings) Scenario(algo string) (*model.Scenario, error) {
	s.Algorithms = []string{algo}
	if err := s.defaults(); err != nil {
		return nil, err
	}
	return s.scenario(algo)
}

// scenario builds the dumbbell for one algorithm in the chosen mode.
func (s *FairnessSettings) scenario(algo string) (*model.Scenario, error) {
	sc := &model.Scenario{
		Name:      "fairness-" + s.Mode + "-" + algo,
		DurationS: s.DurationS,
		DropRule:  s.DropRule,
		SACK:      s.SACK,
		Links: []model.Link{
			{Name: "bottleneck", CapacityBps: s.BottleneckBps, DelayS: s.BottleneckDelayS, BufferBDP: s.BufferBDP, BufferPkts: s.BufferPkts},
			{Name: "access-out", CapacityBps: s.AccessBps, DelayS: s.AccessDelayS, BufferBDP: 1},
		},
	}
	if s.LossP > 0 {
		sc.Links[0].Loss, sc.Links[0].LossP = model.LossRandom, s.LossP
	}
	if s.BufferPkts > 0 {
		sc.Links[0].BufferBDP = 0
	}
	addFlow := func(algo string, accessDelay float64) {
		i := len(sc.Flows)
		access := fmt.Sprintf("access-in-%d", i)
		path := fmt.Sprintf("p%d", i)
		sc.Links = append(sc.Links, model.Link{Name: access, CapacityBps: s.AccessBps, DelayS: accessDelay, BufferBDP: 1})
		sc.Paths = append(sc.Paths, model.Path{Name: path, Links: []string{access, "bottleneck", "access-out"}})
		sc.Flows = append(sc.Flows, model.Flow{Algorithm: algo, Params: s.Params[algo], Path: path,
			StartS: float64(i) * s.StartGapS, MSSBytes: s.MSSBytes, HeaderBytes: s.HeaderBytes, RwndBytes: s.RwndBytes, WindowScaling: true,
			InitialCwnd: s.InitialCwndPkts})
	}
	switch s.Mode {
	case ModeSame:
		for range s.Flows {
			addFlow(algo, s.AccessDelayS)
		}
	case ModeRTT:
		sc.Links[1].DelayS = 0
		for _, r := range s.RTTsS {
			addFlow(algo, r/2-s.BottleneckDelayS)
		}
	case ModeFriendliness:
		addFlow(algo, s.AccessDelayS)
		for range s.AgainstFlows {
			addFlow(s.Against, s.AccessDelayS)
		}
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", model.ErrSettings, err)
	}
	return sc, nil
}

// measure computes shares over [MeasureFromS, end] and the Jain series from the trace's
// cumulative delivered packets.
func (s *FairnessSettings) measure(sc *model.Scenario, res *model.Result) FairnessResult {
	n := len(sc.Flows)
	// delivered[k][i]: flow i's cumulative delivered packets at sample time k·WindowS.
	var times []float64
	delivered := map[float64][]float64{}
	for _, smp := range res.Trace {
		if smp.Flow < 0 {
			continue
		}
		row, ok := delivered[smp.TS]
		if !ok {
			row = make([]float64, n)
			delivered[smp.TS] = row
			times = append(times, smp.TS)
		}
		row[smp.Flow] = smp.DeliveredPkts
	}
	at := func(t float64) (float64, []float64) {
		// the sample time nearest to t
		best := times[0]
		for _, ts := range times {
			if math.Abs(ts-t) < math.Abs(best-t) {
				best = ts
			}
		}
		return best, delivered[best]
	}
	t0, d0 := at(s.MeasureFromS)
	t1, d1 := at(res.DurationS)
	out := FairnessResult{Algorithm: sc.Flows[0].Algorithm, Flows: n, MeasureS: [2]float64{t0, t1}, mode: s.Mode}
	rates := make([]float64, n)
	lastStart := 0.0
	for i, f := range sc.Flows {
		lastStart = max(lastStart, f.StartS)
		rates[i] = (d1[i] - d0[i]) * f.MSSBytes * 8 / (t1 - t0)
		out.Shares = append(out.Shares, Share{Flow: i, Algorithm: f.Algorithm, RTTS: sc.PathRTTS(sc.PathIndex(f.Path)),
			ThroughputBps: rates[i], Fraction: rates[i] / s.BottleneckBps, LossEvents: res.Flows[i].LossEvents, Timeouts: res.Flows[i].Timeouts})
		out.LossEvents += res.Flows[i].LossEvents
	}
	out.Jain = Jain(rates)
	for k := 1; k < len(times); k++ {
		if times[k-1] < lastStart {
			continue
		}
		w := make([]float64, n)
		for i := range w {
			w[i] = delivered[times[k]][i] - delivered[times[k-1]][i]
		}
		out.JainSeries = append(out.JainSeries, JainPoint{TS: times[k], Jain: Jain(w)})
	}
	out.Utilisation = res.Links[0].Utilisation
	switch s.Mode {
	case ModeRTT:
		rtts := make([]float64, n)
		for i := range rtts {
			rtts[i] = out.Shares[i].RTTS
		}
		// The exponent needs two distinct RTTs; over equal ones it is undefined (nil).
		if e, r2 := fitPower(rtts, rates); n >= 2 && distinct(rtts) && !math.IsNaN(e) && !math.IsInf(e, 0) {
			e = -e
			out.RTTExponent, out.RTTExpR2 = &e, &r2
		}
	case ModeFriendliness:
		out.AlgorithmShare = ptr(out.Shares[0].Fraction)
	}
	return out
}

// distinct reports whether v holds two different values.
func distinct(v []float64) bool {
	for _, x := range v {
		if x != v[0] {
			return true
		}
	}
	return false
}
