package response

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/floats"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// Scenario parameters a sweep axis may name. An axis may also name an algorithm parameter
// as algo.param (colo.gamma, cubic.beta), which is set on every flow running that
// algorithm. "The bottleneck" is SweepSpec.Bottleneck, by default the link with the lowest
// capacity (the first of them in the scenario's order).
const (
	// SweepBuffer is the bottleneck's buffer in multiples of its bandwidth-delay product,
	// > 0, resolved as a scenario's "1bdp" is: capacity × the longest round-trip propagation
	// delay of the paths crossing it, in packets of the largest MSS on them, rounded up.
	SweepBuffer = "buffer"
	// SweepRTT is the round-trip propagation delay of flow 0's path in seconds, > 0. Every
	// link delay (and every timed delay change) is multiplied by rtt / (that path's round
	// trip in the base scenario), so the other paths keep their ratio to flow 0's, and
	// buffers given in BDP multiples follow the new delays.
	SweepRTT = "rtt"
	// SweepLoss is the bottleneck's non-congestion loss rate per packet, 0 <= p < 1: random
	// loss, or periodic loss when the base scenario's bottleneck has periodic loss; 0 means
	// no such loss.
	SweepLoss = "p"
	// SweepCapacity is the bottleneck's capacity in bit/s, > 0.
	SweepCapacity = "capacity"
	// SweepFlows is the number of copies of flow 0 (itself included), a whole number from
	// 1 to 1000; the copies are named <name>-2, <name>-3, ... and the other flows follow
	// them unchanged.
	SweepFlows = "flows"
	// SweepDuration is the simulated time in seconds, > 0. What lies beyond the new end is
	// cut: a flow's or CBR's stop after it becomes the end, events after it are dropped (a
	// flow starting at or after it is an error).
	SweepDuration = "duration"
)

// SweepParams lists the scenario parameters a sweep axis may name.
var SweepParams = []string{SweepBuffer, SweepRTT, SweepLoss, SweepCapacity, SweepFlows, SweepDuration}

// Metrics a sweep measures on each run (model.Result). Sums and means are over the TCP
// flows; the queue and the utilisation are the bottleneck's.
const (
	MetricThroughput  = "throughput_bps"    // Σ flows' mean throughput (every delivered byte), bit/s
	MetricGoodput     = "goodput_bps"       // Σ flows' goodput (unique bytes), bit/s
	MetricUtilisation = "utilisation"       // bottleneck departures / capacity over the run, 0 to 1
	MetricMeanCwnd    = "mean_cwnd_pkts"    // mean over flows of the time-average window, packets
	MetricLossEvents  = "loss_events"       // Σ flows' loss events (window reductions)
	MetricLossRate    = "loss_rate"         // Σ loss events / Σ sent packets (0 when none were sent)
	MetricDropped     = "dropped_pkts"      // Σ flows' dropped data packets (any link, any cause)
	MetricMeanQueue   = "mean_queue_pkts"   // bottleneck time-average queue, packets
	MetricJain        = "jain"              // Jain's index of the flows' mean throughputs
	MetricCompletion  = "completion_time_s" // latest completion time of the finite flows, s; null when there is none or one did not finish
)

// SweepMetrics lists every metric in output order; it is the default of SweepSpec.Metrics.
var SweepMetrics = []string{MetricThroughput, MetricGoodput, MetricUtilisation, MetricMeanCwnd,
	MetricLossEvents, MetricLossRate, MetricDropped, MetricMeanQueue, MetricJain, MetricCompletion}

// Sweep limits and defaults.
const (
	// DefaultSweepScenario is the built-in scenario a sweep runs when SweepSpec.Base is nil.
	DefaultSweepScenario = "seed000-dumbbell"
	// MaxAxisValues bounds the values of one axis.
	MaxAxisValues = 10000
	// MaxSweepPoints bounds the points of a whole grid (all shards).
	MaxSweepPoints = 1000000
	// MaxSweepFlows bounds SweepFlows.
	MaxSweepFlows = 1000
	// gridDigits are the significant digits grid values are rounded to, so that
	// 1e-6:1e-2:5:log gives 1e-05, not 1.0000000000000004e-05.
	gridDigits = 12
)

// ErrMerge is wrapped by every error of MergeSweeps and of reading sweep outputs.
var ErrMerge = errors.New("sweep outputs do not merge")

// Axis is one parameter of a sweep and its values, in the order they are run.
type Axis struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// RunFunc runs a validated scenario with a seed, as fluid.Run does.
type RunFunc func(ctx context.Context, sc *model.Scenario, seed uint64) (*model.Result, error)

// SweepSpec describes a sweep. Zero fields take the documented defaults.
type SweepSpec struct {
	// Base is the scenario every point starts from; it is copied, never changed. Default:
	// the built-in DefaultSweepScenario.
	Base *model.Scenario
	// Bottleneck names the link that buffer, p and capacity change and whose queue and
	// utilisation are measured. Default: the link with the lowest capacity (the first of
	// them in the scenario's order).
	Bottleneck string
	// Axes are the swept parameters (SweepParams or algo.param), each with distinct values.
	// No axes is one point: the base scenario.
	Axes []Axis
	// Metrics are the measured metrics, in output order; default SweepMetrics.
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

// SweepRow is the result at one point of the grid.
type SweepRow struct {
	Point int
	// Params are the point's axis values, in the order of the table's axes.
	Params []float64
	// Metrics are the measured values in the order of the table's metrics; nil is a value
	// that does not exist at this point (JSON null, an empty CSV field).
	Metrics []*float64
}

// SweepTable is the output of a sweep or of a merge: one row per point, sorted by point.
// Its JSON form is
//
//	{"spec": {"scenario": "seed000-dumbbell", "engine": "fluid", "seed": 1, "fingerprint": "…"},
//	 "axes": [{"name": "colo.gamma", "values": [0.5, 1]}], "metrics": ["throughput_bps"],
//	 "shard": "1/3", "rows": [{"point": 1, "colo.gamma": 1, "throughput_bps": 9.6e7}]}
//
// with "shard" only when Shards > 1; its CSV form (WriteCSV) has the header point, the
// axis names, the metric names, and one line per row.
type SweepTable struct {
	// Scenario, Engine, Seed and Fingerprint describe the sweep; Fingerprint is a hash of
	// the base scenario, the bottleneck, the engine, the seed, the axes and the metrics, and
	// is "" when unknown (a table read from CSV).
	Scenario    string
	Engine      string
	Seed        uint64
	Fingerprint string
	// Axes hold the whole grid's values; an axis's Values are nil in a table read from CSV
	// until it is merged.
	Axes    []Axis
	Metrics []string
	// Shard of Shards is the part of the grid the rows cover; 0 of 1 is all of it.
	Shard, Shards int
	Rows          []SweepRow
}

// ParseAxis parses the CLI's --param value name=grid (ParseGrid).
func ParseAxis(s string) (Axis, error) {
	name, grid, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Axis{}, fmt.Errorf("%w: sweep parameter %q: want name=grid such as colo.gamma=0.5:3:6 or rtt=50ms,100ms", ErrSettings, s)
	}
	values, err := ParseGrid(name, grid)
	if err != nil {
		return Axis{}, err
	}
	return Axis{Name: name, Values: values}, nil
}

// ParseGrid parses the values of the sweep parameter name from one of
//
//	min:max:count      count values evenly spaced from min to max, both included
//	min:max:count:log  count values evenly spaced on a log scale (min > 0), e.g. p=1e-6:1e-2:5:log
//	v1,v2,...          the values listed, in that order (one value fixes the parameter)
//
// Values are in the parameter's unit: rtt and duration are durations (50ms, 1.5s; a plain
// number is seconds), capacity a rate (10Mbps; plain: bit/s), buffer a multiple of the
// bandwidth-delay product (0.5 or 0.5bdp), p, flows and algorithm parameters plain
// numbers. count is 1 to MaxAxisValues (1 only when min = max), min < max otherwise; values
// are rounded to 12 significant digits and must be distinct and in the parameter's range.
// Errors wrap ErrSettings and name the parameter, the value and the allowed range.
func ParseGrid(name, grid string) ([]float64, error) {
	p, err := lookupParam(name)
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: sweep parameter %s = %q: "+format, append([]any{ErrSettings, name, grid}, args...)...)
	}
	var values []float64
	if parts := strings.Split(grid, ":"); len(parts) > 1 {
		values, err = parseRange(parts, p.parse, bad)
	} else {
		values, err = parseList(grid, p.parse, bad)
	}
	if err != nil {
		return nil, err
	}
	if err := checkValues(name, p, values); err != nil {
		return nil, err
	}
	return values, nil
}

func parseRange(parts []string, parse func(string) (float64, error), bad func(string, ...any) error) ([]float64, error) {
	if len(parts) > 4 || (len(parts) == 4 && strings.TrimSpace(parts[3]) != "log") || len(parts) == 2 {
		return nil, bad("want min:max:count or min:max:count:log")
	}
	lo, err := parse(parts[0])
	if err != nil {
		return nil, bad("min: %w", err)
	}
	hi, err := parse(parts[1])
	if err != nil {
		return nil, bad("max: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(parts[2]))
	if err != nil || n < 1 || n > MaxAxisValues {
		return nil, bad("count %q, want a whole number from 1 to %d", strings.TrimSpace(parts[2]), MaxAxisValues)
	}
	logScale := len(parts) == 4
	switch {
	case n == 1 && lo != hi:
		return nil, bad("count 1 with min %v != max %v, want min = max (or a count >= 2)", lo, hi)
	case n > 1 && !(lo < hi):
		return nil, bad("min %v >= max %v, want min < max", lo, hi)
	case logScale && !(lo > 0):
		return nil, bad("log spacing from min %v, want min > 0", lo)
	case n == 1:
		return []float64{lo}, nil
	}
	values := make([]float64, n)
	if logScale {
		floats.LogSpan(values, lo, hi)
	} else {
		floats.Span(values, lo, hi)
	}
	for i, v := range values {
		values[i], _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', gridDigits, 64), 64)
	}
	return values, nil
}

func parseList(grid string, parse func(string) (float64, error), bad func(string, ...any) error) ([]float64, error) {
	items := strings.Split(grid, ",")
	if len(items) > MaxAxisValues {
		return nil, bad("%d values, want at most %d", len(items), MaxAxisValues)
	}
	values := make([]float64, len(items))
	for i, item := range items {
		if strings.TrimSpace(item) == "" {
			return nil, bad("value %d is empty, want min:max:count, min:max:count:log or a comma list", i+1)
		}
		v, err := parse(item)
		if err != nil {
			return nil, bad("value %d: %w", i+1, err)
		}
		values[i] = v
	}
	return values, nil
}

// checkValues checks that an axis has values, that they are distinct and in range.
func checkValues(name string, p sweepParam, values []float64) error {
	if len(values) == 0 || len(values) > MaxAxisValues {
		return fmt.Errorf("%w: sweep parameter %s: %d values, want 1 to %d", ErrSettings, name, len(values), MaxAxisValues)
	}
	seen := make(map[float64]bool, len(values))
	for _, v := range values {
		if seen[v] {
			return fmt.Errorf("%w: sweep parameter %s: value %v appears twice, want distinct values", ErrSettings, name, v)
		}
		seen[v] = true
		if err := p.check(v); err != nil {
			return fmt.Errorf("%w: sweep parameter %s = %v: %w", ErrSettings, name, v, err)
		}
	}
	return nil
}

// sweepParam is how one sweep parameter's values are read and range-checked.
type sweepParam struct {
	parse func(string) (float64, error)
	check func(float64) error
}

func lookupParam(name string) (sweepParam, error) {
	if algo, param, ok := strings.Cut(name, "."); ok {
		if _, err := model.New(algo); err != nil {
			return sweepParam{}, fmt.Errorf("%w: sweep parameter %s: %w", ErrSettings, name, err)
		}
		check := func(v float64) error {
			a, _ := model.New(algo)
			return a.Set(param, v)
		}
		if err := check(defaultParam(algo, param)); err != nil {
			return sweepParam{}, fmt.Errorf("%w: sweep parameter %s: %w", ErrSettings, name, err)
		}
		return sweepParam{parse: model.ParseNumber, check: check}, nil
	}
	positive := func(unit string) func(float64) error {
		return func(v float64) error {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("want > 0%s", unit)
			}
			return nil
		}
	}
	switch name {
	case SweepBuffer:
		return sweepParam{parse: parseBDP, check: positive(" bdp")}, nil
	case SweepRTT:
		return sweepParam{parse: model.ParseDuration, check: positive(" s")}, nil
	case SweepDuration:
		return sweepParam{parse: model.ParseDuration, check: positive(" s")}, nil
	case SweepCapacity:
		return sweepParam{parse: model.ParseRate, check: positive(" bit/s")}, nil
	case SweepLoss:
		return sweepParam{parse: model.ParseNumber, check: func(v float64) error {
			if !(v >= 0 && v < 1) {
				return errors.New("want 0 <= p < 1 (0: no loss)")
			}
			return nil
		}}, nil
	case SweepFlows:
		return sweepParam{parse: model.ParseNumber, check: func(v float64) error {
			if !(v >= 1 && v <= MaxSweepFlows) || v != math.Trunc(v) {
				return fmt.Errorf("want a whole number from 1 to %d", MaxSweepFlows)
			}
			return nil
		}}, nil
	}
	return sweepParam{}, fmt.Errorf("%w: unknown sweep parameter %q, want algo.param (an algorithm parameter such as colo.gamma; see tcpfluid algos) or one of %s",
		ErrSettings, name, strings.Join(SweepParams, ", "))
}

// defaultParam is an algorithm parameter's default, or NaN for an unknown name (which Set
// then rejects, listing the known names).
func defaultParam(algo, name string) float64 {
	a, _ := model.New(algo)
	for _, p := range a.Params() {
		if p.Name == name {
			return p.Default
		}
	}
	return math.NaN()
}

// parseBDP reads a multiple of the bandwidth-delay product: 0.5 or 0.5bdp.
func parseBDP(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if len(t) > 3 && strings.EqualFold(t[len(t)-3:], "bdp") {
		t = t[:len(t)-3]
	}
	v, err := model.ParseNumber(t)
	if err != nil {
		return 0, fmt.Errorf("%w (buffer: a multiple of the bandwidth-delay product, 0.5 or 0.5bdp)", err)
	}
	return v, nil
}

// ParseShard parses "k/n": shard k of n, 0 <= k < n.
func ParseShard(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(strings.TrimSpace(ks))
	n, errN := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || errK != nil || errN != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("%w: shard %q, want k/n with whole numbers 0 <= k < n, e.g. 0/4", ErrSettings, s)
	}
	return k, n, nil
}

// metricFunc computes one metric of a run; ok is false when it does not exist.
type metricFunc func(sc *model.Scenario, res *model.Result, bottleneck int) (v float64, ok bool)

func sumFlows(res *model.Result, f func(model.FlowResult) float64) float64 {
	s := 0.0
	for _, fr := range res.Flows {
		s += f(fr)
	}
	return s
}

var metricFuncs = map[string]metricFunc{
	MetricThroughput: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		return sumFlows(res, func(f model.FlowResult) float64 { return f.MeanThroughputBps }), true
	},
	MetricGoodput: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		return sumFlows(res, func(f model.FlowResult) float64 { return f.GoodputBps }), true
	},
	MetricUtilisation: func(_ *model.Scenario, res *model.Result, b int) (float64, bool) {
		return res.Links[b].Utilisation, true
	},
	MetricMeanCwnd: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		if len(res.Flows) == 0 {
			return 0, false
		}
		return sumFlows(res, func(f model.FlowResult) float64 { return f.MeanCwndPkts }) / float64(len(res.Flows)), true
	},
	MetricLossEvents: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		return sumFlows(res, func(f model.FlowResult) float64 { return float64(f.LossEvents) }), true
	},
	MetricLossRate: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		sent := sumFlows(res, func(f model.FlowResult) float64 { return f.SentPkts })
		if sent <= 0 {
			return 0, true
		}
		return sumFlows(res, func(f model.FlowResult) float64 { return float64(f.LossEvents) }) / sent, true
	},
	MetricDropped: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		return sumFlows(res, func(f model.FlowResult) float64 { return f.DroppedPkts }), true
	},
	MetricMeanQueue: func(_ *model.Scenario, res *model.Result, b int) (float64, bool) {
		return res.Links[b].MeanQueuePkts, true
	},
	MetricJain: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		x := make([]float64, len(res.Flows))
		for i, f := range res.Flows {
			x[i] = f.MeanThroughputBps
		}
		return Jain(x), true
	},
	MetricCompletion: func(sc *model.Scenario, res *model.Result, _ int) (float64, bool) {
		latest, finite := 0.0, false
		for i, f := range sc.Flows {
			if f.SizeBytes == 0 {
				continue
			}
			if res.Flows[i].CompletionTimeS == nil {
				return 0, false
			}
			latest, finite = math.Max(latest, *res.Flows[i].CompletionTimeS), true
		}
		return latest, finite
	},
}

// sweepPlan is a checked SweepSpec with its defaults resolved.
type sweepPlan struct {
	SweepSpec
	bottleneck int     // index of the bottleneck in Base.Links
	rtt0       float64 // round-trip propagation delay of flow 0's path in Base, s
	points     int     // of the whole grid
}

func (s SweepSpec) plan() (*sweepPlan, error) {
	if s.Base == nil {
		base, err := model.Builtin(DefaultSweepScenario)
		if err != nil {
			return nil, err
		}
		s.Base = base
	} else {
		s.Base = s.Base.Clone()
		if err := s.Base.Validate(); err != nil {
			return nil, fmt.Errorf("%w: base scenario: %w", ErrSettings, err)
		}
	}
	p := &sweepPlan{SweepSpec: s, points: 1}
	if err := p.resolveBottleneck(); err != nil {
		return nil, err
	}
	if err := p.checkAxes(); err != nil {
		return nil, err
	}
	if len(p.Metrics) == 0 {
		p.Metrics = SweepMetrics
	}
	for i, m := range p.Metrics {
		if _, ok := metricFuncs[m]; !ok {
			return nil, fmt.Errorf("%w: unknown sweep metric %q, want one of %s", ErrSettings, m, strings.Join(SweepMetrics, ", "))
		}
		if slices.Contains(p.Metrics[:i], m) {
			return nil, fmt.Errorf("%w: sweep metric %q appears twice", ErrSettings, m)
		}
	}
	if p.Shards == 0 {
		p.Shards = 1
	}
	if p.Shards < 1 || p.Shard < 0 || p.Shard >= p.Shards {
		return nil, fmt.Errorf("%w: shard %d/%d, want 0 <= shard < shards", ErrSettings, p.Shard, p.Shards)
	}
	if err := checkWorkers(&p.Workers); err != nil {
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

func (p *sweepPlan) resolveBottleneck() error {
	links := p.Base.Links
	if p.Bottleneck != "" {
		p.bottleneck = p.Base.LinkIndex(p.Bottleneck)
		if p.bottleneck < 0 {
			names := make([]string, len(links))
			for i, l := range links {
				names[i] = l.Name
			}
			return fmt.Errorf("%w: bottleneck %q, want one of the links %v", ErrSettings, p.Bottleneck, names)
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

func (p *sweepPlan) checkAxes() error {
	for i, a := range p.Axes {
		if slices.ContainsFunc(p.Axes[:i], func(b Axis) bool { return b.Name == a.Name }) {
			return fmt.Errorf("%w: sweep parameter %s given twice, want one axis per parameter", ErrSettings, a.Name)
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
				ErrSettings, a.Name, p.Base.Name, algo, slices.Sorted(maps.Keys(used)), algo, algo)
		}
		if a.Name == SweepFlows && len(p.Base.Flows) == 0 {
			return fmt.Errorf("%w: sweep parameter %s: scenario %s has no flow to copy", ErrSettings, a.Name, p.Base.Name)
		}
		if p.points > MaxSweepPoints/len(a.Values) {
			return fmt.Errorf("%w: sweep of more than %d points, want at most %d", ErrSettings, MaxSweepPoints, MaxSweepPoints)
		}
		p.points *= len(a.Values)
	}
	return nil
}

// values returns point i's axis values: row-major, the first axis varying slowest.
func (p *sweepPlan) values(i int) []float64 {
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

// sweepPointSeed is a point's seed: pointSeed of the sweep's seed and the point's key in
// place of the algorithm name. The key is the axis names and the shortest exact decimal
// form of the values, so the seed depends on the point only, not on its index, its shard
// or its worker.
func sweepPointSeed(seed uint64, axes []Axis, values []float64) uint64 {
	return pointSeed(seed, "sweep "+pointKey(axes, values), 0, 0)
}

// scenario builds point i's validated scenario.
func (p *sweepPlan) scenario(values []float64) (*model.Scenario, error) {
	sc := p.Base.Clone()
	for k, a := range p.Axes {
		p.apply(sc, a.Name, values[k])
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: sweep point %s: %w", ErrSettings, pointKey(p.Axes, values), err)
	}
	return sc, nil
}

// apply sets one parameter, whose value has been range-checked, on a copy of the base.
func (p *sweepPlan) apply(sc *model.Scenario, name string, v float64) {
	b := &sc.Links[p.bottleneck]
	switch name {
	case SweepBuffer:
		b.BufferBDP = v
	case SweepRTT:
		scale := v / p.rtt0 // delays are still the base's: no other parameter changes them
		for i := range sc.Links {
			sc.Links[i].DelayS *= scale
		}
		for i := range sc.Events {
			sc.Events[i].DelayS *= scale
		}
	case SweepLoss:
		switch {
		case v == 0:
			b.Loss, b.LossP = model.LossNone, 0
		case p.Base.Links[p.bottleneck].Loss == model.LossPeriodic:
			b.Loss, b.LossP = model.LossPeriodic, v
		default:
			b.Loss, b.LossP = model.LossRandom, v
		}
	case SweepCapacity:
		b.CapacityBps = v
	case SweepDuration:
		sc.SetDuration(v)
	case SweepFlows:
		n := int(v) // checkAxes made sure there is a flow 0
		flows := make([]model.Flow, 0, n+len(sc.Flows)-1)
		for j := range n {
			f := sc.Flows[0]
			f.Params = maps.Clone(f.Params)
			if j > 0 {
				f.Name = fmt.Sprintf("%s-%d", f.Name, j+1)
			}
			flows = append(flows, f)
		}
		sc.Flows = append(flows, sc.Flows[1:]...)
	default:
		algo, param, _ := strings.Cut(name, ".")
		for i := range sc.Flows {
			if sc.Flows[i].Algorithm != algo {
				continue
			}
			if sc.Flows[i].Params == nil {
				sc.Flows[i].Params = map[string]float64{}
			}
			sc.Flows[i].Params[param] = v
		}
	}
}

// fingerprint hashes what determines a sweep's results, so that outputs of different
// sweeps do not merge.
func (p *sweepPlan) fingerprint() (string, error) {
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
// runs it, and the shards' tables merge (MergeSweeps) into exactly the whole sweep's.
//
// The rows are sorted by point. Every point's scenario in the whole grid is built and
// validated (its algorithms configured with all their parameters) before any run, so a bad
// point fails at once. Errors about the spec wrap ErrSettings.
func Sweep(ctx context.Context, spec SweepSpec) (*SweepTable, error) {
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
	t := &SweepTable{
		Scenario: p.Base.Name, Engine: p.Engine, Seed: p.Seed, Fingerprint: fp,
		Axes: p.Axes, Metrics: p.Metrics, Shard: p.Shard, Shards: p.Shards,
		Rows: make([]SweepRow, len(points)),
	}
	var (
		mu   sync.Mutex
		done int
	)
	err = parallel(ctx, p.Workers, len(points), func(ctx context.Context, j int) error {
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
func (p *sweepPlan) run(ctx context.Context, i int) (SweepRow, error) {
	values := p.values(i)
	sc, err := p.scenario(values)
	if err != nil {
		return SweepRow{}, err
	}
	res, err := p.Run(ctx, sc, sweepPointSeed(p.Seed, p.Axes, values))
	if err != nil {
		return SweepRow{}, fmt.Errorf("sweep point %d (%s): %w", i, pointKey(p.Axes, values), err)
	}
	row := SweepRow{Point: i, Params: values, Metrics: make([]*float64, len(p.Metrics))}
	for k, m := range p.Metrics {
		v, ok := metricFuncs[m](sc, res, p.bottleneck)
		if !ok {
			continue
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return SweepRow{}, fmt.Errorf("%w: sweep point %d (%s): %s = %v", model.ErrEngine, i, pointKey(p.Axes, values), m, v)
		}
		row.Metrics[k] = &v
	}
	return row, nil
}

// Points is the number of points of the whole grid, or 0 when an axis's values are
// unknown (a table read from CSV).
func (t *SweepTable) Points() int {
	n := 1
	for _, a := range t.Axes {
		n *= len(a.Values)
	}
	return n
}

// sweepSpecJSON is the "spec" object of a sweep's JSON.
type sweepSpecJSON struct {
	Scenario    string `json:"scenario"`
	Engine      string `json:"engine"`
	Seed        uint64 `json:"seed"`
	Fingerprint string `json:"fingerprint"`
}

type sweepJSON struct {
	Spec    *sweepSpecJSON    `json:"spec,omitempty"`
	Axes    []Axis            `json:"axes"`
	Metrics []string          `json:"metrics"`
	Shard   string            `json:"shard,omitempty"`
	Rows    []json.RawMessage `json:"rows"`
}

// MarshalJSON writes the table's JSON form (see SweepTable): each row an object with the
// keys point, the axis names and the metric names, in that order.
func (t *SweepTable) MarshalJSON() ([]byte, error) {
	out := sweepJSON{Axes: t.Axes, Metrics: t.Metrics, Rows: make([]json.RawMessage, len(t.Rows))}
	if out.Axes == nil {
		out.Axes = []Axis{}
	}
	if t.Fingerprint != "" {
		out.Spec = &sweepSpecJSON{Scenario: t.Scenario, Engine: t.Engine, Seed: t.Seed, Fingerprint: t.Fingerprint}
	}
	if t.Shards > 1 {
		out.Shard = fmt.Sprintf("%d/%d", t.Shard, t.Shards)
	}
	for i, r := range t.Rows {
		if len(r.Params) != len(t.Axes) || len(r.Metrics) != len(t.Metrics) {
			return nil, fmt.Errorf("%w: row of point %d has %d parameters and %d metrics, want %d and %d", ErrMerge, r.Point, len(r.Params), len(r.Metrics), len(t.Axes), len(t.Metrics))
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"point":%d`, r.Point)
		for k, a := range t.Axes {
			writeJSONField(&b, a.Name, &r.Params[k])
		}
		for k, m := range t.Metrics {
			writeJSONField(&b, m, r.Metrics[k])
		}
		b.WriteByte('}')
		out.Rows[i] = b.Bytes()
	}
	return json.Marshal(out)
}

func writeJSONField(b *bytes.Buffer, key string, v *float64) {
	k, _ := json.Marshal(key)
	b.WriteByte(',')
	b.Write(k)
	b.WriteByte(':')
	if v == nil {
		b.WriteString("null")
		return
	}
	// Values are finite (Sweep checks), so Marshal cannot fail.
	val, _ := json.Marshal(*v)
	b.Write(val)
}

// UnmarshalJSON reads the table's JSON form, checking that every row has exactly the
// keys point, the axis names and the metric names.
func (t *SweepTable) UnmarshalJSON(data []byte) error {
	var in sweepJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return fmt.Errorf("%w: %w", ErrMerge, err)
	}
	*t = SweepTable{Axes: in.Axes, Metrics: in.Metrics, Shards: 1, Rows: make([]SweepRow, len(in.Rows))}
	if in.Spec != nil {
		t.Scenario, t.Engine, t.Seed, t.Fingerprint = in.Spec.Scenario, in.Spec.Engine, in.Spec.Seed, in.Spec.Fingerprint
	}
	if in.Shard != "" {
		var err error
		if t.Shard, t.Shards, err = ParseShard(in.Shard); err != nil {
			return fmt.Errorf("%w: %w", ErrMerge, err)
		}
	}
	if err := t.checkColumns(); err != nil {
		return err
	}
	for i, raw := range in.Rows {
		var fields map[string]*float64
		if err := json.Unmarshal(raw, &fields); err != nil {
			return fmt.Errorf("%w: rows[%d]: %w", ErrMerge, i, err)
		}
		if len(fields) != 1+len(t.Axes)+len(t.Metrics) {
			return fmt.Errorf("%w: rows[%d] has %d keys, want point, %d axes and %d metrics", ErrMerge, i, len(fields), len(t.Axes), len(t.Metrics))
		}
		pt := fields["point"]
		if pt == nil || *pt < 0 || *pt != math.Trunc(*pt) || *pt >= MaxSweepPoints {
			return fmt.Errorf("%w: rows[%d].point = %v, want a whole number from 0 to %d", ErrMerge, i, pt, MaxSweepPoints-1)
		}
		r := SweepRow{Point: int(*pt), Params: make([]float64, len(t.Axes)), Metrics: make([]*float64, len(t.Metrics))}
		for k, a := range t.Axes {
			v, ok := fields[a.Name]
			if !ok || v == nil {
				return fmt.Errorf("%w: rows[%d] has no value of axis %s", ErrMerge, i, a.Name)
			}
			r.Params[k] = *v
		}
		for k, m := range t.Metrics {
			v, ok := fields[m]
			if !ok {
				return fmt.Errorf("%w: rows[%d] has no metric %s", ErrMerge, i, m)
			}
			r.Metrics[k] = v
		}
		t.Rows[i] = r
	}
	return nil
}

// checkColumns checks the axis and metric names of a table read from a file.
func (t *SweepTable) checkColumns() error {
	for i, a := range t.Axes {
		if _, err := lookupParam(a.Name); err != nil {
			return fmt.Errorf("%w: axes[%d]: %w", ErrMerge, i, err)
		}
		if slices.ContainsFunc(t.Axes[:i], func(b Axis) bool { return b.Name == a.Name }) {
			return fmt.Errorf("%w: axis %s appears twice", ErrMerge, a.Name)
		}
	}
	for i, m := range t.Metrics {
		if _, ok := metricFuncs[m]; !ok {
			return fmt.Errorf("%w: unknown metric %q, want one of %s", ErrMerge, m, strings.Join(SweepMetrics, ", "))
		}
		if slices.Contains(t.Metrics[:i], m) {
			return fmt.Errorf("%w: metric %s appears twice", ErrMerge, m)
		}
	}
	return nil
}

// WriteCSV writes the table's CSV form: the header point, the axis names, the metric
// names, then one line per row; numbers in their shortest exact form, a missing metric
// as an empty field.
func (t *SweepTable) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"point"}
	for _, a := range t.Axes {
		header = append(header, a.Name)
	}
	header = append(header, t.Metrics...)
	cw.Write(header)
	line := make([]string, len(header))
	for _, r := range t.Rows {
		line = line[:0]
		line = append(line, strconv.Itoa(r.Point))
		for _, v := range r.Params {
			line = append(line, strconv.FormatFloat(v, 'g', -1, 64))
		}
		for _, v := range r.Metrics {
			if v == nil {
				line = append(line, "")
				continue
			}
			line = append(line, strconv.FormatFloat(*v, 'g', -1, 64))
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}

// ReadSweep reads a table in its JSON form (the first non-blank byte is '{') or its CSV
// form. A table read from CSV has no spec and no axis values: MergeSweeps recovers the
// values from the rows.
func ReadSweep(r io.Reader) (*SweepTable, error) {
	br := bufio.NewReader(r)
	for {
		c, err := br.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("%w: empty input, want a sweep's JSON or CSV output", ErrMerge)
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		br.UnreadByte()
		if c == '{' {
			data, err := io.ReadAll(br)
			if err != nil {
				return nil, err
			}
			t := &SweepTable{}
			return t, t.UnmarshalJSON(data)
		}
		return readSweepCSV(br)
	}
}

func readSweepCSV(r io.Reader) (*SweepTable, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: CSV header: %w", ErrMerge, err)
	}
	if header[0] != "point" {
		return nil, fmt.Errorf("%w: CSV header %q, want point, the axis names and the metric names", ErrMerge, strings.Join(header, ","))
	}
	t := &SweepTable{Shards: 1}
	for _, col := range header[1:] {
		if _, ok := metricFuncs[col]; ok {
			t.Metrics = append(t.Metrics, col)
		} else if len(t.Metrics) > 0 {
			return nil, fmt.Errorf("%w: CSV column %q after the metrics, want the parameters first", ErrMerge, col)
		} else {
			t.Axes = append(t.Axes, Axis{Name: col})
		}
	}
	if err := t.checkColumns(); err != nil {
		return nil, err
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrMerge, err)
		}
		line, _ := cr.FieldPos(0)
		r := SweepRow{Params: make([]float64, len(t.Axes)), Metrics: make([]*float64, len(t.Metrics))}
		if r.Point, err = strconv.Atoi(rec[0]); err != nil || r.Point < 0 || r.Point >= MaxSweepPoints {
			return nil, fmt.Errorf("%w: CSV line %d: point %q, want a whole number from 0 to %d", ErrMerge, line, rec[0], MaxSweepPoints-1)
		}
		for k := range t.Axes {
			if r.Params[k], err = parseFinite(rec[1+k]); err != nil {
				return nil, fmt.Errorf("%w: CSV line %d: %s = %q: %w", ErrMerge, line, t.Axes[k].Name, rec[1+k], err)
			}
		}
		for k, m := range t.Metrics {
			s := rec[1+len(t.Axes)+k]
			if s == "" {
				continue
			}
			v, err := parseFinite(s)
			if err != nil {
				return nil, fmt.Errorf("%w: CSV line %d: %s = %q: %w", ErrMerge, line, m, s, err)
			}
			r.Metrics[k] = &v
		}
		t.Rows = append(t.Rows, r)
	}
}

func parseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("want a finite number")
	}
	return v, nil
}

// MergeSweeps merges the outputs of a sweep's shards into the output of the whole sweep:
// every part must have the same axes, metrics and (where known) spec and axis values;
// a point given twice must have identical rows (it is kept once); and every point of the
// grid must be present. Axis values unknown from every part (CSV) are recovered from the
// rows in point order. The result has rows sorted by point and no shard.
func MergeSweeps(parts ...*SweepTable) (*SweepTable, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: no sweep outputs given", ErrMerge)
	}
	first := parts[0]
	m := &SweepTable{Metrics: first.Metrics, Shards: 1, Axes: make([]Axis, len(first.Axes))}
	for k, a := range first.Axes {
		m.Axes[k].Name = a.Name
	}
	byPoint := map[int]SweepRow{}
	for i, t := range parts {
		if err := m.absorbHeader(t, i); err != nil {
			return nil, err
		}
		for _, r := range t.Rows {
			if t.Shards > 1 && r.Point%t.Shards != t.Shard {
				return nil, fmt.Errorf("%w: part %d is shard %d/%d but holds point %d, which belongs to shard %d/%d", ErrMerge, i+1, t.Shard, t.Shards, r.Point, r.Point%t.Shards, t.Shards)
			}
			if prev, dup := byPoint[r.Point]; dup {
				if !sameRow(prev, r) {
					return nil, fmt.Errorf("%w: point %d appears twice with different values (part %d and an earlier one)", ErrMerge, r.Point, i+1)
				}
				continue
			}
			byPoint[r.Point] = r
		}
	}
	m.Rows = slices.SortedFunc(maps.Values(byPoint), func(a, b SweepRow) int { return a.Point - b.Point })
	recoverValues(m)
	return m, m.checkGrid()
}

// absorbHeader checks part i's columns and spec against the merge's and takes what the
// merge does not know yet.
func (m *SweepTable) absorbHeader(t *SweepTable, i int) error {
	names := func(axes []Axis) []string {
		out := make([]string, len(axes))
		for k, a := range axes {
			out[k] = a.Name
		}
		return out
	}
	if !slices.Equal(names(t.Axes), names(m.Axes)) || !slices.Equal(t.Metrics, m.Metrics) {
		return fmt.Errorf("%w: part %d has axes %v and metrics %v, part 1 has axes %v and metrics %v",
			ErrMerge, i+1, names(t.Axes), t.Metrics, names(m.Axes), m.Metrics)
	}
	for k, a := range t.Axes {
		switch {
		case a.Values == nil:
		case m.Axes[k].Values == nil:
			m.Axes[k].Values = a.Values
		case !slices.Equal(a.Values, m.Axes[k].Values):
			return fmt.Errorf("%w: part %d has axis %s = %v, an earlier part has %v", ErrMerge, i+1, a.Name, a.Values, m.Axes[k].Values)
		}
	}
	switch {
	case t.Fingerprint == "":
	case m.Fingerprint == "":
		m.Scenario, m.Engine, m.Seed, m.Fingerprint = t.Scenario, t.Engine, t.Seed, t.Fingerprint
	case t.Fingerprint != m.Fingerprint:
		return fmt.Errorf("%w: part %d comes from another sweep (scenario %s, engine %s, seed %d, fingerprint %s; an earlier part: %s, %s, %d, %s)",
			ErrMerge, i+1, t.Scenario, t.Engine, t.Seed, t.Fingerprint, m.Scenario, m.Engine, m.Seed, m.Fingerprint)
	}
	return nil
}

// recoverValues sets the values of axes that no part knew from the rows sorted by point:
// in row-major order each axis's values first appear in the order they are swept.
func recoverValues(m *SweepTable) {
	for k := range m.Axes {
		if m.Axes[k].Values != nil {
			continue
		}
		var vs []float64
		for _, r := range m.Rows {
			if !slices.Contains(vs, r.Params[k]) {
				vs = append(vs, r.Params[k])
			}
		}
		m.Axes[k].Values = vs
	}
}

// checkGrid checks that the rows are exactly the points of the grid, each with its values.
// Missing points are looked for first: they are the likely cause of any other mismatch
// (values recovered from CSV rows can be wrong when a shard is missing).
func (m *SweepTable) checkGrid() error {
	for _, a := range m.Axes {
		if len(a.Values) == 0 {
			return fmt.Errorf("%w: axis %s has no values", ErrMerge, a.Name)
		}
	}
	n := m.Points()
	total := n
	if len(m.Rows) > 0 {
		total = max(n, m.Rows[len(m.Rows)-1].Point+1)
	}
	if len(m.Rows) < total {
		var missing []int
		for i, j := 0, 0; i < total && len(missing) < 10; i++ {
			if j < len(m.Rows) && m.Rows[j].Point == i {
				j++
				continue
			}
			missing = append(missing, i)
		}
		return fmt.Errorf("%w: %d of %d points missing, the first %v (is a shard missing?)", ErrMerge, total-len(m.Rows), total, missing)
	}
	plan := sweepPlan{SweepSpec: SweepSpec{Axes: m.Axes}}
	for _, r := range m.Rows {
		if r.Point >= n {
			return fmt.Errorf("%w: point %d is outside the grid of %d points", ErrMerge, r.Point, n)
		}
		if want := plan.values(r.Point); !slices.Equal(r.Params, want) {
			return fmt.Errorf("%w: point %d has %s, the grid has %s there", ErrMerge, r.Point, pointKey(m.Axes, r.Params), pointKey(m.Axes, want))
		}
	}
	return nil
}

func sameRow(a, b SweepRow) bool {
	if !slices.Equal(a.Params, b.Params) || len(a.Metrics) != len(b.Metrics) {
		return false
	}
	for k := range a.Metrics {
		x, y := a.Metrics[k], b.Metrics[k]
		if (x == nil) != (y == nil) || (x != nil && *x != *y) {
			return false
		}
	}
	return true
}
