package model

import "math"

// An ExactFlow is a FluidLaw whose state has a closed-form flow between events, which lets
// the fluid engine move straight from one loss to the next instead of stepping a solver
// there (a response point spends nearly all its time between losses). Advance moves x
// forward while the sender sends packets packets on a path whose round trip o.RTT is
// constant and whose ACKs return at clock times the rate W/RTT the law is written at, and
// returns the time that took, s. On such a path the sending rate is W/RTT, so
// ∫W dt = RTT·packets. ok is false where the law has no closed form from x (slow start, a
// mode switch or the receiver window on the way): the engine then integrates.
type ExactFlow interface {
	Advance(x []float64, o Observation, clock, packets float64) (dtS float64, ok bool)
}

// An ExactRule is a WindowRule whose congestion-avoidance flow has a closed form. In
// ACK-clocked rounds u (du/dt = clock/RTT) the window follows dW/du = PerRTT(W); Flow
// returns the window w and the rounds u after the window-rounds ∫W du have grown by s from
// window w0 (the packets sent, times the clock); ok is false where it has none.
type ExactRule interface {
	Flow(w0, s float64, o Observation) (w, u float64, ok bool)
}

var (
	_ ExactFlow = (*windowFluid)(nil)
	_ ExactRule = renoRule{}
	_ ExactRule = (*scalableRule)(nil)
	_ ExactRule = (*highSpeedRule)(nil)
)

// Advance: a one-window law in congestion avoidance whose rule is an ExactRule, below the
// receiver window all the way.
func (f *windowFluid) Advance(x []float64, o Observation, clock, packets float64) (float64, bool) {
	r, ok := f.rule.(ExactRule)
	if !ok || f.win.SlowStart || !(clock > 0) || !(packets >= 0) {
		return 0, false
	}
	w, u, ok := r.Flow(x[0], clock*packets, o)
	if !ok || !(w < f.win.MaxCwnd) || math.IsNaN(u) || math.IsInf(u, 0) {
		return 0, false
	}
	x[0] = w
	return u * ClockRTT(o) / clock, true
}

// Flow: W = w0 + u, so s = w0·u + u²/2 and u = √(w0² + 2s) − w0, written as 2s/(√(w0² + 2s)
// + w0) to keep its digits when s is small.
func (renoRule) Flow(w0, s float64, _ Observation) (float64, float64, bool) {
	u := 2 * s / (math.Sqrt(w0*w0+2*s) + w0)
	return w0 + u, u, true
}

// Flow: the plain law (no whole-packet counting, no extra ACK) above its legacy window
// grows as W = w0·e^(a·u), so s = w0·(e^(a·u) − 1)/a.
func (r *scalableRule) Flow(w0, s float64, _ Observation) (float64, float64, bool) {
	p := &r.p
	if p.whole != 0 || p.extraAck != 0 || !(w0 > p.legacy) || !(p.a > 0) {
		return 0, 0, false
	}
	u := math.Log1p(p.a*s/w0) / p.a
	return w0 * math.Exp(p.a*u), u, true
}

// solveIncreasing finds x in [lo, hi] with f(x) = want for an increasing f of slope df
// (Newton's method inside a bisection bracket); ok is false if it does not converge.
func solveIncreasing(f, df func(float64) float64, want, lo, hi float64) (float64, bool) {
	return solveIncreasingFrom(f, df, want, lo, hi, (lo+hi)/2)
}

// solveIncreasingFrom is solveIncreasing from the first guess x in [lo, hi].
func solveIncreasingFrom(f, df func(float64) float64, want, lo, hi, x float64) (float64, bool) {
	for range 100 {
		r := f(x) - want
		if math.Abs(r) <= 1e-13*want {
			return x, true
		}
		if r > 0 {
			hi = x
		} else {
			lo = x
		}
		next := x - r/df(x)
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		x = next
	}
	return x, math.Abs(f(x)-want) <= 1e-9*want
}
