package sweep

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// experiment runs a built-in experiment's sweep (its axes, metrics and replications) in an
// engine, with changes to the spec.
func experiment(t testing.TB, name, engine string, change func(*Spec)) *Table {
	t.Helper()
	exp := Experiments[name]
	base, err := model.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Base: base, Metrics: exp.Metrics, Replications: exp.Replications, Engine: engine, Seed: 1}
	for _, a := range exp.Axes {
		axis, err := ParseAxis(a)
		if err != nil {
			t.Fatal(err)
		}
		spec.Axes = append(spec.Axes, axis)
	}
	if change != nil {
		change(&spec)
	}
	tab, err := Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Failed() > 0 {
		t.Fatalf("%s: %d points failed: %v", name, tab.Failed(), tab.Notes())
	}
	return tab
}

// column is metric m's means over the rows.
func column(t testing.TB, tab *Table, m string) []float64 {
	t.Helper()
	k := slices.Index(tab.Metrics, m)
	if k < 0 {
		t.Fatalf("no metric %s in %v", m, tab.Metrics)
	}
	out := make([]float64, len(tab.Rows))
	for i, r := range tab.Rows {
		if r.Metrics[k] == nil {
			t.Fatalf("%s is null at point %d", m, r.Point)
		}
		out[i] = *r.Metrics[k]
	}
	return out
}

func strictlyFalling(v []float64) bool {
	for i := 1; i < len(v); i++ {
		if !(v[i] < v[i-1]) {
			return false
		}
	}
	return true
}

// The γ experiment: the drops of the slow-start overshoot fall strictly as γ rises over
// 0.5…3 in both engines (the packet engine's by more than half, the fluid engine's by a few
// percent: the scenario's Description says why); the peak queue is the buffer at every γ
// (each overflows), and the time to fill the link does not move (no queue before it).
func TestExperimentColoGamma(t *testing.T) {
	for _, c := range []struct {
		engine    string
		minFactor float64 // drops at γ 3 / drops at γ 0.5 at most
	}{{EngineFluid, 0.99}, {EnginePacket, 0.5}} {
		tab := experiment(t, "seed000-colo-gamma", c.engine, nil)
		drops := column(t, tab, MetricFirstLossDrops)
		if !strictlyFalling(drops) || drops[len(drops)-1] > c.minFactor*drops[0] {
			t.Errorf("%s: drops before the first loss %v, want strictly falling to at most %g of the first", c.engine, drops, c.minFactor)
		}
		buffer := 2055.0 // 1 BDP of the bottleneck, packets
		for _, q := range column(t, tab, MetricPeakQueue) {
			if q < 0.99*buffer || q > buffer {
				t.Errorf("%s: peak queue %v, want the buffer %v (every γ overflows)", c.engine, q, buffer)
			}
		}
		if ts := column(t, tab, MetricTime90); slices.Min(ts) != slices.Max(ts) {
			t.Errorf("%s: time to 90%% of the link %v moves with γ", c.engine, ts)
		}
		t.Logf("%s: drops before the first loss %v", c.engine, drops)
	}
}

// The α experiment: a larger α_max refills the queue sooner after each random loss, so the
// mean queue and window rise with it, beyond the replications' 95% intervals from end to
// end, while the throughput stays where it is (within 1%), near the link's: above 97% of
// it, as the packet engine's COLO under random loss 1e-5 keeps 97.9% (seed000-colo-random-loss).
func TestExperimentColoAlpha(t *testing.T) {
	tab := experiment(t, "seed000-colo-alpha", EngineFluid, nil)
	q := column(t, tab, MetricMeanQueue)
	for i := 1; i < len(q); i++ {
		if !(q[i] > q[i-1]) {
			t.Errorf("mean queue %v, want rising with alpha_max %v", q, tab.Axes[0].Values)
		}
	}
	k := slices.Index(tab.Metrics, MetricMeanQueue)
	first, last := tab.Rows[0], tab.Rows[len(tab.Rows)-1]
	if *first.Metrics[k]+*first.CI95[k] >= *last.Metrics[k]-*last.CI95[k] {
		t.Errorf("mean queue %v ± %v at alpha_max 2 and %v ± %v at 32: the intervals overlap", *first.Metrics[k], *first.CI95[k], *last.Metrics[k], *last.CI95[k])
	}
	w := column(t, tab, MetricMeanCwnd)
	if !(w[len(w)-1] > w[0]) {
		t.Errorf("mean window %v, want larger at alpha_max 32", w)
	}
	thr := column(t, tab, MetricThroughput)
	for _, v := range thr {
		if v < 0.97*100e6 || v > 100e6 || math.Abs(v/thr[0]-1) > 0.01 {
			t.Errorf("throughput %v, want the same within 1%% at every alpha_max, 97%% to 100%% of the 100 Mb/s link", thr)
		}
	}
	t.Logf("mean queue %v", q)
}

// The β experiment without random loss (p = 0, deterministic): COLO's share against four
// Reno flows is the same for β_min up to 0.5 (every overflow has β = baseRTT/RTT = 0.5)
// and rises strictly above it, Jain's index falling.
func TestExperimentColoBeta(t *testing.T) {
	tab := experiment(t, "seed000-colo-beta", EngineFluid, func(s *Spec) {
		s.Axes[1].Values = []float64{0}
		s.Replications = 1
	})
	share := column(t, tab, "share:colo")
	jain := column(t, tab, MetricJain)
	betas := tab.Axes[0].Values
	for i := 1; i < len(betas); i++ {
		switch {
		case betas[i] < 0.5:
			if share[i] != share[0] {
				t.Errorf("share %v at beta_min %v, want %v as at %v (beta_min does not bind)", share[i], betas[i], share[0], betas[0])
			}
		case betas[i] == 0.5:
			// With the buffer full baseRTT/RTT is 0.5 less the access links' transmission
			// times (1e-4 of the round trip): 0.5 binds, by that much.
			if math.Abs(share[i]/share[0]-1) > 1e-4 {
				t.Errorf("share %v at beta_min %v, want %v as at %v (beta_min does not bind)", share[i], betas[i], share[0], betas[0])
			}
		case !(share[i] > share[i-1]) || !(jain[i] < jain[i-1]):
			t.Errorf("share %v and Jain %v over beta_min %v: want share rising and Jain falling above 0.5", share, jain, betas)
		}
	}
	if share[0] < 0.2 {
		t.Errorf("COLO's share %v below a fair 0.2", share[0])
	}
	t.Logf("share:colo %v", share)
}

// BenchmarkExperimentColoGamma is the γ experiment's sweep: 6 points × 8 replications in the
// fluid engine, every metric of the experiment (each run twice: the whole run and the run
// to the first loss).
func BenchmarkExperimentColoGamma(b *testing.B) {
	for b.Loop() {
		experiment(b, "seed000-colo-gamma", EngineFluid, func(s *Spec) { s.Replications = 8 })
	}
}

// monotoneWithin reports whether a non-increasing curve passes within every mean ± ci
// (greedy: the highest such curve takes, at each point, the lower of its last value and
// the interval's top).
func monotoneWithin(means, ci []float64) bool {
	y := math.Inf(1)
	for i := range means {
		y = math.Min(y, means[i]+ci[i])
		if y < means[i]-ci[i] {
			return false
		}
	}
	return true
}

// The packet engine's throughput against random loss with 8 replications: one seed's run
// rests on a few loss events and is not monotone, but the means' 95% intervals contain a
// falling curve (the README's `sweep --engine packet --param p=1e-6:1e-3:8:log
// --replications 8`, here on a 30 s run).
func TestSweepPacketReplicationsMonotone(t *testing.T) {
	if testing.Short() {
		t.Skip("32 packet runs")
	}
	tab, err := Run(context.Background(), Spec{
		Axes:    []Axis{{Name: "p", Values: []float64{1e-5, 1e-4, 1e-3}}, {Name: "duration", Values: []float64{30}}},
		Metrics: []string{MetricThroughput}, Engine: EnginePacket, Replications: 8, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	means, ci := column(t, tab, MetricThroughput), make([]float64, len(tab.Rows))
	for i, r := range tab.Rows {
		ci[i] = *r.CI95[0]
	}
	if !monotoneWithin(means, ci) {
		t.Errorf("throughput %v ± %v: no falling curve within the intervals", means, ci)
	}
	if monotoneWithin([]float64{3, 1, 2}, []float64{0.1, 0.1, 0.1}) || !monotoneWithin([]float64{3, 2, 2.05}, []float64{0, 0.1, 0.1}) {
		t.Errorf("monotoneWithin misjudges")
	}
	t.Logf("throughput %v ± %v", means, ci)
}
