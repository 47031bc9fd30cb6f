package ode

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// polynomial in s = t − k on [k, k+1], coefficients by ascending power.
type polynomial []float64

func (p polynomial) at(s float64) float64 {
	v := 0.0
	for i := len(p) - 1; i >= 0; i-- {
		v = v*s + p[i]
	}
	return v
}

// methodOfSteps returns the exact solution of y'(t) = −y(t−1), y = 1 on [−1, 0], as
// one polynomial per unit interval [k, k+1], k = 0…n−1: pₖ(s) = pₖ₋₁(1) − ∫₀ˢ pₖ₋₁.
func methodOfSteps(n int) []polynomial {
	prev := polynomial{1}
	out := make([]polynomial, n)
	for k := range out {
		p := make(polynomial, len(prev)+1)
		p[0] = prev.at(1)
		for i, c := range prev {
			p[i+1] = -c / float64(i+1)
		}
		out[k], prev = p, p
	}
	return out
}

// TestDelayConstant solves y'(t) = −y(t−1) with y = 1 on [−1, 0] over [0, 5] and
// compares with the method-of-steps solution at interior points of every step (through
// the Driver's dense output) and through History look-ups. Advancing to each integer
// puts a step boundary on every derivative discontinuity. Tolerance proportionality
// asks for a global error below 10·RelTol (|y| ≤ 1).
func TestDelayConstant(t *testing.T) {
	exact := methodOfSteps(5)
	yExact := func(t float64) float64 {
		k := min(int(math.Floor(t)), len(exact)-1)
		return exact[k].at(t - float64(k))
	}
	for _, c := range []struct {
		name   string
		in     Dense
		bound  float64
		driver DriverSettings
	}{
		{"DormandPrince", NewDormandPrince(Settings{RelTol: 1e-8, AbsTol: 1e-10, MaxStep: 1}), 10 * 1e-8, DriverSettings{}},
		// RK4 with h = 1/64: global error C·h⁴ with C of order one; the Hermite history
		// (error h⁴/384·|y⁗|) does not spoil it.
		{"RK4", NewRK4(), math.Pow(1.0/64, 4), DriverSettings{Step: 1.0 / 64}},
	} {
		t.Run(c.name, func(t *testing.T) {
			hist := NewHistory(1, 1, func(dst []float64, _ float64) { dst[0] = 1 })
			ivp := IVP{Y0: mat.NewVecDense(1, []float64{1}), Func: func(dst *mat.VecDense, t float64, _ mat.Vector) {
				raw(dst)[0] = -hist.At(0, t-1)
			}}
			var d *Driver
			worst := 0.0
			y := mat.NewVecDense(1, nil)
			c.driver.History = hist
			c.driver.OnStep = func(t0, t1 float64) {
				for _, theta := range []float64{0.25, 0.5, 0.75, 1} {
					tq := t0 + theta*(t1-t0)
					d.Interpolate(y, tq)
					worst = max(worst, math.Abs(y.AtVec(0)-yExact(tq)))
				}
			}
			var err error
			if d, err = NewDriver(c.in, ivp, nil, c.driver); err != nil {
				t.Fatal(err)
			}
			for k := 1; k <= 5; k++ {
				if _, err := d.Advance(context.Background(), float64(k)); err != nil {
					t.Fatal(err)
				}
			}
			// The history serves the last maxDelay = 1 time units.
			histWorst := 0.0
			for tq := 4.0; tq <= 5; tq += 1.0 / 128 {
				histWorst = max(histWorst, math.Abs(hist.At(0, tq)-yExact(tq)))
			}
			t.Logf("%d steps, max error %.3g along the steps, %.3g in the history (bound %.3g); %d steps retained", d.Steps(), worst, histWorst, c.bound, hist.Len())
			if worst > c.bound || histWorst > c.bound {
				t.Errorf("max error %g along the steps, %g in the history, want ≤ %g", worst, histWorst, c.bound)
			}
			if hist.Len() >= d.Steps() {
				t.Errorf("history kept all %d steps; steps older than maxDelay should be dropped", hist.Len())
			}
		})
	}
}

// TestDelayStateDependent solves y'(t) = −y(t−τ(y(t))) + f(t) with τ(y) = 1 + y²/2 and
// f(t) = −sin t + cos(t − 1 − cos²t/2), whose solution for the history y = cos t
// (t ≤ 0) is y = cos t. The delay varies in [1, 1.5], so look-ups move within the stored
// steps and, early on, into the user's history function. Over [0, 3] the global error
// must stay below 10·RelTol, and it must shrink in proportion to RelTol (fitted exponent
// in [0.8, 1.2]): a history of lower order than the integrator (say linear
// interpolation, error ∝ h² ∝ RelTol^(2/5)) fails the exponent.
func TestDelayStateDependent(t *testing.T) {
	const horizon = 3.0
	var tols, errs []float64
	for _, rtol := range []float64{1e-6, 1e-8, 1e-10} {
		hist := NewHistory(1, 1.5, func(dst []float64, t float64) { dst[0] = math.Cos(t) })
		ivp := IVP{Y0: mat.NewVecDense(1, []float64{1}), Func: func(dst *mat.VecDense, t float64, y mat.Vector) {
			v := raw(y)[0]
			tau := 1 + v*v/2
			c := math.Cos(t)
			raw(dst)[0] = -hist.At(0, t-tau) - math.Sin(t) + math.Cos(t-1-c*c/2)
		}}
		worst := 0.0
		var d *Driver
		y := mat.NewVecDense(1, nil)
		s := DriverSettings{History: hist, OnStep: func(t0, t1 float64) {
			for _, theta := range []float64{0.5, 1} {
				tq := t0 + theta*(t1-t0)
				d.Interpolate(y, tq)
				worst = max(worst, math.Abs(y.AtVec(0)-math.Cos(tq)))
			}
		}}
		var err error
		d, err = NewDriver(NewDormandPrince(Settings{RelTol: rtol, AbsTol: rtol / 100, MaxStep: 1}), ivp, nil, s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Advance(context.Background(), horizon); err != nil {
			t.Fatal(err)
		}
		t.Logf("RelTol %g: %d steps, max error %.3g (%.2f·RelTol), %d steps retained", rtol, d.Steps(), worst, worst/rtol, hist.Len())
		if worst > 10*rtol {
			t.Errorf("RelTol %g: max error %g, want ≤ %g", rtol, worst, 10*rtol)
		}
		tols, errs = append(tols, rtol), append(errs, worst)
	}
	if p := observedOrder(tols, errs); p < 0.8 || p > 1.2 {
		t.Errorf("error ∝ RelTol^%.3f, want exponent in [0.8, 1.2]", p)
	} else {
		t.Logf("error ∝ RelTol^%.3f", p)
	}
}

// squareSteps records n steps of length h of y(t) = t², represented exactly by the
// quartic form with c0 = t0², c1 = 2t0h + h², c2 = −h², c3 = c4 = 0.
func squareSteps(h *History, t0, step float64, n int) {
	c := [5][]float64{{0}, {0}, {0}, {0}, {0}}
	for k := range n {
		a := t0 + float64(k)*step
		c[0][0], c[1][0], c[2][0] = a*a, 2*a*step+step*step, -step*step
		h.record(a, step, a+step, &c)
	}
}

func TestHistoryLookups(t *testing.T) {
	before := func(dst []float64, t float64) { dst[0] = -t }
	h := NewHistory(1, 1, before)
	h.reset(0, mat.NewVecDense(1, []float64{0}))
	if got := h.At(0, 0.5); got != 0 {
		t.Errorf("empty history at 0.5 = %v, want the initial state 0", got)
	}
	squareSteps(h, 0, 0.1, 100) // t ∈ [0, 10]
	for _, c := range []struct {
		t, want, tol float64
	}{
		{-0.5, 0.5, 0},             // before T0: the user's function
		{9.05, 9.05 * 9.05, 1e-13}, // inside the retained window
		{9.0, 81, 1e-13},           // exactly at a step boundary
		{10, 100, 1e-13},           // newest end
		{10.05, 10.05 * 10.05, 1e-12},
	} {
		if got := h.At(0, c.t); math.Abs(got-c.want) > c.tol {
			t.Errorf("At(%v) = %v, want %v", c.t, got, c.want)
		}
		dst := []float64{math.NaN()}
		if h.AtVec(dst, c.t); math.Abs(dst[0]-c.want) > c.tol {
			t.Errorf("AtVec(%v) = %v, want %v", c.t, dst[0], c.want)
		}
	}
	// Steps ending more than maxDelay = 1 before t = 10 are gone: 10 or 11 remain.
	if n := h.Len(); n < 10 || n > 11 {
		t.Errorf("Len = %d, want the ≈10 steps of the last time unit", n)
	}
	// Older look-ups clamp to the start of the oldest retained step.
	oldest := h.start[h.head]
	if got := h.At(0, 2); got != oldest*oldest {
		t.Errorf("At(2) beyond maxDelay = %v, want the oldest retained value %v", got, oldest*oldest)
	}

	// maxDelay = +Inf keeps everything, growing the ring.
	all := NewHistory(1, math.Inf(1), nil)
	all.reset(0, mat.NewVecDense(1, []float64{3}))
	if got := all.At(0, -1); got != 3 {
		t.Errorf("nil history function: At(−1) = %v, want the initial state 3", got)
	}
	squareSteps(all, 0, 0.1, 100)
	if all.Len() != 100 {
		t.Errorf("Len = %d, want 100", all.Len())
	}
	for _, tq := range []float64{0.05, 3.33, 7.77} {
		if got := all.At(0, tq); math.Abs(got-tq*tq) > 1e-13 {
			t.Errorf("At(%v) = %v, want %v", tq, got, tq*tq)
		}
	}
}

// TestHistoryDerivatives integrates y' = cos t (y = sin t) with fixed Dormand–Prince
// steps h = 1/20 and checks the derivative look-ups against cos, −sin and −cos. The
// continuous extension has order 4, so its k-th derivative is accurate to O(h^(5−k));
// for sin, whose derivatives are bounded by one, the bound is h^(5−k). Before T0 and
// before the first step the history is constant.
func TestHistoryDerivatives(t *testing.T) {
	const h = 1.0 / 20
	hist := NewHistory(1, math.Inf(1), nil)
	ivp := IVP{Y0: mat.NewVecDense(1, []float64{0}), Func: func(dst *mat.VecDense, t float64, _ mat.Vector) {
		raw(dst)[0] = math.Cos(t)
	}}
	d, err := NewDriver(NewDormandPrince(Settings{FixedStep: true}), ivp, nil, DriverSettings{History: hist, Step: h})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, 4)
	hist.Derivatives(0, 1, dst)
	if dst[0] != 0 || dst[1] != 0 {
		t.Errorf("before the first step: %v, want the constant initial state", dst)
	}
	if _, err := d.Advance(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	hist.Derivatives(0, -1, dst)
	if dst[0] != 0 || dst[1] != 0 || dst[2] != 0 {
		t.Errorf("before T0: %v, want the constant initial state", dst)
	}
	worst := make([]float64, 4)
	for tq := 0.001; tq < 3; tq += 0.00737 {
		hist.Derivatives(0, tq, dst)
		want := []float64{math.Sin(tq), math.Cos(tq), -math.Sin(tq), -math.Cos(tq)}
		for k := range dst {
			worst[k] = max(worst[k], math.Abs(dst[k]-want[k]))
		}
		if v := hist.At(0, tq); v != dst[0] {
			t.Fatalf("Derivatives value %v differs from At %v at t = %v", dst[0], v, tq)
		}
	}
	t.Logf("max errors of the value and derivatives 1 to 3: %.3g", worst)
	for k := range worst {
		if bound := math.Pow(h, float64(5-k)); worst[k] > bound {
			t.Errorf("derivative %d: max error %g, want ≤ h^%d = %g", k, worst[k], 5-k, bound)
		}
	}
}
