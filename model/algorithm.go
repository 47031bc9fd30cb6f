package model

// The algorithm contract: what every congestion-control algorithm implements (Algorithm,
// FluidLaw, EventLaw) and the optional capabilities the engines and analyses look for.
// Each optional interface is asserted at compile time in the files that implement it.

// Observation is what a flow's controller sees when its law is evaluated, in either face.
// Times are in seconds.
type Observation struct {
	Now     float64 // simulation time, s
	RTT     float64 // the round-trip time the sender's latest sample reports, s
	BaseRTT float64 // minimum RTT observed so far (the path's propagation delay), s
	// Subflow is the subflow a loss, timeout or ACK concerns: 0 for single-path flows.
	Subflow int
	// Subflows is every subflow's view, for multi-path laws; nil for single-path flows.
	// In the fluid face subflow k's window is x[k]; RTT and BaseRTT above are Subflow's.
	Subflows []SubflowObservation
	// DeliveryRate is the rate the flow's packets reach its receiver, packets/s, as its
	// ACKs report it: set by the fluid engine only (the event face gets per-ACK samples
	// through RateSampler, signals.go); 0 when unknown.
	DeliveryRate float64
	// SentPkts and LeftPkts are the packets the flow has sent since it started, and those
	// of them that have left its path, delivered or lost: set by the fluid engine only,
	// with DeliveryRate (per flow of a class), for laws that count their packets in flight;
	// 0 when unknown.
	SentPkts, LeftPkts float64
	// LostPkts is the packets of the flow lost so far (dropped at a full queue or by a
	// link's loss process), counted where they are lost: set with SentPkts.
	LostPkts float64
	// MarkFrac is the fraction of the flow's packets arriving CE-marked (RFC 3168), as its
	// ACKs report it, in [0, 1]: set by the fluid engine only (the event face counts marks
	// through ECNReactor, signals.go); 0 for a flow without ECN.
	MarkFrac float64
}

// SubflowObservation is what a multi-path law sees of one subflow.
type SubflowObservation struct {
	RTT     float64 // s
	BaseRTT float64 // s
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

// mss is c.MSSBytes, DefaultMSSBytes when unset (a scenario's flows always have one).
func (c FlowConfig) mss() float64 {
	if c.MSSBytes >= 1 {
		return c.MSSBytes
	}
	return DefaultMSSBytes
}

// packetsPerAck is c.PacketsPerAck, 1 when unset.
func (c FlowConfig) packetsPerAck() float64 {
	if c.PacketsPerAck > 1 {
		return c.PacketsPerAck
	}
	return 1
}

// Algorithm is a congestion-control algorithm: documented parameters and a factory of
// per-flow controllers for the fluid engine and for the packet engine. Engines build
// algorithms with Configure, which sets every parameter and then checks them together.
// Base gives an implementation its name, description and parameter set; WindowLaw gives a
// one-window law both faces from a WindowRule.
type Algorithm interface {
	Name() string
	// Describe is one line: what the algorithm is and its source.
	Describe() string
	// Params lists the parameters in a fixed order with their current values.
	Params() []Param
	// Set changes one parameter, checking it against its own range only; relations
	// between parameters are checked by Checker after all of them are set. The error
	// wraps ErrParam and names the parameter, the value and the allowed range.
	Set(name string, value float64) error
	NewFluid(c FlowConfig) FluidLaw
	NewEvent(c FlowConfig) EventLaw
}

// FluidLaw is the fluid face of one flow's controller: continuous state that evolves by
// ordinary differential equations between events, and jump maps at events. Discrete
// variables (ssthresh, W_max, epoch start, mode) live in the implementation and change only
// in Init, OnLoss, OnTimeout, Switch and RecoveryEnder.EndRecovery, never in Deriv (the
// solver evaluates Deriv at trial points it may reject).
type FluidLaw interface {
	// Vars is the number of continuous state variables; x[0] is always cwnd in packets.
	Vars() int
	// Init writes the state at the flow's start.
	Init(x []float64, o Observation)
	// Deriv writes dx/dt into dx (units of x per second). It must not modify x or the law.
	//
	// The ACK-clock convention: write the law as if the flow's ACKs returned at W/RTT per
	// second (W = x[0], RTT = o.RTT), so a per-ACK change f becomes f·W/RTT and a per-RTT
	// change g becomes g/RTT; slow start (one packet per ACK) is W·ln2/RTT (SlowStartRate).
	// The engine multiplies every component of dx by the ratio of the flow's real ACK rate
	// (the rate its packets leave its path: below W/RTT while a queue grows, above while
	// it drains, the dropped excess missing at a full queue) to W/RTT, and sets dx to zero
	// while the sender hears nothing (path down, timer pending, or fast recovery in the
	// hybrid-recovery form). Quantities that follow wall-clock time rather than ACKs (an
	// epoch start, the time since the last loss) belong in the law's discrete state and are
	// read from o.Now.
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
	// Ssthresh is the current slow-start threshold in packets (for traces); 0 for none yet.
	Ssthresh() float64
}

// EventLaw is the event face of one flow's controller, in the style of Linux
// tcp_congestion_ops: the packet engine owns sequence numbers, retransmission and the
// recovery state machine (RecoveryStyle), and asks the law for window changes.
type EventLaw interface {
	// Cwnd is the congestion window in packets.
	Cwnd() float64
	// Ssthresh is the slow-start threshold in packets; 0 for none yet.
	Ssthresh() float64
	// OnAck is called for each ACK that acknowledges new data outside recovery; acked is
	// the number of packets it acknowledges.
	OnAck(acked float64, o Observation)
	// OnLoss is called once when a loss is detected by duplicate ACKs (entering recovery).
	// It sets ssthresh and the window to use after recovery.
	OnLoss(o Observation)
	// OnTimeout is called at a retransmission timeout.
	OnTimeout(o Observation)
}

// Recovery names the loss-recovery semantics wrapped around an algorithm's window law
// (RFC 5681, RFC 6582).
type Recovery int

const (
	// RecoveryDefault is no choice: an algorithm's own recovery, NewReno unless it says
	// (RecoveryOf), or a Variant that keeps its algorithm's.
	RecoveryDefault Recovery = iota
	// RecoveryNewReno: fast retransmit, fast recovery, partial ACKs keep the sender in recovery.
	RecoveryNewReno
	// RecoveryReno: fast retransmit and fast recovery that ends at the first new ACK; a
	// second loss in the window being repaired waits for the retransmission timer.
	RecoveryReno
	// RecoveryTahoe: fast retransmit, then slow start from one packet (no fast recovery).
	RecoveryTahoe
	// RecoveryLinux is ns-2.35 TCP/Linux's SACK recovery (Linux 2.6.2x
	// tcp_fastretrans_alert with FACK loss marking): ssthresh from the law, the packets in
	// flight brought down by rate halving (one packet sent per two ACKs) over the recovery
	// round trip, no growth during recovery, and at its end the window min(ssthresh,
	// packets in flight + 3) (tcp_moderate_cwnd); for cubic, bic and htcp (no min_cwnd)
	// the flight stops at ssthresh.
	RecoveryLinux
	// RecoveryLinuxMinCwnd is RecoveryLinux for the modules with min_cwnd = ssthresh/2
	// (reno, highspeed, scalable, compound, vegas): rate halving takes the flight to half
	// the window whatever ssthresh is, and the window slow-starts from there back to
	// ssthresh after recovery.
	RecoveryLinuxMinCwnd
	// RecoveryPRR is RFC 6937's proportional rate reduction with SACK as ns-3.37 runs it
	// (TcpPrrRecovery, ReductionBound SSRB): the flight falls to ssthresh over the recovery
	// round trip in proportion to the packets delivered, then cwnd = ssthresh.
	RecoveryPRR
)

// Optional capabilities of an Algorithm.
type (
	// Checker is implemented by algorithms whose parameters constrain one another
	// (alpha_min ≤ alpha_max). Configure calls Check once, after setting every parameter;
	// the error names every parameter involved and their values.
	Checker interface {
		Check() error
	}

	// RecoveryStyle names the loss recovery both engines wrap around the law: the packet
	// engine runs its state machine, and the fluid engine times Reno senders out on a
	// second loss in a window. Algorithms without it recover as NewReno (RecoveryOf).
	RecoveryStyle interface {
		Recovery() Recovery
	}

	// Multipath is implemented by algorithms that couple the windows of several subflows
	// (MPTCP); only they may run a flow over several paths. Their fluid face keeps subflow
	// k's window in x[k], and their event face implements MultipathEventLaw.
	Multipath interface {
		Multipath() bool
	}

	// ResponseReferencer gives an algorithm's published response function (reference.go),
	// which the response analysis prints and fits against.
	ResponseReferencer interface {
		ResponseReference(loss LossModel) (ResponseReference, bool)
	}

	// MeanFielder is implemented by algorithms whose law has a mean-field form (package
	// meanfield): a memoryless window rule, increase per RTT and window after a loss as
	// functions of the window alone. WindowLaw implements it for laws that declare
	// themselves Memoryless.
	MeanFielder interface {
		MeanFieldRule() (rule WindowRule, ok bool)
	}

	// ConvergeReferencer gives an algorithm's closed-form times to fill a link and to
	// recover after a loss at its current parameters (reference.go).
	ConvergeReferencer interface {
		ConvergeReference(bdpPkts, rttS float64) ConvergeReference
	}
)

// Optional capabilities of a FluidLaw or an EventLaw.
type (
	// AckIncrement is implemented by fluid laws whose window grows by an increment per ACK:
	// the packets each ACK adds to the window now, δ = 1 in slow start, 1/W in Reno's
	// congestion avoidance, a(W)/W for HighSpeed, a for Scalable; 0 when the increase is not
	// a per-ACK increment (CUBIC's curve tracks a target window). The hybrid-recovery form
	// then counts ACKs as a packet sender does (package fluid, form.go): on a free path a
	// round's ACKs return with the window of one RTT ago, so δ per ACK compounds to
	// W' = ln(1 + δ)·ACK rate (doubling per RTT in slow start, ⌊W⌋/(W + ½) per round for
	// Reno); behind a queue the ACKs return at the queue's pace, each adding δ, and the
	// sender sends one packet for each packet acknowledged plus the increment.
	AckIncrement interface {
		AckIncrement(x []float64, o Observation) float64
	}

	// RoundStepper is implemented by fluid laws whose implementation adds part of a
	// round's growth at one ACK, once per round (Linux tcp_compound.c's delay window):
	// RoundStep is that step at state x, packets, 0 when none. A packet sender sends it
	// back to back, and where its round is a train (alone on its path, below the BDP)
	// the step stays queued until the train ends; the counted form of package fluid
	// shows that queue.
	RoundStepper interface {
		RoundStep(x []float64, o Observation) float64
	}

	// RecoveryEnder is implemented by fluid laws whose post-loss clock starts when fast
	// recovery ends, as a packet sender's does at its first ACK in congestion avoidance
	// (CUBIC's epoch). The hybrid-recovery form, which holds the window through recovery,
	// calls EndRecovery then.
	RecoveryEnder interface {
		EndRecovery(x []float64, o Observation)
	}

	// SubflowSsthresh is implemented by both faces of multi-path laws: subflow k's
	// slow-start threshold in packets (0: none yet). Route-aware resumption and traces use
	// it; a single-path law's Ssthresh is its only one.
	SubflowSsthresh interface {
		SsthreshOf(k int) float64
	}

	// MultipathEventLaw is the event face of a multi-path law: one window per subflow,
	// every call naming its subflow in Observation.Subflow.
	MultipathEventLaw interface {
		EventLaw
		// CwndOf is subflow k's congestion window in packets.
		CwndOf(k int) float64
	}

	// WindowRestorer is implemented by laws that return their window to a saved value
	// without ACK-clocked growth — BBR at the end of ProbeRTT and of a recovery (Linux
	// bbr_restore_cwnd) — so that CheckInvariants lets such a window rise with no packet
	// delivered, as it does for a route-aware sender whose path returns.
	WindowRestorer interface {
		RestoresWindow()
	}
)

// RecoveryOf is the loss recovery of an algorithm: its variant's, else its RecoveryStyle,
// else NewReno.
func RecoveryOf(a Algorithm) Recovery {
	if v, ok := a.(interface{ variantRecovery() Recovery }); ok && v.variantRecovery() != RecoveryDefault {
		return v.variantRecovery()
	}
	if r, ok := a.(RecoveryStyle); ok && r.Recovery() != RecoveryDefault {
		return r.Recovery()
	}
	return RecoveryNewReno
}

// IsMultipath reports whether an algorithm couples several subflows.
func IsMultipath(a Algorithm) bool {
	m, ok := a.(Multipath)
	return ok && m.Multipath()
}

// SsthreshOf is subflow k's slow-start threshold in packets, from either face: a
// multi-path law's own (SubflowSsthresh), else the law's only one.
func SsthreshOf(law interface{ Ssthresh() float64 }, k int) float64 {
	if m, ok := law.(SubflowSsthresh); ok {
		return m.SsthreshOf(k)
	}
	return law.Ssthresh()
}
