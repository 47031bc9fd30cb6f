package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
)

// ErrUnknownAlgorithm is returned (wrapped) by New for a name that is not registered.
var ErrUnknownAlgorithm = errors.New("unknown algorithm")

// ErrParam is returned (wrapped) for an unknown parameter name or a value outside its range.
var ErrParam = errors.New("invalid algorithm parameter")

// Observation is what a flow's controller sees when its law is evaluated, in either face.
// Times are in seconds.
type Observation struct {
	Now     float64 // simulation time, s
	RTT     float64 // current round-trip time (propagation + queueing), s
	BaseRTT float64 // minimum RTT observed so far, s
	// Subflow is the subflow a loss, timeout or ACK concerns: 0 for single-path flows.
	Subflow int
	// Subflows is every subflow's view, for multi-path laws; nil for single-path flows.
	// In the fluid face subflow k's window is x[k]; RTT and BaseRTT above are Subflow's.
	Subflows []SubflowObservation
}

// SubflowObservation is what a multi-path law sees of one subflow.
type SubflowObservation struct {
	RTT     float64 // s
	BaseRTT float64 // s
}

// Multipath is implemented by algorithms that couple the windows of several subflows
// (MPTCP); only they may run a flow over several paths. Their fluid face keeps subflow k's
// window in x[k], and their event face implements MultipathEventLaw.
type Multipath interface {
	Multipath() bool
}

// MultipathEventLaw is the event face of a multi-path law: one window per subflow, every
// call naming its subflow in Observation.Subflow.
type MultipathEventLaw interface {
	EventLaw
	// CwndOf is subflow k's congestion window in packets.
	CwndOf(k int) float64
}

// FlowConfig is what a controller needs to know about its flow when it is created.
type FlowConfig struct {
	InitialCwnd     float64 // packets; default 1 (ns-2's windowInit_)
	InitialSsthresh float64 // packets; +Inf or the receiver window when unset
	MaxCwnd         float64 // packets; the receiver window cap (rwnd / MSS)
	MSSBytes        float64 // bytes per packet
	Subflows        int     // paths of a multi-path flow; 0 or 1 for single-path flows
	// PacketsPerAck is how many in-order packets the receiver acknowledges at once: 2 with
	// delayed ACKs (Flow.DelayedAck), else 1. Only laws that count ACKs rather than packets
	// acknowledged need it, in their fluid face (the event face sees the ACKs).
	PacketsPerAck float64
	// PathBDP is each subflow's path bandwidth-delay product in packets
	// (Scenario.FlowPathBDPs), known at connection setup; nil when the sender knows none.
	PathBDP []float64
}

// packetsPerAck is c.PacketsPerAck, 1 when unset.
func (c FlowConfig) packetsPerAck() float64 {
	if c.PacketsPerAck > 1 {
		return c.PacketsPerAck
	}
	return 1
}

// Recovery names the loss-recovery semantics the packet engine applies around an
// algorithm's window law (RFC 5681, RFC 6582).
type Recovery int

const (
	// RecoveryNewReno: fast retransmit, fast recovery, partial ACKs keep the sender in recovery.
	RecoveryNewReno Recovery = iota
	// RecoveryReno: fast retransmit and fast recovery that ends at the first new ACK.
	RecoveryReno
	// RecoveryTahoe: fast retransmit, then slow start from one packet (no fast recovery).
	RecoveryTahoe
)

// FluidLaw is the fluid face of one flow's controller: continuous state that evolves by
// ordinary differential equations between events, and jump maps at events. Discrete
// variables (ssthresh, W_max, epoch start, mode) live in the implementation and change only
// in Init, OnLoss, OnTimeout and Switch, never in Deriv (the solver may evaluate Deriv at
// trial points it later rejects).
type FluidLaw interface {
	// Vars is the number of continuous state variables; x[0] is always cwnd in packets.
	Vars() int
	// Init writes the state at the flow's start.
	Init(x []float64, o Observation)
	// Deriv writes dx/dt (units of x per second) into dx. It must not modify x or the law.
	Deriv(dx, x []float64, o Observation)
	// Guard is a mode-switch function: when it crosses zero upwards the engine calls Switch
	// at the located crossing. Laws without a pending switch return a negative constant.
	Guard(x []float64, o Observation) float64
	// Switch changes the discrete mode at a located guard crossing (e.g. slow start ends).
	Switch(x []float64, o Observation)
	// OnLoss applies the jump of a loss event detected by duplicate ACKs.
	OnLoss(x []float64, o Observation)
	// OnTimeout applies the jump of a retransmission timeout.
	OnTimeout(x []float64, o Observation)
	// Ssthresh is the current slow-start threshold in packets (for traces).
	Ssthresh() float64
}

// EventLaw is the event face of one flow's controller, in the style of Linux
// tcp_congestion_ops: the packet engine owns sequence numbers, retransmission and the
// recovery state machine, and asks the law for window changes.
type EventLaw interface {
	// Cwnd is the congestion window in packets.
	Cwnd() float64
	// Ssthresh is the slow-start threshold in packets.
	Ssthresh() float64
	// OnAck is called for each ACK that acknowledges new data outside recovery; acked is
	// the number of packets it acknowledges.
	OnAck(acked float64, o Observation)
	// OnLoss is called once when a loss is detected by duplicate ACKs (entering recovery).
	// It sets ssthresh and the window to use after recovery.
	OnLoss(o Observation)
	// OnTimeout is called at a retransmission timeout.
	OnTimeout(o Observation)
	// Recovery names the loss-recovery semantics wrapped around the law.
	Recovery() Recovery
}

// Param is one documented algorithm parameter.
type Param struct {
	Name    string  `json:"name"`  // short name used in --param algo.name=value
	Value   float64 `json:"value"` // current value
	Default float64 `json:"default"`
	Unit    string  `json:"unit"` // "packets", "s", "1" for dimensionless, ...
	Min     float64 `json:"-"`    // allowed range; ±Inf for unbounded (JSON: null)
	Max     float64 `json:"-"`
	Source  string  `json:"source"` // where the default comes from
	Doc     string  `json:"doc"`
}

// MarshalJSON writes an unbounded range end as null, since JSON has no infinity.
func (p Param) MarshalJSON() ([]byte, error) {
	type plain Param
	bound := func(v float64) *float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	return json.Marshal(struct {
		plain
		Min *float64 `json:"min"`
		Max *float64 `json:"max"`
	}{plain(p), bound(p.Min), bound(p.Max)})
}

// Algorithm is a congestion-control algorithm: documented parameters and a factory of
// per-flow controllers for the fluid engine and for the packet engine.
type Algorithm interface {
	Name() string
	// Describe is one line: what the algorithm is and its source.
	Describe() string
	Params() []Param
	// Set changes a parameter; the error wraps ErrParam and names the parameter, the value
	// and the allowed range.
	Set(name string, value float64) error
	NewFluid(c FlowConfig) FluidLaw
	NewEvent(c FlowConfig) EventLaw
}

var (
	registryMu sync.RWMutex
	registry   = map[string]func() Algorithm{}
)

// Register makes an algorithm available by name to New. It panics on a duplicate name,
// which is a programming error.
func Register(name string, ctor func() Algorithm) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("model: algorithm registered twice: " + name)
	}
	registry[name] = ctor
}

// New returns a fresh instance of the named algorithm with default parameters.
func New(name string) (Algorithm, error) {
	registryMu.RLock()
	ctor, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w: algorithm %q (known: %v)", ErrUnknownAlgorithm, name, Algorithms())
	}
	return ctor(), nil
}

// Algorithms lists the registered algorithm names in sorted order.
func Algorithms() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
