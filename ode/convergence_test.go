package ode

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestConvergenceOrder integrates with fixed steps halved four times and fits the
// observed order. A method of order p has global error C·hᵖ + O(hᵖ⁺¹), so the slope
// lies near p once the steps are in the asymptotic range; the bands (±0.5 for order 5,
// ±0.3 for order 4) leave room for the O(h) correction and exclude the neighbouring
// integer orders.
func TestConvergenceOrder(t *testing.T) {
	cases := []struct {
		method  string
		new     func() Integrator
		steps   []int // numbers of steps over [t0, t1]
		lo, hi  float64
		problem testProblem
	}{
		{"DormandPrince", dpFixed, []int{8, 16, 32, 64}, 4.5, 5.5, decay},
		{"DormandPrince", dpFixed, []int{10, 20, 40, 80}, 4.5, 5.5, oscillator},
		{"DormandPrince", dpFixed, []int{20, 40, 80, 160}, 4.5, 5.5, lotkaVolterra},
		{"RK4", rk4Integrator, []int{8, 16, 32, 64}, 3.7, 4.3, decay},
		{"RK4", rk4Integrator, []int{20, 40, 80, 160}, 3.7, 4.3, oscillator},
		{"RK4", rk4Integrator, []int{40, 80, 160, 320}, 3.7, 4.3, lotkaVolterra},
	}
	for _, c := range cases {
		t.Run(c.method+"/"+c.problem.name, func(t *testing.T) {
			ref := reference(t, c.problem)
			var hs, errs []float64
			for _, n := range c.steps {
				e := fixedRun(t, c.new(), c.problem, n, ref)
				hs = append(hs, (c.problem.t1-c.problem.t0)/float64(n))
				errs = append(errs, e)
			}
			p := observedOrder(hs, errs)
			t.Logf("%s on %s: h %v errors %.3g observed order %.3f", c.method, c.problem.name, hs, errs, p)
			if errs[len(errs)-1] < 1e-13 {
				t.Errorf("smallest error %g is at rounding level; steps are too small to measure an order", errs[len(errs)-1])
			}
			if p < c.lo || p > c.hi {
				t.Errorf("observed order %.3f outside [%v, %v]", p, c.lo, c.hi)
			}
		})
	}
}

func dpFixed() Integrator       { return NewDormandPrince(Settings{FixedStep: true}) }
func rk4Integrator() Integrator { return NewRK4() }

// TestLotkaVolterraReference checks the tight reference run used above against the
// conserved quantity of the Lotka–Volterra system.
func TestLotkaVolterraReference(t *testing.T) {
	ref := reference(t, lotkaVolterra)
	if d := math.Abs(lvInvariant(ref) - lvInvariant(lotkaVolterra.y0)); d > 1e-11 {
		t.Errorf("reference drifts from the invariant by %g", d)
	}
}

// TestDenseOutputOrder takes single steps of decreasing length h and compares the dense
// output inside the step with the exact solution. The step itself has local error
// O(h⁶) for DormandPrince, so the interior error is that of the order-4 continuous
// extension, O(h⁵); for RK4 the cubic Hermite interpolant has interpolation error
// O(h⁴). A wrong dense-output coefficient breaks an order condition and drops the slope
// to 3 or less.
func TestDenseOutputOrder(t *testing.T) {
	// y' = −2t·y², y(t) = 1/(1+t²): nonlinear and non-autonomous, so every order
	// condition matters (a linear problem only tests Σbᵢcᵢᵏ-type conditions). Start at
	// t = −0.25: every step stays inside (−0.33, 0.33), away from the zeros of the
	// fourth derivative that would hide the Hermite error term.
	rational := testProblem{
		name: "y'=-2ty²", y0: []float64{1 / (1 + 0.25*0.25)}, t0: -0.25,
		f: func(dst *mat.VecDense, t float64, y mat.Vector) {
			v := raw(y)[0]
			raw(dst)[0] = -2 * t * v * v
		},
		exact: func(dst []float64, t float64) { dst[0] = 1 / (1 + t*t) },
	}
	cases := []struct {
		method  string
		in      func() Dense
		problem testProblem
		steps   []float64
		lo, hi  float64
	}{
		{"DormandPrince", denseDP, rational, []float64{0.1, 0.05, 0.025, 0.0125}, 4.5, 5.5},
		{"DormandPrince", denseDP, lotkaVolterra, []float64{0.4, 0.2, 0.1, 0.05}, 4.5, 5.5},
		{"RK4", func() Dense { return NewRK4() }, rational, []float64{0.05, 0.025, 0.0125, 0.00625}, 3.7, 4.3},
		{"RK4", func() Dense { return NewRK4() }, lotkaVolterra, []float64{0.4, 0.2, 0.1, 0.05}, 3.7, 4.3},
	}
	for _, c := range cases {
		t.Run(c.method+"/"+c.problem.name, func(t *testing.T) {
			var hs, errs []float64
			for _, h := range c.steps {
				p := c.problem
				in := c.in()
				in.Init(p.ivp())
				if _, err := in.Step(h); err != nil {
					t.Fatal(err)
				}
				worst := 0.0
				got := mat.NewVecDense(len(p.y0), nil)
				for _, theta := range []float64{0.25, 0.5, 0.75} {
					tq := p.t0 + theta*h
					in.Interpolate(got, tq)
					p.t1 = tq
					worst = max(worst, maxAbsDiff(raw(got), reference(t, p)))
				}
				hs, errs = append(hs, h), append(errs, worst)
			}
			order := observedOrder(hs, errs)
			t.Logf("%s dense output on %s: h %v errors %.3g observed order %.3f", c.method, c.problem.name, hs, errs, order)
			if errs[len(errs)-1] < 1e-13 {
				t.Errorf("smallest error %g is at rounding level", errs[len(errs)-1])
			}
			if order < c.lo || order > c.hi {
				t.Errorf("observed dense-output order %.3f outside [%v, %v]", order, c.lo, c.hi)
			}
		})
	}
}

func denseDP() Dense { return NewDormandPrince(Settings{FixedStep: true}) }

// TestDenseOutputEndpoints checks that the dense output reproduces the step's end points.
func TestDenseOutputEndpoints(t *testing.T) {
	for _, in := range []Dense{NewDormandPrince(Settings{FixedStep: true}), NewRK4()} {
		in.Init(lotkaVolterra.ivp())
		if _, err := in.Step(0.3); err != nil {
			t.Fatal(err)
		}
		t0, t1 := in.LastStep()
		got := mat.NewVecDense(2, nil)
		in.Interpolate(got, t0)
		if d := maxAbsDiff(raw(got), lotkaVolterra.y0); d > 1e-15 {
			t.Errorf("%T: y(t0) off by %g", in, d)
		}
		var s State
		in.State(&s)
		in.Interpolate(got, t1)
		if d := maxAbsDiff(raw(got), raw(s.Y)); d > 4e-16 {
			t.Errorf("%T: y(t1) off by %g", in, d)
		}
	}
}
