package model

import "math"

var _ ExactFlow = (*cubicFluid)(nil)

// cubicFlow is the fluid face's flow on the cubic curve from the present, s seconds on:
// the window relaxes toward the curve one RTT ahead at rate k = clock/RTT,
// W' = k·(F(s) − W) with F(s) = C·d³ + origin and d = t0 + s + RTT − K, so
// W(s) = P(s) + (W0 − P(0))·e^(−k·s) with P = F − F'/k + F”/k² − F”'/k³ (F”” = 0).
type cubicFlow struct {
	c, origin, k, d0, w0, p0 float64
}

func (g *cubicFlow) d(s float64) float64 { return g.d0 + s }

func (g *cubicFlow) target(s float64) float64 { d := g.d(s); return g.c*d*d*d + g.origin }

func (g *cubicFlow) poly(s float64) float64 {
	d, k := g.d(s), g.k
	return g.c*(d*d*d-3*d*d/k+6*d/(k*k)-6/(k*k*k)) + g.origin
}

func (g *cubicFlow) window(s float64) float64 {
	return g.poly(s) + (g.w0-g.p0)*math.Exp(-g.k*s)
}

// area is ∫₀ˢ W, packet·s.
func (g *cubicFlow) area(s float64) float64 {
	k := g.k
	prim := func(d float64) float64 {
		return g.c * (d*d*d*d/4 - d*d*d/k + 3*d*d/(k*k) - 6*d/(k*k*k))
	}
	return prim(g.d(s)) - prim(g.d0) + g.origin*s - (g.w0-g.p0)*math.Expm1(-k*s)/k
}

// Advance: the flow in up to three stretches — the Reno-friendly region (at α_cubic per
// RTT, then at 1 once W_est reaches cwnd_prior) until the curve overtakes W_est, then the
// cubic curve — each in closed form; the loss comes where ∫W dt = RTT·packets. A stretch
// whose assumptions fail on the way (the cubic target outside its clamps [W, 1.5·W], the
// curve falling back below W_est: checked at 32 points) leaves it to the solver.
func (f *cubicFluid) Advance(x []float64, o Observation, clock, packets float64) (float64, bool) {
	if f.win.SlowStart || !(clock > 0) || !(packets >= 0) {
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
	if a != 1 && west < f.prior {
		end = math.Min(end, (f.prior-west)/(a*k))
	}
	// The first point where the curve reaches W_est: sampled, then bisected.
	over := func(s float64) bool { return f.curve(t+s) >= west+a*k*s }
	const samples = 64
	for j := 1; j <= samples; j++ {
		if s := end * float64(j) / samples; over(s) {
			lo, hi := end*float64(j-1)/samples, s
			for range 60 {
				if m := (lo + hi) / 2; over(m) {
					hi = m
				} else {
					lo = m
				}
			}
			end = hi
			break
		}
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
	g := cubicFlow{c: f.p.c, origin: f.origin, k: k, d0: t + rtt - f.k, w0: w}
	g.p0 = g.poly(0)
	s, ok := solveIncreasing(g.area, g.window, want, 0, want/w)
	if !ok {
		return 0, 0, 0, 0, false, false
	}
	est := func(v float64) float64 { // W_est after v seconds: α_cubic per RTT up to cwnd_prior, then 1
		a := f.estAlpha(west)
		if a != 1 && west+a*k*v > f.prior {
			return f.prior + k*(v-(f.prior-west)/(a*k))
		}
		return west + a*k*v
	}
	under := func(v float64) bool { return f.friendly(t+v, est(v)*(1-1e-9)) }
	const checks = 32
	for j := 1; j <= checks; j++ {
		v := s * float64(j) / checks
		if under(v) {
			lo, hi := s*float64(j-1)/checks, v
			for range 60 {
				if m := (lo + hi) / 2; under(m) {
					hi = m
				} else {
					lo = m
				}
			}
			s, done = hi, false
			break
		}
		done = true
	}
	for j := 0; j <= checks; j++ {
		v := s * float64(j) / checks
		if wv, tg := g.window(v), g.target(v); tg < wv*(1-1e-12) || tg > 1.5*wv {
			return 0, 0, 0, 0, false, false
		}
	}
	if done {
		return s, want, g.window(s), est(s), true, true
	}
	return s, g.area(s), g.window(s), est(s), false, true
}
