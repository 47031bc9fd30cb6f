package ode

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// State is a point (T, Y) of a trajectory.
type State struct {
	T float64
	Y *mat.VecDense
}

// IVP is the initial value problem y' = Func(t, y), y(T0) = Y0.
//
// Func writes the derivative into dst, which has the length of Y0. The integrators of
// this package always pass y as a *mat.VecDense with unit increment, so Func may
// type-assert it and work on RawVector().Data directly.
type IVP struct {
	Y0   mat.Vector
	T0   float64
	Func func(dst *mat.VecDense, t float64, y mat.Vector)
}

// Integrator advances the solution of an IVP step by step; it has the shape of the
// Integrator of gonum.org/v1/exp/ode.
type Integrator interface {
	// Init sets up the integrator for the IVP. A malformed IVP is reported by the next
	// Step (ErrBadIVP).
	Init(IVP)
	// Step advances by at most step (the integrator may shorten it to meet its error
	// tolerance) and returns the proposed next step.
	Step(step float64) (stepNext float64, err error)
	// State writes the current state into dst; dst.Y is allocated when nil or of the
	// wrong length.
	State(dst *State)
}

// Dense is an Integrator with a continuous extension over its last accepted step.
type Dense interface {
	Integrator
	// LastStep returns [t0, t1] of the last accepted step; t0 == t1 before the first
	// step and after a Reset or a failed Step.
	LastStep() (t0, t1 float64)
	// Interpolate writes y(t) for t in [t0, t1] of the last accepted step into dst,
	// which must have the state's length. Outside [t0, t1] the polynomial is
	// extrapolated.
	Interpolate(dst *mat.VecDense, t float64)
	// Reset restarts from (t, y) after a jump, keeping the step-size controller's
	// last proposed step; the derivative at (t, y) is recomputed and the dense output
	// of the previous step is discarded.
	Reset(t float64, y mat.Vector)
}

// quarticDense is implemented by integrators whose dense output over the last step
// [t0, t0+h] is, with θ = (t−t0)/h,
//
//	y(t) = c0 + θ(c1 + (1−θ)(c2 + θ(c3 + (1−θ)c4))),
//
// the form in which History stores steps. c0…c3 make the cubic Hermite interpolant of
// the step's end points and end slopes; c4 adds the quartic correction.
type quarticDense interface {
	quartic() (t0, h float64, c *[5][]float64)
}

// endSnapper is implemented by integrators that can move the end of their last step to
// a time within rounding of it, so that a Driver lands exactly on its target time.
type endSnapper interface {
	snapEnd(t float64)
}

// initErrer is implemented by integrators that record a setup error at Init.
type initErrer interface {
	initErr() error
}

// validate checks the IVP and returns its dimension.
func (p IVP) validate() (int, error) {
	if p.Func == nil {
		return 0, fmt.Errorf("%w: Func is nil", ErrBadIVP)
	}
	if p.Y0 == nil {
		return 0, fmt.Errorf("%w: Y0 is nil", ErrBadIVP)
	}
	if v, ok := p.Y0.(*mat.VecDense); ok && (v == nil || v.IsEmpty()) {
		return 0, fmt.Errorf("%w: Y0 is empty", ErrBadIVP)
	}
	n := p.Y0.Len()
	if n == 0 {
		return 0, fmt.Errorf("%w: Y0 is empty", ErrBadIVP)
	}
	if !isFinite(p.T0) {
		return 0, fmt.Errorf("%w: T0 = %v, must be finite", ErrBadIVP, p.T0)
	}
	for i := range n {
		if v := p.Y0.AtVec(i); !isFinite(v) {
			return 0, fmt.Errorf("%w: Y0[%d] = %v, must be finite", ErrBadIVP, i, v)
		}
	}
	return n, nil
}

// vec is a vector buffer together with its mat wrapper, so both can be rotated together.
type vec struct {
	v *mat.VecDense
	d []float64
}

func newVec(n int) vec {
	d := make([]float64, n)
	return vec{v: mat.NewVecDense(n, d), d: d}
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// firstNonFinite returns the index of the first NaN or ±Inf in s, or -1.
func firstNonFinite(s []float64) int {
	for i, v := range s {
		if !isFinite(v) {
			return i
		}
	}
	return -1
}

// allFinite reports whether s holds no NaN or ±Inf; 0·v is NaN exactly for those.
func allFinite(s []float64) bool {
	acc := 0.0
	for _, v := range s {
		acc += 0 * v
	}
	return acc == 0
}

// readVec copies src into dst (len(dst) == src.Len()).
func readVec(dst []float64, src mat.Vector) {
	if v, ok := src.(*mat.VecDense); ok {
		raw := v.RawVector()
		if raw.Inc == 1 {
			copy(dst, raw.Data[:len(dst)])
			return
		}
	}
	for i := range dst {
		dst[i] = src.AtVec(i)
	}
}

// writeVec copies src into dst, allocating dst when it is nil or of the wrong length.
func writeVec(dst **mat.VecDense, src []float64) {
	if *dst == nil || (*dst).IsEmpty() || (*dst).Len() != len(src) {
		*dst = mat.NewVecDense(len(src), nil)
	}
	copyInto(*dst, src)
}

// copyInto copies src into dst, which has len(src) elements at any increment.
func copyInto(dst *mat.VecDense, src []float64) {
	raw := dst.RawVector()
	if raw.Inc == 1 {
		copy(raw.Data[:len(src)], src)
		return
	}
	for i, v := range src {
		raw.Data[i*raw.Inc] = v
	}
}

// evalQuartic evaluates the dense-output polynomial of quarticDense into dst with
// increment inc.
func evalQuartic(dst []float64, inc int, theta float64, c *[5][]float64) {
	c0, c1, c2, c3, c4 := c[0], c[1][:len(c[0])], c[2][:len(c[0])], c[3][:len(c[0])], c[4][:len(c[0])]
	u := 1 - theta
	for i := range c0 {
		dst[i*inc] = c0[i] + theta*(c1[i]+u*(c2[i]+theta*(c3[i]+u*c4[i])))
	}
}

// interpolateInto evaluates the quartic dense output at t into dst.
func interpolateInto(dst *mat.VecDense, t, t0, h float64, c *[5][]float64) {
	raw := dst.RawVector()
	theta := 0.0
	if h > 0 {
		theta = (t - t0) / h
	}
	evalQuartic(raw.Data, raw.Inc, theta, c)
}
