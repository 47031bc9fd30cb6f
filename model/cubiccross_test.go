package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scanFirst is the first of n+1 evenly spaced points in [lo, hi] in the set, refined by
// bisection against the point before it: the reference the analytic search must meet.
func scanFirst(in func(float64) bool, lo, hi float64, n int) (float64, bool) {
	prev := lo
	for j := 0; j <= n; j++ {
		v := lo + (hi-lo)*float64(j)/float64(n)
		if in(v) {
			if j == 0 {
				return v, true
			}
			a, b := prev, v
			for range 200 {
				m := a + (b-a)/2
				if m <= a || m >= b {
					break
				}
				if in(m) {
					b = m
				} else {
					a = m
				}
			}
			return b, true
		}
		prev = v
	}
	return 0, false
}

// The crossings of CUBIC's curve with W_est, found on the curve's monotone pieces, are the
// ones a scan of 200,000 points finds, in random epochs around the plateau; and the point
// returned is on the far side of the crossing, as the next stretch needs.
func TestCubicCrossingsMatchScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	found := [2]int{}
	for i := range 3000 {
		f := &cubicFluid{cubicEpoch: newCubicEpoch(cubicParams{c: 0.4, beta: 0.7, friendly: 1})}
		f.k = 0.5 + 20*rng.Float64()
		f.origin = 10 + 1e4*rng.Float64()
		t0 := f.k * 2 * rng.Float64()
		m := 0.01 + 100*rng.Float64() // packets/s: α·k
		vz := 0.1 + 30*rng.Float64()
		off := f.origin * (rng.Float64() - 0.5) * 0.01
		e0 := f.curve(t0) - off // the line starts a little above or below the curve
		const shade = 1 - 1e-9
		below := func(v float64) bool { return f.curve(t0+v) < shade*(e0+m*v) }
		above := func(v float64) bool { return f.curve(t0+v) >= e0+m*v }
		check := func(name string, in func(float64) bool, got float64, ok bool) {
			want, wantOK := scanFirst(in, 0, vz, 200_000)
			if ok != wantOK || (ok && math.Abs(got-want) > 1e-9*vz) || (ok && !in(got)) {
				t.Fatalf("epoch %d (K %.4g, origin %.4g, t %.4g, m %.4g, vz %.4g): %s at %v (%v), scan %v (%v)",
					i, f.k, f.origin, t0, m, vz, name, got, ok, want, wantOK)
			}
		}
		if !below(0) {
			v, ok := f.firstBelow(t0, 0, vz, e0, m)
			check("below", below, v, ok)
			found[0] += btoi(ok)
		}
		if !above(0) {
			v, ok := f.firstAbove(t0, vz, e0, m)
			check("above", above, v, ok)
			found[1] += btoi(ok)
		}
	}
	if found[0] < 100 || found[1] < 100 {
		t.Errorf("crossings found below %d, above %d: the epochs exercise too few", found[0], found[1])
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
