package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

func TestSweepParseGrid(t *testing.T) {
	for _, c := range []struct {
		name, grid string
		want       []float64
	}{
		{"colo.gamma", "0.5:3:6", []float64{0.5, 1, 1.5, 2, 2.5, 3}},
		{"rtt", "50ms:200ms:4", []float64{0.05, 0.1, 0.15, 0.2}},
		{"rtt", "0.1", []float64{0.1}},
		{"p", "1e-6:1e-2:5:log", []float64{1e-6, 1e-5, 1e-4, 1e-3, 1e-2}},
		{"p", "0,1e-4", []float64{0, 1e-4}},
		{"capacity", "10Mbps, 100Mbps,1Gbps", []float64{1e7, 1e8, 1e9}},
		{"buffer", "0.5bdp,1,2BDP", []float64{0.5, 1, 2}},
		{"flows", "1:4:4", []float64{1, 2, 3, 4}},
		{"duration", "1.5s,2min", []float64{1.5, 120}},
		{"cubic.beta", "0.7:0.7:1", []float64{0.7}},
		{"buffer", "0.1:0.3:3", []float64{0.1, 0.2, 0.3}},
	} {
		got, err := ParseGrid(c.name, c.grid)
		if err != nil {
			t.Errorf("ParseGrid(%s, %q): %v", c.name, c.grid, err)
			continue
		}
		// Exact: grid values are rounded to 12 significant digits, which removes the
		// last-bit errors of linear and log spacing.
		if !slices.Equal(got, c.want) {
			t.Errorf("ParseGrid(%s, %q) = %v, want %v", c.name, c.grid, got, c.want)
		}
	}
}

func TestSweepParseGridErrors(t *testing.T) {
	for _, c := range []struct {
		name, grid string
		want       []string // substrings of the message
	}{
		{"rtt", "-5ms", []string{"rtt", "-0.005", "want > 0 s"}},
		{"rtt", "10ms:5ms:3", []string{"rtt", "min 0.01 >= max 0.005", "want min < max"}},
		{"rtt", "1:1:3", []string{"min 1 >= max 1"}},
		{"rtt", "1:2:1", []string{"count 1 with min 1 != max 2"}},
		{"rtt", "1:2", []string{"want min:max:count or min:max:count:log"}},
		{"rtt", "1:2:3:lin", []string{"want min:max:count or min:max:count:log"}},
		{"rtt", "1:2:0", []string{`count "0"`, "1 to 10000"}},
		{"rtt", "1:2:x", []string{`count "x"`}},
		{"rtt", "1,,2", []string{"value 2 is empty"}},
		{"rtt", "50xs", []string{"unknown unit", "10ms"}},
		{"p", "1", []string{"p = 1", "want 0 <= p < 1"}},
		{"p", "0:1e-2:3:log", []string{"log spacing from min 0", "want min > 0"}},
		{"flows", "1.5", []string{"flows = 1.5", "whole number from 1 to 1000"}},
		{"flows", "0", []string{"flows = 0"}},
		{"capacity", "1Mbps,1e6", []string{"value 1e+06 appears twice"}},
		{"buffer", "20pkts", []string{"buffer", "bandwidth-delay product"}},
		{"colo.gamma", "20", []string{"colo.gamma = 20", "outside [0, 10]"}},
		{"colo.gama", "1", []string{"colo.gama", "gamma"}},
		{"nope.x", "1", []string{"nope.x", "unknown algorithm"}},
		{"bufer", "1", []string{`unknown sweep parameter "bufer"`, "algo.param", "buffer, rtt, p, capacity, flows, duration"}},
	} {
		_, err := ParseGrid(c.name, c.grid)
		if !errors.Is(err, model.ErrSettings) {
			t.Errorf("ParseGrid(%s, %q) error %v, want model.ErrSettings", c.name, c.grid, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseGrid(%s, %q) error %q, want it to mention %q", c.name, c.grid, err, w)
			}
		}
	}
	if _, err := ParseGrid("rtt", "50xs"); !errors.Is(err, model.ErrUnit) {
		t.Errorf("bad unit: %v, want it to wrap model.ErrUnit", err)
	}
	for _, s := range []string{"rtt", "=1", ""} {
		if _, err := ParseAxis(s); !errors.Is(err, model.ErrSettings) || !strings.Contains(err.Error(), "want name=grid") {
			t.Errorf("ParseAxis(%q) error %v, want a name=grid error", s, err)
		}
	}
}

func FuzzSweepParseGrid(f *testing.F) {
	for _, s := range []string{"0.5:3:6", "50ms:200ms:4", "1e-6:1e-2:5:log", "1,2,3", "10Mbps", "0.5bdp,1", "1:1:1", "-1:1:3", ":::", ",", "1e308:1.7e308:3"} {
		f.Add(uint8(0), s)
	}
	names := []string{"rtt", "p", "capacity", "buffer", "flows", "duration", "colo.gamma", "cubic.beta"}
	f.Fuzz(func(t *testing.T, which uint8, grid string) {
		name := names[int(which)%len(names)]
		values, err := ParseGrid(name, grid)
		if err != nil {
			if !errors.Is(err, model.ErrSettings) {
				t.Fatalf("ParseGrid(%s, %q) error %v does not wrap model.ErrSettings", name, grid, err)
			}
			return
		}
		if len(values) == 0 || len(values) > MaxAxisValues {
			t.Fatalf("ParseGrid(%s, %q): %d values", name, grid, len(values))
		}
		seen := map[float64]bool{}
		text := make([]string, len(values))
		for i, v := range values {
			if math.IsNaN(v) || math.IsInf(v, 0) || seen[v] {
				t.Fatalf("ParseGrid(%s, %q) = %v: value %v not finite or repeated", name, grid, values, v)
			}
			seen[v] = true
			text[i] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		// Plain numbers are the parameter's base unit, so the values read back as a list.
		again, err := ParseGrid(name, strings.Join(text, ","))
		if err != nil || !slices.Equal(again, values) {
			t.Fatalf("ParseGrid(%s, %q) = %v, but its list reads back as %v, %v", name, grid, values, again, err)
		}
	})
}

// smallSpec is a sweep of a few seconds of seed 000's dumbbell: 2 buffers × 3 loss rates,
// random loss making the seeds matter.
func smallSpec() Spec {
	return Spec{
		Axes: []Axis{
			{Name: "buffer", Values: []float64{0.5, 1}},
			{Name: "p", Values: []float64{0, 1e-4, 3e-4}},
			{Name: "duration", Values: []float64{4}},
		},
		Metrics: []string{MetricThroughput, MetricUtilisation, MetricLossEvents, MetricLossRate, MetricJain, MetricCompletion},
		Seed:    7,
		Workers: 1,
	}
}

func sweepJSONBytes(t *testing.T, tab *Table) []byte {
	t.Helper()
	b, err := json.Marshal(tab)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSweepShardsMergeToWhole(t *testing.T) {
	ctx := context.Background()
	whole, err := Run(ctx, smallSpec())
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Rows) != 6 {
		t.Fatalf("%d rows, want 6", len(whole.Rows))
	}
	var parts []*Table
	var csvParts []*Table
	for k := range 3 {
		spec := smallSpec()
		spec.Shard, spec.Shards, spec.Workers = k, 3, 2
		part, err := Run(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range part.Rows {
			if r.Point%3 != k {
				t.Errorf("shard %d/3 ran point %d", k, r.Point)
			}
		}
		// Through JSON and CSV, as the CLI's shard files go.
		var fromJSON Table
		if err := json.Unmarshal(sweepJSONBytes(t, part), &fromJSON); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, &fromJSON)
		var buf bytes.Buffer
		if err := part.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		fromCSV, err := Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		csvParts = append(csvParts, fromCSV)
	}
	// Given out of order; shard 1 twice is an overlap.
	merged, err := Merge(parts[2], parts[0], parts[1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(parts[2], parts[0], parts[1], parts[1]); !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), "is in both part 3 and part 4") {
		t.Errorf("shard given twice: %v", err)
	}
	if _, err := Merge(parts[0], csvParts[1], parts[2]); !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), "format csv, not json") {
		t.Errorf("JSON and CSV parts: %v", err)
	}
	if got, want := sweepJSONBytes(t, merged), sweepJSONBytes(t, whole); !bytes.Equal(got, want) {
		t.Errorf("merged JSON differs from the whole sweep's:\n%s\n%s", got, want)
	}
	mergedCSV, err := Merge(csvParts...)
	if err != nil {
		t.Fatal(err)
	}
	var got, want bytes.Buffer
	mergedCSV.WriteCSV(&got)
	whole.WriteCSV(&want)
	if got.String() != want.String() {
		t.Errorf("merged CSV differs from the whole sweep's:\n%s\n%s", got.String(), want.String())
	}
	if !slices.EqualFunc(mergedCSV.Axes, whole.Axes, func(a, b Axis) bool { return a.Name == b.Name && slices.Equal(a.Values, b.Values) }) {
		t.Errorf("axes read from CSV %v, want %v", mergedCSV.Axes, whole.Axes)
	}
	for _, r := range whole.Rows {
		if r.Metrics[4] != nil {
			t.Errorf("point %d: jain %v with one flow, want null", r.Point, *r.Metrics[4])
		}
	}
	// Conservation: no flow set delivers more than the 100 Mb/s bottleneck carries, and a
	// utilisation is a fraction.
	for _, r := range whole.Rows {
		if thr := *r.Metrics[0]; !(thr > 0 && thr <= 100e6*(1+1e-9)) {
			t.Errorf("point %d: throughput %g bit/s, want in (0, 1e8]", r.Point, thr)
		}
		if u := *r.Metrics[1]; !(u > 0 && u <= 1+1e-9) {
			t.Errorf("point %d: utilisation %g, want in (0, 1]", r.Point, u)
		}
		if r.Metrics[5] != nil {
			t.Errorf("point %d: completion time %v of a long-lived flow, want null", r.Point, *r.Metrics[5])
		}
	}
}

func TestSweepSeedsFollowThePoint(t *testing.T) {
	ctx := context.Background()
	whole, err := Run(ctx, smallSpec())
	if err != nil {
		t.Fatal(err)
	}
	// The point buffer=1 p=3e-4 is point 5 of the grid and point 0 of a grid of itself; the
	// same seed makes the same random losses.
	one := smallSpec()
	one.Axes = []Axis{{Name: "buffer", Values: []float64{1}}, {Name: "p", Values: []float64{3e-4}}, {Name: "duration", Values: []float64{4}}}
	alone, err := Run(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(alone.Rows[0].Params, whole.Rows[5].Params) || !slices.EqualFunc(alone.Rows[0].Metrics, whole.Rows[5].Metrics, equalValue) {
		t.Errorf("point buffer=1 p=3e-4 alone %v, in the grid %v: want equal", alone.Rows[0], whole.Rows[5])
	}
	// The seed is used: another sweep seed draws other random losses.
	other := smallSpec()
	other.Seed = 8
	reseeded, err := Run(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	if *reseeded.Rows[5].Metrics[0] == *whole.Rows[5].Metrics[0] {
		t.Errorf("seeds 7 and 8 gave the same throughput %v at random loss 3e-4", *whole.Rows[5].Metrics[0])
	}
	// Without random loss the seed does not matter.
	if *reseeded.Rows[0].Metrics[0] != *whole.Rows[0].Metrics[0] {
		t.Errorf("seeds 7 and 8 gave throughputs %v and %v without random loss", *whole.Rows[0].Metrics[0], *reseeded.Rows[0].Metrics[0])
	}
	axes := []Axis{{Name: "a.b"}, {Name: "rtt"}}
	s1 := runSeed(1, axes, []float64{1, 0.1}, 0)
	if s1 != runSeed(1, axes, []float64{1, 0.1}, 0) || s1 == runSeed(1, axes, []float64{1, 0.2}, 0) || s1 == runSeed(2, axes, []float64{1, 0.1}, 0) ||
		s1 == runSeed(1, axes, []float64{1, 0.1}, 1) {
		t.Errorf("point seeds do not follow the seed and the point")
	}
}

func TestSweepScenarioParameters(t *testing.T) {
	base, err := model.Builtin("seed000-dumbbell")
	if err != nil {
		t.Fatal(err)
	}
	if err := base.SetAlgorithm("colo"); err != nil {
		t.Fatal(err)
	}
	axes := []Axis{
		{Name: "rtt", Values: []float64{0.1}},
		{Name: "buffer", Values: []float64{0.5}},
		{Name: "capacity", Values: []float64{50e6}},
		{Name: "p", Values: []float64{1e-5}},
		{Name: "flows", Values: []float64{3}},
		{Name: "duration", Values: []float64{20}},
		{Name: "colo.gamma", Values: []float64{2}},
	}
	p, err := Spec{Base: base, Axes: axes}.plan()
	if err != nil {
		t.Fatal(err)
	}
	if p.Bottleneck != "bottleneck" || p.rtt0 != 0.24 {
		t.Fatalf("bottleneck %q with base round trip %v s, want \"bottleneck\" and 0.24 s", p.Bottleneck, p.rtt0)
	}
	sc, err := p.scenario(p.values(0))
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-12 // a few ulps of the delay products
	if rtt := sc.PathRTTS(0); math.Abs(rtt-0.1) > tol {
		t.Errorf("path round trip %v s, want 0.1 s", rtt)
	}
	// The delays keep their 10:100:10 ratio.
	if d := sc.Links[1].DelayS / sc.Links[0].DelayS; math.Abs(d-10) > 1e-9 {
		t.Errorf("bottleneck/access delay ratio %v, want 10", d)
	}
	b := sc.Links[1]
	// 0.5 BDP of 50 Mb/s × 0.1 s in 1460-byte packets: 0.5 × 5e6 / 11680 = 214.04 → 215.
	if b.CapacityBps != 50e6 || b.BufferPkts != 215 || b.Loss != model.LossRandom || b.LossP != 1e-5 {
		t.Errorf("bottleneck %+v, want 50 Mb/s, 215 packets, random loss 1e-5", b)
	}
	if sc.DurationS != 20 || len(sc.Flows) != 3 {
		t.Fatalf("duration %v s with %d flows, want 20 s and 3", sc.DurationS, len(sc.Flows))
	}
	for i, name := range []string{"f0", "f0-2", "f0-3"} {
		f := sc.Flows[i]
		if f.Name != name || f.Params["gamma"] != 2 {
			t.Errorf("flows[%d] %q with params %v, want %q with gamma 2", i, f.Name, f.Params, name)
		}
	}
	if base.Flows[0].Params["gamma"] != 0 || len(base.Flows) != 1 || base.Links[1].DelayS != 0.1 {
		t.Errorf("the base scenario changed: %+v", base)
	}
	// Periodic loss on the bottleneck stays periodic; p = 0 removes it.
	base.Links[1].Loss, base.Links[1].LossP = model.LossPeriodic, 1e-3
	p, err = Spec{Base: base, Axes: []Axis{{Name: "p", Values: []float64{1e-4, 0}}}}.plan()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []model.LossModel{model.LossPeriodic, model.LossNone} {
		sc, err := p.scenario(p.values(i))
		if err != nil {
			t.Fatal(err)
		}
		if sc.Links[1].Loss != want {
			t.Errorf("point %d: loss model %q, want %q", i, sc.Links[1].Loss, want)
		}
	}
	// A shorter duration cuts seed 003's stops at 10 s to the end.
	b3, _ := model.Builtin("seed003-dumbbell")
	p, err = Spec{Base: b3, Axes: []Axis{{Name: "duration", Values: []float64{6}}}}.plan()
	if err != nil {
		t.Fatal(err)
	}
	if p.Bottleneck != "n0-n3" {
		t.Errorf("seed 003 default bottleneck %q, want the first 1 Mb/s link n0-n3", p.Bottleneck)
	}
	sc, err = p.scenario(p.values(0))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Flows[0].StopS != 0 || sc.CBR[0].StopS != 0 {
		t.Errorf("stops %v and %v after a 6 s duration, want 0 (the end)", sc.Flows[0].StopS, sc.CBR[0].StopS)
	}
}

func TestSweepSpecErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		spec Spec
		want []string
	}{
		{"unknown metric", Spec{Metrics: []string{"thruput"}}, []string{`unknown sweep metric "thruput"`, "throughput_bps, goodput_bps"}},
		{"metric twice", Spec{Metrics: []string{"jain", "jain"}}, []string{`"jain" appears twice`}},
		{"unknown param", Spec{Axes: []Axis{{Name: "bandwidth", Values: []float64{1}}}}, []string{`unknown sweep parameter "bandwidth"`}},
		{"axis twice", Spec{Axes: []Axis{{Name: "rtt", Values: []float64{1}}, {Name: "rtt", Values: []float64{2}}}}, []string{"rtt given twice"}},
		{"no values", Spec{Axes: []Axis{{Name: "rtt"}}}, []string{"rtt: 0 values"}},
		{"out of range", Spec{Axes: []Axis{{Name: "p", Values: []float64{2}}}}, []string{"p = 2", "0 <= p < 1"}},
		{"algorithm not in scenario", Spec{Axes: []Axis{{Name: "colo.gamma", Values: []float64{1}}}}, []string{"no flow of scenario seed000-dumbbell runs colo", "[reno]", "--algo colo"}},
		{"bottleneck", Spec{Bottleneck: "l9"}, []string{`bottleneck "l9"`, "access-in"}},
		{"shard", Spec{Shard: 3, Shards: 3}, []string{"shard 3/3"}},
		{"workers", Spec{Workers: -1}, []string{"workers -1"}},
		{"too many points", Spec{Axes: []Axis{{Name: "rtt", Values: span(1000)}, {Name: "duration", Values: span(1001)}}}, []string{"more than 1000000 points"}},
		{"bad point", Spec{Axes: []Axis{{Name: "duration", Values: []float64{1}}}, Base: lateStart()}, []string{"sweep point duration=1", "flows[0].start"}},
	} {
		_, err := Run(context.Background(), c.spec)
		if !errors.Is(err, model.ErrSettings) {
			t.Errorf("%s: error %v, want model.ErrSettings", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q, want it to mention %q", c.name, err, w)
			}
		}
	}
	if _, _, err := ParseShard("3/3"); !errors.Is(err, model.ErrSettings) {
		t.Errorf("ParseShard(3/3) error %v, want model.ErrSettings", err)
	}
	if k, n, err := ParseShard("2/5"); k != 2 || n != 5 || err != nil {
		t.Errorf("ParseShard(2/5) = %d, %d, %v", k, n, err)
	}
}

func span(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i + 1)
	}
	return v
}

// lateStart is seed 000's dumbbell with its flow starting at 2 s.
func lateStart() *model.Scenario {
	sc, _ := model.Builtin("seed000-dumbbell")
	sc.Flows[0].StartS = 2
	return sc
}

func TestSweepMetrics(t *testing.T) {
	ct := 12.5
	sc := &model.Scenario{Flows: []model.Flow{{SizeBytes: 1e6}, {}}}
	res := &model.Result{
		Flows: []model.FlowResult{
			{Flow: 0, MeanThroughputBps: 3e7, GoodputBps: 2.5e7, MeanCwndPkts: 30, LossEvents: 3, SentPkts: 1000, DroppedPkts: 4, CompletionTimeS: &ct},
			{Flow: 1, Name: "b", MeanThroughputBps: 1e7, GoodputBps: 1e7, MeanCwndPkts: 10, LossEvents: 1, SentPkts: 1000, DroppedPkts: 1},
		},
		Links: []model.LinkResult{{}, {MeanQueuePkts: 17, QueueSDPkts: 6, Utilisation: 0.4}},
	}
	for _, c := range []struct {
		metric string
		want   float64
		ok     bool
	}{
		{MetricThroughput, 4e7, true},
		{MetricGoodput, 3.5e7, true},
		{MetricUtilisation, 0.4, true},
		{MetricMeanCwnd, 20, true},
		{MetricLossEvents, 4, true},
		{MetricLossRate, 0.002, true},
		{MetricDropped, 5, true},
		{MetricMeanQueue, 17, true},
		{MetricQueueSD, 6, true},
		{MetricJain, 0.8, true}, // (4e7)² / (2 × (9e14 + 1e14))
		{MetricCompletion, 12.5, true},
		{"throughput_bps:b", 1e7, true},
		{"share:b", 0.25, true},
		{"mean_cwnd_pkts:b", 10, true},
		{"share:zz", 0, false},
		{MetricFirstLoss, 0, false},
	} {
		m, err := lookupMetric(c.metric)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := m.value(&run{sc: sc, res: res, bottleneck: 1})
		if ok != c.ok || math.Abs(got-c.want) > 1e-12*math.Abs(c.want) {
			t.Errorf("%s = %v, %v; want %v, %v", c.metric, got, ok, c.want, c.ok)
		}
	}
	if len(metricFuncs) != len(AllMetrics) {
		t.Errorf("%d metric functions for %d metrics", len(metricFuncs), len(AllMetrics))
	}
	res.Flows[0].CompletionTimeS = nil
	if _, ok := metricFuncs[MetricCompletion].value(&run{sc: sc, res: res, bottleneck: 1}); ok {
		t.Errorf("completion time of an unfinished transfer exists, want null")
	}
	one := &model.Scenario{Flows: []model.Flow{{}}}
	if _, ok := metricFuncs[MetricJain].value(&run{sc: one, res: &model.Result{Flows: res.Flows[:1]}}); ok {
		t.Errorf("Jain's index of one flow exists, want null")
	}
}

func TestSweepMergeErrors(t *testing.T) {
	row := func(point int, v float64) Row {
		return Row{Point: point, Params: []float64{float64(point)}, Metrics: []*float64{&v}}
	}
	table := func(fp string, k, n int, rows ...Row) *Table {
		return &Table{Scenario: "s", Engine: "fluid", Seed: 1, Replications: 1, Fingerprint: fp, Format: "json",
			Axes: []Axis{{Name: "rtt", Values: []float64{0, 1, 2}}}, Metrics: []string{"jain"}, Shard: k, Shards: n, Rows: rows}
	}
	with := func(t *Table, f func(*Table)) *Table { f(t); return t }
	whole := func() *Table { return table("a", 0, 1, row(0, 1), row(1, 1), row(2, 1)) }
	for _, c := range []struct {
		name  string
		parts []*Table
		want  string
	}{
		{"none", nil, "no sweep outputs"},
		{"missing shard", []*Table{table("a", 0, 2, row(0, 1), row(2, 1))}, "1 of 3 points missing, the first [1] (shards [1/2] are missing)"},
		{"overlap", []*Table{whole(), table("a", 0, 1, row(1, 1))}, "point 1 is in both part 1 and part 2"},
		{"other sweep", []*Table{table("a", 0, 2, row(0, 1), row(2, 1)), table("b", 1, 2, row(1, 1))}, "part 2 and part 1 come from different sweeps: fingerprint b, not a"},
		{"wrong shard", []*Table{table("a", 0, 2, row(1, 1))}, "holds point 1, which belongs to shard 1/2"},
		{"metrics", []*Table{whole(), with(whole(), func(t *Table) { t.Metrics = []string{"utilisation"} })}, "metrics [utilisation], not [jain]"},
		{"seed", []*Table{whole(), with(whole(), func(t *Table) { t.Seed = 2 })}, "seed 2, not 1"},
		{"engine", []*Table{whole(), with(whole(), func(t *Table) { t.Engine = "packet" })}, "engine packet, not fluid"},
		{"options", []*Table{whole(), with(whole(), func(t *Table) { t.Options = "sack" })}, `engine options "sack", not ""`},
		{"scenario", []*Table{whole(), with(whole(), func(t *Table) { t.Scenario = "x" })}, "scenario x, not s"},
		{"replications", []*Table{whole(), with(whole(), func(t *Table) { t.Replications = 8 })}, "8 replications, not 1"},
		{"format", []*Table{whole(), with(whole(), func(t *Table) { t.Format = "csv" })}, "format csv, not json"},
		{"values", []*Table{whole(), with(whole(), func(t *Table) { t.Axes = []Axis{{Name: "rtt", Values: []float64{0, 1, 5}}} })}, "axis rtt = [0 1 5], not [0 1 2]"},
		{"named", []*Table{with(whole(), func(t *Table) { t.Source = "a.json" }), with(whole(), func(t *Table) { t.Source = "b.csv"; t.Format = "csv" })}, "b.csv and a.json come from different sweeps"},
		{"outside", []*Table{table("a", 0, 1, row(0, 1), row(1, 1), row(2, 1), row(3, 1))}, "point 3 is outside the grid of 3 points"},
		{"grid values", []*Table{table("a", 0, 1, row(0, 1), row(1, 1), Row{Point: 2, Params: []float64{5}, Metrics: []*float64{nil}})}, "point 2 has rtt=5, the grid has rtt=2"},
	} {
		_, err := Merge(c.parts...)
		if !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrMerge mentioning %q", c.name, err, c.want)
		}
	}
	const spec = `# tcpfluid sweep {"scenario":"s","engine":"fluid","seed":1,"fingerprint":"a","axes":[{"name":"rtt","values":[1]}],"metrics":["jain"]}` + "\n"
	for _, c := range []struct{ name, in, want string }{
		{"empty", " \n", "empty input"},
		{"no spec line", "point,rtt,jain,error\n", "CSV without the line"},
		{"spec", "# tcpfluid sweep {\"x\":1}\n", "CSV line 1"},
		{"header", spec + "pt,rtt,jain,error\n", "CSV header"},
		{"number", spec + "point,rtt,jain,error\n0,x,1,\n", "rtt = \"x\""},
		{"nan", spec + "point,rtt,jain,error\n0,1,NaN,\n", "want a finite number"},
		{"json spec", `{"axes":[],"metrics":[],"rows":[]}`, "no \"spec\""},
		{"json key", `{"spec":{},"axes":[],"metrics":[],"rows":[{"point":0,"x":1}]}`, "rows[0] has keys [point x]"},
		{"json field", `{"spec":{},"axes":[],"metrics":[],"rows":[],"extra":1}`, "unknown field"},
		{"json shard", `{"spec":{},"axes":[],"metrics":[],"shard":"2/2","rows":[]}`, "shard \"2/2\""},
	} {
		_, err := Read(strings.NewReader(c.in))
		if !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrMerge mentioning %q", c.name, err, c.want)
		}
	}
}

func ExampleParseGrid() {
	for _, g := range []struct{ name, grid string }{
		{"colo.gamma", "0.5:3:6"},
		{"rtt", "50ms:200ms:4"},
		{"p", "1e-6:1e-2:5:log"},
		{"capacity", "10Mbps,1Gbps"},
	} {
		v, err := ParseGrid(g.name, g.grid)
		fmt.Println(g.name, v, err)
	}
	// Output:
	// colo.gamma [0.5 1 1.5 2 2.5 3] <nil>
	// rtt [0.05 0.1 0.15 0.2] <nil>
	// p [1e-06 1e-05 0.0001 0.001 0.01] <nil>
	// capacity [1e+07 1e+09] <nil>
}

// ExampleSweep runs a buffer sweep of seed 000's dumbbell in two shards, as two machines
// would, and merges them.
func ExampleRun() {
	spec := Spec{
		Axes:    []Axis{{Name: "buffer", Values: []float64{0.25, 0.5, 1}}},
		Metrics: []string{MetricThroughput, MetricMeanQueue},
		Shards:  2,
	}
	var parts []*Table
	for k := range 2 {
		spec.Shard = k
		part, err := Run(context.Background(), spec)
		if err != nil {
			fmt.Println(err)
			return
		}
		parts = append(parts, part)
	}
	whole, err := Merge(parts...)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range whole.Rows {
		fmt.Printf("buffer %g BDP: %.3g bit/s, queue %.0f packets\n", r.Params[0], *r.Metrics[0], *r.Metrics[1])
	}
}

func BenchmarkSweepSmall(b *testing.B) {
	spec := smallSpec()
	spec.Workers = 0
	for b.Loop() {
		if _, err := Run(context.Background(), spec); err != nil {
			b.Fatal(err)
		}
	}
}
