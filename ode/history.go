package ode

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// History stores the dense output of the accepted steps of a Driver so that the right
// hand side of a delay-differential equation can look up y(t−τ), for constant or
// state-dependent delays τ ≤ maxDelay.
//
// Before the start time T0 of the Driver's IVP the values come from the user's history
// function; from T0 on they come from the stored step polynomials (order 4 for
// DormandPrince, cubic Hermite for RK4). At a jump the stored trajectory is
// discontinuous and a look-up exactly at the jump time returns the post-jump value.
//
// The current step is not in the history while it is being computed, so every stage
// time t+c·h minus the delay must lie before t: a DDE user sets Settings.MaxStep (or the
// RK4 step) to at most the smallest delay. A look-up past the newest stored time
// extrapolates the newest polynomial; a look-up more than maxDelay before the newest
// time (and after T0) returns the value at the start of the oldest retained step.
//
// Steps are kept in a ring buffer that grows by doubling and drops steps that ended more
// than maxDelay before the newest stored time, so a History in steady state does not
// allocate. History is not safe for concurrent use: even look-ups use scratch space.
type History struct {
	dim      int
	maxDelay float64
	before   func(dst []float64, t float64)
	err      error

	t0      float64
	y0      []float64 // initial state: the history before T0 when before is nil
	scratch []float64

	// Ring of stored steps; len(start) is a power of two. Slot s covers
	// [start[s], end[s]] with θ = (t−start[s])/step[s] and the polynomial
	// coefficients coef[s·5·dim + 5·i + k] of component i.
	head, n          int
	start, step, end []float64
	coef             []float64
}

// initialHistorySlots is the initial ring capacity in steps.
const initialHistorySlots = 16

// NewHistory returns a History for states of dim components that serves look-ups up to
// maxDelay (time units, ≥ 0; +Inf keeps every step) before the newest stored time.
// before(dst, t) writes the history y(t) for t < T0 into dst; a nil before means the
// constant initial state. Invalid arguments are reported by NewDriver
// (ErrBadSettings).
func NewHistory(dim int, maxDelay float64, before func(dst []float64, t float64)) *History {
	h := &History{dim: dim, maxDelay: maxDelay, before: before}
	switch {
	case dim <= 0:
		h.err = fmt.Errorf("%w: History dim = %d, must be > 0", ErrBadSettings, dim)
		return h
	case math.IsNaN(maxDelay) || maxDelay < 0:
		h.err = fmt.Errorf("%w: History maxDelay = %v, must be ≥ 0", ErrBadSettings, maxDelay)
		return h
	}
	h.y0 = make([]float64, dim)
	h.scratch = make([]float64, dim)
	h.allocate(initialHistorySlots)
	return h
}

func (h *History) allocate(slots int) {
	h.start = make([]float64, slots)
	h.step = make([]float64, slots)
	h.end = make([]float64, slots)
	h.coef = make([]float64, slots*5*h.dim)
}

// reset empties the history and sets its start (t0, y0).
func (h *History) reset(t0 float64, y0 mat.Vector) {
	h.t0 = t0
	readVec(h.y0, y0)
	h.head, h.n = 0, 0
}

// Len returns the number of stored steps.
func (h *History) Len() int { return h.n }

func (h *History) slot(k int) int { return (h.head + k) & (len(h.start) - 1) }

// record appends the step [t0, end] of a quartic dense output with step length step.
func (h *History) record(t0, step, end float64, c *[5][]float64) {
	cut := end - h.maxDelay
	for h.n > 0 && h.end[h.head] < cut {
		h.head = h.slot(1)
		h.n--
	}
	if h.n == len(h.start) {
		h.grow()
	}
	s := h.slot(h.n)
	h.n++
	h.start[s], h.step[s], h.end[s] = t0, step, end
	stride := 5 * h.dim
	dst := h.coef[s*stride : (s+1)*stride]
	c0, c1, c2, c3, c4 := c[0][:h.dim], c[1][:h.dim], c[2][:h.dim], c[3][:h.dim], c[4][:h.dim]
	for i := range h.dim {
		p := dst[5*i : 5*i+5]
		p[0], p[1], p[2], p[3], p[4] = c0[i], c1[i], c2[i], c3[i], c4[i]
	}
}

// grow doubles the ring, unwrapping it.
func (h *History) grow() {
	old := *h
	h.allocate(2 * len(old.start))
	stride := 5 * h.dim
	for k := range old.n {
		s := old.slot(k)
		h.start[k], h.step[k], h.end[k] = old.start[s], old.step[s], old.end[s]
		copy(h.coef[k*stride:(k+1)*stride], old.coef[s*stride:(s+1)*stride])
	}
	h.head = 0
}

// find returns the slot holding t ≥ T0 and θ within it.
func (h *History) find(t float64) (int, float64) {
	// Last stored step starting at or before t: binary search over ring positions.
	lo, hi := 0, h.n-1
	if t < h.start[h.slot(0)] {
		return h.slot(0), 0
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if h.start[h.slot(mid)] <= t {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	s := h.slot(lo)
	theta := 0.0
	if h.step[s] > 0 {
		theta = (t - h.start[s]) / h.step[s]
	}
	return s, theta
}

// At returns component i of y(t).
func (h *History) At(i int, t float64) float64 {
	if h.err != nil {
		return 0
	}
	if t < h.t0 {
		if h.before == nil {
			return h.y0[i]
		}
		h.before(h.scratch, t)
		return h.scratch[i]
	}
	if h.n == 0 {
		return h.y0[i]
	}
	s, theta := h.find(t)
	p := h.coef[s*5*h.dim+5*i:][:5]
	u := 1 - theta
	return p[0] + theta*(p[1]+u*(p[2]+theta*(p[3]+u*p[4])))
}

// AtVec writes y(t) into dst, which has dim components.
func (h *History) AtVec(dst []float64, t float64) {
	if h.err != nil {
		return
	}
	dst = dst[:h.dim]
	if t < h.t0 {
		if h.before == nil {
			copy(dst, h.y0)
		} else {
			h.before(dst, t)
		}
		return
	}
	if h.n == 0 {
		copy(dst, h.y0)
		return
	}
	s, theta := h.find(t)
	u := 1 - theta
	coef := h.coef[s*5*h.dim : (s+1)*5*h.dim]
	for i := range dst {
		p := coef[5*i : 5*i+5]
		dst[i] = p[0] + theta*(p[1]+u*(p[2]+theta*(p[3]+u*p[4])))
	}
}

// Derivatives writes component i of y(t) and its time derivatives into dst: dst[0] =
// y_i(t), dst[k] = the k-th derivative, for k < len(dst) ≤ 5, from the stored step
// polynomial that serves t (derivatives of order above 4 are zero). Before T0, and
// before the first step, the history is read as constant: dst[k] = 0 for k ≥ 1.
// Across a step boundary the dense output is continuous with its first derivative
// (DormandPrince's and RK4's interpolants match the end slopes); higher derivatives
// jump there.
func (h *History) Derivatives(i int, t float64, dst []float64) {
	if h.err != nil || len(dst) == 0 {
		return
	}
	for k := range dst {
		dst[k] = 0
	}
	if t < h.t0 || h.n == 0 {
		dst[0] = h.At(i, t)
		return
	}
	s, theta := h.find(t)
	p := h.coef[s*5*h.dim+5*i:][:5]
	// y = c0 + θ(c1 + (1−θ)(c2 + θ(c3 + (1−θ)c4))) in powers of θ.
	a := [5]float64{p[0], p[1] + p[2], p[3] + p[4] - p[2], -p[3] - 2*p[4], p[4]}
	inv := 0.0
	if h.step[s] > 0 {
		inv = 1 / h.step[s]
	}
	scale := 1.0 // (1/step)^k
	for k := range min(len(dst), 5) {
		// k-th derivative in θ of Σ a_j θ^j, by Horner.
		v := 0.0
		for j := 4; j >= k; j-- {
			f := 1.0
			for m := j - k + 1; m <= j; m++ {
				f *= float64(m)
			}
			v = v*theta + f*a[j]
		}
		dst[k] = v * scale
		scale *= inv
	}
	u := 1 - theta
	dst[0] = p[0] + theta*(p[1]+u*(p[2]+theta*(p[3]+u*p[4]))) // exactly At's value
}
