package ode

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// RK4 is the classical fourth-order Runge–Kutta method with a fixed step: Step(h) takes
// exactly h. Its dense output over a step is the cubic Hermite interpolant of the end
// points and end slopes (local error O(h⁴)). The slope at the end of a step is the first
// stage of the next, so a step costs four derivative evaluations.
//
// RK4 has no error control: a NaN or ±Inf state or derivative returns ErrNonFinite at
// once.
type RK4 struct {
	err error
	f   func(dst *mat.VecDense, t float64, y mat.Vector)

	t                   float64
	y, yPrev, yNw       vec
	fCur, fPrev, fNw    vec // f(t, y), the slope at the start of the last step, scratch
	k2, k3, k4, ys      vec
	hasStep, denseReady bool
	tPrev, tLast, hLast float64
	r                   [5][]float64 // Hermite form of quarticDense; r[4] stays zero
}

var (
	_ Dense        = (*RK4)(nil)
	_ quarticDense = (*RK4)(nil)
	_ endSnapper   = (*RK4)(nil)
)

// NewRK4 returns a classical fourth-order Runge–Kutta integrator.
func NewRK4() *RK4 { return &RK4{} }

// Init implements Integrator. It evaluates the derivative at the initial state.
func (rk *RK4) Init(p IVP) {
	n, err := p.validate()
	if rk.err = err; err != nil {
		rk.f = nil
		return
	}
	if len(rk.y.d) != n {
		rk.y, rk.yPrev, rk.yNw = newVec(n), newVec(n), newVec(n)
		rk.fCur, rk.fPrev, rk.fNw = newVec(n), newVec(n), newVec(n)
		rk.k2, rk.k3, rk.k4, rk.ys = newVec(n), newVec(n), newVec(n), newVec(n)
		for i := 1; i < len(rk.r); i++ {
			rk.r[i] = make([]float64, n)
		}
	}
	rk.f = p.Func
	rk.t = p.T0
	readVec(rk.y.d, p.Y0)
	rk.restart()
}

func (rk *RK4) initErr() error { return rk.err }

// Reset implements Dense.
func (rk *RK4) Reset(t float64, y mat.Vector) {
	if rk.f == nil {
		return // Init failed; Step reports why.
	}
	if y == nil || y.Len() != len(rk.y.d) || !isFinite(t) {
		rk.err = fmt.Errorf("%w: Reset to t = %v with a state of the wrong length or non-finite time", ErrBadArgument, t)
		return
	}
	rk.t = t
	readVec(rk.y.d, y)
	rk.restart()
}

func (rk *RK4) restart() {
	rk.hasStep = false
	rk.err = nil
	if i := firstNonFinite(rk.y.d); i >= 0 {
		rk.err = fmt.Errorf("%w: state component %d = %v at t = %v", ErrNonFinite, i, rk.y.d[i], rk.t)
		return
	}
	rk.f(rk.fCur.v, rk.t, rk.y.v)
	if i := firstNonFinite(rk.fCur.d); i >= 0 {
		rk.err = fmt.Errorf("%w: derivative component %d = %v at t = %v", ErrNonFinite, i, rk.fCur.d[i], rk.t)
	}
}

// Step implements Integrator: it takes exactly step and returns step.
func (rk *RK4) Step(step float64) (float64, error) {
	if rk.err != nil {
		return 0, rk.err
	}
	rk.hasStep = false
	h := step
	if !(h > 0) || math.IsInf(h, 1) {
		return 0, fmt.Errorf("%w: step = %v at t = %v, must be finite and > 0", ErrBadArgument, step, rk.t)
	}
	t, y := rk.t, rk.y.d
	n := len(y)
	k1, k2, k3, k4 := rk.fCur.d[:n], rk.k2.d[:n], rk.k3.d[:n], rk.k4.d[:n]
	ys, yn := rk.ys.d[:n], rk.yNw.d[:n]
	half := h / 2
	for i := range ys {
		ys[i] = y[i] + half*k1[i]
	}
	rk.f(rk.k2.v, t+half, rk.ys.v)
	for i := range ys {
		ys[i] = y[i] + half*k2[i]
	}
	rk.f(rk.k3.v, t+half, rk.ys.v)
	for i := range ys {
		ys[i] = y[i] + h*k3[i]
	}
	rk.f(rk.k4.v, t+h, rk.ys.v)
	sixth := h / 6
	for i := range yn {
		yn[i] = y[i] + sixth*(k1[i]+2*(k2[i]+k3[i])+k4[i])
	}
	if i := firstNonFinite(yn); i >= 0 {
		return 0, fmt.Errorf("%w: state component %d = %v at t = %v (step %v from t = %v)", ErrNonFinite, i, yn[i], t+h, h, t)
	}
	rk.f(rk.fNw.v, t+h, rk.yNw.v)
	if i := firstNonFinite(rk.fNw.d); i >= 0 {
		return 0, fmt.Errorf("%w: derivative component %d = %v at t = %v", ErrNonFinite, i, rk.fNw.d[i], t+h)
	}
	rk.tPrev, rk.hLast = t, h
	rk.t += h
	rk.tLast = rk.t
	rk.yPrev, rk.y, rk.yNw = rk.y, rk.yNw, rk.yPrev
	rk.fPrev, rk.fCur, rk.fNw = rk.fCur, rk.fNw, rk.fPrev
	rk.hasStep, rk.denseReady = true, false
	return h, nil
}

// State implements Integrator.
func (rk *RK4) State(dst *State) {
	dst.T = rk.t
	writeVec(&dst.Y, rk.y.d)
}

// LastStep implements Dense.
func (rk *RK4) LastStep() (t0, t1 float64) {
	if !rk.hasStep {
		return rk.t, rk.t
	}
	return rk.tPrev, rk.tLast
}

// Interpolate implements Dense with the cubic Hermite interpolant of the last step.
func (rk *RK4) Interpolate(dst *mat.VecDense, t float64) {
	if !rk.hasStep {
		copyInto(dst, rk.y.d)
		return
	}
	t0, h, c := rk.quartic()
	interpolateInto(dst, t, t0, h, c)
}

// quartic implements quarticDense.
func (rk *RK4) quartic() (t0, h float64, c *[5][]float64) {
	if !rk.denseReady {
		h := rk.hLast
		y0 := rk.yPrev.d
		n := len(y0)
		y1, f0, f1 := rk.y.d[:n], rk.fPrev.d[:n], rk.fCur.d[:n]
		r1, r2, r3 := rk.r[1][:n], rk.r[2][:n], rk.r[3][:n]
		rk.r[0] = y0
		for i := range y0 {
			dy := y1[i] - y0[i]
			s := h*f0[i] - dy
			r1[i], r2[i], r3[i] = dy, s, dy-h*f1[i]-s
		}
		rk.denseReady = true
	}
	return rk.tPrev, rk.hLast, &rk.r
}

// snapEnd implements endSnapper.
func (rk *RK4) snapEnd(t float64) {
	rk.t, rk.tLast = t, t
}
