package model

import "math"

// The machinery every window-based law shares: the slow-start threshold and mode, the
// receiver-window cap, slow start itself in both faces, the loss and timeout jumps of the
// Reno family, and a generic one-window law (windowFluid, windowEvent) that Tahoe, Reno,
// NewReno, Scalable, HighSpeed, BIC and H-TCP instantiate with their own windowRule.

// minLossWindow is the smallest window (packets) a loss reduction leaves: RFC 5681 eq. (4)
// sets ssthresh to at least 2·SMSS, as Linux's max(…, 2U) does for every algorithm.
const minLossWindow = 2

// minClockRTT (s) keeps the ACK clock finite when a path has no delay at all: rates divide
// by the RTT, and an RTT below a microsecond is taken as one microsecond.
const minClockRTT = 1e-6

// clockRTT is the RTT that clocks the window, in seconds.
func clockRTT(o Observation) float64 {
	if o.RTT > minClockRTT {
		return o.RTT
	}
	return minClockRTT
}

// minimumRTT is the base RTT in seconds; an unknown (non-positive) or inconsistent base RTT
// is taken as the current RTT, i.e. as no queueing.
func minimumRTT(o Observation) float64 {
	rtt := clockRTT(o)
	if o.BaseRTT > 0 && o.BaseRTT < rtt {
		return o.BaseRTT
	}
	return rtt
}

// queued is Vegas's and Compound's estimate of the flow's own packets in queues:
// Diff = W·(1 − baseRTT/RTT) = (expected − actual rate)·baseRTT, in packets.
func queued(w float64, o Observation) float64 {
	return w * (1 - minimumRTT(o)/clockRTT(o))
}

// slowStartRate is the fluid form of slow start, packets/s. Slow start adds one packet per
// ACK, so the window doubles every round trip: W(t) = W0·2^(t/RTT), i.e.
// dW/dt = W·ln2/RTT. The tempting per-ACK mapping dW/dt = (1 per ACK)·(W/RTT ACKs/s) = W/RTT
// grows by e per RTT, 36% too fast each round; that is the trap DESIGN.md warns of, and the
// tests check the doubling in both faces.
func slowStartRate(w, rtt float64) float64 { return w * math.Ln2 / rtt }

// window is the discrete state every law shares. It changes only in Init, Switch, OnLoss
// and OnTimeout (fluid face) or in the event face's callbacks.
type window struct {
	ssthresh  float64 // packets; +Inf until the first loss when neither a threshold nor a receiver window is set
	slowStart bool
	maxCwnd   float64 // packets; +Inf when the flow has no receiver-window cap
}

// newWindow resolves a flow's initial window and threshold: cwnd defaults to 1 packet
// (ns-2's windowInit_), ssthresh to the receiver window (or no threshold), and the window
// never exceeds the receiver window.
func newWindow(c FlowConfig) (cwnd float64, w window) {
	w.maxCwnd = math.Inf(1)
	if c.MaxCwnd > 0 && !math.IsInf(c.MaxCwnd, 0) {
		w.maxCwnd = c.MaxCwnd
	}
	cwnd = 1
	if c.InitialCwnd > 0 && !math.IsInf(c.InitialCwnd, 0) {
		cwnd = math.Min(c.InitialCwnd, w.maxCwnd)
	}
	w.ssthresh = w.maxCwnd
	if c.InitialSsthresh > 0 && !math.IsInf(c.InitialSsthresh, 0) {
		w.ssthresh = c.InitialSsthresh
	}
	w.slowStart = cwnd < w.ssthresh
	return cwnd, w
}

// reported is ssthresh for traces and tables: never infinite. With no threshold and no
// receiver window it is 0, meaning "none yet".
func (w *window) reported() float64 {
	if math.IsInf(w.ssthresh, 0) {
		return 0
	}
	return w.ssthresh
}

// limit applies the receiver-window cap to a growth rate (or increment): no growth at or
// above the cap.
func (w *window) limit(cwnd, growth float64) float64 {
	if growth > 0 && cwnd >= w.maxCwnd {
		return 0
	}
	return growth
}

// clamp caps an event-face window at the receiver window.
func (w *window) clamp(cwnd float64) float64 { return math.Min(cwnd, w.maxCwnd) }

// guard is the fluid slow-start guard: it crosses zero upwards when cwnd reaches ssthresh.
func (w *window) guard(cwnd float64) float64 {
	if !w.slowStart || math.IsInf(w.ssthresh, 0) {
		return -1
	}
	return cwnd - w.ssthresh
}

// loss applies a reduction to next packets (already computed by the algorithm): the Reno
// family sets ssthresh = cwnd = next (at least minLossWindow) and continues in congestion
// avoidance; restart (Tahoe) keeps ssthresh = next but restarts slow start from one packet.
// It returns the new window.
func (w *window) loss(next float64, restart bool) float64 {
	w.ssthresh = math.Max(next, minLossWindow)
	if restart {
		w.slowStart = true
		return 1
	}
	w.slowStart = false
	return w.ssthresh
}

// timeout applies a retransmission timeout (RFC 5681 §3.1, all algorithms):
// ssthresh = max(W/2, 2), W = 1, slow start.
func (w *window) timeout(cwnd float64) float64 {
	w.ssthresh = math.Max(cwnd/2, minLossWindow)
	w.slowStart = true
	return 1
}

// ackSlowStart is the event face of slow start (Linux tcp_slow_start): one packet per
// packet acknowledged, up to ssthresh. It returns the acknowledged packets left over for
// congestion avoidance.
func (w *window) ackSlowStart(cwnd *float64, acked float64) float64 {
	if !w.slowStart {
		return acked
	}
	next := *cwnd + acked
	if next < w.ssthresh {
		*cwnd = next
		return 0
	}
	w.slowStart = false
	left := math.Min(acked, next-w.ssthresh)
	*cwnd = math.Max(*cwnd, w.ssthresh)
	return left
}

// windowRule is the congestion-avoidance law of a one-window algorithm. Its increase is
// stated per RTT; the fluid face divides by the RTT and the event face spreads it over the
// W ACKs of a round (per ACK: increase/W), which is the same law.
type windowRule interface {
	// start records the flow's start (time of the first observation).
	start(o Observation)
	// perRTT is the window increase per round trip in congestion avoidance, packets. It
	// must not change the rule (the fluid solver calls it at trial points).
	perRTT(cwnd float64, o Observation) float64
	// congestion records a congestion event at window cwnd (its own discrete state: W_max,
	// last-loss time, …) and returns the reduced window, packets, before the
	// minLossWindow floor.
	congestion(cwnd float64, o Observation) float64
}

// windowFluid is the fluid face of a one-window algorithm: x = [cwnd].
type windowFluid struct {
	init, win window
	cwnd0     float64
	rule      windowRule
	restart   bool // Tahoe: slow start from one packet after every loss
}

func newWindowFluid(c FlowConfig, rule windowRule, restart bool) *windowFluid {
	cwnd, w := newWindow(c)
	return &windowFluid{init: w, win: w, cwnd0: cwnd, rule: rule, restart: restart}
}

func (f *windowFluid) Vars() int { return 1 }

func (f *windowFluid) Init(x []float64, o Observation) {
	f.win = f.init
	f.rule.start(o)
	x[0] = f.cwnd0
}

func (f *windowFluid) Deriv(dx, x []float64, o Observation) {
	rtt := clockRTT(o)
	var rate float64
	if f.win.slowStart {
		rate = slowStartRate(x[0], rtt)
	} else {
		rate = f.rule.perRTT(x[0], o) / rtt
	}
	dx[0] = f.win.limit(x[0], rate)
}

// perAckInverse: a rule's increase per RTT is spread over the round's W ACKs, perRTT/W each.
func (f *windowFluid) perAckInverse([]float64, Observation) bool { return !f.win.slowStart }

func (f *windowFluid) Guard(x []float64, _ Observation) float64 { return f.win.guard(x[0]) }

func (f *windowFluid) Switch(_ []float64, _ Observation) { f.win.slowStart = false }

func (f *windowFluid) OnLoss(x []float64, o Observation) {
	x[0] = f.win.loss(f.rule.congestion(x[0], o), f.restart)
}

func (f *windowFluid) OnTimeout(x []float64, o Observation) {
	f.rule.congestion(x[0], o)
	x[0] = f.win.timeout(x[0])
}

func (f *windowFluid) Ssthresh() float64 { return f.win.reported() }

// windowEvent is the event face of a one-window algorithm.
type windowEvent struct {
	cwnd     float64
	win      window
	rule     windowRule
	restart  bool
	recovery Recovery
	started  bool
}

func newWindowEvent(c FlowConfig, rule windowRule, restart bool, r Recovery) *windowEvent {
	cwnd, w := newWindow(c)
	return &windowEvent{cwnd: cwnd, win: w, rule: rule, restart: restart, recovery: r}
}

// begin starts the rule's clock at the first callback: the event face has no Init.
func (e *windowEvent) begin(o Observation) {
	if !e.started {
		e.started = true
		e.rule.start(o)
	}
}

func (e *windowEvent) Cwnd() float64     { return e.cwnd }
func (e *windowEvent) Ssthresh() float64 { return e.win.reported() }

func (e *windowEvent) OnAck(acked float64, o Observation) {
	e.begin(o)
	if left := e.win.ackSlowStart(&e.cwnd, acked); left > 0 {
		e.cwnd += e.win.limit(e.cwnd, left*e.rule.perRTT(e.cwnd, o)/e.cwnd)
	}
	e.cwnd = e.win.clamp(e.cwnd)
}

func (e *windowEvent) OnLoss(o Observation) {
	e.begin(o)
	e.cwnd = e.win.loss(e.rule.congestion(e.cwnd, o), e.restart)
}

func (e *windowEvent) OnTimeout(o Observation) {
	e.begin(o)
	e.rule.congestion(e.cwnd, o)
	e.cwnd = e.win.timeout(e.cwnd)
}

func (e *windowEvent) Recovery() Recovery { return e.recovery }
