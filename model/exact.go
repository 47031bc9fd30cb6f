package model

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

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

var _ ExactFlow = (*windowFluid)(nil)

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

// hsNodes and hsWeights are 12-point Gauss–Legendre on [−1, 1], for HighSpeed's flow.
var hsNodes, hsWeights = func() ([]float64, []float64) {
	x, w := make([]float64, 12), make([]float64, 12)
	quad.Legendre{}.FixedLocations(x, w, -1, 1)
	return x, w
}()

// gauss is ∫_lo^hi f by hsNodes, split at HighSpeed's Low_Window, where a(w) has a kink.
func gauss(f func(float64) float64, lo, hi float64) float64 {
	if lo < hsLowWindow && hi > hsLowWindow {
		return gauss(f, lo, hsLowWindow) + gauss(f, hsLowWindow, hi)
	}
	m, h, sum := (lo+hi)/2, (hi-lo)/2, 0.0
	for i, x := range hsNodes {
		sum += hsWeights[i] * f(m+h*x)
	}
	return h * sum
}

// Flow: the closed form a(w) (no table, no whole-packet counting) has no closed-form flow,
// but the rounds and window-rounds to a window w are one-dimensional integrals,
// u = ∫dw/a(w) and s = ∫w/a(w) dw from w0; Newton's method on s(w) (slope w/a(w)) finds the
// window, each step a 12-point Gauss–Legendre quadrature over a cycle's range of windows.
func (r *highSpeedRule) Flow(w0, s float64, _ Observation) (float64, float64, bool) {
	if r.rows != nil || r.p.whole != 0 || !(w0 >= 1) {
		return 0, 0, false
	}
	area := func(w float64) float64 { return gauss(func(v float64) float64 { return v / HighSpeedA(v) }, w0, w) }
	lo, hi := w0, w0+s/w0*HighSpeedA(w0)*2+1 // W grows at least at a(w0) per round
	for area(hi) < s {
		lo, hi = hi, 2*hi
	}
	w := (lo + hi) / 2
	for range 60 {
		r := area(w) - s
		if math.Abs(r) <= 1e-12*s {
			break
		}
		if r > 0 {
			hi = w
		} else {
			lo = w
		}
		next := w - r*HighSpeedA(w)/w
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		w = next
	}
	if math.Abs(area(w)-s) > 1e-9*s {
		return 0, 0, false
	}
	return w, gauss(func(v float64) float64 { return 1 / HighSpeedA(v) }, w0, w), true
}
