package ode

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Direction selects which zero crossings of a guard fire its event.
type Direction int

const (
	// Either fires on crossings in both directions.
	Either Direction = 0
	// Rising fires when the guard goes from negative to non-negative.
	Rising Direction = 1
	// Falling fires when the guard goes from positive to non-positive.
	Falling Direction = -1
)

// Event is a guard g(t, y); the event fires where g crosses zero in Direction.
type Event struct {
	G         func(t float64, y mat.Vector) float64
	Direction Direction
}

// DriverSettings configures a Driver. The zero value gives the documented defaults.
type DriverSettings struct {
	// MaxSteps bounds the accepted steps over the Driver's lifetime, across Advance
	// calls; default 10_000_000, must be ≥ 0. Reaching it returns ErrMaxSteps.
	MaxSteps int
	// EventTol is the relative time tolerance of event location: a crossing is located
	// to within EventTol·max(1, |t|) time units. Default 1e-12; allowed [1e-15, 1e-9].
	EventTol float64
	// Step is the first step handed to the integrator. Default 0 asks the integrator
	// (DormandPrince.InitialStep, limited by MaxStep); integrators without automatic
	// step selection, such as RK4, require it. Must be ≥ 0 and finite.
	Step float64
	// History, when set, records the dense output of each accepted step (truncated at
	// events) for delayed terms; the Driver resets it to the IVP's initial state.
	History *History
	// StopAt, when set, is called after each accepted step [t0, t1] (truncated at an
	// event that fires in it) and returns where Advance is to stop in it: a time in
	// [t0, t1) cuts the step there, and an event located after it is found again by the
	// steps that follow; t1 stops at the step's end; any later time (+Inf) goes on. It
	// may call Driver.Interpolate, Component and Reach: what only needs recording where a
	// component reaches a level, and acting on later, need not stop the integration as
	// an event does.
	StopAt func(t0, t1 float64) float64
	// OnStep, when set, is called after each accepted step (after StopAt) with its
	// interval, truncated to the event time when an event fires in it or to StopAt's
	// cut. It may call Driver.Interpolate.
	OnStep func(t0, t1 float64)
}

const (
	defaultMaxSteps = 10_000_000
	defaultEventTol = 1e-12
	minEventTol     = 1e-15
	maxEventTol     = 1e-9
	// ctxCheckEvery is the number of steps between two checks of the context.
	ctxCheckEvery = 256
	// maxRootIterations bounds the root finder; the bisection safeguard halves the
	// bracket at least every other iteration, so 2·(52+log2 of the step/tolerance
	// range) is ample.
	maxRootIterations = 300
	// probeFactor·EventTol·max(1, |t|) after a step start is where a disarmed guard
	// takes its reference sign; it must exceed the location tolerance by a wide margin
	// so that a guard left just past its zero by an event reads the sign the state
	// moves to.
	probeFactor = 100
)

// Hit reports why Advance returned.
type Hit struct {
	Event int     // index into events of the first crossing, or -1 when tEnd was reached
	T     float64 // time reached
}

// Driver integrates a Dense integrator to target times exactly, locating events on the
// way, and records the History of delayed terms.
//
// Steps follow the integrator's proposals; the last step before a target time is
// clipped to end on it, or stretched by at most 0.1 % to avoid a sliver step.
//
// After each accepted step [t0, t1] the Driver evaluates every guard at t1. Guards that
// changed sign in their Direction are located on the dense output by a bracketing root
// finder (the Illinois variant of regula falsi with a bisection safeguard; gonum v0.17
// exports no scalar bracketing root finder) to within EventTol·max(1, |t|). The
// earliest crossing wins: the state becomes the interpolated state just past the
// crossing, the step is truncated there and Advance returns Hit{Event: i, T: tc}. Other
// guards that crossed by tc fire on the following Advance calls at the same time, in
// index order, unless a Jump moved them back. Every event stops Advance; for an event
// that only needs recording, call Advance again without a Jump, or, where the event is a
// component reaching a level, check it in DriverSettings.StopAt and locate it with Reach,
// which does not stop the integration.
//
// A guard that is exactly zero at the current state, and the guard that just fired
// (also across a Jump or Restart that leaves it on or past its zero), is disarmed: it
// takes its reference sign from a probe of the dense output of the next step at
// 100·EventTol·max(1, |t|) after the step start (or the step's midpoint if that is
// earlier), so it neither fires again at the same point nor misses a crossing later in
// that step. A fired guard that a Jump or Restart moved back to the side it crossed from
// is armed at once. Crossings that happen and undo themselves
// within one step are not seen: keep Settings.MaxStep below the shortest interval
// between a guard's zeros.
type Driver struct {
	in    Dense
	dense quarticDense // nil for integrators of other packages
	snap  endSnapper   // nil for integrators that cannot snap to the target time
	ev    []Event
	s     DriverSettings
	hist  *History
	dim   int
	err   error // from Jump, reported by Advance
	steps int

	t           float64
	y           *mat.VecDense
	st          State
	scratch     *mat.VecDense // trial states of the root finder
	probe       *mat.VecDense // the state at probeT, shared by the guards of one step
	probeT      float64       // NaN when probe holds no state of the current step
	h           float64       // proposed next step
	needReset   bool          // the integrator is not at (t, y)
	interrupted bool          // OnStep asked Advance to return after its step
	last0       float64
	last1       float64

	g, gNew []float64 // guard values at (t, y) and at the end of the step
	ref     []int8    // sign of each armed guard before the step; 0 when disarmed
	fired   []bool    // fired at the current time; stays disarmed across a Jump
	from    []int8    // the sign a fired guard crossed from
	pending []bool    // crossed by the time of an earlier event in the same step
}

// NewDriver validates the IVP (ErrBadIVP), events and settings (ErrBadSettings),
// initialises the integrator and evaluates the guards at the initial state.
func NewDriver(in Dense, ivp IVP, events []Event, s DriverSettings) (*Driver, error) {
	n, err := ivp.validate()
	if err != nil {
		return nil, err
	}
	if in == nil {
		return nil, fmt.Errorf("%w: integrator is nil", ErrBadSettings)
	}
	switch {
	case s.MaxSteps < 0:
		return nil, fmt.Errorf("%w: DriverSettings.MaxSteps = %d, must be ≥ 0", ErrBadSettings, s.MaxSteps)
	case s.MaxSteps == 0:
		s.MaxSteps = defaultMaxSteps
	}
	switch {
	case s.EventTol == 0:
		s.EventTol = defaultEventTol
	case !(s.EventTol >= minEventTol && s.EventTol <= maxEventTol):
		return nil, fmt.Errorf("%w: DriverSettings.EventTol = %v, allowed [%v, %v]", ErrBadSettings, s.EventTol, minEventTol, maxEventTol)
	}
	if !(s.Step >= 0) || math.IsInf(s.Step, 1) {
		return nil, fmt.Errorf("%w: DriverSettings.Step = %v, must be ≥ 0 and finite", ErrBadSettings, s.Step)
	}
	for i, e := range events {
		if e.G == nil {
			return nil, fmt.Errorf("%w: events[%d].G is nil", ErrBadSettings, i)
		}
		if e.Direction < Falling || e.Direction > Rising {
			return nil, fmt.Errorf("%w: events[%d].Direction = %d, allowed -1, 0, 1", ErrBadSettings, i, e.Direction)
		}
	}
	d := &Driver{
		in: in, ev: events, s: s, hist: s.History, dim: n,
		t: ivp.T0, y: mat.NewVecDense(n, nil), scratch: mat.NewVecDense(n, nil), probe: mat.NewVecDense(n, nil),
		g: make([]float64, len(events)), gNew: make([]float64, len(events)),
		ref: make([]int8, len(events)), fired: make([]bool, len(events)), from: make([]int8, len(events)),
		pending: make([]bool, len(events)),
	}
	d.st.Y = d.y
	readVec(d.y.RawVector().Data, ivp.Y0)
	d.snap, _ = in.(endSnapper)
	d.dense, _ = in.(quarticDense)
	if d.hist != nil {
		if d.hist.err != nil {
			return nil, d.hist.err
		}
		if d.hist.dim != n {
			return nil, fmt.Errorf("%w: History dim = %d, the IVP has %d components", ErrBadSettings, d.hist.dim, n)
		}
		if d.dense == nil {
			return nil, fmt.Errorf("%w: History needs an integrator of this package (%T has no stored dense form)", ErrBadSettings, in)
		}
		d.hist.reset(ivp.T0, ivp.Y0) // before Init: the derivative at T0 may look back
	}
	in.Init(ivp)
	if ie, ok := in.(initErrer); ok {
		if err := ie.initErr(); err != nil {
			return nil, err
		}
	}
	d.h = s.Step
	if d.h == 0 {
		if is, ok := in.(interface{ InitialStep() float64 }); ok {
			d.h = is.InitialStep()
		}
		if !(d.h > 0) || math.IsInf(d.h, 1) {
			return nil, fmt.Errorf("%w: DriverSettings.Step = 0 needs an integrator with automatic initial step; %T has none (set Step > 0)", ErrBadSettings, in)
		}
	}
	for j := range events {
		if err := d.evalGuard(j, d.t, d.y, &d.g[j]); err != nil {
			return nil, err
		}
		d.arm(j)
	}
	return d, nil
}

// evalGuard writes guard j at (t, y) into dst.
func (d *Driver) evalGuard(j int, t float64, y *mat.VecDense, dst *float64) error {
	v := d.ev[j].G(t, y)
	if !isFinite(v) {
		return fmt.Errorf("%w: guard %d = %v at t = %v", ErrNonFinite, j, v, t)
	}
	*dst = v
	return nil
}

// arm sets the reference sign of guard j from its current value; zero disarms it.
func (d *Driver) arm(j int) {
	d.ref[j] = sign(d.g[j])
}

func sign(v float64) int8 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// disarm marks guard j as just fired.
func (d *Driver) disarm(j int) {
	d.from[j] = d.ref[j]
	d.ref[j], d.fired[j] = 0, true
}

// rearm sets the reference sign of guard j after the caller changed the state or the
// mode at the current time. A guard that fired here stays disarmed where the change left
// it on or past its zero, so that it does not fire again at once; one the change moved
// back to the side it crossed from is armed again: a crossing due sooner than the probe
// of a disarmed guard (a loss due within nanoseconds of a mode switch that shares its
// guard) would otherwise set its reference sign and be lost.
func (d *Driver) rearm(j int) {
	switch {
	case d.pending[j]:
	case !d.fired[j]:
		d.arm(j)
	case sign(d.g[j]) == d.from[j]:
		d.fired[j] = false
		d.arm(j)
	}
}

// crossed reports whether guard j, armed with sign ref, has crossed in its Direction to
// the value v.
func (d *Driver) crossed(j int, v float64) bool {
	ref := d.ref[j]
	if ref == 0 || (ref > 0 && v > 0) || (ref < 0 && v < 0) {
		return false
	}
	switch d.ev[j].Direction {
	case Rising:
		return ref < 0
	case Falling:
		return ref > 0
	}
	return true
}

// Advance integrates to tEnd exactly, or to the first event crossing before it; the
// state is then at Hit.T. On error the state stays at the last accepted step.
func (d *Driver) Advance(ctx context.Context, tEnd float64) (Hit, error) {
	stay := Hit{Event: -1, T: d.t}
	if d.err != nil {
		return stay, d.err
	}
	if !isFinite(tEnd) || tEnd < d.t {
		return stay, fmt.Errorf("%w: tEnd = %v, must be finite and ≥ the current time %v", ErrBadArgument, tEnd, d.t)
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return stay, fmt.Errorf("ode: advance stopped at t = %v: %w", d.t, err)
		}
	}
	if j := d.firePending(); j >= 0 {
		return Hit{Event: j, T: d.t}, nil
	}
	if tEnd == d.t {
		return stay, nil
	}
	if d.needReset {
		d.in.Reset(d.t, d.y)
		d.needReset = false
	}
	for n := 1; ; n++ {
		if d.steps >= d.s.MaxSteps {
			return Hit{Event: -1, T: d.t}, fmt.Errorf("%w: %d steps (DriverSettings.MaxSteps) at t = %v", ErrMaxSteps, d.steps, d.t)
		}
		if n%ctxCheckEvery == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return Hit{Event: -1, T: d.t}, fmt.Errorf("ode: advance stopped at t = %v: %w", d.t, err)
			}
		}
		rem := tEnd - d.t
		step, final := d.h, false
		if rem-step < 1e-3*step { // includes rem ≤ step; no sliver step after this one
			step, final = rem, true
		}
		next, err := d.in.Step(step)
		if err != nil {
			return Hit{Event: -1, T: d.t}, err
		}
		d.steps++
		t0, t1 := d.in.LastStep()
		if !(next > 0) || math.IsInf(next, 1) {
			next = t1 - t0 // an integrator without a proposal keeps its step
		}
		landed := final && math.Abs(tEnd-t1) <= 4*eps*math.Abs(tEnd)
		if landed {
			t1 = tEnd
			if d.snap != nil {
				d.snap.snapEnd(tEnd)
			} else {
				d.needReset = true
			}
			d.h = max(d.h, next) // the clipped step says nothing about the step size
		} else {
			d.h = next
		}
		d.in.State(&d.st)
		d.t, d.last0, d.last1 = t1, t0, t1
		hit := -1
		if len(d.ev) > 0 {
			if hit, err = d.events(t0, t1); err != nil {
				return Hit{Event: -1, T: d.t}, err
			}
		}
		stop := false
		if d.s.StopAt != nil {
			if tc := d.s.StopAt(t0, d.last1); tc < d.last1 {
				if err := d.cut(max(tc, t0)); err != nil {
					return Hit{Event: -1, T: d.t}, err
				}
				hit, landed, stop = -1, false, true
			} else {
				stop = tc == d.last1
			}
		}
		if d.hist != nil {
			st, h, c := d.dense.quartic()
			d.hist.record(st, h, d.last1, c)
		}
		if d.s.OnStep != nil {
			d.s.OnStep(t0, d.last1)
		}
		switch {
		case hit >= 0:
			return Hit{Event: hit, T: d.t}, nil
		case landed:
			return Hit{Event: -1, T: tEnd}, nil
		case stop:
			return Hit{Event: -1, T: d.t}, nil
		}
	}
}

const eps = 0x1p-52

// events checks the guards at the end of the step [t0, t1] and, when some crossed,
// truncates the step at the earliest crossing and returns its guard.
func (d *Driver) events(t0, t1 float64) (int, error) {
	d.probeT = math.NaN()
	for j := range d.ev {
		if err := d.evalGuard(j, t1, d.y, &d.gNew[j]); err != nil {
			return -1, err
		}
	}
	best, tBest := -1, t1
	for j := range d.ev {
		a, ga := t0, d.g[j]
		if d.ref[j] == 0 {
			// Disarmed: take the reference sign just after the start of the step.
			a = t0 + min(probeFactor*d.s.EventTol*max(1, math.Abs(t0)), (t1-t0)/2)
			if err := d.evalGuard(j, a, d.stateAt(a), &ga); err != nil {
				return -1, err
			}
			if d.ref[j] = sign(ga); d.ref[j] == 0 {
				continue
			}
		}
		if !d.crossed(j, d.gNew[j]) {
			continue
		}
		b, gb := t1, d.gNew[j]
		if best >= 0 {
			// Only a crossing before the best so far matters.
			if a >= tBest {
				continue
			}
			if err := d.evalGuard(j, tBest, d.stateAt(tBest), &gb); err != nil {
				return -1, err
			}
			if !d.crossed(j, gb) {
				continue
			}
			b = tBest
		}
		tc, err := d.locate(j, a, ga, b, gb)
		if err != nil {
			return -1, err
		}
		if best < 0 || tc < tBest {
			best, tBest = j, tc
		}
	}
	if best < 0 {
		d.g, d.gNew = d.gNew, d.g
		for j := range d.ev {
			d.fired[j] = false
			d.arm(j)
		}
		return -1, nil
	}
	d.in.Interpolate(d.scratch, tBest)
	yc := d.scratch.RawVector().Data
	if i := firstNonFinite(yc); i >= 0 {
		return -1, fmt.Errorf("%w: interpolated state component %d = %v at the event time t = %v", ErrNonFinite, i, yc[i], tBest)
	}
	d.y.CopyVec(d.scratch)
	d.t, d.last1, d.needReset = tBest, tBest, true
	for j := range d.ev {
		if err := d.evalGuard(j, tBest, d.y, &d.gNew[j]); err != nil {
			return -1, err
		}
	}
	for j := range d.ev {
		v := d.gNew[j]
		d.g[j], d.fired[j] = v, false
		switch {
		case j == best:
			d.disarm(j)
		case d.crossed(j, v):
			d.pending[j] = true // keeps its reference sign until it fires
		default:
			d.arm(j)
		}
	}
	return best, nil
}

// stateAt is the dense output at t within the current step. Every disarmed guard probes
// at the same time, and every guard that crossed is checked at the same earliest
// crossing so far: interpolating the state once per time keeps a step with thousands of
// such guards O(dimension + guards) instead of O(dimension · guards).
func (d *Driver) stateAt(t float64) *mat.VecDense {
	if t != d.probeT {
		d.in.Interpolate(d.probe, t)
		d.probeT = t
	}
	return d.probe
}

// locate finds the crossing of guard j in [a, b], where it has the value fa (on its
// armed side) at a and fb (crossed) at b, to within EventTol·max(1, |t|). It returns
// the right end of the final bracket, where the guard has crossed.
func (d *Driver) locate(j int, a, fa, b, fb float64) (float64, error) {
	return d.bracket(a, fa, b, fb, func(x float64) (float64, bool, error) {
		d.in.Interpolate(d.scratch, x)
		var v float64
		err := d.evalGuard(j, x, d.scratch, &v)
		return v, d.crossed(j, v), err
	})
}

// bracket narrows [a, b], where a function of the dense output has the value fa (not yet
// crossed) at a and fb (crossed) at b, to within EventTol·max(1, |t|): the Illinois variant
// of regula falsi with a bisection safeguard. at evaluates the function at x and reports
// whether it has crossed there. It returns the right end of the final bracket.
func (d *Driver) bracket(a, fa, b, fb float64, at func(x float64) (v float64, crossed bool, err error)) (float64, error) {
	side := 0 // which end moved last: -1 a, +1 b
	wPrev, wPrev2 := b-a, b-a
	bisect := false
	for range maxRootIterations {
		tol := d.s.EventTol * max(1, math.Abs(b))
		if b-a <= tol {
			break
		}
		var x float64
		if bisect || fb == fa {
			x = a + (b-a)/2
		} else {
			x = b - fb*(b-a)/(fb-fa)
		}
		m := tol / 2
		if !(x >= a+m) {
			x = a + m
		} else if !(x <= b-m) {
			x = b - m
		}
		if x <= a || x >= b {
			break // bracket at float resolution
		}
		v, crossed, err := at(x)
		if err != nil {
			return 0, err
		}
		if crossed {
			b, fb = x, v
			if side == 1 {
				fa /= 2
			}
			side = 1
		} else {
			a, fa = x, v
			if side == -1 {
				fb /= 2
			}
			side = -1
		}
		w := b - a
		bisect = w > wPrev2/2 // the bracket did not halve in two iterations
		wPrev2, wPrev = wPrev, w
	}
	return b, nil
}

// firePending fires the lowest-index guard that crossed at the time of the last event
// and still has crossed at the current state.
func (d *Driver) firePending() int {
	for j, p := range d.pending {
		if !p {
			continue
		}
		d.pending[j] = false
		if d.crossed(j, d.g[j]) {
			d.disarm(j)
			return j
		}
		d.arm(j)
	}
	return -1
}

// State writes the current state into dst; dst.Y is allocated when nil or of the wrong
// length.
func (d *Driver) State(dst *State) {
	dst.T = d.t
	writeVec(&dst.Y, d.y.RawVector().Data)
}

// Y returns the current state vector: a read-only view, valid until the next call of a
// Driver method.
func (d *Driver) Y() *mat.VecDense { return d.y }

// T returns the current time.
func (d *Driver) T() float64 { return d.t }

// Jump replaces the state at the current time, typically after an event, and restarts
// the integrator from it. A state of the wrong length or with non-finite components is
// reported by the next Advance.
func (d *Driver) Jump(y mat.Vector) {
	if y == nil || y.Len() != d.dim {
		n := -1
		if y != nil {
			n = y.Len()
		}
		d.err = fmt.Errorf("%w: Jump state has %d components, want %d", ErrBadArgument, n, d.dim)
		return
	}
	data := d.scratch.RawVector().Data
	readVec(data, y)
	if i := firstNonFinite(data); i >= 0 {
		d.err = fmt.Errorf("%w: Jump state component %d = %v at t = %v", ErrNonFinite, i, data[i], d.t)
		return
	}
	d.y.CopyVec(d.scratch)
	d.err = nil
	d.needReset = true
	for j := range d.ev {
		if err := d.evalGuard(j, d.t, d.y, &d.g[j]); err != nil {
			d.err = err
			return
		}
		d.rearm(j)
	}
}

// Skip moves the driver to time t, at or after the current time, with state y there, which
// the caller computed without the integrator (an exact solution of the flow between events),
// and restarts the integrator from it as Jump does. A driver with a delay history refuses:
// the skipped stretch would be missing from it.
func (d *Driver) Skip(t float64, y mat.Vector) {
	switch {
	case d.hist != nil:
		d.err = fmt.Errorf("%w: Skip with a delay history", ErrBadArgument)
		return
	case !isFinite(t) || t < d.t:
		d.err = fmt.Errorf("%w: Skip to t = %v, must be finite and ≥ the current time %v", ErrBadArgument, t, d.t)
		return
	}
	d.t = t
	d.Jump(y)
}

// Restart continues from the current state after the caller changed only what the
// right-hand side depends on besides y (a discrete mode), and with it at most the guards
// listed: those are re-evaluated and re-armed as Jump does, the others keep their values.
// It costs the listed guards instead of all of them, which matters with thousands of
// guards of which one changes.
func (d *Driver) Restart(guards ...int) {
	d.err = nil
	d.needReset = true
	for _, j := range guards {
		if j < 0 || j >= len(d.ev) {
			d.err = fmt.Errorf("%w: Restart guard %d, want 0 to %d", ErrBadArgument, j, len(d.ev)-1)
			return
		}
		if err := d.evalGuard(j, d.t, d.y, &d.g[j]); err != nil {
			d.err = err
			return
		}
		d.rearm(j)
	}
}

// Interpolate writes the state at t within the last accepted (possibly truncated) step
// into dst. It is valid until the next Advance; after a Jump it still describes the
// trajectory before the jump.
func (d *Driver) Interpolate(dst *mat.VecDense, t float64) { d.in.Interpolate(dst, t) }

// LastStep returns the interval of the last accepted step, truncated at an event.
func (d *Driver) LastStep() (t0, t1 float64) { return d.last0, d.last1 }

// Steps returns the number of accepted steps over the Driver's lifetime.
func (d *Driver) Steps() int { return d.steps }
