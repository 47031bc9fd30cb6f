package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
	"gonum.org/v1/gonum/stat/distuv"
)

// Replications: each metric's mean, standard deviation and interval are those of the
// replicates' values, replicate 0 is the run of a sweep without replications, and the
// replicates draw different random losses.
func TestSweepReplications(t *testing.T) {
	ctx := context.Background()
	spec := Spec{
		Axes:    []Axis{{Name: "p", Values: []float64{3e-4}}, {Name: "duration", Values: []float64{4}}},
		Metrics: []string{MetricThroughput, MetricCompletion},
		Seed:    3, Workers: 2,
	}
	one, err := Run(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	spec.Replications = 5
	rep, err := Run(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	// The replicates one by one: the same point with the seeds runSeed gives.
	var xs []float64
	for r := range 5 {
		sc, _ := model.Builtin(DefaultScenario)
		p, _ := spec.plan()
		sc, _ = p.scenario([]float64{3e-4, 4})
		res, err := p.Run(ctx, sc, Request{Seed: runSeed(3, spec.Axes, []float64{3e-4, 4}, r)})
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, res.Flows[0].MeanThroughputBps)
	}
	if xs[0] != *one.Rows[0].Metrics[0] {
		t.Errorf("replicate 0 throughput %v, the unreplicated run's %v: want equal", xs[0], *one.Rows[0].Metrics[0])
	}
	mean, ss := 0.0, 0.0
	for _, x := range xs {
		mean += x / 5
	}
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / 4)
	ci := 2.7764451051977987 * sd / math.Sqrt(5) // t(0.975, 4)
	r := rep.Rows[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"mean", *r.Metrics[0], mean}, {"sd", *r.SD[0], sd}, {"ci95", *r.CI95[0], ci}} {
		if math.Abs(c.got-c.want) > 1e-9*math.Abs(c.want) {
			t.Errorf("%s %v, want %v", c.name, c.got, c.want)
		}
	}
	if !(sd > 0) {
		t.Errorf("replicates drew the same losses: throughputs %v", xs)
	}
	if r.Metrics[1] != nil || r.SD[1] != nil || r.CI95[1] != nil {
		t.Errorf("completion time of a long-lived flow has a mean")
	}
	// Columns and their round trip through JSON and CSV.
	if got := strings.Join(rep.Columns(), ","); got != "point,p,duration,throughput_bps,throughput_bps_sd,throughput_bps_ci95,completion_time_s,completion_time_s_sd,completion_time_s_ci95,error" {
		t.Errorf("columns %s", got)
	}
	var fromJSON Table
	if err := json.Unmarshal(sweepJSONBytes(t, rep), &fromJSON); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep.WriteCSV(&buf)
	fromCSV, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, back := range []*Table{&fromJSON, fromCSV} {
		if *back.Rows[0].CI95[0] != ci && math.Abs(*back.Rows[0].CI95[0]-*r.CI95[0]) != 0 {
			t.Errorf("%s: ci95 %v after the round trip, want %v", back.Format, *back.Rows[0].CI95[0], *r.CI95[0])
		}
	}
	if q := (distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 4}).Quantile(0.975); math.Abs(q-2.7764451051977987) > 1e-12 {
		t.Errorf("t(0.975, 4) = %v", q)
	}
	if _, err := Run(ctx, Spec{Replications: -1}); !errors.Is(err, model.ErrSettings) {
		t.Errorf("-1 replications: %v", err)
	}
}

// A point whose run fails is a row with the error and null metrics; the sweep finishes,
// its other rows are kept, and the table merges from shards.
func TestSweepFailedPoint(t *testing.T) {
	spec := Spec{
		Axes:         []Axis{{Name: "p", Values: []float64{0, 1e-4, 3e-4}}, {Name: "duration", Values: []float64{2}}},
		Metrics:      []string{MetricThroughput},
		Replications: 2,
		Run: func(ctx context.Context, sc *model.Scenario, req Request) (*model.Result, error) {
			if sc.Links[1].LossP == 1e-4 {
				return nil, errors.New("engine gave up")
			}
			return fluidRun(ctx, sc, req)
		},
	}
	whole, err := Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Failed() != 1 || whole.Rows[1].Error != "replicate 0: engine gave up" || whole.Rows[1].Metrics[0] != nil {
		t.Fatalf("rows %+v, want point 1 failed with null metrics", whole.Rows)
	}
	if whole.Rows[0].Metrics[0] == nil || whole.Rows[2].Metrics[0] == nil {
		t.Errorf("the other points lost their metrics")
	}
	js := string(sweepJSONBytes(t, whole))
	if !strings.Contains(js, `"throughput_bps":null,"throughput_bps_sd":null,"throughput_bps_ci95":null,"error":"replicate 0: engine gave up"`) ||
		!strings.Contains(js, "1 of 3 points failed") || strings.Contains(js, "NaN") {
		t.Errorf("JSON %s", js)
	}
	var parts []*Table
	for k := range 2 {
		s := spec
		s.Shard, s.Shards = k, 2
		part, err := Run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		part.WriteCSV(&buf)
		back, err := Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, back)
	}
	merged, err := Merge(parts...)
	if err != nil {
		t.Fatal(err)
	}
	var got, want bytes.Buffer
	merged.WriteCSV(&got)
	whole.WriteCSV(&want)
	if got.String() != want.String() {
		t.Errorf("merged CSV with a failed point:\n%s\nwant\n%s", got.String(), want.String())
	}
}

func fluidRun(ctx context.Context, sc *model.Scenario, req Request) (*model.Result, error) {
	p, err := Spec{Base: sc}.plan()
	if err != nil {
		return nil, err
	}
	return p.Run(ctx, sc, req)
}

// A sweep that changes nothing says so, and why when the scenario shows it.
func TestSweepNotes(t *testing.T) {
	base, _ := model.Builtin(DefaultScenario)
	base.SetAlgorithm("colo")
	spec := Spec{Base: base, Axes: []Axis{{Name: "colo.gamma", Values: []float64{0.5, 3}}, {Name: "duration", Values: []float64{10}}}}
	tab, err := Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(tab.Notes(), "\n")
	for _, want := range []string{"jain is left out: every point has one flow", "no metric changed across the 2 points: colo.gamma, duration had no effect",
		"ssthresh/2 = 367720 packets (the receiver window)", "--initial-ssthresh below 8220 packets"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	if strings.Contains(strings.Join(tab.Metrics, ","), "jain") {
		t.Errorf("metrics %v of one flow include jain", tab.Metrics)
	}
	base.Flows[0].InitialSsthresh = 4000
	spec.Axes[1].Values = []float64{100}
	spec.Base = base
	tab, err = Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(tab.Notes(), "\n"); strings.Contains(notes, "concave") {
		t.Errorf("notes %q with a threshold the concave part reaches", notes)
	}
}

// time_to_90pct_s: the first sample at which the round trip before it carried 90% of the
// link; peak_queue_pkts: the largest sampled queue.
func TestSweepTraceMetrics(t *testing.T) {
	sc := &model.Scenario{
		Links: []model.Link{{Name: "b", CapacityBps: 8e6}},
		Paths: []model.Path{{Name: "p", Links: []string{"b"}}},
		Flows: []model.Flow{{Name: "f", Path: "p", MSSBytes: 1000}},
	}
	res := &model.Result{}
	for k := range 31 {
		ts := float64(k) / 10
		// Idle until 1 s, then the link's 1000 packets/s.
		res.Trace = append(res.Trace, model.Sample{TS: ts, Flow: 0, DeliveredPkts: math.Max(ts-1, 0) * 1000},
			model.Sample{TS: ts, Flow: -1, Link: "b", QueuePkts: 10 - math.Abs(ts-2)})
	}
	r := &run{sc: sc, res: res, bottleneck: 0, stepS: 0.1, rttS: 0.5}
	if v, ok := time90(r); !ok || math.Abs(v-1.5) > 1e-9 {
		t.Errorf("time to 90%% = %v, %v; want 1.5 s (0.45 s of the 0.5 s round trip at the link's rate)", v, ok)
	}
	if v, ok := metricFuncs[MetricPeakQueue].value(r); !ok || v != 10 {
		t.Errorf("peak queue %v, %v; want 10", v, ok)
	}
	res.Trace = res.Trace[:30] // the run ends at 1.4 s: 0.4 s of the last round trip at the link's rate
	if v, ok := time90(r); ok {
		t.Errorf("time to 90%% = %v with 80%% of a round trip delivered, want none", v)
	}
}
