package meanfield

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tcpfluid/tcpfluid/ode"
)

// Behaviours of a run's tail (Result.Behaviour).
const (
	// BehaviourConverged: the windows' relative amplitude in the last quarter of the run
	// (the second half of the tail) is below ConvergedAmplitude.
	BehaviourConverged = "converged"
	// BehaviourConverging: the amplitude fell by more than 10% from the first half of the
	// tail to the second.
	BehaviourConverging = "converging"
	// BehaviourOscillating: it did not: a limit cycle, or a growing oscillation.
	BehaviourOscillating = "oscillating"
)

// ConvergedAmplitude is the relative amplitude, (max − min)/(2·mean) of a window, below
// which a run's tail counts as converged.
const ConvergedAmplitude = 1e-3

// Settings configures Simulate. Zero values select the defaults.
type Settings struct {
	// DurationS is the simulated time, s, > 0.
	DurationS float64
	// SampleS is the interval of Result.Series, s; 0 records none. At most 10^6 samples.
	SampleS float64
	// TailS is the final stretch the summaries average over, s; default half the run,
	// at most DurationS. Behaviour compares its two halves, so it should span several
	// periods of any oscillation.
	TailS float64
	// FromEquilibrium starts at the equilibrium, with the same history before t = 0
	// (every class sending, so every class must start at 0), and every window scaled by
	// 1 + Perturb at t = 0 (|Perturb| < 1). Otherwise windows start at their
	// InitialCwndPkts and the queues empty.
	FromEquilibrium bool
	Perturb         float64
	// RelTol and AbsTol are the Dormand–Prince tolerances (packets); defaults 1e-6.
	RelTol, AbsTol float64
	// StepS fixes the step, s: 0 (the default) controls it by the tolerances. It may not
	// exceed the smallest propagation RTT, which bounds every step (the look-backs must
	// fall in stored steps). The adaptive controller's error norm is a mean over the
	// state's components, one window per class, so it weights a class of 10⁶ flows as
	// one flow: the same flows grouped into fewer classes take other steps and agree only
	// to the integration's accuracy (1e-5 at RelTol 1e-9 in TestGroupingInvariance's RED
	// scenario). With a fixed step every grouping takes the same steps and gives each
	// flow the same figures to rounding.
	StepS float64
	// MaxSteps bounds the accepted steps; default 10,000,000.
	MaxSteps int
}

const maxSamples = 1_000_000

func (set *Settings) resolve() error {
	switch {
	case !finite(set.DurationS) || set.DurationS <= 0:
		return fmt.Errorf("%w: duration %v s, want a finite number > 0", ErrNetwork, set.DurationS)
	case !finite(set.SampleS) || set.SampleS < 0:
		return fmt.Errorf("%w: sample interval %v s, want ≥ 0 (0: no series)", ErrNetwork, set.SampleS)
	case set.SampleS > 0 && set.DurationS/set.SampleS > maxSamples:
		return fmt.Errorf("%w: sample interval %v s, want ≥ %v s (at most %d samples over %v s)", ErrNetwork, set.SampleS, set.DurationS/maxSamples, maxSamples, set.DurationS)
	case !finite(set.TailS) || set.TailS < 0 || set.TailS > set.DurationS:
		return fmt.Errorf("%w: tail %v s, want 0 (half the run) to the duration %v s", ErrNetwork, set.TailS, set.DurationS)
	case !finite(set.Perturb) || set.Perturb <= -1 || set.Perturb >= 1:
		return fmt.Errorf("%w: perturbation %v, want −1 < perturb < 1", ErrNetwork, set.Perturb)
	case !finite(set.RelTol) || set.RelTol < 0 || set.RelTol > 0.1:
		return fmt.Errorf("%w: relative tolerance %v, want 0 (default 1e-6) to 0.1", ErrNetwork, set.RelTol)
	case !finite(set.AbsTol) || set.AbsTol < 0:
		return fmt.Errorf("%w: absolute tolerance %v packets, want ≥ 0 (0: default 1e-6)", ErrNetwork, set.AbsTol)
	case !finite(set.StepS) || set.StepS < 0:
		return fmt.Errorf("%w: step %v s, want 0 (adaptive) or a fixed step > 0", ErrNetwork, set.StepS)
	case set.MaxSteps < 0:
		return fmt.Errorf("%w: max steps %d, want ≥ 0 (0: default 10,000,000)", ErrNetwork, set.MaxSteps)
	}
	if set.TailS == 0 {
		set.TailS = set.DurationS / 2
	}
	if set.RelTol == 0 {
		set.RelTol = 1e-6
	}
	if set.AbsTol == 0 {
		set.AbsTol = 1e-6
	}
	if set.MaxSteps == 0 {
		set.MaxSteps = 10_000_000
	}
	return nil
}

// Result is one mean-field run. Per-flow figures are a class's every flow.
type Result struct {
	DurationS float64 `json:"duration_s"`
	TailS     float64 `json:"tail_s"`
	Steps     int     `json:"steps"`
	// Behaviour is BehaviourConverged, BehaviourConverging or BehaviourOscillating, from
	// the windows' relative amplitudes in the two halves of the tail.
	Behaviour      string  `json:"behaviour"`
	AmplitudeEarly float64 `json:"amplitude_early"` // largest (max − min)/(2·mean) of a window, first half of the tail
	AmplitudeLate  float64 `json:"amplitude_late"`  // the same, second half
	// EnvelopeRatePerS is ln(late/early)/(tail/2), 1/s: negative while an oscillation
	// decays, about zero on a limit cycle.
	EnvelopeRatePerS float64        `json:"envelope_rate_per_s"`
	Classes          []ClassResult  `json:"classes"`
	Links            []LinkResult   `json:"links"`
	Equilibrium      *Equilibrium   `json:"equilibrium,omitempty"`
	Series           []SeriesSample `json:"series,omitempty"`

	totals    []classTotals // whole-run integrals, for RunScenario
	links     []linkTotals
	delivered [][]float64 // per sample, each class's packets delivered per flow so far
}

// ClassResult summarises a class over the tail.
type ClassResult struct {
	Name             string  `json:"name"`
	Algorithm        string  `json:"algorithm"`
	Flows            float64 `json:"flows"`
	MeanCwndPkts     float64 `json:"mean_cwnd_pkts"`
	MinCwndPkts      float64 `json:"min_cwnd_pkts"`
	MaxCwndPkts      float64 `json:"max_cwnd_pkts"`
	FinalCwndPkts    float64 `json:"final_cwnd_pkts"`
	MeanRTTS         float64 `json:"mean_rtt_s"`
	MeanRatePktsPerS float64 `json:"mean_rate_pkts_per_s"` // per flow
	MeanLossP        float64 `json:"mean_loss_p"`          // the p(t − τ) the class reacts to
}

// LinkResult summarises a link over the tail.
type LinkResult struct {
	Name             string  `json:"name"`
	MeanQueuePkts    float64 `json:"mean_queue_pkts"`
	MinQueuePkts     float64 `json:"min_queue_pkts"`
	MaxQueuePkts     float64 `json:"max_queue_pkts"`
	FinalQueuePkts   float64 `json:"final_queue_pkts"`
	MeanAvgQueuePkts float64 `json:"mean_avg_queue_pkts"` // RED's average; the queue without RED
	MeanMarkP        float64 `json:"mean_mark_p"`
	Utilisation      float64 `json:"utilisation"`
}

// SeriesSample is the state at one time: one entry per class and per link, in order.
type SeriesSample struct {
	TS           float64   `json:"t_s"`
	CwndPkts     []float64 `json:"cwnd_pkts"`
	RTTS         []float64 `json:"rtt_s"`
	LossP        []float64 `json:"loss_p"` // p(t − τ) each class reacts to
	QueuePkts    []float64 `json:"queue_pkts"`
	AvgQueuePkts []float64 `json:"avg_queue_pkts"`
	MarkP        []float64 `json:"mark_p"` // each link's marking of arrivals now
}

type classTotals struct {
	cwnd, sent, acked, losses float64 // ∫W, ∫rate, ∫ack, ∫ack·p
}

type linkTotals struct {
	queue, queueSq, departed, dropped float64 // ∫q, ∫q², ∫departures, ∫λ·mark
}

// stats accumulates one stretch of the run.
type stats struct {
	dur             float64
	cwnd, rtt, rate []float64 // ∫ per class
	seen            []float64
	wMin, wMax      []float64
	queue, avg      []float64 // ∫ per link
	mark, util      []float64
	qMin, qMax      []float64
}

func newStats(m, l int) *stats {
	inf := func(n int, v float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	return &stats{cwnd: make([]float64, m), rtt: make([]float64, m), rate: make([]float64, m), seen: make([]float64, m),
		wMin: inf(m, math.Inf(1)), wMax: inf(m, math.Inf(-1)),
		queue: make([]float64, l), avg: make([]float64, l), mark: make([]float64, l), util: make([]float64, l),
		qMin: inf(l, math.Inf(1)), qMax: inf(l, math.Inf(-1))}
}

// histLag reads look-backs from the integration's history.
type histLag struct{ h *ode.History }

func (h histLag) lag(_, k int, t float64) float64 { return h.h.At(k, t) }

func (h histLag) derivs(_, k int, t float64, dst []float64) { h.h.Derivatives(k, t, dst) }

// Simulate integrates the mean-field delay-differential equations of the network (see
// the package documentation) with Dormand–Prince on ode's delay history, the step
// limited to the smallest propagation RTT so that every look-back lies in stored steps.
// The context is checked every 256 steps.
func Simulate(ctx context.Context, n *Network, set Settings) (*Result, error) {
	return simulate(ctx, n, set, true, false)
}

// simulate is Simulate, with the quasi-static RED average allowed or not, and the
// whole-run totals kept or not.
func simulate(ctx context.Context, n *Network, set Settings, quasi, totals bool) (*Result, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	if err := set.resolve(); err != nil {
		return nil, err
	}
	s := newSystem(n, quasi)
	r := &simRun{s: s, set: set, totals: totals, y: mat.NewVecDense(s.dim, nil)}
	return r.run(ctx)
}

type simRun struct {
	s       *system
	set     Settings
	drv     *ode.Driver
	hist    *ode.History
	y       *mat.VecDense
	totals  bool      // keep whole-run integrals (RunScenario)
	full    *stats    // whole run, when totals
	tail    [2]*stats // the tail's two halves
	tot     []classTotals
	lt      []linkTotals
	series  []SeriesSample
	nextSmp int
	// Packets delivered per flow, per class, at the start and end of the current step
	// (totals only), for the trace's running count.
	cum0, cum1 []float64
	cum        [][]float64
}

func (r *simRun) run(ctx context.Context) (*Result, error) {
	s, set, n := r.s, r.set, r.s.net
	y0 := make([]float64, s.dim)
	var before func(dst []float64, t float64)
	var eq *Equilibrium
	if e, err := s.equilibrium(); err == nil {
		eq = e
	} else if set.FromEquilibrium {
		return nil, err
	}
	if set.FromEquilibrium {
		for i := range n.Classes {
			if n.Classes[i].StartS > 0 {
				return nil, fmt.Errorf("%w: classes[%d].start_s = %v s: a run from the equilibrium needs every class sending from t = 0", ErrNetwork, i, n.Classes[i].StartS)
			}
		}
		s.past = true // the history before t = 0 is the equilibrium, every class sending
		copy(y0, eq.y)
		before = func(dst []float64, _ float64) { copy(dst, eq.y) }
		for i := range s.m {
			y0[i] *= 1 + set.Perturb
		}
	} else {
		for i := range s.m {
			y0[i] = n.Classes[i].initial()
		}
	}
	maxStep, maxDelay := math.Inf(1), 0.0
	for i := range n.Classes {
		c := &n.Classes[i]
		maxStep = min(maxStep, c.PropRTTS)
		d := c.PropRTTS
		for _, l := range c.Links {
			d += s.buf[l] / n.Links[l].CapacityPktsPerS
		}
		maxDelay = max(maxDelay, d)
	}
	ds := ode.Settings{RelTol: set.RelTol, AbsTol: set.AbsTol, MaxStep: maxStep}
	if set.StepS > 0 {
		if set.StepS > maxStep {
			return nil, fmt.Errorf("%w: step %v s, want at most the smallest propagation RTT, %v s", ErrNetwork, set.StepS, maxStep)
		}
		ds.FixedStep, ds.InitialStep, ds.MaxStep = true, set.StepS, set.StepS
	}
	r.hist = ode.NewHistory(s.dim, maxDelay, before)
	hl := histLag{r.hist}
	ivp := ode.IVP{Y0: mat.NewVecDense(s.dim, y0), Func: func(dst *mat.VecDense, t float64, y mat.Vector) {
		s.field(dst.RawVector().Data, y.(*mat.VecDense).RawVector().Data, t, hl)
	}}
	dp := ode.NewDormandPrince(ds)
	r.tot = make([]classTotals, s.m)
	r.lt = make([]linkTotals, len(n.Links))
	r.tail = [2]*stats{newStats(s.m, len(n.Links)), newStats(s.m, len(n.Links))}
	r.full = newStats(s.m, len(n.Links))
	r.cum0, r.cum1 = make([]float64, s.m), make([]float64, s.m)
	s.setActive(0)
	drv, err := ode.NewDriver(dp, ivp, nil, ode.DriverSettings{MaxSteps: set.MaxSteps, History: r.hist, OnStep: r.onStep})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSolve, err)
	}
	r.drv = drv
	if set.SampleS > 0 {
		r.sample(0, y0)
		r.cum = append(r.cum, make([]float64, s.m))
	}
	// Segments between class starts and stops, so that no step straddles one.
	cuts := []float64{set.DurationS}
	for i := range n.Classes {
		for _, t := range []float64{n.Classes[i].StartS, n.Classes[i].StopS} {
			if t > 0 && t < set.DurationS {
				cuts = append(cuts, t)
			}
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	t := 0.0
	for _, next := range cuts {
		if next > t {
			if _, err := drv.Advance(ctx, next); err != nil {
				return nil, fmt.Errorf("%w at t = %.6g s: %w", ErrSolve, drv.T(), err)
			}
			t = next
		}
		s.setActive(t)
		drv.Restart()
	}
	return r.result(eq)
}

// onStep accumulates the step [t0, t1] with Simpson's rule on the dense output, and
// records the samples it contains.
func (r *simRun) onStep(t0, t1 float64) {
	tailStart := r.set.DurationS - r.set.TailS
	mid := r.set.DurationS - r.set.TailS/2
	if r.totals {
		for i := range r.tot {
			r.cum0[i] = r.tot[i].acked - r.tot[i].losses
		}
		r.accumulate(t0, t1, r.full, true)
		for i := range r.tot {
			r.cum1[i] = r.tot[i].acked - r.tot[i].losses
		}
	}
	for k, lo := range [2]float64{tailStart, mid} {
		hi := [2]float64{mid, r.set.DurationS}[k]
		a, b := max(t0, lo), min(t1, hi)
		if b > a {
			r.accumulate(a, b, r.tail[k], false)
		}
	}
	if r.set.SampleS > 0 {
		for {
			ts := float64(r.nextSmp+1) * r.set.SampleS
			if ts > t1*(1+1e-12) || ts > r.set.DurationS*(1+1e-12) {
				break
			}
			r.nextSmp++
			r.drv.Interpolate(r.y, min(ts, t1))
			r.sample(ts, r.y.RawVector().Data)
			if r.totals {
				frac := min((ts-t0)/(t1-t0), 1)
				row := make([]float64, len(r.cum0))
				for i := range row {
					row[i] = r.cum0[i] + frac*(r.cum1[i]-r.cum0[i])
				}
				r.cum = append(r.cum, row)
			}
		}
	}
}

// accumulate adds [a, b] to st, and to the whole-run totals when totals is set.
func (r *simRun) accumulate(a, b float64, st *stats, totals bool) {
	s := r.s
	h := b - a
	st.dur += h
	for k, t := range [3]float64{a, (a + b) / 2, b} {
		wt := [3]float64{h / 6, 4 * h / 6, h / 6}[k]
		r.drv.Interpolate(r.y, t)
		y := r.y.RawVector().Data
		s.observe(t, y, histLag{r.hist})
		for i := range s.m {
			if !s.active[i] {
				continue
			}
			st.cwnd[i] += wt * y[i]
			st.rtt[i] += wt * s.tau[i]
			st.rate[i] += wt * s.rate[i]
			st.seen[i] += wt * s.seen[i]
			st.wMin[i] = min(st.wMin[i], y[i])
			st.wMax[i] = max(st.wMax[i], y[i])
			if totals {
				tt := &r.tot[i]
				tt.cwnd += wt * y[i]
				tt.sent += wt * s.rate[i]
				tt.acked += wt * s.ack[i]
				tt.losses += wt * s.ack[i] * s.seen[i]
			}
		}
		for l := range s.net.Links {
			q := s.clampQ(l, s.queue(l, y))
			avg := s.avgNow(l, t, y, histLag{r.hist})
			mark := s.markNow(l, t, y, histLag{r.hist})
			dep := s.departures(l, y)
			st.queue[l] += wt * q
			st.avg[l] += wt * avg
			st.mark[l] += wt * mark
			st.util[l] += wt * dep / s.net.Links[l].CapacityPktsPerS
			st.qMin[l] = min(st.qMin[l], q)
			st.qMax[l] = max(st.qMax[l], q)
			if totals {
				lt := &r.lt[l]
				lt.queue += wt * q
				lt.queueSq += wt * q * q
				lt.departed += wt * dep
				lt.dropped += wt * s.lam[l] * mark
			}
		}
	}
}

func (r *simRun) sample(t float64, y []float64) {
	s := r.s
	s.observe(t, y, histLag{r.hist})
	L := len(s.net.Links)
	smp := SeriesSample{TS: t, CwndPkts: make([]float64, s.m), RTTS: make([]float64, s.m), LossP: make([]float64, s.m),
		QueuePkts: make([]float64, L), AvgQueuePkts: make([]float64, L), MarkP: make([]float64, L)}
	for i := range s.m {
		smp.CwndPkts[i], smp.RTTS[i], smp.LossP[i] = y[i], s.tau[i], s.seen[i]
	}
	for l := range L {
		smp.QueuePkts[l] = s.clampQ(l, s.queue(l, y))
		smp.AvgQueuePkts[l] = s.avgNow(l, t, y, histLag{r.hist})
		smp.MarkP[l] = s.markNow(l, t, y, histLag{r.hist})
	}
	r.series = append(r.series, smp)
}

func (r *simRun) result(eq *Equilibrium) (*Result, error) {
	s, n := r.s, r.s.net
	y := r.drv.Y().RawVector().Data
	res := &Result{DurationS: r.set.DurationS, TailS: r.set.TailS, Steps: r.drv.Steps(), Equilibrium: eq,
		Series: r.series, totals: r.tot, links: r.lt, delivered: r.cum}
	// The tail's summaries from its two halves.
	both := func(f func(st *stats) float64) float64 { return f(r.tail[0]) + f(r.tail[1]) }
	amp := [2]float64{}
	for i := range s.m {
		c := &n.Classes[i]
		cr := ClassResult{Name: c.name(i), Algorithm: c.Law.Name(), Flows: c.Flows, FinalCwndPkts: y[i],
			MinCwndPkts: min(r.tail[0].wMin[i], r.tail[1].wMin[i]), MaxCwndPkts: max(r.tail[0].wMax[i], r.tail[1].wMax[i])}
		if dur := both(func(st *stats) float64 { return st.dur }); dur > 0 && !math.IsInf(cr.MinCwndPkts, 0) {
			cr.MeanCwndPkts = both(func(st *stats) float64 { return st.cwnd[i] }) / dur
			cr.MeanRTTS = both(func(st *stats) float64 { return st.rtt[i] }) / dur
			cr.MeanRatePktsPerS = both(func(st *stats) float64 { return st.rate[i] }) / dur
			cr.MeanLossP = both(func(st *stats) float64 { return st.seen[i] }) / dur
		} else {
			cr.MinCwndPkts, cr.MaxCwndPkts = 0, 0 // inactive over the tail
		}
		for k, st := range r.tail {
			if st.dur > 0 && st.cwnd[i] > 0 && !math.IsInf(st.wMin[i], 0) {
				mean := st.cwnd[i] / st.dur
				amp[k] = max(amp[k], (st.wMax[i]-st.wMin[i])/(2*mean))
			}
		}
		res.Classes = append(res.Classes, cr)
	}
	for l := range n.Links {
		dur := both(func(st *stats) float64 { return st.dur })
		lr := LinkResult{Name: n.Links[l].name(l), FinalQueuePkts: s.clampQ(l, s.queue(l, y)),
			MinQueuePkts: min(r.tail[0].qMin[l], r.tail[1].qMin[l]), MaxQueuePkts: max(r.tail[0].qMax[l], r.tail[1].qMax[l])}
		if dur > 0 {
			lr.MeanQueuePkts = both(func(st *stats) float64 { return st.queue[l] }) / dur
			lr.MeanAvgQueuePkts = both(func(st *stats) float64 { return st.avg[l] }) / dur
			lr.MeanMarkP = both(func(st *stats) float64 { return st.mark[l] }) / dur
			lr.Utilisation = both(func(st *stats) float64 { return st.util[l] }) / dur
		}
		res.Links = append(res.Links, lr)
	}
	res.AmplitudeEarly, res.AmplitudeLate = amp[0], amp[1]
	switch {
	case amp[1] < ConvergedAmplitude:
		res.Behaviour = BehaviourConverged
	case amp[1] < 0.9*amp[0]:
		res.Behaviour = BehaviourConverging
	default:
		res.Behaviour = BehaviourOscillating
	}
	if amp[0] > 0 && amp[1] > 0 {
		res.EnvelopeRatePerS = math.Log(amp[1]/amp[0]) / (r.set.TailS / 2)
	}
	if err := res.check(); err != nil {
		return nil, err
	}
	return res, nil
}

// check refuses a result with a NaN or an infinity anywhere.
func (res *Result) check() error {
	bad := func(what string, v float64) error {
		if !finite(v) {
			return fmt.Errorf("%w: %s = %v", ErrSolve, what, v)
		}
		return nil
	}
	vals := []float64{res.AmplitudeEarly, res.AmplitudeLate, res.EnvelopeRatePerS}
	for _, c := range res.Classes {
		vals = append(vals, c.MeanCwndPkts, c.MinCwndPkts, c.MaxCwndPkts, c.FinalCwndPkts, c.MeanRTTS, c.MeanRatePktsPerS, c.MeanLossP)
	}
	for _, l := range res.Links {
		vals = append(vals, l.MeanQueuePkts, l.MinQueuePkts, l.MaxQueuePkts, l.FinalQueuePkts, l.MeanAvgQueuePkts, l.MeanMarkP, l.Utilisation)
	}
	for _, smp := range res.Series {
		vals = append(vals, smp.TS)
		for _, v := range [][]float64{smp.CwndPkts, smp.RTTS, smp.LossP, smp.QueuePkts, smp.AvgQueuePkts, smp.MarkP} {
			vals = append(vals, v...)
		}
	}
	for i, v := range vals {
		if err := bad(fmt.Sprintf("result value %d", i), v); err != nil {
			return err
		}
	}
	return nil
}
