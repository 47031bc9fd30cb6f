package ode

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Restart after a change of the right-hand side's mode: y' = +1 until y = 1, then −1, so
// y(t) = 2 − t after t = 1, and the second guard (y = 0.5 falling) fires at t = 1.5.
func TestDriverRestartMode(t *testing.T) {
	slope := 1.0
	ivp := IVP{Y0: mat.NewVecDense(1, []float64{0}), T0: 0,
		Func: func(dst *mat.VecDense, _ float64, _ mat.Vector) { dst.SetVec(0, slope) }}
	events := []Event{
		{G: func(_ float64, y mat.Vector) float64 { return y.AtVec(0) - 1 }, Direction: Rising},
		{G: func(_ float64, y mat.Vector) float64 { return y.AtVec(0) - 0.5 }, Direction: Falling},
	}
	d, err := NewDriver(NewDormandPrince(Settings{}), ivp, events, DriverSettings{})
	if err != nil {
		t.Fatal(err)
	}
	hit, err := d.Advance(context.Background(), 10)
	if err != nil || hit.Event != 0 || math.Abs(hit.T-1) > 1e-9 {
		t.Fatalf("first event %+v, %v; want guard 0 at t = 1", hit, err)
	}
	slope = -1
	d.Restart(0)
	hit, err = d.Advance(context.Background(), 10)
	if err != nil || hit.Event != 1 || math.Abs(hit.T-1.5) > 1e-9 {
		t.Fatalf("second event %+v, %v; want guard 1 at t = 1.5", hit, err)
	}
	d.Restart(7)
	if _, err := d.Advance(context.Background(), 2); err == nil {
		t.Error("Restart of guard 7 of 2: no error")
	}
}

// Skip jumps over a stretch solved outside the integrator: y' = −y from y(0) = 1, skipped
// from t = 0 to t = 1 with the exact e^−1, then integrated on to t = 2 and the guard
// y = 0.1 (falling) located at t = ln 10. Skipping backwards, or with a history, is an error.
func TestDriverSkip(t *testing.T) {
	ivp := IVP{Y0: mat.NewVecDense(1, []float64{1}), T0: 0,
		Func: func(dst *mat.VecDense, _ float64, y mat.Vector) { dst.SetVec(0, -y.AtVec(0)) }}
	events := []Event{{G: func(_ float64, y mat.Vector) float64 { return y.AtVec(0) - 0.1 }, Direction: Falling}}
	d, err := NewDriver(NewDormandPrince(Settings{}), ivp, events, DriverSettings{})
	if err != nil {
		t.Fatal(err)
	}
	d.Skip(1, mat.NewVecDense(1, []float64{math.Exp(-1)}))
	if d.T() != 1 {
		t.Fatalf("after Skip: t = %v, want 1", d.T())
	}
	hit, err := d.Advance(context.Background(), 5)
	if err != nil || hit.Event != 0 || math.Abs(hit.T-math.Log(10)) > 1e-7 {
		t.Fatalf("after Skip: %+v, %v; want the guard at t = ln 10", hit, err)
	}
	d.Skip(0.5, mat.NewVecDense(1, []float64{1}))
	if _, err := d.Advance(context.Background(), 6); err == nil {
		t.Error("Skip backwards: no error")
	}
}

// One event can stand for several guards (their largest), as a fluid flow's loss and mode
// switch share one. After the mode-switch guard fires and Restart moves it back, the loss
// guard, due 10 ns later, must still fire though that is inside the probe distance of a
// disarmed guard (100·EventTol·t = 1 µs at t = 10⁴ s): y' = 1, the switch at y = 1 moves
// its level to 2, and the loss guard is y = 1 + 10⁻⁸.
func TestRestartRearmsGuardMovedBack(t *testing.T) {
	const t0, due = 1e4, 1e-8
	level := 1.0
	ivp := IVP{Y0: mat.NewVecDense(1, []float64{0}), T0: t0,
		Func: func(dst *mat.VecDense, _ float64, _ mat.Vector) { dst.SetVec(0, 1) }}
	events := []Event{{G: func(_ float64, y mat.Vector) float64 {
		return max(y.AtVec(0)-level, y.AtVec(0)-(1+due))
	}, Direction: Rising}}
	d, err := NewDriver(NewDormandPrince(Settings{}), ivp, events, DriverSettings{})
	if err != nil {
		t.Fatal(err)
	}
	hit, err := d.Advance(context.Background(), t0+10)
	if err != nil || hit.Event != 0 || math.Abs(hit.T-(t0+1)) > 1e-8 {
		t.Fatalf("mode switch %+v, %v; want guard 0 at t0 + 1", hit, err)
	}
	level = 2
	d.Restart(0)
	hit, err = d.Advance(context.Background(), t0+10)
	if err != nil || hit.Event != 0 || math.Abs(hit.T-(t0+1+due)) > 1e-8 {
		t.Fatalf("loss after the switch %+v, %v; want guard 0 at t0 + 1 + %g", hit, err, due)
	}
}
