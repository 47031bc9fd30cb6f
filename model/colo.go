package model

import "math"

// COLO TCP (Lee & Chung, JKIICE 18(7), 2014; seed 000). The paper's equations (1)–(7) were
// not available: the forms below are reconstructed from its prose (docs/models.md "COLO TCP",
// confidence R), and every constant they need is a parameter.
//
// Slow start has two parts. Below ssthresh/2 the window doubles every RTT (one packet per
// ACK, eq. 1). From ssthresh/2 to ssthresh it grows concavely (eq. 2): per RTT
// W ← W·(1 + (baseRTT/RTT)^γ), one (baseRTT/RTT)^γ per ACK, so it still doubles with an
// empty queue and slows as the queue builds. ssthresh starts at the receiver window (the
// flow's InitialSsthresh when the scenario sets one); without a receiver window and a
// threshold the exponential part lasts until the first loss.
//
// Congestion avoidance adds α per RTT (α/W per ACK, eqs. 3 and 5), and one packet per RTT,
// as Reno, when α ≤ 1 (eq. 4). α falls from alpha_max with an empty queue to alpha_min when
// the flow's queued packets Diff = W·(1 − baseRTT/RTT) (eq. 6, Vegas's estimate, with the
// engine's RTT in place of the paper's SRTT) reach the queue Q_max at the last loss:
//
//	alpha_shape 0 (logarithmic, docs/models.md eq. 5): α = α_max − (α_max − α_min)·ln(1 + (e − 1)·Diff/Q_max)
//	alpha_shape 1 (linear):                       α = α_max − (α_max − α_min)·Diff/Q_max
//
// both clipped to [α_min, α_max] (see COLOAlpha). Q_max is the Diff computed with lastRTT,
// the RTT just before the most recent loss. The prose does not say which window enters that
// Diff: qmax_at_loss 1 (default) takes the window at the loss, so Q_max is the flow's queue
// when the buffer overflowed, in packets, fixed until the next loss; qmax_at_loss 0 takes the
// current window, Q_max = W·(1 − baseRTT/lastRTT), so that Diff/Q_max compares only the
// current queueing delay with the one at the loss. Until a loss has shown a queue, Q_max is
// unknown and α = α_max; a loss with less than one packet queued (a random loss) says
// nothing about the buffer and keeps the previous Q_max. alpha_max = 8 is our choice (the
// paper gives no value): sweep it.
//
// A loss detected by duplicate ACKs keeps β = clip(baseRTT/RTT, β_min, 1) of the window
// (eq. 7): W ← β·W, ssthresh ← W (at least 2 packets), congestion avoidance. An empty queue
// (a random loss) leaves W unchanged; RTT = 2·baseRTT halves it, as Reno. A timeout is
// RFC 5681's (ssthresh = max(W/2, 2), W = 1) followed by COLO's two-part slow start; it does
// not change Q_max.
//
// Fluid face, x = [W]: dW/dt = W·ln2/RTT (exponential part), W·ln(1 + (baseRTT/RTT)^γ)/RTT
// (concave part: the per-RTT factor as a continuous rate), max(α, 1)/RTT (congestion
// avoidance). The guard crosses zero at W = ssthresh/2 (into the concave part) and at
// W = ssthresh (into congestion avoidance). Event face: +1, +(baseRTT/RTT)^γ and
// +max(α, 1)/W per packet acknowledged in the three regimes, NewReno recovery.

func init() {
	Register("colo", func() Algorithm {
		a := &colo{}
		const src = "Lee & Chung 2014 (reconstructed, docs/models.md)"
		a.Base = NewBase("colo", "COLO TCP: concave slow start, increase α(Diff) falling as the queue fills, decrease β = baseRTT/RTT "+
			"(Lee & Chung 2014); equations reconstructed from the paper's prose (docs/models.md, COLO TCP), "+
			"parameters gamma, alpha_min, alpha_max, beta_min, alpha_shape, qmax_at_loss",
			Real(&a.p.gamma, "gamma", 1, "1", 0, 10, src,
				"exponent γ of the concave slow start: the window grows by (baseRTT/RTT)^γ per ACK above ssthresh/2"),
			Real(&a.p.alphaMin, "alpha_min", 1, "packets/RTT", 0, 100, src,
				"increase per RTT when the queue reaches Q_max; below 1 the increase is Reno's 1"),
			Real(&a.p.alphaMax, "alpha_max", 8, "packets/RTT", 1, 100, "our choice (the paper gives no value): sweep it",
				"increase per RTT with an empty queue"),
			Real(&a.p.betaMin, "beta_min", 0.5, "1", 0.1, 0.95, src,
				"smallest fraction of the window kept after a loss (β = baseRTT/RTT clipped to [beta_min, 1])"),
			Switch(&a.p.alphaShape, "alpha_shape", 0, "docs/models.md eq. 5 (0); linear alternative (1)",
				"0: α falls logarithmically in Diff/Q_max, 1: linearly"),
			Switch(&a.p.qmaxAtLoss, "qmax_at_loss", 1, "our reading of the paper's Q_max",
				"1: Q_max = Diff with the window and lastRTT at the loss; 0: with the current window and lastRTT"))
		a.Require(Ordered("alpha_min", &a.p.alphaMin, "alpha_max", &a.p.alphaMax))
		return a
	})
}

// coloQueueEvidence (packets) is the smallest queue at a loss that re-estimates Q_max: a loss
// with less than one packet of the flow queued is not a buffer overflow it caused.
const coloQueueEvidence = 1

// COLOAlpha is COLO's congestion-avoidance increase α in packets per RTT for diff packets
// queued and a queue estimate qMax at the last loss (packets; +Inf when unknown): α_max at
// diff ≤ 0, α_min at diff ≥ qMax, and in between
// α_max − (α_max − α_min)·ln(1 + (e − 1)·diff/qMax), or α_max − (α_max − α_min)·diff/qMax
// when linear. Example: α_min = 1, α_max = 8, diff = qMax/2 gives 3.66 (logarithmic) and
// 4.5 (linear).
func COLOAlpha(diff, qMax, alphaMin, alphaMax float64, linear bool) float64 {
	if diff <= 0 {
		return alphaMax
	}
	if diff >= qMax {
		return alphaMin
	}
	fill := diff / qMax // in (0, 1), so α stays within [α_min, α_max]
	if !linear {
		fill = math.Log1p((math.E - 1) * fill)
	}
	return alphaMax - (alphaMax-alphaMin)*fill
}

// COLOBeta is the fraction of the window COLO keeps after a loss at round-trip time rtt with
// base round-trip time baseRTT (seconds): baseRTT/rtt clipped to [betaMin, 1].
func COLOBeta(baseRTT, rtt, betaMin float64) float64 {
	return min(max(baseRTT/rtt, betaMin), 1)
}

type coloParams struct{ gamma, alphaMin, alphaMax, betaMin, alphaShape, qmaxAtLoss float64 }

type colo struct {
	Base
	p coloParams
}

var (
	_ Algorithm = (*colo)(nil)
	_ FluidLaw  = (*coloFluid)(nil)
	_ EventLaw  = (*coloEvent)(nil)
)

func (a *colo) NewFluid(c FlowConfig) FluidLaw {
	cwnd, w := NewWindow(c)
	s := newColoState(a.p, w, cwnd)
	return &coloFluid{init: s, coloState: s, cwnd0: cwnd}
}

func (a *colo) NewEvent(c FlowConfig) EventLaw {
	cwnd, w := NewWindow(c)
	return &coloEvent{cwnd: cwnd, coloState: newColoState(a.p, w, cwnd)}
}

// coloState is COLO's discrete state, shared by both faces.
type coloState struct {
	p         coloParams
	win       Window
	concave   bool    // in the concave part of slow start (W ≥ ssthresh/2)
	lastRTT   float64 // RTT at the last loss that showed a queue, s; 0 before any
	lossQueue float64 // Diff at that loss (window and lastRTT at the loss), packets
}

func newColoState(p coloParams, w Window, cwnd float64) coloState {
	s := coloState{p: p, win: w}
	s.enter(cwnd)
	return s
}

// enter sets the slow-start part for window cwnd after a start or a jump.
func (s *coloState) enter(cwnd float64) {
	s.concave = s.win.SlowStart && cwnd >= s.win.Ssthresh/2
}

// concaveGain is the concave slow start's increase per packet acknowledged, (baseRTT/RTT)^γ.
func (s *coloState) concaveGain(o Observation) float64 {
	return math.Pow(MinimumRTT(o)/ClockRTT(o), s.p.gamma)
}

// perRTT is the congestion-avoidance increase per RTT at window cwnd, packets: max(α, 1).
func (s *coloState) perRTT(cwnd float64, o Observation) float64 {
	qMax := math.Inf(1)
	switch {
	case s.lastRTT == 0: // no loss has shown a queue yet
	case s.p.qmaxAtLoss == 1:
		qMax = s.lossQueue
	default:
		qMax = cwnd * (1 - MinimumRTT(o)/s.lastRTT)
	}
	return max(COLOAlpha(Queued(cwnd, o), qMax, s.p.alphaMin, s.p.alphaMax, s.p.alphaShape == 1), 1)
}

// loss records the loss's queue and returns the reduced window (adaptive decrease).
func (s *coloState) loss(cwnd float64, o Observation) float64 {
	base, rtt := MinimumRTT(o), ClockRTT(o)
	if q := Queued(cwnd, o); q >= coloQueueEvidence {
		s.lastRTT, s.lossQueue = rtt, q
	}
	next := s.win.Loss(COLOBeta(base, rtt, s.p.betaMin)*cwnd, false)
	s.concave = false
	return next
}

// timeout applies RFC 5681's timeout and returns the new window.
func (s *coloState) timeout(cwnd float64) float64 {
	next := s.win.Timeout(cwnd)
	s.enter(next)
	return next
}

// coloFluid is COLO's fluid face, x = [W].
type coloFluid struct {
	init coloState
	coloState
	cwnd0 float64
}

func (f *coloFluid) Vars() int { return 1 }

func (f *coloFluid) Init(x []float64, _ Observation) {
	f.coloState = f.init
	x[0] = f.cwnd0
}

func (f *coloFluid) Deriv(dx, x []float64, o Observation) {
	w, rtt := x[0], ClockRTT(o)
	var rate float64
	switch {
	case !f.win.SlowStart:
		rate = f.perRTT(w, o) / rtt
	case f.concave:
		rate = w * math.Log1p(f.concaveGain(o)) / rtt
	default:
		rate = SlowStartRate(w, rtt)
	}
	dx[0] = f.win.Limit(w, rate)
}

// Guard crosses zero at ssthresh/2 in the exponential part and at ssthresh in the concave
// part.
func (f *coloFluid) Guard(x []float64, _ Observation) float64 {
	if f.concave {
		return f.win.Guard(x[0])
	}
	if !f.win.SlowStart || math.IsInf(f.win.Ssthresh, 0) {
		return -1
	}
	return x[0] - f.win.Ssthresh/2
}

func (f *coloFluid) Switch(_ []float64, _ Observation) {
	if f.concave {
		f.concave, f.win.SlowStart = false, false
		return
	}
	f.concave = f.win.SlowStart
}

func (f *coloFluid) OnLoss(x []float64, o Observation) { x[0] = f.loss(x[0], o) }

func (f *coloFluid) OnTimeout(x []float64, _ Observation) { x[0] = f.timeout(x[0]) }

func (f *coloFluid) Ssthresh() float64 { return f.win.Reported() }

var _ AckIncrement = (*coloFluid)(nil)

// AckIncrement is what the event face adds per packet acknowledged: one packet in the
// exponential part, (baseRTT/RTT)^γ in the concave part, max(α, 1)/W in congestion
// avoidance (the counted form compounds them per round as a packet sender does).
func (f *coloFluid) AckIncrement(x []float64, o Observation) float64 {
	switch {
	case !f.win.SlowStart:
		return f.perRTT(x[0], o) / x[0]
	case f.concave:
		return f.concaveGain(o)
	}
	return 1
}

// coloEvent is COLO's event face.
type coloEvent struct {
	cwnd float64
	coloState
}

func (e *coloEvent) Cwnd() float64     { return e.cwnd }
func (e *coloEvent) Ssthresh() float64 { return e.win.Reported() }

// OnAck spends the acknowledged packets on the exponential part up to ssthresh/2, the
// concave part up to ssthresh, then congestion avoidance, carrying what is left over from
// one regime into the next.
func (e *coloEvent) OnAck(acked float64, o Observation) {
	if e.win.SlowStart && !e.concave {
		half := e.win.Ssthresh / 2
		if next := e.cwnd + acked; next < half {
			e.cwnd, acked = next, 0
		} else {
			acked -= half - e.cwnd
			e.cwnd, e.concave = half, true
		}
	}
	if e.concave && acked > 0 {
		g := e.concaveGain(o)
		if next := e.cwnd + acked*g; next < e.win.Ssthresh {
			e.cwnd, acked = next, 0
		} else {
			acked -= (e.win.Ssthresh - e.cwnd) / g
			e.cwnd, e.concave, e.win.SlowStart = e.win.Ssthresh, false, false
		}
	}
	if !e.win.SlowStart && acked > 0 {
		e.cwnd += e.win.Limit(e.cwnd, acked*e.perRTT(e.cwnd, o)/e.cwnd)
	}
	e.cwnd = e.win.Clamp(e.cwnd)
}

func (e *coloEvent) OnLoss(o Observation) { e.cwnd = e.loss(e.cwnd, o) }

func (e *coloEvent) OnTimeout(Observation) { e.cwnd = e.timeout(e.cwnd) }
