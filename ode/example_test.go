package ode_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tcpfluid/tcpfluid/ode"
)

// Integrate y' = −y from y(0) = 1 step by step with the adaptive integrator.
func ExampleDormandPrince() {
	ivp := ode.IVP{
		Y0: mat.NewVecDense(1, []float64{1}),
		Func: func(dst *mat.VecDense, _ float64, y mat.Vector) {
			dst.SetVec(0, -y.AtVec(0))
		},
	}
	dp := ode.NewDormandPrince(ode.Settings{RelTol: 1e-8})
	dp.Init(ivp)
	var s ode.State
	steps := 0
	for h := dp.InitialStep(); ; steps++ {
		dp.State(&s)
		if s.T >= 1 {
			break
		}
		var err error
		if h, err = dp.Step(min(h, 1-s.T)); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("y(%.0f) = %.8f in %d steps (exact %.8f)\n", s.T, s.Y.AtVec(0), steps, math.Exp(-1))
	// Output:
	// y(1) = 0.36787944 in 12 steps (exact 0.36787944)
}

// A ball dropped from 10 m bounces with restitution 0.8: the Driver stops at each
// impact, the caller reverses the velocity with Jump and advances again.
func ExampleDriver() {
	const g, e = 9.81, 0.8 // m/s², restitution
	ball := ode.IVP{
		Y0: mat.NewVecDense(2, []float64{10, 0}), // height m, velocity m/s
		Func: func(dst *mat.VecDense, _ float64, y mat.Vector) {
			dst.SetVec(0, y.AtVec(1))
			dst.SetVec(1, -g)
		},
	}
	ground := []ode.Event{{
		G:         func(_ float64, y mat.Vector) float64 { return y.AtVec(0) },
		Direction: ode.Falling,
	}}
	d, err := ode.NewDriver(ode.NewDormandPrince(ode.Settings{}), ball, ground, ode.DriverSettings{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	bounce := mat.NewVecDense(2, nil)
	for {
		hit, err := d.Advance(ctx, 6)
		if err != nil {
			fmt.Println(err)
			return
		}
		y := d.Y()
		if hit.Event < 0 {
			fmt.Printf("t = %g s: height %.4f m\n", hit.T, y.AtVec(0))
			return
		}
		fmt.Printf("impact at t = %.6f s, speed %.4f m/s\n", hit.T, -y.AtVec(1))
		bounce.SetVec(0, y.AtVec(0))
		bounce.SetVec(1, -e*y.AtVec(1))
		d.Jump(bounce)
	}
	// Output:
	// impact at t = 1.427843 s, speed 14.0071 m/s
	// impact at t = 3.712392 s, speed 11.2057 m/s
	// impact at t = 5.540031 s, speed 8.9646 m/s
	// t = 6 s: height 2.2610 m
}

// A population y' = y/10 doubles every 10·ln 2 s. The times it first reaches 2, 4 and 8
// only need recording, so StopAt locates them with Reach after each step instead of
// stopping the integration at each, and asks for no stop (+Inf).
func ExampleDriver_Reach() {
	growth := ode.IVP{
		Y0:   mat.NewVecDense(1, []float64{1}),
		Func: func(dst *mat.VecDense, _ float64, y mat.Vector) { dst.SetVec(0, y.AtVec(0)/10) },
	}
	var d *ode.Driver
	level := 2.0
	settings := ode.DriverSettings{StopAt: func(t0, t1 float64) float64 {
		for t := d.Reach(0, level); t <= t1; t = d.Reach(0, level) {
			fmt.Printf("y = %g at t = %.6f s (10·ln %g = %.6f)\n", level, t, level, 10*math.Log(level))
			level *= 2
		}
		return math.Inf(1)
	}}
	d, err := ode.NewDriver(ode.NewDormandPrince(ode.Settings{RelTol: 1e-10, AbsTol: 1e-10}), growth, nil, settings)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := d.Advance(context.Background(), 25); err != nil {
		fmt.Println(err)
	}
	fmt.Printf("%d solver steps\n", d.Steps())
	// Output:
	// y = 2 at t = 6.931472 s (10·ln 2 = 6.931472)
	// y = 4 at t = 13.862944 s (10·ln 4 = 13.862944)
	// y = 8 at t = 20.794415 s (10·ln 8 = 20.794415)
	// 65 solver steps
}
