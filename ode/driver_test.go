package ode

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAdaptiveTolerance checks tolerance proportionality of the adaptive
// DormandPrince: on y' = −y over [0, 10] the global relative error at t = 10 stays
// below 10·RelTol (the error per unit step is at most RelTol, and errors of a
// contracting linear problem do not amplify).
func TestAdaptiveTolerance(t *testing.T) {
	for _, rtol := range []float64{1e-4, 1e-6, 1e-8, 1e-10} {
		p := decay
		d, err := NewDriver(NewDormandPrince(Settings{RelTol: rtol, AbsTol: 1e-15}), p.ivp(), nil, DriverSettings{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Advance(context.Background(), 10); err != nil {
			t.Fatal(err)
		}
		exact := math.Exp(-10)
		rel := math.Abs(raw(d.Y())[0]-exact) / exact
		t.Logf("RelTol %g: %d steps, global relative error %.3g (%.2f·RelTol)", rtol, d.Steps(), rel, rel/rtol)
		if rel > 10*rtol {
			t.Errorf("RelTol %g: relative error %g > 10·RelTol", rtol, rel)
		}
	}
}

// TestAdvanceLandsExactly advances to many targets that are not multiples of the step
// and checks the state time equals each target bit for bit, with contiguous steps.
func TestAdvanceLandsExactly(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Dense
		s    DriverSettings
	}{
		{"DormandPrince", NewDormandPrince(Settings{}), DriverSettings{}},
		{"RK4", NewRK4(), DriverSettings{Step: 0.03}},
	} {
		t.Run(c.name, func(t *testing.T) {
			last := 0.0
			c.s.OnStep = func(t0, t1 float64) {
				if t0 != last || !(t1 > t0) {
					t.Fatalf("step [%v, %v] does not continue from %v", t0, t1, last)
				}
				last = t1
			}
			d, err := NewDriver(c.in, oscillator.ivp(), nil, c.s)
			if err != nil {
				t.Fatal(err)
			}
			var s State
			for k := 1; k <= 100; k++ {
				tEnd := float64(k) * 0.1
				hit, err := d.Advance(context.Background(), tEnd)
				if err != nil {
					t.Fatal(err)
				}
				d.State(&s)
				if hit.Event != -1 || hit.T != tEnd || s.T != tEnd || last != tEnd {
					t.Fatalf("Advance(%v) reached hit %+v, state time %v, last step end %v", tEnd, hit, s.T, last)
				}
			}
			want := []float64{math.Cos(10), -math.Sin(10)}
			if e := maxAbsDiff(raw(s.Y), want); e > 1e-4 {
				t.Errorf("state at t = 10 off by %g", e)
			}
		})
	}
}

// ball is a bouncing ball: height y[0] (m), velocity y[1] (m/s), gravity g (m/s²).
const gravity = 9.81

func ballIVP(h0 float64) IVP {
	return IVP{
		Y0: mat.NewVecDense(2, []float64{h0, 0}),
		Func: func(dst *mat.VecDense, _ float64, y mat.Vector) {
			d, x := raw(dst), raw(y)
			d[0], d[1] = x[1], -gravity
		},
	}
}

// TestBouncingBall locates 20 impacts of a ball dropped from h0 with restitution e
// against the analytic impact times t₁ = √(2h₀/g), t_{k+1} = t_k + 2eᵏv₁/g with
// v₁ = g·t₁. Both integrators reproduce the parabola exactly, so the error is that of
// event location (EventTol = 1e-12 relative) accumulated over the bounces; the test
// demands 1e-9 relative in time, and in the impact speed eᵏ⁻¹v₁ the error g·1e-9·t_k
// that such a time error implies. DormandPrince, exact on the parabola, flies most
// flights in a single step, which exercises the re-arming of the guard that just fired.
func TestBouncingBall(t *testing.T) {
	const (
		h0, e   = 10.0, 0.8
		bounces = 20
		relTol  = 1e-9
	)
	for _, c := range []struct {
		name string
		in   Dense
		s    DriverSettings
		dir  Direction
		zero bool // the jump sets the height to exactly 0
	}{
		{"DormandPrince/Falling", NewDormandPrince(Settings{}), DriverSettings{}, Falling, false},
		{"DormandPrince/Either/height0", NewDormandPrince(Settings{}), DriverSettings{}, Either, true},
		{"RK4/Falling", NewRK4(), DriverSettings{Step: 0.01}, Falling, false},
		{"RK4/Either/height0", NewRK4(), DriverSettings{Step: 0.01}, Either, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := []Event{{G: func(_ float64, y mat.Vector) float64 { return raw(y)[0] }, Direction: c.dir}}
			d, err := NewDriver(c.in, ballIVP(h0), ev, c.s)
			if err != nil {
				t.Fatal(err)
			}
			v1 := math.Sqrt(2 * h0 * gravity)
			tk, speed := v1/gravity, v1
			worstT, worstV := 0.0, 0.0
			jump := mat.NewVecDense(2, nil)
			for k := 1; k <= bounces; k++ {
				hit, err := d.Advance(context.Background(), 100)
				if err != nil {
					t.Fatal(err)
				}
				if hit.Event != 0 {
					t.Fatalf("bounce %d: Advance returned %+v, want event 0", k, hit)
				}
				y := raw(d.Y())
				relT := math.Abs(hit.T-tk) / tk
				errV := math.Abs(-y[1] - speed)
				worstT, worstV = max(worstT, relT), max(worstV, errV)
				if relT > relTol || errV > gravity*relTol*tk {
					t.Fatalf("bounce %d at t = %.15g (want %.15g, rel. error %.2g), speed %.15g m/s (want %.15g)", k, hit.T, tk, relT, -y[1], speed)
				}
				height := y[0]
				if c.zero {
					height = 0
				}
				jump.SetVec(0, height)
				jump.SetVec(1, -e*y[1])
				d.Jump(jump)
				tk += 2 * e * speed / gravity
				speed *= e
			}
			t.Logf("%d bounces, %d steps: max relative error in impact time %.2g, max impact-speed error %.2g m/s", bounces, d.Steps(), worstT, worstV)
		})
	}
}

// TestEventOrdering checks that the earliest crossing in a step wins regardless of guard
// index, that simultaneous crossings fire one per Advance at the same time, that the
// direction filter holds, that a Jump can cancel a pending simultaneous event and that a
// guard that is zero at the start does not fire.
func TestEventOrdering(t *testing.T) {
	// y' = 1 from 0 with RK4 steps of 1: all crossings of a step are found inside it.
	ivp := IVP{Y0: mat.NewVecDense(1, []float64{0}), Func: func(dst *mat.VecDense, _ float64, _ mat.Vector) { raw(dst)[0] = 1 }}
	level := func(c float64, sign float64) func(float64, mat.Vector) float64 {
		return func(_ float64, y mat.Vector) float64 { return sign * (raw(y)[0] - c) }
	}
	ev := []Event{
		{G: level(0.7, 1), Direction: Rising},   // 0: y = 0.7
		{G: level(0.3, 1), Direction: Rising},   // 1: y = 0.3
		{G: level(0.3, -1), Direction: Falling}, // 2: y = 0.3 again, simultaneous with 1
		{G: level(0.5, 1), Direction: Falling},  // 3: wrong direction, never fires
		{G: level(0, 1), Direction: Either},     // 4: zero at the start
	}
	d, err := NewDriver(NewRK4(), ivp, ev, DriverSettings{Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-12
	ctx := context.Background()
	next := func() Hit {
		t.Helper()
		hit, err := d.Advance(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		return hit
	}
	// Two simultaneous events at t = 0.3, one per call, in either order.
	h1, h2 := next(), next()
	if math.Abs(h1.T-0.3) > tol || h2.T != h1.T || h1.Event+h2.Event != 3 || h1.Event*h2.Event != 2 {
		t.Fatalf("simultaneous events: got %+v then %+v, want events 1 and 2 at 0.3", h1, h2)
	}
	if h := next(); h.Event != 0 || math.Abs(h.T-0.7) > tol {
		t.Fatalf("got %+v, want event 0 at 0.7", h)
	}
	if h := next(); h.Event != -1 || h.T != 2 {
		t.Fatalf("got %+v, want the end time 2 without further events", h)
	}

	// A Jump can undo a pending simultaneous event.
	d, err = NewDriver(NewRK4(), ivp, ev, DriverSettings{Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	first := next()
	if math.Abs(first.T-0.3) > tol {
		t.Fatalf("got %+v, want an event at 0.3", first)
	}
	d.Jump(mat.NewVecDense(1, []float64{0})) // back below both levels
	// From t = 0.3, y = 0: levels 0.3 are reached again at t = 0.6 (both guards),
	// 0.7 at t = 1.0; the guard at 0 is exactly zero again and must not fire.
	var got []Hit
	for range 4 {
		got = append(got, next())
	}
	if got[0].Event+got[1].Event != 3 || got[0].Event*got[1].Event != 2 || math.Abs(got[0].T-0.6) > tol || got[1].T != got[0].T {
		t.Fatalf("after the jump got %+v, want events 1 and 2 at 0.6", got)
	}
	if got[2].Event != 0 || math.Abs(got[2].T-1.0) > tol || got[3].Event != -1 {
		t.Fatalf("after the jump got %+v, want event 0 at 1.0 then the end", got)
	}
}

// TestOnStepTruncatedAtEvent checks that the step reported to OnStep ends at the event,
// that Interpolate works there, and that the next step continues from it.
func TestOnStepTruncatedAtEvent(t *testing.T) {
	var steps [][2]float64
	var d *Driver
	y := mat.NewVecDense(2, nil)
	s := DriverSettings{OnStep: func(t0, t1 float64) {
		steps = append(steps, [2]float64{t0, t1})
		d.Interpolate(y, t1)
	}}
	ev := []Event{{G: func(_ float64, y mat.Vector) float64 { return raw(y)[0] }, Direction: Falling}}
	var err error
	d, err = NewDriver(NewDormandPrince(Settings{}), oscillator.ivp(), ev, s)
	if err != nil {
		t.Fatal(err)
	}
	hit, err := d.Advance(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if hit.Event != 0 || math.Abs(hit.T-math.Pi/2) > 1e-6 {
		t.Fatalf("got %+v, want the zero of cos at π/2", hit)
	}
	if last := steps[len(steps)-1]; last[1] != hit.T {
		t.Errorf("last OnStep interval %v does not end at the event time %v", last, hit.T)
	}
	if e := maxAbsDiff(raw(y), raw(d.Y())); e > 1e-15 {
		t.Errorf("Interpolate at the event time differs from the state by %g", e)
	}
	if _, err := d.Advance(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	for i, s := range steps[1:] {
		if s[0] != steps[i][1] {
			t.Errorf("step %v does not continue from %v", s, steps[i])
		}
	}
}

// StopAt with Reach: a level reached only needs recording, and a stop a little later.
// y2 = −sin t first reaches 0.5 at 7π/6; the caller stops 0.001 later, and a guard on
// y1 = cos t crosses cos 3.667 at 3.667: the step that reaches the level holds
// both (truncated at the crossing), so it is cut at the stop, the guard's crossing in it is found again by the next
// Advance, and the run goes on past the stop.
func TestStopAtCutsTheStep(t *testing.T) {
	const level, wait, evT = 0.5, 0.001, 3.667
	var d *Driver
	found, stopAt, cutSteps := math.Inf(1), math.Inf(1), 0
	var lastStep [2]float64
	s := DriverSettings{
		StopAt: func(t0, t1 float64) float64 {
			if math.IsInf(found, 1) {
				if found = d.Reach(1, level); !math.IsInf(found, 1) {
					stopAt = found + wait
					if stopAt < t1 && t1 > evT-1e-5 { // truncated at the crossing, or past it
						cutSteps++
					}
				}
			}
			return stopAt
		},
		OnStep: func(t0, t1 float64) { lastStep = [2]float64{t0, t1} },
	}
	ev := []Event{{G: func(_ float64, y mat.Vector) float64 { return raw(y)[0] - math.Cos(evT) }, Direction: Rising}}
	var err error
	d, err = NewDriver(NewDormandPrince(Settings{RelTol: 1e-6, AbsTol: 1e-6}), oscillator.ivp(), ev, s)
	if err != nil {
		t.Fatal(err)
	}
	hit, err := d.Advance(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := 7 * math.Pi / 6; math.Abs(found-want) > 1e-5 {
		t.Errorf("Reach found %v, want 7π/6 = %v", found, want)
	}
	if cutSteps != 1 {
		t.Fatalf("the step reaching the level ends before the guard's crossing at %v: the cut is not tested", evT)
	}
	if hit.Event != -1 || hit.T != stopAt || lastStep[1] != stopAt {
		t.Errorf("Advance returned %+v after the step %v, want the cut at %v", hit, lastStep, stopAt)
	}
	if e := math.Abs(d.Y().AtVec(0) - math.Cos(stopAt)); e > 1e-5 {
		t.Errorf("the state at the cut is %g from the solution", e)
	}
	stopAt = math.Inf(1)
	if hit, err = d.Advance(context.Background(), 10); err != nil || hit.Event != 0 || math.Abs(hit.T-evT) > 1e-5 {
		t.Fatalf("the next Advance returned %+v, %v; want the guard at %v", hit, err, evT)
	}
	if hit, err = d.Advance(context.Background(), 9); err != nil || hit.T != 9 {
		t.Fatalf("the last Advance returned %+v, %v; want t = 9", hit, err)
	}
}

// TestSlowStartLaw integrates the window of TCP slow start, which doubles once per
// round-trip time τ. dW/dt = W·ln2/τ reproduces that (×2 per RTT); the tempting
// dW/dt = W/τ grows by e per RTT. Model authors must use the first.
func TestSlowStartLaw(t *testing.T) {
	const (
		rtt    = 0.1 // s
		rounds = 10
		rtol   = 1e-9
	)
	for _, c := range []struct {
		name   string
		rate   float64 // per second
		growth float64 // per RTT
	}{
		{"W·ln2/τ doubles", math.Ln2 / rtt, 2},
		{"W/τ grows by e", 1 / rtt, math.E},
	} {
		t.Run(c.name, func(t *testing.T) {
			ivp := IVP{Y0: mat.NewVecDense(1, []float64{1}), Func: func(dst *mat.VecDense, _ float64, y mat.Vector) {
				raw(dst)[0] = c.rate * raw(y)[0]
			}}
			d, err := NewDriver(NewDormandPrince(Settings{RelTol: rtol, AbsTol: 1e-12}), ivp, nil, DriverSettings{})
			if err != nil {
				t.Fatal(err)
			}
			prev := 1.0
			for k := 1; k <= rounds; k++ {
				if _, err := d.Advance(context.Background(), float64(k)*rtt); err != nil {
					t.Fatal(err)
				}
				w := raw(d.Y())[0]
				if g := w / prev; math.Abs(g-c.growth) > 10*rtol*c.growth {
					t.Errorf("round %d: window grew ×%.12f, want ×%.12f", k, g, c.growth)
				}
				prev = w
			}
			want := math.Pow(c.growth, rounds)
			t.Logf("W after %d RTTs: %.10g (want %.10g)", rounds, prev, want)
			if math.Abs(prev-want) > 10*rtol*rounds*want {
				t.Errorf("W after %d RTTs = %v, want %v", rounds, prev, want)
			}
		})
	}
}

// countingDense counts the dense-output evaluations the Driver asks for.
type countingDense struct {
	*DormandPrince
	interpolations int
}

func (c *countingDense) Interpolate(dst *mat.VecDense, t float64) {
	c.interpolations++
	c.DormandPrince.Interpolate(dst, t)
}

// Guards that read exactly zero stay disarmed and probe the step's dense output just past
// its start, all at the same time: the Driver interpolates the state there once per step,
// not once per guard, or a network of n flows pays n interpolations of n components.
func TestDisarmedGuardsShareOneProbe(t *testing.T) {
	const guards = 500
	ev := make([]Event, guards)
	for j := range ev {
		ev[j] = Event{G: func(float64, mat.Vector) float64 { return 0 }}
	}
	in := &countingDense{DormandPrince: NewDormandPrince(Settings{})}
	d, err := NewDriver(in, oscillator.ivp(), ev, DriverSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Advance(context.Background(), oscillator.t1); err != nil {
		t.Fatal(err)
	}
	if in.interpolations > d.Steps() {
		t.Errorf("%d interpolations over %d steps with %d disarmed guards, want at most one per step", in.interpolations, d.Steps(), guards)
	}
}
