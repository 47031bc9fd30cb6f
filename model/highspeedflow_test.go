package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

// integral is ∫_lo^hi f(w) dw to about 1e-14: 64-point Gauss–Legendre in ln w on each
// piece between HighSpeed's kinks at Low_Window and High_Window.
func integral(f func(w float64) float64, lo, hi float64) float64 {
	cuts := []float64{lo}
	for _, k := range []float64{hsLowWindow, hsHighWindow} {
		if lo < k && k < hi {
			cuts = append(cuts, k)
		}
	}
	cuts = append(cuts, hi)
	sum := 0.0
	for i := 1; i < len(cuts); i++ {
		g := func(x float64) float64 { w := math.Exp(x); return w * f(w) }
		sum += quad.Fixed(g, math.Log(cuts[i-1]), math.Log(cuts[i]), 64, quad.Legendre{}, 0)
	}
	return sum
}

// HighSpeed's flow from the table gives the window and the rounds whose integrals the law
// defines, s = ∫w/a(w) dw and u = ∫dw/a(w) from w0, within 1e-9 (the table's cubic
// interpolation is good to about 1e-11), over windows from 1 to 10^8 packets and cycles
// that grow the window by 10^-6 to 100 times, across the kinks of a(w) at 38 and 83,000.
func TestHighSpeedFlowMatchesIntegrals(t *testing.T) {
	r := (&highSpeed{}).newRule(false)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		w0 := math.Exp(rng.Float64() * math.Log(1e8))
		w1 := w0 * math.Exp(rng.Float64()*math.Log(100)+math.Log(1+1e-6))
		if w1 >= hsFlowTop {
			continue
		}
		s := integral(func(w float64) float64 { return w / HighSpeedA(w) }, w0, w1)
		w, u, ok := r.Flow(w0, s, Observation{})
		rounds := func(w0, w1 float64) float64 {
			return integral(func(w float64) float64 { return 1 / HighSpeedA(w) }, w0, w1)
		}
		// u is a difference of tabulated rounds from Low_Window, each good to 1e-11 of
		// itself: a short cycle high up has that absolute error.
		wantU, fromLow := rounds(w0, w1), rounds(hsLowWindow, max(w1, hsLowWindow))
		if !ok || math.Abs(w-w1) > 1e-9*w1 || math.Abs(u-wantU) > 1e-9*wantU+1e-10*fromLow {
			t.Fatalf("w0 %.9g, s %.9g: window %.12g, rounds %.12g, ok %v; want %.12g, %.12g", w0, s, w, u, ok, w1, wantU)
		}
	}
}

// Beyond the table the flow is the quadrature's, and the two agree where both apply.
func TestHighSpeedFlowBeyondTable(t *testing.T) {
	r := (&highSpeed{}).newRule(false)
	w, u, ok := r.Flow(2*hsFlowTop, 1e15, Observation{})
	wq, uq, okq := flowByQuadrature(2*hsFlowTop, 1e15)
	if !ok || !okq || w != wq || u != uq {
		t.Errorf("beyond the table: %v %v %v, quadrature %v %v %v", w, u, ok, wq, uq, okq)
	}
	for _, w0 := range []float64{10, 100, 5000} {
		s := w0 * w0 / 8
		w, u, _ := r.Flow(w0, s, Observation{})
		wq, uq, _ := flowByQuadrature(w0, s)
		if math.Abs(w-wq) > 1e-9*wq || math.Abs(u-uq) > 1e-9*uq {
			t.Errorf("w0 %v: table %.12g, %.12g; quadrature %.12g, %.12g", w0, w, u, wq, uq)
		}
	}
}

func BenchmarkHighSpeedFlow(b *testing.B) {
	r := (&highSpeed{}).newRule(false)
	for b.Loop() {
		r.Flow(3000, 3000*3000/50, Observation{})
	}
}
