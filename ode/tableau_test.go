package ode

import (
	"fmt"
	"math"
	"testing"
)

// rootedTree is a rooted tree given by the subtrees of its root (Butcher's notation
// [t1, …, tm]); the empty tree is the single node τ.
type rootedTree []rootedTree

func (t rootedTree) order() int {
	n := 1
	for _, c := range t {
		n += c.order()
	}
	return n
}

// density is γ(t) = ρ(t)·Πγ(tᵢ).
func (t rootedTree) density() float64 {
	g := float64(t.order())
	for _, c := range t {
		g *= c.density()
	}
	return g
}

// weights returns the stage vector Φ(t) with Φ(τ) = 1 and Φ([t1…tm]) = Π A·Φ(tᵢ).
func (t rootedTree) weights(A [][]float64) []float64 {
	s := len(A)
	phi := make([]float64, s)
	for i := range phi {
		phi[i] = 1
	}
	for _, c := range t {
		pc := c.weights(A)
		for i := range s {
			sum := 0.0
			for j := range s {
				sum += A[i][j] * pc[j]
			}
			phi[i] *= sum
		}
	}
	return phi
}

// treesUpTo returns all rooted trees of order 1…p, each once.
func treesUpTo(p int) [][]rootedTree {
	byOrder := make([][]rootedTree, p+1)
	byOrder[1] = []rootedTree{{}}
	for n := 2; n <= p; n++ {
		// Multisets of subtrees with total order n−1, subtrees taken in a fixed order
		// (by order, then by index) so each multiset appears once.
		type ref struct{ order, idx int }
		var all []ref
		for k := 1; k < n; k++ {
			for i := range byOrder[k] {
				all = append(all, ref{k, i})
			}
		}
		var rec func(from, rem int, acc rootedTree)
		rec = func(from, rem int, acc rootedTree) {
			if rem == 0 {
				byOrder[n] = append(byOrder[n], append(rootedTree(nil), acc...))
				return
			}
			for i := from; i < len(all); i++ {
				if all[i].order <= rem {
					rec(i, rem-all[i].order, append(acc, byOrder[all[i].order][all[i].idx]))
				}
			}
		}
		rec(0, n-1, nil)
	}
	return byOrder
}

func dopriA() [][]float64 {
	return [][]float64{
		{0, 0, 0, 0, 0, 0, 0},
		{a21, 0, 0, 0, 0, 0, 0},
		{a31, a32, 0, 0, 0, 0, 0},
		{a41, a42, a43, 0, 0, 0, 0},
		{a51, a52, a53, a54, 0, 0, 0},
		{a61, a62, a63, a64, a65, 0, 0},
		{b1, 0, b3, b4, b5, b6, 0},
	}
}

// denseWeights returns the weights bᵢ(θ) of y(t0+θh) = y0 + h·Σ bᵢ(θ)kᵢ implied by the
// quartic form of quartic(): c1 = h·Σbᵢkᵢ, c2 = h·k1 − c1, c3 = c1 − h·k7 − c2, c4 = h·Σdᵢkᵢ.
func denseWeights(theta float64) []float64 {
	b := []float64{b1, 0, b3, b4, b5, b6, 0}
	d := []float64{d1, 0, d3, d4, d5, d6, d7}
	w := make([]float64, 7)
	u := 1 - theta
	for i := range w {
		var first, last float64
		if i == 0 {
			first = 1
		}
		if i == 6 {
			last = 1
		}
		c1 := b[i]
		c2 := first - c1
		c3 := c1 - last - c2
		w[i] = theta * (c1 + u*(c2+theta*(c3+u*d[i])))
	}
	return w
}

// residual returns Σ wᵢΦᵢ(t) − θ^ρ/γ.
func residual(w []float64, t rootedTree, A [][]float64, theta float64) float64 {
	phi := t.weights(A)
	sum := 0.0
	for i := range w {
		sum += w[i] * phi[i]
	}
	return sum - math.Pow(theta, float64(t.order()))/t.density()
}

// TestDormandPrinceOrderConditions checks the Butcher order conditions of the tableau in
// float64: the propagated weights have order 5, the embedded weights order exactly 4,
// and the dense output order 4 for every θ tested. Any mistyped digit of a coefficient
// leaves a residual far above the 1e-14 rounding level.
func TestDormandPrinceOrderConditions(t *testing.T) {
	const tol = 1e-14
	A := dopriA()
	trees := treesUpTo(5)
	if got := []int{len(trees[1]), len(trees[2]), len(trees[3]), len(trees[4]), len(trees[5])}; fmt.Sprint(got) != "[1 1 2 4 9]" {
		t.Fatalf("tree counts %v, want [1 1 2 4 9]", got)
	}
	// Row sums: cᵢ = Σⱼ aᵢⱼ.
	for i, c := range []float64{0, c2, c3, c4, c5, 1, 1} {
		sum := 0.0
		for _, a := range A[i] {
			sum += a
		}
		if math.Abs(sum-c) > tol {
			t.Errorf("row %d sums to %v, c = %v", i+1, sum, c)
		}
	}
	b := []float64{b1, 0, b3, b4, b5, b6, 0}
	bh := []float64{bh1, 0, bh3, bh4, bh5, bh6, bh7}
	e := []float64{e1, e2, e3, e4, e5, e6, e7}
	for i := range e {
		if math.Abs(e[i]-(b[i]-bh[i])) > tol {
			t.Errorf("e%d = %v, want b−b̂ = %v", i+1, e[i], b[i]-bh[i])
		}
	}
	maxOrder5Embedded := 0.0
	for p := 1; p <= 5; p++ {
		for _, tr := range trees[p] {
			if r := residual(b, tr, A, 1); math.Abs(r) > tol {
				t.Errorf("b: order-%d condition %v residual %g", p, tr, r)
			}
			r := residual(bh, tr, A, 1)
			if p <= 4 && math.Abs(r) > tol {
				t.Errorf("b̂: order-%d condition %v residual %g", p, tr, r)
			}
			if p == 5 {
				maxOrder5Embedded = max(maxOrder5Embedded, math.Abs(r))
			}
		}
	}
	if maxOrder5Embedded < 1e-5 {
		t.Errorf("b̂ satisfies the order-5 conditions (max residual %g): the error estimate would vanish", maxOrder5Embedded)
	}
	for _, theta := range []float64{0.1, 0.25, 1.0 / 3, 0.5, 0.7, 0.9, 1} {
		w := denseWeights(theta)
		for p := 1; p <= 4; p++ {
			for _, tr := range trees[p] {
				if r := residual(w, tr, A, theta); math.Abs(r) > tol {
					t.Errorf("dense output θ=%v: order-%d condition %v residual %g", theta, p, tr, r)
				}
			}
		}
	}
	// The quartic correction vanishes in the mean: Σdᵢ = 0 keeps y'(t0) = k1.
	if s := d1 + d3 + d4 + d5 + d6 + d7; math.Abs(s) > tol {
		t.Errorf("Σd = %g, want 0", s)
	}
}
