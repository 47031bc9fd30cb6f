package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/internal/settings"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Request is what a sweep asks of one run besides the scenario: the seed, a trace step
// (0: none), whether to record the loss events, and a stop after flow 0's first losses
// (0: none), as fluid.Settings and packet.Settings have them.
type Request struct {
	Seed            uint64
	SampleS         float64
	RecordLosses    bool
	StopAfterLosses int
}

// RunFunc runs a validated scenario as a Request says.
type RunFunc func(ctx context.Context, sc *model.Scenario, req Request) (*model.Result, error)

// Engines a sweep runs.
const (
	EngineFluid  = "fluid"
	EnginePacket = "packet"
)

// MaxReplications bounds Spec.Replications.
const MaxReplications = 10000

// Spec describes a sweep. Zero fields take the documented defaults.
type Spec struct {
	// Base is the scenario every point starts from; it is copied, never changed. Default:
	// the built-in DefaultScenario.
	Base *model.Scenario
	// Bottleneck names the link that buffer, p and capacity change and whose queue and
	// utilisation are measured. Default: the link with the lowest capacity (the first of
	// them in the scenario's order).
	Bottleneck string
	// Axes are the swept parameters (ScenarioParams or algo.param), each with distinct values.
	// No axes is one point: the base scenario.
	Axes []Axis
	// Metrics are the measured metrics, in output order; default DefaultMetrics(Base, Axes).
	Metrics []string
	// Seed is the sweep's seed; each run derives its own from it, the point and its replicate.
	Seed uint64
	// Replications is the number of runs per point, each with its own seed; the table then
	// has each metric's mean, standard deviation and 95% confidence interval. 0 or 1: one
	// run per point, its values as they are.
	Replications int
	// Workers is the number of runs at once; default runtime.GOMAXPROCS(0).
	Workers int
	// Shard and Shards select the points i with i mod Shards = Shard; default 0 and 1
	// (every point).
	Shard, Shards int
	// Engine is EngineFluid (default) or EnginePacket; Packet holds the packet engine's
	// options (SACK, JitterS, MinRTOS; its seed, sampling and stops come from each run's
	// Request).
	Engine string
	Packet packet.Settings
	// Run, when set, runs each point instead of Engine (tests); Engine then only labels
	// the output.
	Run RunFunc
	// Progress, when set, is called after each run with the runs done and the runs of this
	// shard (points × replications); calls are serialised.
	Progress func(done, total int)
}

// plan is a checked Spec with its defaults resolved.
type plan struct {
	Spec
	bottleneck int     // index of the bottleneck in Base.Links
	rtt0       float64 // round-trip propagation delay of flow 0's path in Base, s
	points     int     // of the whole grid
	metrics    []metric
	needs      needs
	options    string            // the packet engine's options, "sack jitter=0.001"
	hints      map[string]string // axis → why it may not act on this scenario
}

func (s Spec) plan() (*plan, error) {
	if s.Base == nil {
		base, err := model.Builtin(DefaultScenario)
		if err != nil {
			return nil, err
		}
		s.Base = base
	} else {
		s.Base = s.Base.Clone()
		if err := s.Base.Validate(); err != nil {
			return nil, fmt.Errorf("%w: base scenario: %w", model.ErrSettings, err)
		}
	}
	p := &plan{Spec: s, points: 1}
	if err := p.resolveBottleneck(); err != nil {
		return nil, err
	}
	if err := p.checkAxes(); err != nil {
		return nil, err
	}
	if len(p.Metrics) == 0 {
		p.Metrics = DefaultMetrics(p.Base, p.Axes)
	}
	for i, name := range p.Metrics {
		m, err := lookupMetric(name)
		if err != nil {
			return nil, err
		}
		if slices.Contains(p.Metrics[:i], name) {
			return nil, fmt.Errorf("%w: sweep metric %q appears twice", model.ErrSettings, name)
		}
		if _, flow, ok := strings.Cut(name, ":"); ok && !slices.ContainsFunc(p.Base.Flows, func(f model.Flow) bool { return f.Name == flow }) {
			names := make([]string, len(p.Base.Flows))
			for k, f := range p.Base.Flows {
				names[k] = f.Name
			}
			return nil, fmt.Errorf("%w: sweep metric %s: scenario %s has no flow %q, want one of %v", model.ErrSettings, name, p.Base.Name, flow, names)
		}
		p.metrics = append(p.metrics, m)
		p.needs.add(m.needs)
	}
	if p.Replications < 0 || p.Replications > MaxReplications {
		return nil, fmt.Errorf("%w: %d replications, want 1 to %d", model.ErrSettings, p.Replications, MaxReplications)
	}
	if p.Replications == 0 {
		p.Replications = 1
	}
	if p.Shards == 0 {
		p.Shards = 1
	}
	if p.Shards < 1 || p.Shard < 0 || p.Shard >= p.Shards {
		return nil, fmt.Errorf("%w: shard %d/%d, want 0 <= shard < shards", model.ErrSettings, p.Shard, p.Shards)
	}
	if err := settings.Workers(&p.Workers); err != nil {
		return nil, err
	}
	if p.Engine == "" {
		p.Engine = EngineFluid
	}
	if p.Engine != EngineFluid && p.Engine != EnginePacket {
		return nil, fmt.Errorf("%w: engine %q, want %s or %s", model.ErrSettings, p.Engine, EngineFluid, EnginePacket)
	}
	var opts []string
	if p.Packet.SACK {
		opts = append(opts, "sack") // SACK senders in either engine
	}
	if p.Engine == EnginePacket {
		if p.Packet.JitterS != 0 {
			opts = append(opts, "jitter="+strconv.FormatFloat(p.Packet.JitterS, 'g', -1, 64))
		}
		if p.Packet.MinRTOS != 0 {
			opts = append(opts, "min_rto="+strconv.FormatFloat(p.Packet.MinRTOS, 'g', -1, 64))
		}
	}
	p.options = strings.Join(opts, " ")
	if p.Run == nil {
		engine, pkt := p.Engine, p.Packet
		p.Run = func(ctx context.Context, sc *model.Scenario, req Request) (*model.Result, error) {
			if engine == EnginePacket {
				set := pkt
				set.Seed, set.SampleS, set.RecordLosses, set.StopAfterLosses = req.Seed, req.SampleS, req.RecordLosses, req.StopAfterLosses
				return packet.Run(ctx, sc, set)
			}
			return fluid.Run(ctx, sc, fluid.Settings{Seed: req.Seed, SampleS: req.SampleS, RecordLosses: req.RecordLosses,
				StopAfterLosses: req.StopAfterLosses, SACK: pkt.SACK})
		}
	}
	p.hints = axisHints(p)
	return p, nil
}

func (p *plan) resolveBottleneck() error {
	links := p.Base.Links
	if p.Bottleneck != "" {
		p.bottleneck = p.Base.LinkIndex(p.Bottleneck)
		if p.bottleneck < 0 {
			names := make([]string, len(links))
			for i, l := range links {
				names[i] = l.Name
			}
			return fmt.Errorf("%w: bottleneck %q, want one of the links %v", model.ErrSettings, p.Bottleneck, names)
		}
	} else {
		for i, l := range links {
			if l.CapacityBps < links[p.bottleneck].CapacityBps {
				p.bottleneck = i
			}
		}
		p.Bottleneck = links[p.bottleneck].Name
	}
	path := 0
	if len(p.Base.Flows) > 0 {
		path = p.Base.PathIndex(p.Base.Flows[0].PathNames()[0])
	}
	p.rtt0 = p.Base.PathRTTS(path)
	return nil
}

func (p *plan) checkAxes() error {
	for i, a := range p.Axes {
		if slices.ContainsFunc(p.Axes[:i], func(b Axis) bool { return b.Name == a.Name }) {
			return fmt.Errorf("%w: sweep parameter %s given twice, want one axis per parameter", model.ErrSettings, a.Name)
		}
		param, err := lookupParam(a.Name)
		if err != nil {
			return err
		}
		if err := checkValues(a.Name, param, a.Values); err != nil {
			return err
		}
		if algo, _, ok := strings.Cut(a.Name, "."); ok && !slices.ContainsFunc(p.Base.Flows, func(f model.Flow) bool { return f.Algorithm == algo }) {
			used := map[string]bool{}
			for _, f := range p.Base.Flows {
				used[f.Algorithm] = true
			}
			return fmt.Errorf("%w: sweep parameter %s: no flow of scenario %s runs %s (its flows run %v), want --algo %s or a scenario with %s flows",
				model.ErrSettings, a.Name, p.Base.Name, algo, slices.Sorted(maps.Keys(used)), algo, algo)
		}
		if a.Name == ParamFlows && len(p.Base.Flows) == 0 {
			return fmt.Errorf("%w: sweep parameter %s: scenario %s has no flow to copy", model.ErrSettings, a.Name, p.Base.Name)
		}
		if p.points > MaxPoints/len(a.Values) {
			return fmt.Errorf("%w: sweep of more than %d points, want at most %d", model.ErrSettings, MaxPoints, MaxPoints)
		}
		p.points *= len(a.Values)
	}
	return nil
}

// values returns point i's axis values: row-major, the first axis varying slowest.
func (p *plan) values(i int) []float64 {
	v := make([]float64, len(p.Axes))
	for k := len(p.Axes) - 1; k >= 0; k-- {
		n := len(p.Axes[k].Values)
		v[k] = p.Axes[k].Values[i%n]
		i /= n
	}
	return v
}

// pointKey names a point by its axes, "colo.gamma=0.5 rtt=0.1", for errors and seeds.
func pointKey(axes []Axis, values []float64) string {
	var b strings.Builder
	for k, a := range axes {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Name)
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(values[k], 'g', -1, 64))
	}
	return b.String()
}

// runSeed is the seed of replicate r at a point: settings.PointSeed of the sweep's seed,
// the point's key in place of the algorithm name and r in place of the loss rate. The key is
// the axis names and the shortest exact decimal form of the values, so the seed depends on
// the sweep's seed, the point and the replicate only, not on the point's index, its shard or
// its worker; replicate 0 has the seed of a sweep without replications.
func runSeed(seed uint64, axes []Axis, values []float64, r int) uint64 {
	return settings.PointSeed(seed, "sweep "+pointKey(axes, values), float64(r), 0)
}

// traceStep is the trace interval of the trace metrics: a tenth of flow 0's round trip, at
// most a hundredth of the run, and at least what keeps the trace within 2,000,000 rows.
func (p *plan) traceStep(sc *model.Scenario) float64 {
	rows := 0
	for _, f := range sc.Flows {
		rows += len(f.PathNames())
	}
	rows += len(sc.Links)
	return math.Max(math.Min(p.rtt0/10, sc.DurationS/100), sc.DurationS*float64(rows)/2e6)
}

// fingerprint hashes what determines a sweep's results, so that outputs of different
// sweeps do not merge: the base scenario (its flows' algorithms and parameters included),
// the bottleneck, the engine and its options, the seed, the replications, the axes and
// the metrics.
func (p *plan) fingerprint() (string, error) {
	base, err := json.Marshal(p.Base)
	if err != nil {
		return "", err
	}
	h := fnv.New64a()
	h.Write(base)
	fmt.Fprintf(h, "|%s|%s|%d|%q", p.Bottleneck, p.Engine, p.Seed, p.Metrics)
	if p.options != "" {
		fmt.Fprintf(h, "|options %s", p.options)
	}
	if p.Replications > 1 {
		fmt.Fprintf(h, "|replications %d", p.Replications)
	}
	for _, a := range p.Axes {
		fmt.Fprintf(h, "|%s=%v", a.Name, a.Values)
	}
	return fmt.Sprintf("%016x", h.Sum64()), nil
}

// Run runs one scenario at every point of a grid of parameters and measures each run.
// The grid is the product of the axes; points are numbered in row-major order (the first
// axis varies slowest), and shard k of n runs the points i with i mod n = k, each
// spec.Replications times, on spec.Workers goroutines. Each run's seed is derived from
// the sweep's seed, the point's axis names and values and the replicate (runSeed), so a
// point's result is the same whichever shard or worker runs it, and the shards' tables
// merge (Merge) into exactly the whole sweep's.
//
// The rows are sorted by point. Every point's scenario in the whole grid is built and
// validated (its algorithms configured with all their parameters) before any run, so a bad
// point fails at once; errors about the spec wrap model.ErrSettings. A run that fails
// leaves its point's row with the error (Row.Error) and no metrics, and the sweep goes on;
// Table.Failed counts such rows. Only a cancelled ctx ends the sweep early, with its error.
func Run(ctx context.Context, spec Spec) (*Table, error) {
	p, err := spec.plan()
	if err != nil {
		return nil, err
	}
	var points []int
	// Every point of the whole grid is checked, so that every shard refuses a bad grid alike.
	for i := range p.points {
		if _, err := p.scenario(p.values(i)); err != nil {
			return nil, err
		}
	}
	for i := p.Shard; i < p.points; i += p.Shards {
		points = append(points, i)
	}
	fp, err := p.fingerprint()
	if err != nil {
		return nil, err
	}
	t := &Table{
		Scenario: p.Base.Name, Engine: p.Engine, Options: p.options, Seed: p.Seed, Fingerprint: fp,
		Replications: p.Replications, Hints: p.hints,
		Axes: p.Axes, Metrics: p.Metrics, Shard: p.Shard, Shards: p.Shards,
		Rows: make([]Row, len(points)),
	}
	reps := p.Replications
	// values[j][r] are replicate r's metrics at point j; errs[j][r] its error.
	values := make([][][]*float64, len(points))
	errs := make([][]error, len(points))
	for j := range points {
		values[j], errs[j] = make([][]*float64, reps), make([]error, reps)
	}
	var (
		mu   sync.Mutex
		done int
	)
	err = settings.Parallel(ctx, p.Workers, len(points)*reps, func(ctx context.Context, job int) error {
		j, r := job/reps, job%reps
		values[j][r], errs[j][r] = p.run(ctx, points[j], r)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if p.Progress != nil {
			mu.Lock()
			done++
			p.Progress(done, len(points)*reps)
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for j, i := range points {
		t.Rows[j] = p.row(i, values[j], errs[j])
	}
	return t, nil
}

// row summarises point i's replicates: their values, or with replications each metric's
// mean, standard deviation and 95% interval; the first failed replicate's error makes the
// row an error row.
func (p *plan) row(i int, values [][]*float64, errs []error) Row {
	row := Row{Point: i, Params: p.values(i), Metrics: make([]*float64, len(p.Metrics))}
	for r, err := range errs {
		if err != nil {
			row.Error = err.Error()
			if p.Replications > 1 {
				row.Error = fmt.Sprintf("replicate %d: %s", r, row.Error)
			}
			return row
		}
	}
	if p.Replications == 1 {
		row.Metrics = values[0]
		return row
	}
	row.SD, row.CI95 = make([]*float64, len(p.Metrics)), make([]*float64, len(p.Metrics))
	for k := range p.Metrics {
		xs := make([]float64, 0, len(values))
		for _, v := range values {
			if v[k] != nil {
				xs = append(xs, *v[k])
			}
		}
		if len(xs) < len(values) {
			continue // a metric some replicate lacks has no mean
		}
		mean, sd, ci := Summary(xs)
		row.Metrics[k], row.SD[k], row.CI95[k] = finiteOrNil(mean), finiteOrNil(sd), finiteOrNil(ci)
	}
	return row
}

// Summary is the mean of xs, their standard deviation (n − 1 in the denominator) and the
// half width of the 95% confidence interval of the mean, t(0.975, n − 1)·sd/√n (Student's
// t: the replicates are independent runs whose mean is close to normal). With one value the
// deviation and the interval are NaN.
func Summary(xs []float64) (mean, sd, ci95 float64) {
	mean = stat.Mean(xs, nil)
	n := float64(len(xs))
	if len(xs) < 2 {
		return mean, math.NaN(), math.NaN()
	}
	sd = stat.StdDev(xs, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	return mean, sd, t * sd / math.Sqrt(n)
}

func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// run runs replicate r of point i and measures it; a metric that does not exist or is not
// finite is nil.
func (p *plan) run(ctx context.Context, i, r int) ([]*float64, error) {
	values := p.values(i)
	sc, err := p.scenario(values)
	if err != nil {
		return nil, err
	}
	req := Request{Seed: runSeed(p.Seed, p.Axes, values, r), RecordLosses: p.needs.losses}
	m := &run{sc: sc, bottleneck: p.bottleneck}
	if p.needs.trace {
		m.stepS = p.traceStep(sc)
		req.SampleS = m.stepS
		if len(sc.Flows) > 0 {
			m.rttS = sc.PathRTTS(sc.PathIndex(sc.Flows[0].PathNames()[0]))
		}
	}
	if m.res, err = p.Run(ctx, sc, req); err != nil {
		return nil, err
	}
	if p.needs.prefix {
		// The same run up to flow 0's first loss event: its drops are the overshoot.
		if m.prefix, err = p.Run(ctx, sc, Request{Seed: req.Seed, StopAfterLosses: 1}); err != nil {
			return nil, fmt.Errorf("run to the first loss: %w", err)
		}
	}
	out := make([]*float64, len(p.metrics))
	for k, mt := range p.metrics {
		if v, ok := mt.value(m); ok {
			out[k] = finiteOrNil(v)
		}
	}
	return out, nil
}
