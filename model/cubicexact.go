package model

import "math"

var _ ExactFlow = (*cubicFluid)(nil)

// cubicFlow is the fluid face's flow on the cubic curve from the present, s seconds on:
// the window relaxes toward the curve one RTT ahead at rate k = clock/RTT,
// W' = k·(F(s) − W) with F(s) = C·d³ + origin and d = t0 + s + RTT − K, so
// W(s) = P(s) + (W0 − P(0))·e^(−k·s) with P = F − F'/k + F”/k² − F”'/k³ (F”” = 0).
type cubicFlow struct {
	c, origin, k, d0, w0, p0 float64
	a1, a2, a3               float64 // 3/k, 6/k², 6/k³: P's coefficients (setK)
}

func (g *cubicFlow) setK(k float64) {
	ik := 1 / k
	g.k, g.a1, g.a2, g.a3 = k, 3*ik, 6*ik*ik, 6*ik*ik*ik
}

func (g *cubicFlow) d(s float64) float64 { return g.d0 + s }

func (g *cubicFlow) target(s float64) float64 { d := g.d(s); return g.c*d*d*d + g.origin }

func (g *cubicFlow) poly(s float64) float64 {
	d := g.d(s)
	return g.c*(d*(d*(d-g.a1)+g.a2)-g.a3) + g.origin
}

func (g *cubicFlow) window(s float64) float64 {
	return g.poly(s) + (g.w0-g.p0)*math.Exp(-g.k*s)
}

// area is ∫₀ˢ W, packet·s.
func (g *cubicFlow) area(s float64) float64 {
	prim := func(d float64) float64 { // ∫P: d⁴/4 − d³/k + 3d²/k² − 6d/k³
		return g.c * d * (d*(d*(d/4-g.a1/3)+g.a2/2) - g.a3)
	}
	return prim(g.d(s)) - prim(g.d0) + g.origin*s - (g.w0-g.p0)*math.Expm1(-g.k*s)/g.k
}

// Advance: the flow in up to three stretches — the Reno-friendly region (at α_cubic per
// RTT, then at 1 once W_est reaches cwnd_prior) until the curve overtakes W_est, then the
// cubic curve — each in closed form; the loss comes where ∫W dt = RTT·packets. A stretch
// whose assumptions fail on the way (the cubic target outside its clamps [W, 1.5·W], the
// curve falling back below W_est: checked at 32 points) leaves it to the solver.
func (f *cubicFluid) Advance(x []float64, o Observation, clock, packets float64) (float64, bool) {
	if f.win.SlowStart || f.clamped() || !(clock > 0) || !(packets >= 0) {
		return 0, false
	}
	rtt := ClockRTT(o)
	k := clock / rtt
	t, w, west := o.Now-f.start, x[0], x[1]
	want, spent := packets*rtt, 0.0
	for range 8 {
		var ds, area float64
		done, ok := false, false
		if f.friendly(t, west*(1-1e-9)) { // at an epoch's start the curve and W_est are equal, up to rounding
			ds, area, w, west, done, ok = f.friendlyStretch(t, w, west, k, want)
		} else {
			ds, area, w, west, done, ok = f.cubicStretch(t, w, west, k, rtt, want)
		}
		if !ok {
			return 0, false
		}
		t, spent, want = t+ds, spent+ds, want-area
		if done {
			if !(w < f.win.MaxCwnd) || math.IsNaN(w) {
				return 0, false
			}
			x[0], x[1] = w, west
			return spent, true
		}
	}
	return 0, false
}

// friendlyStretch is the Reno-friendly region from epoch time t: the target W_est + α
// grows linearly, W' = k·(W_est + α − W), so W(s) = W_est(s) + (W − W_est)·e^(−k·s). It ends
// at the loss (done), where W_est reaches cwnd_prior (α changes), or where the curve
// overtakes W_est, and returns its length, the area ∫W it covered and the state there.
func (f *cubicFluid) friendlyStretch(t, w, west, k, want float64) (ds, area, w1, west1 float64, done, ok bool) {
	a := f.estAlpha(west)
	if w > west+a {
		return 0, 0, 0, 0, false, false
	}
	win := func(s float64) float64 { return west + a*k*s + (w-west)*math.Exp(-k*s) }
	ar := func(s float64) float64 { return west*s + a*k*s*s/2 - (w-west)*math.Expm1(-k*s)/k }
	end := want / w // W only grows
	if f.stepsAtPrior() && a != 1 && west < f.prior {
		end = min(end, (f.prior-west)/(a*k))
	}
	if v, ok := f.firstAbove(t, end, west, a*k); ok {
		end = v // the curve reaches W_est
	}
	if ar(end) >= want {
		s, ok := solveIncreasing(ar, win, want, 0, end)
		return s, want, win(s), west + a*k*s, true, ok
	}
	return end, ar(end), win(end), west + a*k*end, false, true
}

// cubicStretch is the cubic curve from epoch time t (cubicFlow), with W_est growing
// alongside, to the loss (done) or to where the curve falls back below W_est near its
// plateau; ok is false if the target leaves its clamps on the way.
func (f *cubicFluid) cubicStretch(t, w, west, k, rtt, want float64) (ds, area, w1, west1 float64, done, ok bool) {
	g := cubicFlow{c: f.p.c, origin: f.origin, d0: t + rtt - f.k, w0: w}
	g.setK(k)
	g.p0 = g.poly(0)
	// First guess: the window growing at its initial slope k·(F − W), ∫W = w·s + k(F − w)·s²/2.
	hi := want / w
	a := k * (g.target(0) - w)
	guess := 2 * want / (w + math.Sqrt(w*w+2*max(a, 0)*want))
	s, ok := solveIncreasingFrom(g.area, g.window, want, 0, hi, min(guess, hi))
	if !ok {
		return 0, 0, 0, 0, false, false
	}
	est := func(v float64) float64 { // W_est after v seconds: α_cubic per RTT up to cwnd_prior, then 1
		a := f.estAlpha(west)
		if f.stepsAtPrior() && a != 1 && west+a*k*v > f.prior {
			return f.prior + k*(v-(f.prior-west)/(a*k))
		}
		return west + a*k*v
	}
	if v, under := f.firstUnder(t, west, k, s); under {
		s = v
	} else {
		done = true
	}
	if !g.clamped(s) {
		return 0, 0, 0, 0, false, false
	}
	if done {
		return s, want, g.window(s), est(s), true, true
	}
	return s, g.area(s), g.window(s), est(s), false, true
}

// clamped reports whether the target stays within its clamps [W, 1.5·W] over the first s
// seconds. W relaxes from below toward a target that never decreases, so W ≤ F holds
// throughout once it holds at the start. W never decreases either, so F ≤ 1.5·W holds if
// F − W ≤ W0/2 does: F − W = Q − (W0 − P0)·e^(−k·v), where Q = F − P is convex in v (its
// largest value is at an end) — else the clamp is checked at 33 points.
func (g *cubicFlow) clamped(s float64) bool {
	if g.target(0) < g.w0*(1-1e-12) || g.target(0) > 1.5*g.w0 {
		return false
	}
	q := max(g.target(0)-g.poly(0), g.target(s)-g.poly(s))
	if q+max(g.p0-g.w0, 0) <= g.w0/2 {
		return true
	}
	const checks = 32
	decay, step := 1.0, math.Exp(-g.k*s/checks) // e^(−k·v) at v = s·j/checks, one exp for all
	for j := 0; j <= checks; j++ {
		v := s * float64(j) / checks
		wv := g.poly(v) + (g.w0-g.p0)*decay
		if tg := g.target(v); tg < wv*(1-1e-12) || tg > 1.5*wv {
			return false
		}
		decay *= step
	}
	return true
}

// firstUnder is the first time v in (0, s] at which the cubic curve, from epoch time t,
// falls below W_est (growing from west at α_cubic per RTT up to cwnd_prior, then at 1),
// and whether there is one: the Reno-friendly region takes over there.
func (f *cubicFluid) firstUnder(t, west, k, s float64) (float64, bool) {
	if f.p.friendly != 1 {
		return 0, false
	}
	a := f.estAlpha(west)
	vb := s // where W_est reaches cwnd_prior and its slope changes
	if f.stepsAtPrior() && a != 1 && west < f.prior {
		vb = min(s, (f.prior-west)/(a*k))
	}
	if v, ok := f.firstBelow(t, 0, vb, west, a*k); ok {
		return v, true
	}
	if vb < s {
		return f.firstBelow(t, vb, s, f.prior, k)
	}
	return 0, false
}
