package ode

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzDriver integrates y' = A·y, y(0) = (1, 0), for random A, tolerance, event threshold
// and direction, halving the state at every event, to t = 2, and cuts the step where y2
// reaches −threshold/2 inside it (StopAt, Reach). Invariant: no panic; Reach inside the
// step or +Inf; either an error wrapping a sentinel or a finite state, exactly at t = 2 or
// at a cut.
func FuzzDriver(f *testing.F) {
	f.Add(-1.0, 2.0, -2.0, -0.5, uint8(6), 0.3, int8(0), false)
	f.Add(0.0, 1.0, -1.0, 0.0, uint8(3), 0.5, int8(1), true)
	f.Add(1e3, 0.0, 0.0, -1e3, uint8(12), -0.1, int8(-1), false)
	f.Add(0.0, 0.0, 0.0, 0.0, uint8(0), 1.0, int8(2), false)
	f.Add(math.Inf(1), 0.0, 0.0, 0.0, uint8(5), 0.0, int8(0), true)
	f.Fuzz(func(t *testing.T, a, b, c, d float64, tolExp uint8, threshold float64, dir int8, rk4 bool) {
		level := -threshold / 2 // where StopAt cuts at y2 (from the one float, to keep the corpus)
		ivp := IVP{Y0: mat.NewVecDense(2, []float64{1, 0}), Func: func(dst *mat.VecDense, _ float64, y mat.Vector) {
			out, x := raw(dst), raw(y)
			out[0] = a*x[0] + b*x[1]
			out[1] = c*x[0] + d*x[1]
		}}
		ev := []Event{{
			G:         func(_ float64, y mat.Vector) float64 { return raw(y)[0] - threshold },
			Direction: Direction((int(dir)%3+3)%3 - 1),
		}}
		var drv *Driver
		cut := math.Inf(1)
		s := DriverSettings{MaxSteps: 20_000, StopAt: func(t0, t1 float64) float64 {
			tc := drv.Reach(1, level)
			if !math.IsInf(tc, 1) && !(tc >= t0 && tc <= t1) {
				t.Fatalf("Reach %v outside the step [%v, %v]", tc, t0, t1)
			}
			if cut = math.Inf(1); tc > t0 && tc < t1 {
				cut = tc
			}
			return cut
		}}
		var in Dense
		var err error
		if rk4 {
			in, s.Step = NewRK4(), 0.01
		} else {
			in = NewDormandPrince(Settings{RelTol: math.Pow(10, -float64(2+tolExp%11))})
		}
		drv, err = NewDriver(in, ivp, ev, s)
		if err != nil {
			checkSentinel(t, err)
			return
		}
		jump := mat.NewVecDense(2, nil)
		for range 200 {
			hit, err := drv.Advance(context.Background(), 2)
			if err != nil {
				checkSentinel(t, err)
				return
			}
			y := raw(drv.Y())
			if !allFinite(y) {
				t.Fatalf("non-finite state %v at %+v without an error", y, hit)
			}
			if hit.Event < 0 && hit.T == cut {
				continue
			}
			if hit.Event < 0 {
				if hit.T != 2 || drv.T() != 2 {
					t.Fatalf("reached %+v, driver time %v, want exactly 2", hit, drv.T())
				}
				return
			}
			jump.SetVec(0, y[0]/2)
			jump.SetVec(1, y[1]/2)
			drv.Jump(jump)
		}
	})
}

func checkSentinel(t *testing.T, err error) {
	t.Helper()
	for _, s := range []error{ErrBadIVP, ErrBadSettings, ErrBadArgument, ErrNonFinite, ErrStepUnderflow, ErrMaxSteps} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error %v wraps no sentinel", err)
}
