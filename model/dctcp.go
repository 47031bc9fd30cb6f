package model

import "math"

// DCTCP (RFC 8257; Alizadeh et al., SIGCOMM 2010; Linux tcp_dctcp.c, ns-3 TcpDctcp): Reno's
// slow start and additive increase, with a window reduction in proportion to the extent of
// congestion. The sender keeps α, an estimate of the fraction of its packets marked CE,
// updated once per window of data with gain g:
//
//	α ← (1 − g)·α + g·F,   F = marked / delivered packets of the last window,
//
// and at an ECN-Echo, at most once per window, cwnd ← cwnd·(1 − α/2) (ssthresh too, at
// least 2 packets). A loss halves the window as Reno's does (Linux dctcp_react_to_loss), a
// timeout restarts slow start. Defaults g = 1/16 (RFC 8257 §4.2, Linux dctcp_shift_g = 4)
// and α = 1 at the start (RFC 8257 §4.2, Linux dctcp_alpha_on_init = 1024/1024). DCTCP
// needs ECN (ECNCapable): its flows are ECN-capable whatever Flow.ECN says, and it needs a
// marking queue (a link's MarkThresholdPkts, DCTCP's step K, or any queue with ECN).
//
// Event face (after Linux tcp_dctcp.c): α is updated once per RTT of Observation.Now from
// the packets ECNAck reports (Linux: when snd.una passes the snd.nxt of the last update);
// ECNReduce, which the packet engine calls once per window at an ECN-Echo, applies the
// reduction; OnAck is Reno's (tcp_reno_cong_avoid).
//
// Fluid face, x = [W, α] (the fluid model of Alizadeh, Javanmard & Prabhakar, SIGMETRICS
// 2011, §3): with m the fraction of the flow's packets that arrive marked, as its ACKs
// report it (Observation.MarkFrac: the fluid engine delays a step threshold's marking by
// the flow's RTT, the model's p(t − R)),
//
//	dW/dt = 1/RTT − W·α·P/(2·RTT),   dα/dt = g·(m − α)/RTT,   P = 1 − (1 − m)^W,
//
// which reduces the window by α/2 over a window of marks, continuously, rather than in one
// jump per window as the event face does. P is the probability that a window carries a
// mark, since the sender reduces once per window whatever the number of marks in it: P = m
// for the model's step marking (m is 0 or 1), where the equation is the paper's, and
// P ≈ m·W for sparse marks (RED, CoDel or PIE with ECN), where m alone would make the
// reduction W times too weak. Slow start is W·ln2/RTT; the first mark event in slow start
// (ECNReduce) ends it with the event face's reduction, W ← W·(1 − α/2).

func init() {
	Register("dctcp", func() Algorithm {
		a := &dctcp{}
		a.Base = NewBase("dctcp", "DCTCP: Reno with an ECN-marked-fraction estimate α; cwnd ← cwnd·(1 − α/2) once per window of marks (RFC 8257)",
			Real(&a.p.g, "g", 1.0/16, "1", 1.0/1024, 1, "RFC 8257 §4.2; Linux tcp_dctcp.c dctcp_shift_g = 4",
				"gain of the EWMA of the marked fraction, per window of data"),
			Real(&a.p.alpha0, "alpha_init", 1, "1", 0, 1, "RFC 8257 §4.2; Linux dctcp_alpha_on_init = 1024",
				"α at the start: 1 reacts to a congested path as Reno would"))
		return a
	})
}

type dctcpParams struct{ g, alpha0 float64 }

type dctcp struct {
	Base
	p dctcpParams
}

var (
	_ Algorithm          = (*dctcp)(nil)
	_ ECNCapable         = (*dctcp)(nil)
	_ ResponseReferencer = (*dctcp)(nil)
	_ ConvergeReferencer = (*dctcp)(nil)
	_ FluidLaw           = (*dctcpFluid)(nil)
	_ FluidECNReactor    = (*dctcpFluid)(nil)
	_ AckIncrement       = (*dctcpFluid)(nil)
	_ EventLaw           = (*dctcpEvent)(nil)
	_ ECNReactor         = (*dctcpEvent)(nil)
)

// ECN: DCTCP needs ECN (Linux TCP_CONG_NEEDS_ECN).
func (a *dctcp) ECN() bool { return true }

// ResponseReference: without marks DCTCP is Reno, and reacts to loss as Reno does.
func (a *dctcp) ResponseReference(loss LossModel) (ResponseReference, bool) {
	return renoReference(loss), true
}

func (a *dctcp) ConvergeReference(bdpPkts, rttS float64) ConvergeReference {
	return aimdConverge(bdpPkts, rttS)
}

func (a *dctcp) NewFluid(c FlowConfig) FluidLaw {
	cwnd, w := NewWindow(c)
	return &dctcpFluid{init: w, win: w, cwnd0: cwnd, p: a.p}
}

func (a *dctcp) NewEvent(c FlowConfig) EventLaw {
	cwnd, w := NewWindow(c)
	return &dctcpEvent{cwnd: cwnd, win: w, p: a.p, alpha: a.p.alpha0}
}

// DCTCPReduction is the window kept at an ECN-Echo with marked-fraction estimate α,
// packets: W·(1 − α/2), at least MinLossWindow (Linux dctcp_ssthresh).
func DCTCPReduction(w, alpha float64) float64 {
	return max(w*(1-alpha/2), MinLossWindow)
}

// windowMarked is the probability that a window of w packets carries at least one mark
// when each is marked with probability m: 1 − (1 − m)^w, 1 for m = 1 and about m·w for
// sparse marks.
func windowMarked(m, w float64) float64 {
	if m >= 1 {
		return 1
	}
	return -math.Expm1(max(w, 1) * math.Log1p(-m))
}

// dctcpFluid is DCTCP's fluid face, x = [W, α].
type dctcpFluid struct {
	init, win Window
	cwnd0     float64
	p         dctcpParams
}

func (f *dctcpFluid) Vars() int { return 2 }

func (f *dctcpFluid) Init(x []float64, _ Observation) {
	f.win = f.init
	x[0], x[1] = f.cwnd0, f.p.alpha0
}

// clampFrac is a marked fraction in [0, 1] (0 for NaN).
func clampFrac(m float64) float64 {
	if !(m > 0) {
		return 0
	}
	return min(m, 1)
}

func (f *dctcpFluid) Deriv(dx, x []float64, o Observation) {
	rtt := ClockRTT(o)
	w, alpha := x[0], x[1]
	m := clampFrac(o.MarkFrac)
	dx[1] = f.p.g * (m - alpha) / rtt
	if f.win.SlowStart {
		dx[0] = f.win.Limit(w, SlowStartRate(w, rtt))
		return
	}
	grow := 1 / rtt
	cut := w * clampFrac(alpha) * windowMarked(m, w) / (2 * rtt)
	if w <= MinLossWindow {
		cut = 0 // the reduction never takes the window below 2 packets
	}
	dx[0] = f.win.Limit(w, grow) - cut
}

// ECNReduce is the jump at a mark event: in slow start it ends slow start with the event
// face's reduction W·(1 − α/2); in congestion avoidance the reduction is continuous.
func (f *dctcpFluid) ECNReduce(x []float64, _ Observation) {
	if f.win.SlowStart {
		x[0] = f.win.FluidLoss(DCTCPReduction(x[0], clampFrac(x[1])), false)
	}
}

// AckIncrement: one packet per ACK in slow start. In congestion avoidance the window's
// derivative carries the continuous marking cut besides Reno's 1/W per ACK, so it is not
// a per-ACK increment the counted form could scale (0: the plain ACK clock).
func (f *dctcpFluid) AckIncrement([]float64, Observation) float64 {
	if f.win.SlowStart {
		return 1
	}
	return 0
}

func (f *dctcpFluid) Guard(x []float64, _ Observation) float64 { return f.win.Guard(x[0]) }

func (f *dctcpFluid) Switch(_ []float64, _ Observation) { f.win.SlowStart = false }

// OnLoss halves the window, as Reno (Linux dctcp_react_to_loss); α is kept.
func (f *dctcpFluid) OnLoss(x []float64, _ Observation) { x[0] = f.win.FluidLoss(x[0]/2, false) }

func (f *dctcpFluid) OnTimeout(x []float64, _ Observation) { x[0] = f.win.Timeout(x[0]) }

func (f *dctcpFluid) Ssthresh() float64 { return f.win.Reported() }

// dctcpEvent is DCTCP's event face.
type dctcpEvent struct {
	cwnd  float64
	win   Window
	p     dctcpParams
	alpha float64
	// the window of data α's next update covers: packets delivered and marked, and when it ends (s)
	delivered, marked, updateAt float64
	started                     bool
}

func (e *dctcpEvent) Cwnd() float64     { return e.cwnd }
func (e *dctcpEvent) Ssthresh() float64 { return e.win.Reported() }

// Alpha is the current marked-fraction estimate.
func (e *dctcpEvent) Alpha() float64 { return e.alpha }

// ECNAck counts the window's delivered and marked packets and updates α once per RTT.
func (e *dctcpEvent) ECNAck(acked, ce float64, o Observation) {
	if !e.started {
		e.started = true
		e.updateAt = o.Now + ClockRTT(o)
	}
	e.delivered += max(acked, 0)
	e.marked += max(min(ce, acked), 0)
	if o.Now < e.updateAt {
		return
	}
	f := 0.0
	if e.delivered > 0 {
		f = e.marked / e.delivered
	}
	e.alpha = (1-e.p.g)*e.alpha + e.p.g*f
	e.delivered, e.marked = 0, 0
	e.updateAt = o.Now + ClockRTT(o)
}

// ECNReduce is DCTCP's reduction at an ECN-Echo (Linux dctcp_ssthresh, then CWR).
func (e *dctcpEvent) ECNReduce(Observation) {
	e.cwnd = e.win.Loss(DCTCPReduction(e.cwnd, e.alpha), false)
}

// OnAck is Reno's increase (Linux tcp_reno_cong_avoid).
func (e *dctcpEvent) OnAck(acked float64, _ Observation) {
	if left := e.win.AckSlowStart(&e.cwnd, acked); left > 0 {
		e.cwnd += e.win.Limit(e.cwnd, left/e.cwnd)
	}
	e.cwnd = e.win.Clamp(e.cwnd)
}

// OnLoss halves the window (Linux dctcp_react_to_loss).
func (e *dctcpEvent) OnLoss(Observation) { e.cwnd = e.win.Loss(e.cwnd/2, false) }

func (e *dctcpEvent) OnTimeout(Observation) { e.cwnd = e.win.Timeout(e.cwnd) }

// DCTCPQueue is the analysis of DCTCP's queue at a step-marking link (Alizadeh, Javanmard
// & Prabhakar, SIGMETRICS 2011, §4, for N synchronized flows of one RTT; the same numbers as
// the sawtooth analysis of Alizadeh et al., SIGCOMM 2010, §3.3): the flows mark from the
// window W* = (C·RTT + K)/N at which the queue reaches K, see it one RTT later at W* + 1
// and cut by α/2, with α = √(2/W*) the fraction of the cycle they spend marked. All
// quantities in packets.
type DCTCPQueue struct {
	WStar     float64 // per-flow window at which the queue reaches K
	Alpha     float64 // marked-fraction estimate over the cycle
	Max       float64 // peak queue, K + N
	Amplitude float64 // peak-to-trough amplitude, N·√(W*/2) = ½·√(2N(C·RTT + K))
	Min       float64 // trough, Max − Amplitude
	Mean      float64 // time-average queue: the cycle is a triangle, Max − Amplitude/2
	PeriodS   float64 // cycle length, s: u²/(u − 1) RTTs with u = √(W*/2) (marked u/(u − 1), unmarked u)
}

// DCTCPQueueReference is DCTCPQueue for n flows over a link of capPkts packets/s with
// round-trip propagation delay rttS seconds and threshold k packets.
func DCTCPQueueReference(n int, capPkts, rttS, k float64) DCTCPQueue {
	nf := float64(n)
	w := (capPkts*rttS + k) / nf
	a := nf * math.Sqrt(w/2)
	u := math.Sqrt(w / 2)
	period := math.Inf(1)
	if u > 1 {
		period = u * u / (u - 1) * rttS
	}
	return DCTCPQueue{WStar: w, Alpha: math.Sqrt(2 / w), Max: k + nf, Amplitude: a, Min: k + nf - a,
		Mean: k + nf - a/2, PeriodS: period}
}
