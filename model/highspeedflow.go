package model

import (
	"math"
	"sort"
	"sync"

	"gonum.org/v1/gonum/integrate/quad"
)

// Flow: the closed form a(w) (no table, no whole-packet counting) has no closed-form flow,
// but the rounds and window-rounds to a window w are one-dimensional integrals from w0,
// u = ∫dw/a(w) and s = ∫w/a(w) dw. Their antiderivatives from Low_Window are tabulated
// once (hsFlowTable), so that a loss cycle costs two table lookups and a cubic's root
// instead of quadratures; below Low_Window a = 1 and they are closed forms. Windows beyond
// the table fall back to Newton's method on 12-point Gauss–Legendre quadratures
// (flowByQuadrature), which the table is checked against.
func (r *highSpeedRule) Flow(w0, s float64, _ Observation) (float64, float64, bool) {
	if r.rows != nil || r.p.whole != 0 || !(w0 >= 1) {
		return 0, 0, false
	}
	t := hsFlowTable()
	if w, ok := t.window(t.area(w0) + s); ok {
		return w, t.rounds(w) - t.rounds(w0), true
	}
	return flowByQuadrature(w0, s)
}

// hsAntiderivatives holds S(w) = ∫w/a(w) dw and U(w) = ∫dw/a(w) from Low_Window, at nodes
// of x = ln w 1/128 apart from ln Low_Window to ln hsFlowTop, with one node at ln
// High_Window (where b(w) stops falling and a(w) has a kink), and their slopes in x,
// w²/a(w) and w/a(w), for cubic Hermite interpolation. Over a cell the interpolation's
// relative error is about 1e-11 (h⁴/384 of S⁗ ≈ 1.2⁴·S), far below the solver's 1e-6.
type hsAntiderivatives struct {
	x, s, ds, u, du []float64
}

// hsFlowTop is the largest window the table holds, packets.
const hsFlowTop = 1e9

var hsFlowTable = sync.OnceValue(func() *hsAntiderivatives {
	t := &hsAntiderivatives{}
	add := func(x float64) {
		w, a := math.Exp(x), hsIncreaseAt(x)
		t.x, t.ds, t.du = append(t.x, x), append(t.ds, w*w/a), append(t.du, w/a)
	}
	for _, seg := range [][2]float64{{hsLnLow, hsLnHigh}, {hsLnHigh, math.Log(hsFlowTop)}} {
		n := int(math.Ceil((seg[1] - seg[0]) * 128))
		for k := range n {
			add(seg[0] + (seg[1]-seg[0])*float64(k)/float64(n))
		}
	}
	add(math.Log(hsFlowTop))
	t.s, t.u = make([]float64, len(t.x)), make([]float64, len(t.x))
	for k := 1; k < len(t.x); k++ {
		lo, hi := t.x[k-1], t.x[k]
		t.s[k] = t.s[k-1] + legendre(func(x float64) float64 { return math.Exp(2*x) / hsIncreaseAt(x) }, lo, hi)
		t.u[k] = t.u[k-1] + legendre(func(x float64) float64 { return math.Exp(x) / hsIncreaseAt(x) }, lo, hi)
	}
	return t
})

// hermite is the cubic Hermite interpolant through (0, f0) and (1, f1) with slopes d0, d1
// (per unit of t), and its slope, at t.
func hermite(f0, d0, f1, d1, t float64) (float64, float64) {
	t2, t3 := t*t, t*t*t
	f := (2*t3-3*t2+1)*f0 + (t3-2*t2+t)*d0 + (3*t2-2*t3)*f1 + (t3-t2)*d1
	df := (6*t2-6*t)*f0 + (3*t2-4*t+1)*d0 + (6*t-6*t2)*f1 + (3*t2-2*t)*d1
	return f, df
}

// at interpolates the tabulated f (slope df) in cell k at t ∈ [0, 1].
func (t *hsAntiderivatives) at(f, df []float64, k int, tt float64) (float64, float64) {
	h := t.x[k+1] - t.x[k]
	return hermite(f[k], h*df[k], f[k+1], h*df[k+1], tt)
}

// cell is the cell of the table holding window w and w's place in it.
func (t *hsAntiderivatives) cell(w float64) (int, float64) {
	x := math.Log(w)
	k := min(max(sort.SearchFloat64s(t.x, x)-1, 0), len(t.x)-2)
	return k, (x - t.x[k]) / (t.x[k+1] - t.x[k])
}

// area is S(w), window-rounds from Low_Window to w (negative below it); w ≤ hsFlowTop.
func (t *hsAntiderivatives) area(w float64) float64 {
	if w <= hsLowWindow {
		return (w*w - hsLowWindow*hsLowWindow) / 2
	}
	if w >= hsFlowTop {
		return math.Inf(1)
	}
	k, tt := t.cell(w)
	s, _ := t.at(t.s, t.ds, k, tt)
	return s
}

// rounds is U(w), rounds from Low_Window to w (negative below it); w ≤ hsFlowTop.
func (t *hsAntiderivatives) rounds(w float64) float64 {
	if w <= hsLowWindow {
		return w - hsLowWindow
	}
	k, tt := t.cell(w)
	u, _ := t.at(t.u, t.du, k, tt)
	return u
}

// window is the w with S(w) = s, and false beyond the table.
func (t *hsAntiderivatives) window(s float64) (float64, bool) {
	if s <= 0 {
		return math.Sqrt(hsLowWindow*hsLowWindow + 2*s), true
	}
	if !(s < t.s[len(t.s)-1]) {
		return 0, false
	}
	k := sort.SearchFloat64s(t.s, s) - 1
	// S is increasing and nearly linear over a cell: Newton's method from the chord.
	tt := (s - t.s[k]) / (t.s[k+1] - t.s[k])
	for range 20 {
		f, df := t.at(t.s, t.ds, k, tt)
		step := (f - s) / df
		tt = min(max(tt-step, 0), 1)
		if math.Abs(step) <= 1e-15 {
			break
		}
	}
	return math.Exp(t.x[k] + tt*(t.x[k+1]-t.x[k])), true
}

// flowByQuadrature is Flow by Newton's method on s(w) (slope w/a(w)), each step a
// 12-point Gauss–Legendre quadrature over the cycle's range of windows.
func flowByQuadrature(w0, s float64) (float64, float64, bool) {
	area := func(w float64) float64 { return gauss(func(v float64) float64 { return v / HighSpeedA(v) }, w0, w) }
	// a(w) never falls as w grows, so s ≤ (w² − w0²)/(2·a(w0)) bounds the window from below,
	// and s ≥ (w² − w0²)/(2·a(2·lo)) from above if that bound is below 2·lo: a bracket so
	// tight that Newton's method converges in three steps. Otherwise it is doubled until it
	// brackets.
	lo := math.Sqrt(w0*w0 + 2*HighSpeedA(w0)*s)
	hi := math.Sqrt(w0*w0 + 2*HighSpeedA(2*lo)*s)
	if !(hi <= 2*lo) {
		for hi = 2 * lo; area(hi) < s; {
			lo, hi = hi, 2*hi
		}
	}
	w, ok := solveIncreasing(area, func(v float64) float64 { return v / HighSpeedA(v) }, s, lo, hi)
	if !ok {
		return 0, 0, false
	}
	return w, gauss(func(v float64) float64 { return 1 / HighSpeedA(v) }, w0, w), true
}

// hsNodes and hsWeights are 12-point Gauss–Legendre on [−1, 1], for HighSpeed's flow.
var hsNodes, hsWeights = func() ([]float64, []float64) {
	x, w := make([]float64, 12), make([]float64, 12)
	quad.Legendre{}.FixedLocations(x, w, -1, 1)
	return x, w
}()

// gauss is ∫_lo^hi f(w) dw by legendre, split at HighSpeed's Low_Window, where a(w) has a
// kink.
func gauss(f func(float64) float64, lo, hi float64) float64 {
	if lo < hsLowWindow && hi > hsLowWindow {
		return legendre(f, lo, hsLowWindow) + legendre(f, hsLowWindow, hi)
	}
	return legendre(f, lo, hi)
}

// legendre is ∫_lo^hi f by hsNodes.
func legendre(f func(float64) float64, lo, hi float64) float64 {
	m, h, sum := (lo+hi)/2, (hi-lo)/2, 0.0
	for i, x := range hsNodes {
		sum += hsWeights[i] * f(m+h*x)
	}
	return h * sum
}
