package ode

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// oscillators returns n/2 uncoupled harmonic oscillators with angular frequencies in
// [1, 2) rad/s, counting derivative evaluations in *evals.
func oscillators(n int, evals *int) IVP {
	y0 := make([]float64, n)
	omega2 := make([]float64, n/2)
	for i := range omega2 {
		y0[2*i] = 1
		w := 1 + float64(i)/float64(len(omega2))
		omega2[i] = w * w
	}
	return IVP{Y0: mat.NewVecDense(n, y0), Func: func(dst *mat.VecDense, _ float64, y mat.Vector) {
		*evals++
		d, x := raw(dst), raw(y)
		for i, w2 := range omega2 {
			d[2*i], d[2*i+1] = x[2*i+1], -w2*x[2*i]
		}
	}}
}

func reportRates(b *testing.B, steps, evals int) {
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(steps)/s, "steps/s")
	b.ReportMetric(float64(evals)/s, "evals/s")
}

// BenchmarkDormandPrince times one adaptive step (RelTol 1e-6) per op.
func BenchmarkDormandPrince(b *testing.B) {
	for _, n := range []int{2, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			evals := 0
			dp := NewDormandPrince(Settings{})
			dp.Init(oscillators(n, &evals))
			h := dp.InitialStep()
			evals = 0
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if h, err = dp.Step(h); err != nil {
					b.Fatal(err)
				}
			}
			reportRates(b, b.N, evals)
		})
	}
}

// BenchmarkRK4 times one fixed step (h = 0.01 s) per op.
func BenchmarkRK4(b *testing.B) {
	for _, n := range []int{2, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			evals := 0
			rk := NewRK4()
			rk.Init(oscillators(n, &evals))
			evals = 0
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rk.Step(0.01); err != nil {
					b.Fatal(err)
				}
			}
			reportRates(b, b.N, evals)
		})
	}
}

// BenchmarkDriverEvents times one flight of an elastic bouncing ball per op: Advance to
// the impact (located on the dense output) and a Jump. MaxStep 0.05 s gives ≈ 60 steps
// per flight, so the figure mixes stepping, guard checks and root finding.
func BenchmarkDriverEvents(b *testing.B) {
	for _, c := range []struct {
		name string
		in   Dense
		s    DriverSettings
	}{
		{"DormandPrince", NewDormandPrince(Settings{MaxStep: 0.05}), DriverSettings{MaxSteps: math.MaxInt}},
		{"RK4", NewRK4(), DriverSettings{Step: 0.05, MaxSteps: math.MaxInt}},
	} {
		b.Run(c.name, func(b *testing.B) {
			evals := 0
			ivp := ballIVP(10)
			f := ivp.Func
			ivp.Func = func(dst *mat.VecDense, t float64, y mat.Vector) { evals++; f(dst, t, y) }
			ground := []Event{{G: func(_ float64, y mat.Vector) float64 { return raw(y)[0] }, Direction: Falling}}
			d, err := NewDriver(c.in, ivp, ground, c.s)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			bounce := mat.NewVecDense(2, nil)
			evals = 0
			b.ReportAllocs()
			for b.Loop() {
				if hit, err := d.Advance(ctx, 1e12); err != nil || hit.Event != 0 {
					b.Fatal(hit, err)
				}
				v := raw(d.Y())
				bounce.SetVec(0, v[0])
				bounce.SetVec(1, -v[1])
				d.Jump(bounce)
			}
			reportRates(b, d.Steps(), evals)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
