package ode

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestBadIVP(t *testing.T) {
	f := oscillator.f
	y0 := mat.NewVecDense(2, []float64{1, 0})
	var nilVec *mat.VecDense
	for _, c := range []struct {
		name string
		ivp  IVP
		want string
	}{
		{"nil Func", IVP{Y0: y0}, "Func is nil"},
		{"nil Y0", IVP{Func: f}, "Y0 is nil"},
		{"typed nil Y0", IVP{Y0: nilVec, Func: f}, "Y0 is empty"},
		{"empty Y0", IVP{Y0: &mat.VecDense{}, Func: f}, "Y0 is empty"},
		{"NaN T0", IVP{Y0: y0, T0: math.NaN(), Func: f}, "T0 = NaN"},
		{"Inf T0", IVP{Y0: y0, T0: math.Inf(-1), Func: f}, "T0 = -Inf"},
		{"NaN in Y0", IVP{Y0: mat.NewVecDense(2, []float64{1, math.NaN()}), Func: f}, "Y0[1] = NaN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewDriver(NewDormandPrince(Settings{}), c.ivp, nil, DriverSettings{})
			if !errors.Is(err, ErrBadIVP) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewDriver: %v, want ErrBadIVP naming %q", err, c.want)
			}
			for _, in := range []Integrator{NewDormandPrince(Settings{}), NewRK4()} {
				in.Init(c.ivp)
				if _, err := in.Step(0.1); !errors.Is(err, ErrBadIVP) {
					t.Errorf("%T.Step after Init: %v, want ErrBadIVP", in, err)
				}
			}
		})
	}
}

func TestBadSettings(t *testing.T) {
	ivp := oscillator.ivp()
	g := func(float64, mat.Vector) float64 { return 1 }
	for _, c := range []struct {
		name   string
		in     Dense
		events []Event
		s      DriverSettings
		want   string
	}{
		{"negative RelTol", NewDormandPrince(Settings{RelTol: -1}), nil, DriverSettings{}, "RelTol = -1"},
		{"NaN AbsTol", NewDormandPrince(Settings{AbsTol: math.NaN()}), nil, DriverSettings{}, "AbsTol = NaN"},
		{"negative MaxStep", NewDormandPrince(Settings{MaxStep: -1}), nil, DriverSettings{}, "MaxStep = -1"},
		{"Inf MinStep", NewDormandPrince(Settings{MinStep: math.Inf(1)}), nil, DriverSettings{}, "MinStep = +Inf"},
		{"negative MaxSteps", NewDormandPrince(Settings{}), nil, DriverSettings{MaxSteps: -1}, "MaxSteps = -1"},
		{"coarse EventTol", NewDormandPrince(Settings{}), nil, DriverSettings{EventTol: 1e-6}, "EventTol = 1e-06"},
		{"NaN Step", NewDormandPrince(Settings{}), nil, DriverSettings{Step: math.NaN()}, "Step = NaN"},
		{"RK4 without Step", NewRK4(), nil, DriverSettings{}, "Step = 0"},
		{"nil guard", NewDormandPrince(Settings{}), []Event{{}}, DriverSettings{}, "events[0].G is nil"},
		{"bad direction", NewDormandPrince(Settings{}), []Event{{G: g, Direction: 2}}, DriverSettings{}, "events[0].Direction = 2"},
		{"history dim", NewDormandPrince(Settings{}), nil, DriverSettings{History: NewHistory(3, 1, nil)}, "History dim = 3"},
		{"history delay", NewDormandPrince(Settings{}), nil, DriverSettings{History: NewHistory(2, -1, nil)}, "maxDelay = -1"},
		{"nil integrator", nil, nil, DriverSettings{}, "integrator is nil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewDriver(c.in, ivp, c.events, c.s)
			if !errors.Is(err, ErrBadSettings) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewDriver: %v, want ErrBadSettings naming %q", err, c.want)
			}
		})
	}
}

func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	d, err := NewDriver(NewDormandPrince(Settings{}), oscillator.ivp(), nil, DriverSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Advance(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for _, tEnd := range []float64{0.5, math.NaN(), math.Inf(1)} {
		if hit, err := d.Advance(ctx, tEnd); !errors.Is(err, ErrBadArgument) || hit.T != 1 {
			t.Errorf("Advance(%v) from t = 1: %+v, %v, want ErrBadArgument and no progress", tEnd, hit, err)
		}
	}
	d.Jump(mat.NewVecDense(3, nil))
	if _, err := d.Advance(ctx, 2); !errors.Is(err, ErrBadArgument) {
		t.Errorf("Advance after a Jump of the wrong length: %v, want ErrBadArgument", err)
	}
	d.Jump(mat.NewVecDense(2, []float64{math.Inf(1), 0}))
	if _, err := d.Advance(ctx, 2); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Advance after a Jump to Inf: %v, want ErrNonFinite", err)
	}
	d.Jump(mat.NewVecDense(2, []float64{1, 0}))
	if hit, err := d.Advance(ctx, 2); err != nil || hit.T != 2 {
		t.Errorf("Advance after a valid Jump: %+v, %v", hit, err)
	}
	for _, in := range []Integrator{NewDormandPrince(Settings{}), NewRK4()} {
		in.Init(oscillator.ivp())
		for _, h := range []float64{0, -1, math.NaN(), math.Inf(1)} {
			if _, err := in.Step(h); !errors.Is(err, ErrBadArgument) {
				t.Errorf("%T.Step(%v): %v, want ErrBadArgument", in, h, err)
			}
		}
	}
}

// TestNonFinite feeds a right-hand side that turns NaN at t > 0.5: the error names the
// component and the time. DormandPrince first retries smaller steps, RK4 fails at once.
func TestNonFinite(t *testing.T) {
	ivp := IVP{Y0: mat.NewVecDense(2, []float64{1, 1}), Func: func(dst *mat.VecDense, t float64, y mat.Vector) {
		d := raw(dst)
		d[0] = 0
		d[1] = 1
		if t > 0.5 {
			d[1] = math.NaN()
		}
	}}
	for _, c := range []struct {
		in Dense
		s  DriverSettings
	}{
		{NewDormandPrince(Settings{}), DriverSettings{}},
		{NewRK4(), DriverSettings{Step: 0.1}},
	} {
		d, err := NewDriver(c.in, ivp, nil, c.s)
		if err != nil {
			t.Fatal(err)
		}
		hit, err := d.Advance(context.Background(), 1)
		if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "component 1") {
			t.Errorf("%T: %v, want ErrNonFinite naming component 1", c.in, err)
		}
		if hit.T > 0.5 || hit.T != d.T() || !allFinite(raw(d.Y())) {
			t.Errorf("%T: stopped at %+v with state %v, want the last finite state before t = 0.5", c.in, hit, raw(d.Y()))
		}
		t.Logf("%T: %v", c.in, err)
	}

	// A guard that returns NaN.
	ev := []Event{{G: func(t float64, _ mat.Vector) float64 {
		if t > 0.3 {
			return math.NaN()
		}
		return 1
	}}}
	d, err := NewDriver(NewDormandPrince(Settings{}), oscillator.ivp(), ev, DriverSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Advance(context.Background(), 1); !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "guard 0") {
		t.Errorf("NaN guard: %v, want ErrNonFinite naming guard 0", err)
	}
}

// TestBlowUp integrates y' = y², y(0) = 1, whose solution 1/(1−t) blows up at t = 1, to
// t = 2: the step size must underflow (or the state overflow) near t = 1, promptly. The
// numerical solution blows up where its 1/y, exactly linear for the true solution,
// reaches zero; local errors of relative size RelTol move that point by less than
// 10·RelTol.
func TestBlowUp(t *testing.T) {
	ivp := IVP{Y0: mat.NewVecDense(1, []float64{1}), Func: func(dst *mat.VecDense, _ float64, y mat.Vector) {
		v := raw(y)[0]
		raw(dst)[0] = v * v
	}}
	d, err := NewDriver(NewDormandPrince(Settings{}), ivp, nil, DriverSettings{MaxSteps: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	hit, err := d.Advance(context.Background(), 2)
	if !errors.Is(err, ErrStepUnderflow) && !errors.Is(err, ErrNonFinite) {
		t.Fatalf("got %+v, %v; want ErrStepUnderflow or ErrNonFinite", hit, err)
	}
	if math.Abs(hit.T-1) > 10*1e-6 {
		t.Errorf("stopped at t = %v, want within 10·RelTol of the blow-up at 1", hit.T)
	}
	t.Logf("after %d steps at t = %v: %v", d.Steps(), hit.T, err)
}

func TestMaxSteps(t *testing.T) {
	d, err := NewDriver(NewRK4(), oscillator.ivp(), nil, DriverSettings{Step: 0.01, MaxSteps: 10})
	if err != nil {
		t.Fatal(err)
	}
	hit, err := d.Advance(context.Background(), 1)
	if !errors.Is(err, ErrMaxSteps) || d.Steps() != 10 || math.Abs(hit.T-0.1) > 1e-15 {
		t.Errorf("got %+v after %d steps, %v; want ErrMaxSteps after 10 steps at t = 0.1", hit, d.Steps(), err)
	}
}

func TestContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, err := NewDriver(NewRK4(), oscillator.ivp(), nil, DriverSettings{Step: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Advance(ctx, 1); !errors.Is(err, context.Canceled) || d.Steps() != 0 {
		t.Errorf("cancelled before Advance: %v after %d steps, want context.Canceled at once", err, d.Steps())
	}

	// Cancelled during the run: noticed within ctxCheckEvery steps.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	cancelAt := 10
	s := DriverSettings{Step: 1e-4, OnStep: func(float64, float64) {
		if cancelAt--; cancelAt == 0 {
			cancel()
		}
	}}
	if d, err = NewDriver(NewRK4(), oscillator.ivp(), nil, s); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Advance(ctx, 100); !errors.Is(err, context.Canceled) || d.Steps() > 10+ctxCheckEvery {
		t.Errorf("cancelled after 10 steps: %v after %d steps, want context.Canceled within %d steps", err, d.Steps(), ctxCheckEvery)
	}
}
