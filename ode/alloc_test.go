package ode

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestZeroAllocations checks the hot loops: integrator steps, a Driver advancing
// through events and jumps, and a DDE Driver recording into its History.
func TestZeroAllocations(t *testing.T) {
	ctx := context.Background()
	check := func(name string, f func()) {
		t.Helper()
		if a := testing.AllocsPerRun(200, f); a != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, a)
		}
	}

	dp := NewDormandPrince(Settings{})
	dp.Init(oscillator.ivp())
	h := dp.InitialStep()
	y := mat.NewVecDense(2, nil)
	check("DormandPrince.Step+Interpolate", func() {
		h, _ = dp.Step(h)
		t0, t1 := dp.LastStep()
		dp.Interpolate(y, (t0+t1)/2)
	})

	rk := NewRK4()
	rk.Init(oscillator.ivp())
	check("RK4.Step+Interpolate", func() {
		rk.Step(0.01)
		t0, t1 := rk.LastStep()
		rk.Interpolate(y, (t0+t1)/2)
	})

	// Elastic ball: every run advances to the next impact and bounces.
	ground := []Event{{G: func(_ float64, y mat.Vector) float64 { return raw(y)[0] }, Direction: Falling}}
	for _, in := range []Dense{NewDormandPrince(Settings{}), NewRK4()} {
		d, err := NewDriver(in, ballIVP(10), ground, DriverSettings{Step: 0.01, OnStep: func(float64, float64) {}})
		if err != nil {
			t.Fatal(err)
		}
		bounce := mat.NewVecDense(2, nil)
		check("Driver.Advance with events and Jump", func() {
			if hit, err := d.Advance(ctx, 1e9); err != nil || hit.Event != 0 {
				t.Fatalf("%+v, %v", hit, err)
			}
			v := raw(d.Y())
			bounce.SetVec(0, v[0])
			bounce.SetVec(1, -v[1])
			d.Jump(bounce)
		})
	}

	// DDE y' = −y(t−1) with an event, in steady state after the ring has grown.
	hist := NewHistory(1, 1, nil)
	ivp := IVP{Y0: mat.NewVecDense(1, []float64{1}), Func: func(dst *mat.VecDense, t float64, _ mat.Vector) {
		raw(dst)[0] = -hist.At(0, t-1)
	}}
	zero := []Event{{G: func(_ float64, y mat.Vector) float64 { return raw(y)[0] }}}
	d, err := NewDriver(NewDormandPrince(Settings{MaxStep: 0.1}), ivp, zero, DriverSettings{History: hist})
	if err != nil {
		t.Fatal(err)
	}
	tEnd := 0.0
	advance := func() {
		tEnd += 0.37
		for {
			hit, err := d.Advance(ctx, tEnd)
			if err != nil {
				t.Fatal(err)
			}
			if hit.Event < 0 {
				return
			}
		}
	}
	for range 30 {
		advance()
	}
	check("Driver.Advance with History", advance)
	// The oscillator's y2 = −sin t, recorded where it crosses ½ and cut 0.01 later.
	var rd *Driver
	cutAt := 0.0
	rd, err = NewDriver(NewDormandPrince(Settings{}), oscillator.ivp(), nil, DriverSettings{StopAt: func(t0, t1 float64) float64 {
		if tc := rd.Reach(1, 0.5); tc > t0 && tc <= t1 {
			cutAt = tc + 0.01
		}
		_ = rd.Component(0, t1)
		return cutAt
	}})
	if err != nil {
		t.Fatal(err)
	}
	check("Driver.Advance with StopAt and Reach", func() {
		if _, err := rd.Advance(ctx, rd.T()+2*math.Pi); err != nil {
			t.Fatal(err)
		}
	})
	buf := make([]float64, 1)
	check("History.At/AtVec", func() {
		_ = hist.At(0, tEnd-0.5)
		hist.AtVec(buf, tEnd-0.25)
	})
}
