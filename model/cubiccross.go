package model

import "math"

// Where CUBIC's curve and the Reno-friendly estimate W_est cross. Over a stretch W_est is
// a line e0 + m·(v − va) (packets, v in seconds from epoch time t), and the difference
// h = curve − line has h' = 3C·(t + v − K)² − m: it falls only while |t + v − K| < √(m/3C)
// and rises elsewhere. Each crossing therefore lies on a monotone piece that the shape
// names, and is found there to the last bit (firstIn) instead of by sampling, which
// could step over a short dip.

// firstBelow is the first v in [va, vz] at which the curve at epoch time t + v is below
// the line, shaded by 1e-9 as friendly compares, and whether there is one. The curve
// starts on or above the line, so it can only turn below it while it falls.
func (f *cubicFluid) firstBelow(t, va, vz, e0, m float64) (float64, bool) {
	const shade = 1 - 1e-9
	g := func(v float64) float64 { return shade*(e0+m*(v-va)) - f.curve(t+v) } // > 0 below
	below := func(v float64) bool { return g(v) > 0 }
	if below(va) {
		return va, true
	}
	r := math.Sqrt(shade * m / (3 * f.p.c))
	lo, hi := max(va, f.k-r-t), min(vz, f.k+r-t)
	if !(lo < hi) || !below(hi) {
		return 0, false
	}
	return firstIn(g, below, lo, hi), true
}

// firstAbove is the first v in [0, vz] at which the curve at epoch time t + v reaches the
// line west + m·v, and whether there is one. The curve starts below the line, so it can
// only reach it while it rises: before its falling piece or after it.
func (f *cubicFluid) firstAbove(t, vz, west, m float64) (float64, bool) {
	g := func(v float64) float64 { return f.curve(t+v) - (west + m*v) } // ≥ 0 above
	above := func(v float64) bool { return g(v) >= 0 }
	if above(0) {
		return 0, true
	}
	r := math.Sqrt(m / (3 * f.p.c))
	if p1 := min(vz, f.k-r-t); p1 > 0 && above(p1) {
		return firstIn(g, above, 0, p1), true
	}
	if p2 := max(0, f.k+r-t); p2 < vz && above(vz) {
		return firstIn(g, above, p2, vz), true
	}
	return 0, false
}

// firstIn is where the monotone g on [lo, hi] enters the set in, which holds at hi and not
// at lo (g ≤ 0 outside it, ≥ 0 inside): the Illinois variant of regula falsi, which keeps
// the bracket and converges superlinearly, down to adjacent floats. It returns a point in
// the set.
func firstIn(g func(float64) float64, in func(float64) bool, lo, hi float64) float64 {
	glo, ghi := g(lo), g(hi)
	side := 0
	for range 200 {
		x := (lo*ghi - hi*glo) / (ghi - glo)
		if !(x > lo && x < hi) {
			x = lo + (hi-lo)/2
			if !(x > lo && x < hi) {
				break // adjacent floats
			}
		}
		if gx := g(x); in(x) {
			hi, ghi = x, gx
			if side == 1 {
				glo /= 2
			}
			side = 1
		} else {
			lo, glo = x, gx
			if side == -1 {
				ghi /= 2
			}
			side = -1
		}
	}
	return hi
}
