package ode

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func raw(v mat.Vector) []float64 { return v.(*mat.VecDense).RawVector().Data }

// testProblem is an IVP on [T0, T1] with, when known, its exact solution.
type testProblem struct {
	name  string
	y0    []float64
	t0    float64
	t1    float64
	f     func(dst *mat.VecDense, t float64, y mat.Vector)
	exact func(dst []float64, t float64) // nil: use a tight DormandPrince reference
}

func (p testProblem) ivp() IVP {
	return IVP{Y0: mat.NewVecDense(len(p.y0), append([]float64(nil), p.y0...)), T0: p.t0, Func: p.f}
}

// decay is y' = −y, y(0) = 1.
var decay = testProblem{
	name: "decay", y0: []float64{1}, t1: 2,
	f:     func(dst *mat.VecDense, _ float64, y mat.Vector) { raw(dst)[0] = -raw(y)[0] },
	exact: func(dst []float64, t float64) { dst[0] = math.Exp(-t) },
}

// oscillator is the harmonic oscillator y1' = y2, y2' = −y1, y(0) = (1, 0).
var oscillator = testProblem{
	name: "oscillator", y0: []float64{1, 0}, t1: 5,
	f: func(dst *mat.VecDense, _ float64, y mat.Vector) {
		d, x := raw(dst), raw(y)
		d[0], d[1] = x[1], -x[0]
	},
	exact: func(dst []float64, t float64) { dst[0], dst[1] = math.Cos(t), -math.Sin(t) },
}

// lotkaVolterra is x' = x − xy, y' = xy − y from (1.5, 1): a nonlinear periodic orbit
// whose conserved quantity is V = x − ln x + y − ln y.
var lotkaVolterra = testProblem{
	name: "Lotka–Volterra", y0: []float64{1.5, 1}, t1: 6.5,
	f: func(dst *mat.VecDense, _ float64, y mat.Vector) {
		d, x := raw(dst), raw(y)
		d[0] = x[0] - x[0]*x[1]
		d[1] = x[0]*x[1] - x[1]
	},
}

func lvInvariant(y []float64) float64 { return y[0] - math.Log(y[0]) + y[1] - math.Log(y[1]) }

// reference returns y(p.t1), exact or from a DormandPrince run at RelTol 1e-13.
func reference(t *testing.T, p testProblem) []float64 {
	t.Helper()
	out := make([]float64, len(p.y0))
	if p.exact != nil {
		p.exact(out, p.t1)
		return out
	}
	d, err := NewDriver(NewDormandPrince(Settings{RelTol: 1e-13, AbsTol: 1e-15}), p.ivp(), nil, DriverSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Advance(context.Background(), p.t1); err != nil {
		t.Fatal(err)
	}
	copy(out, raw(d.Y()))
	return out
}

// maxAbsDiff returns max |a−b|.
func maxAbsDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// fixedRun integrates p with n equal steps of in and returns the maximum error at t1.
func fixedRun(t *testing.T, in Integrator, p testProblem, n int, ref []float64) float64 {
	t.Helper()
	in.Init(p.ivp())
	h := (p.t1 - p.t0) / float64(n)
	for range n {
		if _, err := in.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	var s State
	in.State(&s)
	return maxAbsDiff(raw(s.Y), ref)
}

// observedOrder fits log(err) = p·log(h) + c and returns p.
func observedOrder(hs, errs []float64) float64 {
	x := make([]float64, len(hs))
	y := make([]float64, len(hs))
	for i := range hs {
		x[i], y[i] = math.Log(hs[i]), math.Log(errs[i])
	}
	_, slope := stat.LinearRegression(x, y, nil, false)
	return slope
}
