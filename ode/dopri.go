package ode

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Dormand–Prince RK5(4)7M tableau (Dormand and Prince 1980). The constants are exact
// rationals until they meet a float64, so the error weights e = b − b̂ are exact too.
const (
	c2, c3, c4, c5 = 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9

	a21                     = 1.0 / 5
	a31, a32                = 3.0 / 40, 9.0 / 40
	a41, a42, a43           = 44.0 / 45, -56.0 / 15, 32.0 / 9
	a51, a52, a53, a54      = 19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729
	a61, a62, a63, a64, a65 = 9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656

	// Fifth-order weights b (also the seventh stage, which makes the pair FSAL).
	b1, b3, b4, b5, b6 = 35.0 / 384, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84
	// Fourth-order embedded weights b̂.
	bh1, bh3, bh4, bh5, bh6, bh7 = 5179.0 / 57600, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40

	// Error weights e = b − b̂. e2 is zero; it stays in the error sum so that a
	// non-finite second stage reaches the error norm (0·NaN = NaN).
	e1, e2, e3, e4, e5, e6, e7 = b1 - bh1, 0.0, b3 - bh3, b4 - bh4, b5 - bh5, b6 - bh6, -bh7

	// Continuous extension of order 4 (Shampine 1986), in the form of Hairer, Nørsett
	// and Wanner: c4 of the quartic dense output is h·Σ dᵢkᵢ. The order-4 conditions
	// for every θ are checked exactly in the tests.
	d1 = -12715105075.0 / 11282082432
	d3 = 87487479700.0 / 32700410799
	d4 = -10690763975.0 / 1880347072
	d5 = 701980252875.0 / 199316789632
	d6 = -1453857185.0 / 822651844
	d7 = 69997945.0 / 29380423
)

// Step-size controller constants (Hairer, Nørsett and Wanner I, §II.4).
const (
	safety    = 0.9 // fraction of the optimal step actually proposed
	growthMax = 10  // largest factor between consecutive steps
	shrinkMin = 0.2 // smallest factor after a rejection
)

// Settings configures DormandPrince. The zero value gives the documented defaults.
type Settings struct {
	// RelTol is the relative error tolerance per step; default 1e-6, must be ≥ 0.
	RelTol float64
	// AbsTol is the absolute error tolerance per step in state units; default 1e-9,
	// must be ≥ 0 (0 selects the default).
	AbsTol float64
	// InitialStep is the first step handed out by InitialStep; default 0 selects the
	// Hairer–Nørsett–Wanner heuristic. Must be ≥ 0 and finite.
	InitialStep float64
	// MaxStep bounds every step; default +Inf. A delay-differential user sets it to at
	// most the smallest delay (see History). Must be ≥ 0 (0 selects the default).
	MaxStep float64
	// MinStep is the step-size underflow threshold: a step rejected below it returns
	// ErrStepUnderflow. Default 1e-14·max(1, |t|); must be ≥ 0 and finite.
	MinStep float64
	// FixedStep switches off error control: Step(h) then takes exactly min(h,
	// MaxStep). Meant for convergence studies.
	FixedStep bool
}

func (s Settings) withDefaults() (Settings, error) {
	check := func(name string, v float64, allowInf bool) error {
		if math.IsNaN(v) || v < 0 || (!allowInf && math.IsInf(v, 1)) {
			return fmt.Errorf("%w: Settings.%s = %v, must be ≥ 0 and finite", ErrBadSettings, name, v)
		}
		return nil
	}
	for _, f := range []struct {
		name     string
		v        float64
		allowInf bool
	}{{"RelTol", s.RelTol, false}, {"AbsTol", s.AbsTol, false}, {"InitialStep", s.InitialStep, false}, {"MaxStep", s.MaxStep, true}, {"MinStep", s.MinStep, false}} {
		if err := check(f.name, f.v, f.allowInf); err != nil {
			return s, err
		}
	}
	if s.RelTol == 0 {
		s.RelTol = 1e-6
	}
	if s.AbsTol == 0 {
		s.AbsTol = 1e-9
	}
	if s.MaxStep == 0 {
		s.MaxStep = math.Inf(1)
	}
	return s, nil
}

// DormandPrince is the adaptive Dormand–Prince 5(4) integrator with an order-4 dense
// output. It propagates the fifth-order solution (local extrapolation), uses the first
// same as last property (six derivative evaluations per accepted step) and controls the
// step with the error norm
//
//	‖err‖ = sqrt(mean_i (err_i / (AbsTol + RelTol·max(|y_i|, |ynew_i|)))²),
//
// accepting a step when ‖err‖ ≤ 1 and proposing h·min(10, max(0.2, 0.9·‖err‖^(−1/5))),
// without growth right after a rejection. A trial step whose stages are not finite is
// rejected and shrunk by 0.2; if that persists down to the minimum step the error is
// ErrNonFinite.
type DormandPrince struct {
	s   Settings
	err error
	f   func(dst *mat.VecDense, t float64, y mat.Vector)

	t             float64
	y, yPrev, yNw vec
	k             [7]vec // k[0] holds f(t, y) between steps (FSAL)
	ys            vec    // stage argument

	// last accepted step [tPrev, tLast] of length hLast; its dense output r is
	// computed on demand (r[0] aliases yPrev).
	hasStep    bool
	denseReady bool
	tPrev      float64
	tLast      float64
	hLast      float64
	r          [5][]float64
}

var (
	_ Dense        = (*DormandPrince)(nil)
	_ quarticDense = (*DormandPrince)(nil)
	_ endSnapper   = (*DormandPrince)(nil)
)

// NewDormandPrince returns a Dormand–Prince integrator; invalid settings are reported
// by Step (ErrBadSettings).
func NewDormandPrince(s Settings) *DormandPrince {
	dp := &DormandPrince{}
	dp.s, dp.err = s.withDefaults()
	return dp
}

// Init implements Integrator. It evaluates the derivative at the initial state.
func (dp *DormandPrince) Init(p IVP) {
	settings, err := dp.s.withDefaults()
	if err == nil {
		dp.s = settings
	}
	n, ierr := p.validate()
	if err == nil {
		err = ierr
	}
	if dp.err = err; err != nil {
		dp.f = nil
		return
	}
	if len(dp.y.d) != n {
		dp.y, dp.yPrev, dp.yNw, dp.ys = newVec(n), newVec(n), newVec(n), newVec(n)
		for i := range dp.k {
			dp.k[i] = newVec(n)
		}
		for i := 1; i < len(dp.r); i++ {
			dp.r[i] = make([]float64, n)
		}
	}
	dp.f = p.Func
	dp.t = p.T0
	readVec(dp.y.d, p.Y0)
	dp.restart()
}

func (dp *DormandPrince) initErr() error { return dp.err }

// Reset implements Dense.
func (dp *DormandPrince) Reset(t float64, y mat.Vector) {
	if dp.f == nil || isPermanent(dp.err) {
		return // Init failed; Step reports why.
	}
	if y == nil || y.Len() != len(dp.y.d) || !isFinite(t) {
		dp.err = fmt.Errorf("%w: Reset to t = %v with a state of the wrong length or non-finite time", ErrBadArgument, t)
		return
	}
	dp.t = t
	readVec(dp.y.d, y)
	dp.restart()
}

// restart evaluates the derivative at the current state and forgets the last step.
func (dp *DormandPrince) restart() {
	dp.hasStep = false
	dp.err = nil
	if i := firstNonFinite(dp.y.d); i >= 0 {
		dp.err = fmt.Errorf("%w: state component %d = %v at t = %v", ErrNonFinite, i, dp.y.d[i], dp.t)
		return
	}
	dp.f(dp.k[0].v, dp.t, dp.y.v)
	if i := firstNonFinite(dp.k[0].d); i >= 0 {
		dp.err = fmt.Errorf("%w: derivative component %d = %v at t = %v", ErrNonFinite, i, dp.k[0].d[i], dp.t)
	}
}

// isPermanent reports setup errors that a Reset cannot clear.
func isPermanent(err error) bool {
	return errors.Is(err, ErrBadSettings) || errors.Is(err, ErrBadIVP)
}

// InitialStep returns Settings.InitialStep, or, when it is zero, the starting step of
// the Hairer–Nørsett–Wanner heuristic (Solving ODEs I, §II.4) for the current state,
// limited to MaxStep. The heuristic costs one derivative evaluation. It returns 0 when
// the integrator is in error.
func (dp *DormandPrince) InitialStep() float64 {
	if dp.err != nil {
		return 0
	}
	if dp.s.InitialStep > 0 {
		return min(dp.s.InitialStep, dp.s.MaxStep)
	}
	// k[1] and ys are free: the dense output of the last step does not use them.
	y, f0 := dp.y.d, dp.k[0].d
	rms := func(v func(i int) float64) float64 {
		sum := 0.0
		for i := range y {
			x := v(i) / (dp.s.AbsTol + dp.s.RelTol*math.Abs(y[i]))
			sum += x * x
		}
		return math.Sqrt(sum / float64(len(y)))
	}
	dy := rms(func(i int) float64 { return y[i] })
	df := rms(func(i int) float64 { return f0[i] })
	h0 := 1e-6
	if dy >= 1e-5 && df >= 1e-5 {
		h0 = 0.01 * dy / df
	}
	h0 = min(h0, dp.s.MaxStep)
	ys, f1 := dp.ys.d, dp.k[1].d
	for i := range ys {
		ys[i] = y[i] + h0*f0[i]
	}
	dp.f(dp.k[1].v, dp.t+h0, dp.ys.v)
	ddf := rms(func(i int) float64 { return f1[i] - f0[i] }) / h0
	var h1 float64
	switch m := max(df, ddf); {
	case !isFinite(m):
		h1 = h0
	case m <= 1e-15:
		h1 = max(1e-6, h0*1e-3)
	default:
		h1 = math.Pow(0.01/m, 1.0/5)
	}
	return min(100*h0, h1, dp.s.MaxStep)
}

// Step implements Integrator. It tries min(step, MaxStep), shrinking it until the
// error norm is at most 1, and returns the proposed next step.
func (dp *DormandPrince) Step(step float64) (float64, error) {
	if dp.err != nil {
		return 0, dp.err
	}
	dp.hasStep = false
	h := min(step, dp.s.MaxStep)
	if !(h > 0) || math.IsInf(h, 1) {
		return 0, fmt.Errorf("%w: step = %v at t = %v, must be finite and > 0", ErrBadArgument, step, dp.t)
	}
	if dp.s.FixedStep {
		dp.attempt(h)
		if !allFinite(dp.yNw.d) || !dp.stagesFinite() {
			return 0, dp.nonFiniteError(h)
		}
		dp.accept(h)
		return h, nil
	}
	rejected := false
	for {
		errNorm := dp.attempt(h)
		finite := isFinite(errNorm) && allFinite(dp.yNw.d)
		if finite && errNorm <= 1 {
			dp.accept(h)
			fac := min(growthMax, safety*math.Pow(errNorm, -1.0/5))
			if rejected {
				fac = min(fac, 1)
			}
			return min(h*max(fac, shrinkMin), dp.s.MaxStep), nil
		}
		fac := shrinkMin
		if finite {
			fac = max(shrinkMin, safety*math.Pow(errNorm, -1.0/5))
		}
		h *= fac
		rejected = true
		if minStep := dp.minStep(); h < minStep {
			if !finite {
				return 0, dp.nonFiniteError(h / fac)
			}
			return 0, fmt.Errorf("%w: step %v below the minimum %v at t = %v", ErrStepUnderflow, h, minStep, dp.t)
		}
	}
}

func (dp *DormandPrince) minStep() float64 {
	if dp.s.MinStep > 0 {
		return dp.s.MinStep
	}
	return 1e-14 * max(1, math.Abs(dp.t))
}

// attempt computes a trial step of size h from (t, y) into yNw and k[1:], and returns
// its error norm.
func (dp *DormandPrince) attempt(h float64) float64 {
	t, y := dp.t, dp.y.d
	n := len(y)
	k1, k2, k3, k4 := dp.k[0].d[:n], dp.k[1].d[:n], dp.k[2].d[:n], dp.k[3].d[:n]
	k5, k6, k7 := dp.k[4].d[:n], dp.k[5].d[:n], dp.k[6].d[:n]
	ys, yn := dp.ys.d[:n], dp.yNw.d[:n]

	for i := range ys {
		ys[i] = y[i] + h*(a21*k1[i])
	}
	dp.f(dp.k[1].v, t+c2*h, dp.ys.v)
	for i := range ys {
		ys[i] = y[i] + h*(a31*k1[i]+a32*k2[i])
	}
	dp.f(dp.k[2].v, t+c3*h, dp.ys.v)
	for i := range ys {
		ys[i] = y[i] + h*(a41*k1[i]+a42*k2[i]+a43*k3[i])
	}
	dp.f(dp.k[3].v, t+c4*h, dp.ys.v)
	for i := range ys {
		ys[i] = y[i] + h*(a51*k1[i]+a52*k2[i]+a53*k3[i]+a54*k4[i])
	}
	dp.f(dp.k[4].v, t+c5*h, dp.ys.v)
	for i := range ys {
		ys[i] = y[i] + h*(a61*k1[i]+a62*k2[i]+a63*k3[i]+a64*k4[i]+a65*k5[i])
	}
	dp.f(dp.k[5].v, t+h, dp.ys.v)
	for i := range yn {
		yn[i] = y[i] + h*(b1*k1[i]+b3*k3[i]+b4*k4[i]+b5*k5[i]+b6*k6[i])
	}
	dp.f(dp.k[6].v, t+h, dp.yNw.v)

	if dp.s.FixedStep {
		return 0
	}
	atol, rtol := dp.s.AbsTol, dp.s.RelTol
	sum := 0.0
	for i := range yn {
		e := h * (e1*k1[i] + e2*k2[i] + e3*k3[i] + e4*k4[i] + e5*k5[i] + e6*k6[i] + e7*k7[i])
		scale := math.Abs(y[i])
		if a := math.Abs(yn[i]); a > scale {
			scale = a
		}
		x := e / (atol + rtol*scale)
		sum += x * x
	}
	return math.Sqrt(sum / float64(n))
}

func (dp *DormandPrince) stagesFinite() bool {
	for i := 1; i < len(dp.k); i++ {
		if !allFinite(dp.k[i].d) {
			return false
		}
	}
	return true
}

// nonFiniteError names the first non-finite component of the trial step of size h.
func (dp *DormandPrince) nonFiniteError(h float64) error {
	if i := firstNonFinite(dp.yNw.d); i >= 0 {
		return fmt.Errorf("%w: state component %d = %v at t = %v (step %v from t = %v)", ErrNonFinite, i, dp.yNw.d[i], dp.t+h, h, dp.t)
	}
	for s := 1; s < len(dp.k); s++ {
		if i := firstNonFinite(dp.k[s].d); i >= 0 {
			return fmt.Errorf("%w: derivative component %d = %v in stage %d of the step %v from t = %v", ErrNonFinite, i, dp.k[s].d[i], s+1, h, dp.t)
		}
	}
	return fmt.Errorf("%w: error estimate overflowed in the step %v from t = %v", ErrNonFinite, h, dp.t)
}

// accept makes the trial step current: yNw becomes y, and the last stage (the
// derivative at the new point) becomes the first stage of the next step.
func (dp *DormandPrince) accept(h float64) {
	dp.tPrev = dp.t
	dp.t += h
	dp.tLast, dp.hLast = dp.t, h
	dp.yPrev, dp.y, dp.yNw = dp.y, dp.yNw, dp.yPrev
	dp.k[0], dp.k[6] = dp.k[6], dp.k[0]
	dp.hasStep, dp.denseReady = true, false
}

// State implements Integrator.
func (dp *DormandPrince) State(dst *State) {
	dst.T = dp.t
	writeVec(&dst.Y, dp.y.d)
}

// LastStep implements Dense.
func (dp *DormandPrince) LastStep() (t0, t1 float64) {
	if !dp.hasStep {
		return dp.t, dp.t
	}
	return dp.tPrev, dp.tLast
}

// Interpolate implements Dense with the order-4 continuous extension; it costs no
// derivative evaluation.
func (dp *DormandPrince) Interpolate(dst *mat.VecDense, t float64) {
	if !dp.hasStep {
		copyInto(dst, dp.y.d)
		return
	}
	t0, h, c := dp.quartic()
	interpolateInto(dst, t, t0, h, c)
}

// quartic implements quarticDense. After accept, k[6] holds the old first stage and
// k[0] the old last stage.
func (dp *DormandPrince) quartic() (t0, h float64, c *[5][]float64) {
	if !dp.denseReady {
		h := dp.hLast
		y0, y1 := dp.yPrev.d, dp.y.d[:len(dp.yPrev.d)]
		n := len(y0)
		k1, k3, k4, k5, k6, k7 := dp.k[6].d[:n], dp.k[2].d[:n], dp.k[3].d[:n], dp.k[4].d[:n], dp.k[5].d[:n], dp.k[0].d[:n]
		r1, r2, r3, r4 := dp.r[1][:n], dp.r[2][:n], dp.r[3][:n], dp.r[4][:n]
		dp.r[0] = y0
		for i := range y0 {
			dy := y1[i] - y0[i]
			s := h*k1[i] - dy
			r1[i] = dy
			r2[i] = s
			r3[i] = dy - h*k7[i] - s
			r4[i] = h * (d1*k1[i] + d3*k3[i] + d4*k4[i] + d5*k5[i] + d6*k6[i] + d7*k7[i])
		}
		dp.denseReady = true
	}
	return dp.tPrev, dp.hLast, &dp.r
}

// snapEnd implements endSnapper.
func (dp *DormandPrince) snapEnd(t float64) {
	dp.t, dp.tLast = t, t
}
