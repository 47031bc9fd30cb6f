package ode

import (
	"fmt"
	"math"
)

// A Driver's StopAt records, after each step, levels that only need recording where a
// component reaches them (Reach, Component), and may cut the step where the caller must act
// (cut): thousands of such levels then cost a look at the step's end each, not a stop.

// Reach is the first time in [t0, t1] of the last accepted step (LastStep, truncated at
// an event) at which component i of the dense output reaches level, located as events
// are; t0 when it is there already, +Inf when it is still below it at t1. It serves a
// level that only needs recording where it is reached, and so need not stop the
// integration as an event does: a caller checks the step's end in DriverSettings.StopAt
// (or OnStep) and locates the crossing here. It costs one component per trial, not the
// whole state.
func (d *Driver) Reach(i int, level float64) float64 {
	t0, t1 := d.last0, d.last1
	y0, y1 := d.Component(i, t0)-level, d.Component(i, t1)-level
	switch {
	case y0 >= 0:
		return t0
	case y1 < 0:
		return math.Inf(1)
	}
	tc, _ := d.bracket(t0, y0, t1, y1, func(x float64) (float64, bool, error) {
		v := d.Component(i, x) - level
		return v, v >= 0, nil
	})
	return tc
}

// Component is component i of the dense output of the last accepted step at t, as
// Interpolate gives it, at the cost of one component.
func (d *Driver) Component(i int, t float64) float64 {
	if d.dense == nil {
		d.in.Interpolate(d.scratch, t)
		return d.scratch.AtVec(i)
	}
	t0, h, c := d.dense.quartic()
	theta := 0.0
	if h > 0 {
		theta = (t - t0) / h
	}
	u := 1 - theta
	return c[0][i] + theta*(c[1][i]+u*(c[2][i]+theta*(c[3][i]+u*c[4][i])))
}

// cut ends the last step at tc, before its end (StopAt): the state becomes the dense
// output there and the guards are checked afresh from it, as after a Jump, so that a
// crossing located after tc (an event that the step held) is found again by the steps
// that follow.
func (d *Driver) cut(tc float64) error {
	d.in.Interpolate(d.scratch, tc)
	if i := firstNonFinite(d.scratch.RawVector().Data); i >= 0 {
		return fmt.Errorf("%w: interpolated state component %d = %v at the stop time t = %v", ErrNonFinite, i, d.scratch.AtVec(i), tc)
	}
	d.y.CopyVec(d.scratch)
	d.t, d.last1, d.needReset = tc, tc, true
	for j := range d.ev {
		if err := d.evalGuard(j, tc, d.y, &d.g[j]); err != nil {
			return err
		}
		d.fired[j], d.pending[j] = false, false
		d.arm(j)
	}
	return nil
}
