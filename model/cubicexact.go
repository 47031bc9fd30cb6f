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

// Advance: on the cubic curve, with the target inside its clamps [W, 1.5·W] and the
// Reno-friendly estimate below the curve all the way (checked at 32 points of the
// stretch; at an epoch's start the two are equal, up to rounding), the flow is cubicFlow's; the loss comes where ∫W dt = RTT·packets (Newton's
// method inside a bisection bracket: W only grows, so the time is at most area/W0).
func (f *cubicFluid) Advance(x []float64, o Observation, clock, packets float64) (float64, bool) {
	if f.win.SlowStart || !(clock > 0) || !(packets >= 0) {
		return 0, false
	}
	rtt := ClockRTT(o)
	t0 := o.Now - f.start
	g := cubicFlow{c: f.p.c, origin: f.origin, k: clock / rtt, d0: t0 + rtt - f.k, w0: x[0]}
	g.p0 = g.poly(0)
	want := packets * rtt
	lo, hi := 0.0, want/x[0]
	s := hi / 2
	for range 100 {
		r := g.area(s) - want
		if math.Abs(r) <= 1e-13*want {
			break
		}
		if r > 0 {
			hi = s
		} else {
			lo = s
		}
		next := s - r/g.window(s)
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		s = next
	}
	if math.Abs(g.area(s)-want) > 1e-9*want {
		return 0, false
	}
	west := func(v float64) float64 { // W_est after v seconds: α_cubic per RTT up to cwnd_prior, then 1
		w, a := x[1], f.estAlpha(x[1])
		if a != 1 && w+a*g.k*v > f.prior {
			return f.prior + g.k*(v-(f.prior-w)/(a*g.k))
		}
		return w + a*g.k*v
	}
	const checks = 32
	for j := 0; j <= checks; j++ {
		v := s * float64(j) / checks
		w, tg := g.window(v), g.target(v)
		if tg < w*(1-1e-12) || tg > 1.5*w || (f.p.friendly == 1 && f.curve(t0+v) < west(v)*(1-1e-9)) {
			return 0, false
		}
	}
	w := g.window(s)
	if !(w < f.win.MaxCwnd) || math.IsNaN(w) {
		return 0, false
	}
	x[0], x[1] = w, west(s)
	return s, true
}
