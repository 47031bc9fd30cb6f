// Package reference runs tcpfluid's experiments in the simulators researchers trust,
// ns-2.35 (Agent/TCP/Linux) and ns-3.37, and reads their results back: typed experiment
// descriptions, emitters of an ns-2 Tcl script and an ns-3 C++ program (text/template files
// embedded in the package), runners that find or build the simulator, parsers of their
// output into one Measurement, and the map from tcpfluid's algorithms to each simulator's
// module. Nothing here needs a simulator to be installed except Run, which returns an error
// wrapping ErrNoSimulator when it is missing. docs/simulators.md has what was measured.
package reference

import (
	"errors"
	"fmt"
	"math"
)

var (
	// ErrNoSimulator is wrapped by Run when the simulator (ns for ns-2; g++ with ns-3's
	// headers and libraries for ns-3) is not installed.
	ErrNoSimulator = errors.New("simulator not installed")
	// ErrUnsupported is wrapped when a simulator has no module for an algorithm.
	ErrUnsupported = errors.New("algorithm not in simulator")
	// ErrExperiment is wrapped by every error about an experiment's description.
	ErrExperiment = errors.New("invalid reference experiment")
	// ErrRun is wrapped when a simulator ran but its output cannot be measured.
	ErrRun = errors.New("simulator run failed")
)

// Experiment kinds.
const (
	KindResponse = "response" // one flow, uniform random loss, whole loss cycles measured
	KindConverge = "converge" // one flow from slow start: first loss, time back to the BDP
	KindFairness = "fairness" // N flows on seed 000's dumbbell
)

// Topologies.
const (
	TopoSingle   = "single"   // sender -> receiver over one link
	TopoDumbbell = "dumbbell" // sender_i -> R1 -> R2 -> receiver
)

// Flow is one TCP flow of an experiment.
type Flow struct {
	Algorithm string  `json:"algorithm"` // tcpfluid's name (or a simulator-only module's)
	StartS    float64 `json:"start_s"`
	// AccessDelayS and AccessBufferPkts are the flow's access link (dumbbell only): one-way
	// delay in seconds, drop-tail buffer in packets.
	AccessDelayS     float64 `json:"access_delay_s,omitempty"`
	AccessBufferPkts int     `json:"access_buffer_pkts,omitempty"`
}

// Experiment is one reference experiment, described once for every engine.
type Experiment struct {
	Kind     string `json:"kind"`
	Name     string `json:"name"`
	Topology string `json:"topology"`
	// Single link (response, converge): rate in bit/s, one-way delay in s, buffer in
	// packets. Dumbbell: the bottleneck R1 -> R2.
	BandwidthBps float64 `json:"bandwidth_bps"`
	DelayS       float64 `json:"delay_s"`
	BufferPkts   int     `json:"buffer_pkts"`
	// LossP is the uniform loss probability of each data packet on the single link or the
	// bottleneck (per packet, forward direction only; ACKs are never lost). 0: none.
	LossP float64 `json:"loss_p,omitempty"`
	// DropPacket > 0 drops that one data packet (counting from 0) on the single link: the
	// converge experiment's loss at W ≈ BDP.
	DropPacket int `json:"drop_packet,omitempty"`
	// Dumbbell only: the access links' rate and R2 -> receiver.
	AccessBps      float64 `json:"access_bps,omitempty"`
	OutBps         float64 `json:"out_bps,omitempty"`
	OutDelayS      float64 `json:"out_delay_s,omitempty"`
	OutBufferPkts  int     `json:"out_buffer_pkts,omitempty"`
	Flows          []Flow  `json:"flows"`
	MSSBytes       float64 `json:"mss_bytes"`
	HeaderBytes    float64 `json:"header_bytes"`     // TCP/IP header, bytes (ns-2: 40 + 10 of timestamp option)
	RwndPkts       int     `json:"rwnd_pkts"`        // receiver window, packets (ns-2 window_)
	InitialCwnd    int     `json:"initial_cwnd"`     // packets; 0: the simulator's default (ns-2 2, ns-3 10)
	InitialSsthPkt int     `json:"initial_ssthresh"` // packets; 0: the simulator's default (unlimited)
	Seed           uint64  `json:"seed"`
	// JitterS is ns-2's overhead_: each send waits a uniform random time in [0, JitterS]
	// (against drop-tail phase effects). ns-3 has no such knob.
	JitterS float64 `json:"jitter_s,omitempty"`
	// WarmupLosses loss events are discarded; StopLosses stops the run when one flow has
	// had that many (0: run for DurationS).
	WarmupLosses int     `json:"warmup_losses,omitempty"`
	StopLosses   int     `json:"stop_losses,omitempty"`
	DurationS    float64 `json:"duration_s"`
	// TickS is how often the ns-2 script records its counters (and the dumbbell samples).
	TickS float64 `json:"tick_s"`
	// WatchPkts is the converge experiment's BDP: the window to come back to.
	WatchPkts float64 `json:"watch_pkts,omitempty"`
	// Fairness: mode (same, rtt, friendliness), measured from MeasureFromS to the end.
	Mode         string  `json:"mode,omitempty"`
	MeasureFromS float64 `json:"measure_from_s,omitempty"`
	// Params are ns-2 set_ca_param values: Params["cubic"]["beta"] = 717.
	Params map[string]map[string]int `json:"params,omitempty"`
}

// RTTS is the round-trip propagation time of flow i, s.
func (e *Experiment) RTTS(i int) float64 {
	if e.Topology == TopoSingle {
		return 2 * e.DelayS
	}
	return 2 * (e.Flows[i].AccessDelayS + e.DelayS + e.OutDelayS)
}

// Validate checks the description.
func (e *Experiment) Validate() error {
	bad := func(f string, a ...any) error { return fmt.Errorf("%w: %s", ErrExperiment, fmt.Sprintf(f, a...)) }
	switch e.Kind {
	case KindResponse, KindConverge, KindFairness:
	default:
		return bad("kind %q, want response, converge or fairness", e.Kind)
	}
	if e.Topology != TopoSingle && e.Topology != TopoDumbbell {
		return bad("topology %q, want single or dumbbell", e.Topology)
	}
	if len(e.Flows) == 0 || (e.Topology == TopoSingle && len(e.Flows) != 1) {
		return bad("%d flows: a single link carries one, a dumbbell at least one", len(e.Flows))
	}
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return bad("%s %v, want > 0", name, v)
		}
		return nil
	}
	for _, c := range []struct {
		n string
		v float64
	}{{"bandwidth", e.BandwidthBps}, {"delay", e.DelayS}, {"mss", e.MSSBytes}, {"duration", e.DurationS}, {"tick", e.TickS}} {
		if err := pos(c.n, c.v); err != nil {
			return err
		}
	}
	if e.BufferPkts < 1 || e.RwndPkts < 1 {
		return bad("buffer %d, rwnd %d packets: want >= 1", e.BufferPkts, e.RwndPkts)
	}
	if !(e.LossP >= 0 && e.LossP < 1) {
		return bad("loss p %v, want 0 <= p < 1", e.LossP)
	}
	if e.Topology == TopoDumbbell {
		if err := pos("access rate", e.AccessBps); err != nil {
			return err
		}
		if err := pos("out rate", e.OutBps); err != nil {
			return err
		}
		for i, f := range e.Flows {
			if f.AccessDelayS < 0 || f.AccessBufferPkts < 1 || f.StartS < 0 {
				return bad("flow %d: access delay %v s, buffer %d packets, start %v s", i, f.AccessDelayS, f.AccessBufferPkts, f.StartS)
			}
		}
	}
	if e.JitterS < 0 || e.WarmupLosses < 0 || e.StopLosses < 0 {
		return bad("jitter %v s, warm-up %d, stop %d: want >= 0", e.JitterS, e.WarmupLosses, e.StopLosses)
	}
	if e.Kind == KindResponse && e.StopLosses <= e.WarmupLosses {
		return bad("a response point stops after %d loss events, want more than its %d warm-up", e.StopLosses, e.WarmupLosses)
	}
	return nil
}

// ResponseSpec is one response point: one long-lived flow alone on a path so fast that it
// never queues, with uniform random loss p on data packets.
type ResponseSpec struct {
	Algorithm string
	P         float64 // per packet
	RTTS      float64 // default 0.1
	MSSBytes  float64 // default 1460
	// StartPkts caps the initial slow start (ns-2 max_ssthresh_, ns-3 InitialSlowStartThreshold)
	// near the expected mean window, so that the warm-up is short; 0: no cap.
	StartPkts    float64
	WarmupLosses int // default 20
	Losses       int // measured loss events; default DefaultLosses(P)
	Seed         uint64
	Params       map[string]map[string]int
}

// DefaultLosses is the measured loss-event count of a response point at loss rate p: as
// many as 2·10^7 packets hold (a minute of ns-2 at 4·10^5 packets/s), between 60 and 2000.
func DefaultLosses(p float64) int {
	return int(math.Max(60, math.Min(2000, math.Round(2e7*p))))
}

// Response builds a response-point experiment. The link runs at 10 Gb/s (no queue ever
// forms at the windows reached here: it would need W > 10^5 packets) with an unlimited buffer.
func Response(s ResponseSpec) (*Experiment, error) {
	if s.RTTS == 0 {
		s.RTTS = 0.1
	}
	if s.MSSBytes == 0 {
		s.MSSBytes = 1460
	}
	if s.WarmupLosses == 0 {
		s.WarmupLosses = 20
	}
	if s.Losses == 0 {
		s.Losses = DefaultLosses(s.P)
	}
	if !(s.P > 0 && s.P < 1) {
		return nil, fmt.Errorf("%w: loss rate p = %v, want 0 < p < 1", ErrExperiment, s.P)
	}
	total := s.WarmupLosses + s.Losses
	e := &Experiment{
		Kind: KindResponse, Name: fmt.Sprintf("response-%s-p%g", s.Algorithm, s.P), Topology: TopoSingle,
		BandwidthBps: 10e9, DelayS: s.RTTS / 2, BufferPkts: 10000000, LossP: s.P,
		Flows:    []Flow{{Algorithm: s.Algorithm}},
		MSSBytes: s.MSSBytes, HeaderBytes: 50, RwndPkts: 100000000,
		InitialSsthPkt: int(math.Round(s.StartPkts)), Seed: s.Seed,
		WarmupLosses: s.WarmupLosses, StopLosses: total + 1,
		// One loss event per 1/p packets at one window of at least one packet per RTT,
		// with room for merged losses and timeouts: a bound, the loss count ends the run.
		DurationS: float64(total+1) * 4 * s.RTTS / s.P,
		TickS:     s.RTTS, Params: s.Params,
	}
	return e, e.Validate()
}

// ConvergeSpec is the converge experiment: one flow slow-starts from the simulator's own
// initial window to ssthresh = BDP on a link of BandwidthBps with a one-BDP drop-tail
// buffer (so nothing queues while W <= BDP), loses one packet as slow start ends (detected one round trip into
// congestion avoidance (W ≈ BDP), and runs until its window is back at the BDP (a second
// later the run stops). This is
// tcpfluid's converge recovery (a loss at W = BDP, time back to the BDP) with the
// simulator's own slow start, loss detection and recovery. (Without the injected loss a
// one-BDP buffer overflows only at W ≈ 2 BDP in slow start, detected a round trip later at
// up to 4 BDP: ns-2's CUBIC never falls back below the BDP at 100 Mb/s.)
type ConvergeSpec struct {
	Algorithm    string
	BandwidthBps float64 // default 1 Gb/s
	RTTS         float64 // default 0.1
	MSSBytes     float64 // default 1500
	Seed         uint64
	// DurationS bounds the run; default 30 s + 1.2·BDP round trips (Vegas: 2.5·BDP).
	DurationS float64
	Params    map[string]map[string]int
}

// Converge builds a converge experiment.
func Converge(s ConvergeSpec) (*Experiment, error) {
	if s.BandwidthBps == 0 {
		s.BandwidthBps = 1e9
	}
	if s.RTTS == 0 {
		s.RTTS = 0.1
	}
	if s.MSSBytes == 0 {
		s.MSSBytes = 1500
	}
	bdp := s.BandwidthBps * s.RTTS / (8 * s.MSSBytes)
	if s.DurationS == 0 {
		s.DurationS = 30 + 1.2*bdp*s.RTTS
		if s.Algorithm == "vegas" {
			// ns-2's Vegas grows one packet per two round trips (or slower): at least BDP
			// round trips from BDP/2.
			s.DurationS = 30 + 2.5*bdp*s.RTTS
		}
	}
	e := &Experiment{
		Kind: KindConverge, Name: fmt.Sprintf("converge-%s-%gbps", s.Algorithm, s.BandwidthBps), Topology: TopoSingle,
		BandwidthBps: s.BandwidthBps, DelayS: s.RTTS / 2, BufferPkts: int(math.Ceil(bdp)),
		Flows: []Flow{{Algorithm: s.Algorithm}}, MSSBytes: s.MSSBytes, HeaderBytes: 50,
		RwndPkts: int(math.Ceil(100 * bdp)), InitialSsthPkt: int(math.Round(bdp)), Seed: s.Seed,
		// Slow start to the BDP sends about 2 BDP packets: the drop comes as it ends, and
		// the sender sees it one round trip later.
		DropPacket: int(math.Round(2 * bdp)),
		DurationS:  s.DurationS, TickS: s.RTTS, WatchPkts: bdp, Params: s.Params,
	}
	return e, e.Validate()
}

// FairnessSpec is a fairness experiment on seed 000's dumbbell, as `tcpfluid fairness`
// builds it (response.FairnessSettings): access 200 Mb/s 10 ms, bottleneck 100 Mb/s
// 100 ms, 1-BDP drop-tail buffers, MSS 1460 bytes.
type FairnessSpec struct {
	Mode         string    // same (default), rtt, friendliness
	Algorithm    string    // the tested algorithm
	Flows        int       // same mode; default 3
	StartGapS    float64   // same mode; default 10 s (the CLI's)
	RTTsS        []float64 // rtt mode; default 50, 75, 100 ms
	Against      string    // friendliness mode; default reno
	AgainstFlows int       // default 4
	DurationS    float64   // default 1000 s
	MeasureFromS float64   // default half the duration
	Seed         uint64
	JitterS      float64 // ns-2 overhead_; default 0
	Params       map[string]map[string]int
}

// Fairness builds a dumbbell experiment with the topology of response.FairnessSettings.
func Fairness(s FairnessSpec) (*Experiment, error) {
	if s.Mode == "" {
		s.Mode = "same"
	}
	if s.Flows == 0 {
		s.Flows = 3
	}
	if s.StartGapS == 0 && s.Mode == "same" {
		s.StartGapS = 10
	}
	if len(s.RTTsS) == 0 {
		s.RTTsS = []float64{0.05, 0.075, 0.1}
	}
	if s.Against == "" {
		s.Against = "reno"
	}
	if s.AgainstFlows == 0 {
		s.AgainstFlows = 4
	}
	if s.DurationS == 0 {
		s.DurationS = 1000
	}
	if s.MeasureFromS == 0 {
		s.MeasureFromS = s.DurationS / 2
	}
	const (
		accessBps, accessDelay = 200e6, 0.01
		bottleBps, bottleDelay = 100e6, 0.1
		mss                    = 1460
	)
	e := &Experiment{
		Kind: KindFairness, Name: fmt.Sprintf("fairness-%s-%s", s.Mode, s.Algorithm), Topology: TopoDumbbell,
		BandwidthBps: bottleBps, DelayS: bottleDelay, AccessBps: accessBps, OutBps: accessBps, OutDelayS: accessDelay,
		MSSBytes: mss, HeaderBytes: 50, RwndPkts: 1000000, Seed: s.Seed, JitterS: s.JitterS,
		DurationS: s.DurationS, MeasureFromS: s.MeasureFromS, TickS: s.DurationS / 30, Mode: s.Mode, Params: s.Params,
	}
	// Buffers as tcpfluid resolves BufferBDP: capacity × the RTT of the link's slowest
	// path / (8 × MSS), rounded up.
	bdpPkts := func(bps, rtt float64) int { return int(math.Ceil(bps * rtt / (8 * mss))) }
	addFlow := func(algo string, access, start float64) {
		e.Flows = append(e.Flows, Flow{Algorithm: algo, StartS: start, AccessDelayS: access})
	}
	switch s.Mode {
	case "same":
		for i := 0; i < s.Flows; i++ {
			addFlow(s.Algorithm, accessDelay, float64(i)*s.StartGapS)
		}
	case "rtt":
		minRTT := math.Inf(1)
		for _, r := range s.RTTsS {
			minRTT = math.Min(minRTT, r)
		}
		e.DelayS, e.OutDelayS = minRTT/4, 0
		for _, r := range s.RTTsS {
			addFlow(s.Algorithm, r/2-minRTT/4, 0)
		}
	case "friendliness":
		addFlow(s.Algorithm, accessDelay, 0)
		for i := 0; i < s.AgainstFlows; i++ {
			addFlow(s.Against, accessDelay, 0)
		}
	default:
		return nil, fmt.Errorf("%w: mode %q, want same, rtt or friendliness", ErrExperiment, s.Mode)
	}
	maxRTT := 0.0
	for i := range e.Flows {
		maxRTT = math.Max(maxRTT, e.RTTS(i))
	}
	e.BufferPkts = bdpPkts(bottleBps, maxRTT)
	e.OutBufferPkts = bdpPkts(accessBps, maxRTT)
	if e.OutDelayS == 0 {
		// ns-2 and ns-3 links need a positive delay; one microsecond stands for none.
		e.OutDelayS = 1e-6
	}
	for i := range e.Flows {
		e.Flows[i].AccessBufferPkts = bdpPkts(accessBps, e.RTTS(i))
	}
	return e, e.Validate()
}
