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
)

// RunFunc runs a validated scenario with a seed, as fluid.Run does.
type RunFunc func(ctx context.Context, sc *model.Scenario, seed uint64) (*model.Result, error)

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
	// Metrics are the measured metrics, in output order; default AllMetrics.
	Metrics []string
	// Seed is the sweep's seed; each point derives its own from it and the point.
	Seed uint64
	// Workers is the number of points run at once; default runtime.GOMAXPROCS(0).
	Workers int
	// Shard and Shards select the points i with i mod Shards = Shard; default 0 and 1
	// (every point).
	Shard, Shards int
	// Run runs one point; default fluid.Run with only the seed set. Engine labels it
	// in the output; default "fluid".
	Run    RunFunc
	Engine string
	// Progress, when set, is called after each point with the points done and the points of
	// this shard; calls are serialised.
	Progress func(done, total int)
}

// plan is a checked Spec with its defaults resolved.
type plan struct {
	Spec
	bottleneck int     // index of the bottleneck in Base.Links
	rtt0       float64 // round-trip propagation delay of flow 0's path in Base, s
	points     int     // of the whole grid
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
		p.Metrics = AllMetrics
	}
	for i, m := range p.Metrics {
		if _, ok := metricFuncs[m]; !ok {
			return nil, fmt.Errorf("%w: unknown sweep metric %q, want one of %s", model.ErrSettings, m, strings.Join(AllMetrics, ", "))
		}
		if slices.Contains(p.Metrics[:i], m) {
			return nil, fmt.Errorf("%w: sweep metric %q appears twice", model.ErrSettings, m)
		}
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
	if p.Run == nil {
		p.Run = func(ctx context.Context, sc *model.Scenario, seed uint64) (*model.Result, error) {
			return fluid.Run(ctx, sc, fluid.Settings{Seed: seed})
		}
		p.Engine = "fluid"
	}
	if p.Engine == "" {
		p.Engine = "fluid"
	}
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
		path = p.Base.PathIndex(p.Base.Flows[0].Path)
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

// pointSeed is a point's seed: settings.PointSeed of the sweep's seed and the point's key in
// place of the algorithm name. The key is the axis names and the shortest exact decimal
// form of the values, so the seed depends on the point only, not on its index, its shard
// or its worker.
func pointSeed(seed uint64, axes []Axis, values []float64) uint64 {
	return settings.PointSeed(seed, "sweep "+pointKey(axes, values), 0, 0)
}

// fingerprint hashes what determines a sweep's results, so that outputs of different
// sweeps do not merge.
func (p *plan) fingerprint() (string, error) {
	base, err := json.Marshal(p.Base)
	if err != nil {
		return "", err
	}
	h := fnv.New64a()
	h.Write(base)
	fmt.Fprintf(h, "|%s|%s|%d|%q", p.Bottleneck, p.Engine, p.Seed, p.Metrics)
	for _, a := range p.Axes {
		fmt.Fprintf(h, "|%s=%v", a.Name, a.Values)
	}
	return fmt.Sprintf("%016x", h.Sum64()), nil
}

// Sweep runs one scenario at every point of a grid of parameters and measures each run.
// The grid is the product of the axes; points are numbered in row-major order (the first
// axis varies slowest), and shard k of n runs the points i with i mod n = k, on
// spec.Workers goroutines. Each point's seed is derived from the sweep's seed and the
// point's axis names and values, so a point's result is the same whichever shard or worker
// runs it, and the shards' tables merge (Merge) into exactly the whole sweep's.
//
// The rows are sorted by point. Every point's scenario in the whole grid is built and
// validated (its algorithms configured with all their parameters) before any run, so a bad
// point fails at once. Errors about the spec wrap model.ErrSettings.
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
		Scenario: p.Base.Name, Engine: p.Engine, Seed: p.Seed, Fingerprint: fp,
		Axes: p.Axes, Metrics: p.Metrics, Shard: p.Shard, Shards: p.Shards,
		Rows: make([]Row, len(points)),
	}
	var (
		mu   sync.Mutex
		done int
	)
	err = settings.Parallel(ctx, p.Workers, len(points), func(ctx context.Context, j int) error {
		row, err := p.run(ctx, points[j])
		t.Rows[j] = row
		if err == nil && p.Progress != nil {
			mu.Lock()
			done++
			p.Progress(done, len(points))
			mu.Unlock()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// run runs point i and measures it.
func (p *plan) run(ctx context.Context, i int) (Row, error) {
	values := p.values(i)
	sc, err := p.scenario(values)
	if err != nil {
		return Row{}, err
	}
	res, err := p.Run(ctx, sc, pointSeed(p.Seed, p.Axes, values))
	if err != nil {
		return Row{}, fmt.Errorf("sweep point %d (%s): %w", i, pointKey(p.Axes, values), err)
	}
	row := Row{Point: i, Params: values, Metrics: make([]*float64, len(p.Metrics))}
	for k, m := range p.Metrics {
		v, ok := metricFuncs[m](sc, res, p.bottleneck)
		if !ok {
			continue
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Row{}, fmt.Errorf("%w: sweep point %d (%s): %s = %v", model.ErrEngine, i, pointKey(p.Axes, values), m, v)
		}
		row.Metrics[k] = &v
	}
	return row, nil
}
