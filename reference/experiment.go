// Package reference runs tcpfluid's experiments in the simulators researchers trust,
// ns-2.35 (Agent/TCP/Linux) and ns-3.37, and reads their results back: typed experiment
// descriptions, emitters of an ns-2 Tcl script and an ns-3 C++ program (text/template files
// embedded in the package), runners that find or build the simulator, parsers of their
// output into one Measurement, and the map from tcpfluid's algorithms to each simulator's
// module. Nothing here needs a simulator to be installed except Run, which returns an error
// wrapping ErrNoSimulator when it is missing. docs/simulators.md has what was measured.
package reference

import (
	"cmp"
	"errors"
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
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
	// KindScenario (scenario.go): a one-link tcpfluid scenario with its queue discipline.
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
	InitialCwnd    int     `json:"initial_cwnd"`     // packets; 0: the simulator's default (InitialCwndOf)
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
	// Fairness: mode (same, rtt, friendliness), measured from MeasureFromS to the end.
	Mode         string  `json:"mode,omitempty"`
	MeasureFromS float64 `json:"measure_from_s,omitempty"`
	// Params are ns-2 set_ca_param values: Params["cubic"]["beta"] = 717.
	Params map[string]map[string]int `json:"params,omitempty"`
	// Scenario experiments (scenario.go): the tcpfluid scenario's name, the bottleneck's
	// queue disc, whether the senders negotiate ECN, whether SACK is off, and the send
	// buffer in bytes (0: 1 GiB, as the other experiments have it).
	Scenario    string     `json:"scenario,omitempty"`
	Queue       *QueueDisc `json:"queue,omitempty"`
	ECN         bool       `json:"ecn,omitempty"`
	NoSACK      bool       `json:"no_sack,omitempty"`
	SndBufBytes int        `json:"snd_buf_bytes,omitempty"`
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
	case KindResponse, KindConverge, KindFairness, KindScenario:
	default:
		return bad("kind %q, want response, converge, fairness or scenario", e.Kind)
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
		MSSBytes: s.MSSBytes, HeaderBytes: NS2HeaderBytes, RwndPkts: 100000000,
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
	// The BDP in packets on the wire, payload and header (PipePkts): what a window must
	// hold to fill the link.
	bdp := s.BandwidthBps * s.RTTS / (8 * (s.MSSBytes + NS2HeaderBytes))
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
		Flows: []Flow{{Algorithm: s.Algorithm}}, MSSBytes: s.MSSBytes, HeaderBytes: NS2HeaderBytes,
		RwndPkts: int(math.Ceil(100 * bdp)), InitialSsthPkt: int(math.Round(bdp)), Seed: s.Seed,
		// Slow start to the BDP sends about 2 BDP packets: the drop comes as it ends, and
		// the sender sees it one round trip later.
		DropPacket: int(math.Round(2 * bdp)),
		DurationS:  s.DurationS, TickS: s.RTTS, Params: s.Params,
	}
	return e, e.Validate()
}

// WireHeaderBytes is what simulator sim puts on the wire around each payload: the
// experiment's HeaderBytes in ns-2 (and with no simulator), NS3WireHeaderBytes in ns-3.
func (e *Experiment) WireHeaderBytes(sim string) float64 {
	if sim == NS3 {
		return NS3WireHeaderBytes
	}
	return e.HeaderBytes
}

// PipePkts is the single link's bandwidth-delay product in simulator sim's packets,
// payload and header: the window that fills the link, which a converge run's window must
// come back to. A 1500-byte payload with ns-2's 50-byte header makes it 3.2% less than
// the payload's BDP — and Vegas, which holds α to β packets above the pipe, never reaches
// the payload's BDP at all.
func (e *Experiment) PipePkts(sim string) float64 {
	return e.BandwidthBps * 2 * e.DelayS / (8 * (e.MSSBytes + e.WireHeaderBytes(sim)))
}

// PayloadBps is the single link's payload rate in simulator sim, bit/s: tcpfluid's link of
// this rate, whose packets are the payload alone, holds PipePkts(sim) packets a round trip.
func (e *Experiment) PayloadBps(sim string) float64 {
	return e.BandwidthBps * e.MSSBytes / (e.MSSBytes + e.WireHeaderBytes(sim))
}

// FairnessSpec is a fairness experiment on seed 000's dumbbell, exactly as `tcpfluid
// fairness` runs it (response.FairnessSettings.Scenario): access 200 Mb/s 10 ms,
// bottleneck 100 Mb/s 100 ms, 1-BDP drop-tail buffers, MSS 1460 bytes with ns-2's 50-byte
// header (40 + the timestamp option), SACK.
type FairnessSpec struct {
	Mode         string    // same (default), rtt, friendliness
	Algorithm    string    // the tested algorithm
	Flows        int       // same mode; default 3
	StartGapS    float64   // same mode; default 10 s (the CLI's)
	RTTsS        []float64 // rtt mode; default 50, 75, 100 ms
	Against      string    // friendliness mode; default reno
	AgainstFlows int       // default 4
	BufferBDP    float64   // the bottleneck's buffer in BDPs; default 1
	DurationS    float64   // default 1000 s
	MeasureFromS float64   // default half the duration
	Seed         uint64
	JitterS      float64 // ns-2 overhead_; default 0
	// InitialCwndPkts is every sender's first window, packets; default 1, tcpfluid's (the
	// simulators' own defaults are ns-2's 2 and ns-3's 10).
	InitialCwndPkts float64
	Params          map[string]map[string]int
}

// NS2HeaderBytes is what ns-2's TCP/Linux puts around each payload: a 40-byte TCP/IP
// header and the 10-byte timestamp option.
const NS2HeaderBytes = 50

// Fairness experiment constants: the packets ns-2's TCP/Linux sends (packetSize_ 1460 and
// its header) and its receiver window (window_).
const (
	FairnessMSSBytes    = 1460
	FairnessHeaderBytes = NS2HeaderBytes
	FairnessRwndPkts    = 1000000
)

// FairnessSettings is what tcpfluid runs for the fairness experiment s: the settings of
// `tcpfluid fairness --mode MODE` with the spec's flows, the simulators' 50-byte header
// and SACK. The packet engine takes the spec's jitter; the fluid has none.
func FairnessSettings(s FairnessSpec) response.FairnessSettings {
	if s.Mode == "" {
		s.Mode = response.ModeSame
	}
	if s.StartGapS == 0 && s.Mode == response.ModeSame {
		s.StartGapS = 10
	}
	return response.FairnessSettings{Mode: s.Mode, Algorithms: []string{s.Algorithm}, Flows: s.Flows, StartGapS: s.StartGapS,
		RTTsS: s.RTTsS, Against: s.Against, AgainstFlows: s.AgainstFlows, BufferBDP: s.BufferBDP, DurationS: s.DurationS, MeasureFromS: s.MeasureFromS,
		MSSBytes: FairnessMSSBytes, HeaderBytes: FairnessHeaderBytes, SACK: true, Seed: s.Seed, InitialCwndPkts: s.InitialCwndPkts}
}

// Fairness builds the dumbbell experiment of tcpfluid's fairness scenario for s
// (response.FairnessSettings.Scenario): the same links, delays, buffers in packets, flows
// and starts.
func Fairness(s FairnessSpec) (*Experiment, error) {
	fs := FairnessSettings(s)
	sc, err := fs.Scenario(s.Algorithm)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrExperiment, err)
	}
	e, err := DumbbellOf(sc)
	if err != nil {
		return nil, err
	}
	e.Name = fmt.Sprintf("fairness-%s-%s", fs.Mode, s.Algorithm)
	if against, n := cmp.Or(fs.Against, "reno"), cmp.Or(fs.AgainstFlows, 4); fs.Mode == response.ModeFriendliness && (against != "reno" || n != 4) {
		e.Name += fmt.Sprintf("-vs-%s%d", against, n)
	}
	if fs.BufferBDP != 0 && fs.BufferBDP != 1 {
		e.Name += fmt.Sprintf("-buffer%gbdp", fs.BufferBDP)
	}
	e.Mode, e.Seed, e.JitterS, e.Params = fs.Mode, s.Seed, s.JitterS, s.Params
	e.MeasureFromS = fs.MeasureFromS
	if e.MeasureFromS == 0 {
		e.MeasureFromS = e.DurationS / 2
	}
	e.TickS = e.DurationS / 30
	return e, e.Validate()
}

// DumbbellOf is the fairness experiment of a validated tcpfluid fairness scenario
// (response.FairnessSettings.Scenario): links "bottleneck" (R1 → R2), "access-out"
// (R2 → receiver) and one access link per flow, every flow's path access, bottleneck,
// access-out. A zero delay (the rtt mode's access-out) becomes 1 µs, the simulators' least.
func DumbbellOf(sc *model.Scenario) (*Experiment, error) {
	bad := func(f string, a ...any) error {
		return fmt.Errorf("%w: scenario %q is not a fairness dumbbell: %s", ErrExperiment, sc.Name, fmt.Sprintf(f, a...))
	}
	bi, oi := sc.LinkIndex("bottleneck"), sc.LinkIndex("access-out")
	if bi < 0 || oi < 0 || len(sc.Flows) == 0 {
		return nil, bad("want links bottleneck and access-out and at least one flow")
	}
	bn, out := sc.Links[bi], sc.Links[oi]
	// ns-2 and ns-3 links need a positive delay; one microsecond stands for none.
	atLeast := func(d float64) float64 { return math.Max(d, 1e-6) }
	e := &Experiment{
		Kind: KindFairness, Name: sc.Name, Topology: TopoDumbbell,
		BandwidthBps: bn.CapacityBps, DelayS: atLeast(bn.DelayS), BufferPkts: int(bn.BufferPkts),
		OutBps: out.CapacityBps, OutDelayS: atLeast(out.DelayS), OutBufferPkts: int(out.BufferPkts),
		MSSBytes: sc.Flows[0].MSSBytes, HeaderBytes: FairnessHeaderBytes, RwndPkts: FairnessRwndPkts, InitialCwnd: int(sc.Flows[0].InitialCwnd),
		DurationS: sc.DurationS,
	}
	for i, f := range sc.Flows {
		p := sc.PathIndex(f.Path)
		links := sc.PathLinks(p)
		if p < 0 || len(links) != 3 || links[1] != bi || links[2] != oi {
			return nil, bad("flow %d's path %q is not access, bottleneck, access-out", i, f.Path)
		}
		acc := sc.Links[links[0]]
		if i == 0 {
			e.AccessBps = acc.CapacityBps
		} else if acc.CapacityBps != e.AccessBps {
			return nil, bad("access links of %v and %v bit/s: the experiment has one access rate", e.AccessBps, acc.CapacityBps)
		}
		if f.MSSBytes != e.MSSBytes {
			return nil, bad("flows of %v and %v bytes: the experiment has one packet size", e.MSSBytes, f.MSSBytes)
		}
		switch w := f.InitialCwnd; {
		case w != math.Trunc(w):
			return nil, bad("flow %d's initial window %v packets: the simulators start with whole packets", i, w)
		case w != sc.Flows[0].InitialCwnd:
			return nil, bad("initial windows of %v and %v packets: the experiment has one", sc.Flows[0].InitialCwnd, w)
		}
		e.Flows = append(e.Flows, Flow{Algorithm: f.Algorithm, StartS: f.StartS, AccessDelayS: atLeast(acc.DelayS),
			AccessBufferPkts: int(acc.BufferPkts)})
	}
	return e, nil
}
