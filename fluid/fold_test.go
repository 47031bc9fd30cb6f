package fluid_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// dumbbell is n Reno flows, each on its own access link into one shared bottleneck
// (layout "access"), with an egress link of its own too ("two-sided"), with access delays
// of 5, 10 and 20 ms in turn ("rtt-groups") or from 5 ms up in steps of 20/n ms, all
// different ("rtt-spread"), on 5 Mb/s access links that are each flow's bottleneck
// ("slow-access"), or half of them behind one shared access link ("mixed"). When
// distinct, the flows' receiver windows differ by a byte each far above any window they
// reach (as in identicalFlows): the same trajectories, but nothing folds or groups.
func dumbbell(n int, layout string, distinct bool, rule model.DropRule, capacityBps, durationS float64) *model.Scenario {
	sc := &model.Scenario{
		Name: "dumbbell-" + layout, DurationS: durationS, DropRule: rule,
		Links: []model.Link{{Name: "bottleneck", CapacityBps: capacityBps, DelayS: 0.04, BufferBDP: 1},
			{Name: "shared-access", CapacityBps: 10 * capacityBps, DelayS: 0.01, BufferPkts: 1000}},
	}
	for i := range n {
		acc := model.Link{Name: fmt.Sprintf("a%d", i), CapacityBps: 10 * capacityBps, DelayS: 0.01, BufferPkts: 1000}
		switch layout {
		case "rtt-groups":
			acc.DelayS = []float64{0.005, 0.01, 0.02}[i%3]
		case "rtt-spread":
			acc.DelayS = 0.005 + 0.02*float64(i)/float64(n)
		case "slow-access":
			acc.CapacityBps, acc.BufferPkts = 5e6, 20
		}
		links := []string{acc.Name, "bottleneck"}
		if layout == "mixed" && i%2 == 1 {
			links[0] = "shared-access"
		} else {
			sc.Links = append(sc.Links, acc)
		}
		if layout == "two-sided" {
			egress := model.Link{Name: fmt.Sprintf("b%d", i), CapacityBps: 10 * capacityBps, DelayS: 0.002, BufferPkts: 1000}
			sc.Links = append(sc.Links, egress)
			links = append(links, egress.Name)
		}
		sc.Paths = append(sc.Paths, model.Path{Name: fmt.Sprintf("p%d", i), Links: links})
		f := model.Flow{Name: fmt.Sprintf("f%d", i), Algorithm: "reno", Path: fmt.Sprintf("p%d", i), WindowScaling: true}
		if distinct {
			f.RwndBytes = 1<<30 - float64(i)
		}
		sc.Flows = append(sc.Flows, f)
	}
	return sc
}

// Flows that differ only in private links of equal parameters fold into one class on one
// set of links scaled by the copies, and every flow, link and trace row comes out as the
// same scenario run flow by flow gives it. The two runs step differently, so they agree to
// what the tolerance makes of the dynamics: at RelTol 1e-6 the flow-by-flow run of the
// slow-access layout is itself 9e-5 from the converged value; since the FIFO queues serve
// by arrival, the rtt-groups layout's bottleneck drops under the proportional rule are
// 3.6e-5 from it at 1e-8 and 7e-6 at 1e-9 (1874.869 packets against 1874.883 at 3e-10), so
// the runs use 1e-9 and must agree within 1e-5.
func TestFluidFoldMatchesFlowByFlow(t *testing.T) {
	const n = 12
	for _, c := range []struct {
		layout  string
		classes int // the classes the n flows fold into
	}{
		{"access", 1},
		{"two-sided", 1},
		{"rtt-groups", 3},
		{"slow-access", 1},
		{"mixed", 2},
	} {
		for _, rule := range []model.DropRule{model.DropSynchronized, model.DropProportional} {
			name := fmt.Sprintf("%s/%s", c.layout, rule)
			folded := dumbbell(n, c.layout, false, rule, 100e6, 20)
			if err := folded.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := countClasses(fluid.Classes(folded, fluid.Settings{})); got != c.classes {
				t.Errorf("%s: %d classes, want %d", name, got, c.classes)
			}
			set := fluid.Settings{SampleS: 0.5, RelTol: 1e-9, AbsTol: 1e-9}
			one := runFluid(t, folded, set)
			each := runFluid(t, dumbbell(n, c.layout, true, rule, 100e6, 20), set)
			compareRuns(t, name, one, each)
		}
	}
}

// compareRuns fails t where two runs of the same trajectories differ by more than the
// solver's accumulated tolerance.
func compareRuns(t *testing.T, name string, a, b *model.Result) {
	t.Helper()
	if len(a.Flows) != len(b.Flows) || len(a.Links) != len(b.Links) || len(a.Trace) != len(b.Trace) {
		t.Fatalf("%s: %d flows, %d links, %d trace rows folded; %d, %d, %d flow by flow", name,
			len(a.Flows), len(a.Links), len(a.Trace), len(b.Flows), len(b.Links), len(b.Trace))
	}
	near := func(x, y, scale float64) bool { return math.Abs(x-y) <= 1e-5*math.Max(scale, 1) }
	for i, fa := range a.Flows {
		fb := b.Flows[i]
		if fa.Flow != fb.Flow || fa.Name != fb.Name || fa.Path != fb.Path || fa.LossEvents != fb.LossEvents {
			t.Errorf("%s: flow %d is %d %q on %q with %d losses, flow by flow %d %q on %q with %d", name, i,
				fa.Flow, fa.Name, fa.Path, fa.LossEvents, fb.Flow, fb.Name, fb.Path, fb.LossEvents)
		}
		if !near(fa.MeanCwndPkts, fb.MeanCwndPkts, fb.MeanCwndPkts) || !near(fa.DeliveredPkts, fb.DeliveredPkts, fb.DeliveredPkts) ||
			!near(fa.DroppedPkts, fb.DroppedPkts, fb.SentPkts) {
			t.Errorf("%s: flow %d window %.9g, delivered %.9g, dropped %.9g; flow by flow %.9g, %.9g, %.9g", name, i,
				fa.MeanCwndPkts, fa.DeliveredPkts, fa.DroppedPkts, fb.MeanCwndPkts, fb.DeliveredPkts, fb.DroppedPkts)
		}
	}
	for i, la := range a.Links {
		lb := b.Links[i]
		if la.Link != lb.Link || !near(la.MeanQueuePkts, lb.MeanQueuePkts, lb.MeanQueuePkts) ||
			math.Abs(la.Utilisation-lb.Utilisation) > 1e-5 || !near(la.DroppedPkts, lb.DroppedPkts, lb.DroppedPkts) {
			t.Errorf("%s: link %+v, flow by flow %+v", name, la, lb)
		}
	}
	// A trace row is the solver's dense output between steps that fall differently in the
	// two runs; a queue that is just emptying differs by up to 1e-4 packets at RelTol 1e-8.
	for i, sa := range a.Trace {
		sb := b.Trace[i]
		if sa.TS != sb.TS || sa.Flow != sb.Flow || sa.Link != sb.Link ||
			math.Abs(sa.QueuePkts-sb.QueuePkts) > 1e-3*math.Max(sb.QueuePkts, 1) || math.Abs(sa.CwndPkts-sb.CwndPkts) > 1e-3*math.Max(sb.CwndPkts, 1) {
			t.Fatalf("%s: trace row %d %+v, flow by flow %+v", name, i, sa, sb)
		}
	}
}

// A private link that a timed event names, or that cross traffic crosses, is not folded:
// its flow goes on alone, and the rest still fold.
func TestFluidFoldLeavesNamedLinks(t *testing.T) {
	sc := dumbbell(6, "access", false, model.DropSynchronized, 100e6, 10)
	sc.Events = []model.TimedEvent{{AtS: 2, Kind: model.EventDelayChange, Link: "a0", DelayS: 0.03}}
	sc.CBR = []model.CBR{{Name: "x", Path: "p1", RateBps: 1e6, PacketBytes: 1000}}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	first := fluid.Classes(sc, fluid.Settings{})
	if want := []int{0, 1, 2, 2, 2, 2}; !slices.Equal(first, want) {
		t.Errorf("classes %v, want %v", first, want)
	}
	each := dumbbell(6, "access", true, model.DropSynchronized, 100e6, 10)
	each.Events, each.CBR = sc.Events, sc.CBR
	set := fluid.Settings{SampleS: 0.5, RelTol: 1e-8, AbsTol: 1e-8}
	compareRuns(t, "named", runFluid(t, sc, set), runFluid(t, each, set))
}

func countClasses(first []int) int {
	n := 0
	for i, f := range first {
		if f == i {
			n++
		}
	}
	return n
}

// BenchmarkFluid1000DistinctRTTs: 1000 Reno flows whose access delays (5–25 ms) are all
// different, on a 1 Gb/s bottleneck for 100 s, as Run folds them by default (FoldingAuto:
// 82 classes at 2%) and at 5% (Settings.FoldDelay: 34 classes). Unfolded
// (BenchmarkFluidDistinctRTTsMerged) they take 10 s synchronized, 14 s proportional.
func BenchmarkFluid1000DistinctRTTs(b *testing.B) {
	for _, c := range []struct {
		name string
		set  fluid.Settings
	}{{"auto", fluid.Settings{Seed: 1}}, {"fold-0.05", fluid.Settings{Seed: 1, FoldDelay: 0.05}}} {
		for _, rule := range []model.DropRule{model.DropSynchronized, model.DropProportional} {
			b.Run(fmt.Sprintf("%s/%s", c.name, rule), func(b *testing.B) {
				sc := dumbbell(1000, "rtt-spread", false, rule, 1e9, 100)
				for b.Loop() {
					runFluid(b, sc, c.set)
				}
			})
		}
	}
}

// BenchmarkFluidDistinctRTTsExact: the same dumbbell unfolded (FoldingCopies), every
// reaction at its own time (fluid.ReactionsExact), at 50, 100 and 200 flows, to show how the
// cost grows when every flow's reaction is its own solver stop: the stops grow as the
// square of the flows (each reacts at every overflow, and overflows come as often as the
// flows' windows are small) and each step costs every flow's work.
// BenchmarkFluidDistinctRTTsMerged (merge.go) is the default from 50 classes on.
func BenchmarkFluidDistinctRTTsExact(b *testing.B) {
	for _, n := range []int{50, 100, 200} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			sc := dumbbell(n, "rtt-spread", false, model.DropSynchronized, 1e9, 100)
			for b.Loop() {
				runFluid(b, sc, fluid.Settings{Seed: 1, Reactions: fluid.ReactionsExact, Folding: fluid.FoldingCopies})
			}
		})
	}
}

// BenchmarkFluid1000FlowsLayouts: 1000 Reno flows starting together on a 1 Gb/s, 100 ms
// bottleneck for 100 s, on each layout of dumbbell, with either drop rule. Folded, each
// layout costs what its classes cost: exact copies in the first four, and in rtt-spread,
// whose access delays all differ, the 82 bins of 2% FoldingAuto folds them in.
func BenchmarkFluid1000FlowsLayouts(b *testing.B) {
	for _, layout := range []string{"access", "two-sided", "rtt-groups", "mixed", "rtt-spread"} {
		for _, rule := range []model.DropRule{model.DropSynchronized, model.DropProportional} {
			b.Run(fmt.Sprintf("%s/%s", layout, rule), func(b *testing.B) {
				benchFluid(b, dumbbell(1000, layout, false, rule, 1e9, 100))
			})
		}
	}
}

// Validating a dumbbell and folding its flows costs time linear in the flows: ten times
// the flows take under 30 times as long (a quadratic pass, as name lookups by scanning
// were, takes 100 times). A ratio, unlike a wall time, holds on a loaded machine; each
// size's cost is its fastest of three runs, each after a collection, so a preemption or a
// collection left by another test cannot stretch one side of it.
func TestFluidFoldLinear(t *testing.T) {
	cost := func(n int) time.Duration {
		best := time.Duration(math.MaxInt64)
		for range 3 {
			sc := dumbbell(n, "access", false, model.DropSynchronized, 1e9, 1)
			runtime.GC()
			t0 := time.Now()
			if err := sc.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := countClasses(fluid.Classes(sc, fluid.Settings{})); got != 1 {
				t.Fatalf("%d flows fold into %d classes, want 1", n, got)
			}
			best = min(best, time.Since(t0))
		}
		return best
	}
	cost(200) // warm up
	small, large := cost(2000), cost(20000)
	r := float64(large) / float64(small)
	t.Logf("2000 flows in %v, 20,000 in %v: %.1f times as long", small, large, r)
	if r > 30 {
		t.Errorf("2000 flows in %v, 20,000 in %v: %.0f times as long, want under 30 (linear: 10)", small, large, r)
	}
}

// Settings.FoldDelay folds flows whose access delays share a bin of its relative width:
// 40 Reno flows with access delays from 5 to 24.5 ms (round trips of 90–129 ms), every one
// distinct, fold at 5% into one class per bin their delays fall in, on links of the bin's
// mean delay. A flow's round trip then moves by δ = 2·|mean − own delay|/RTT, and its
// goodput by less than 2(δ + δ̄) (its share goes as RTT⁻¹ under the proportional rule and
// RTT⁻² under synchronized drops, and the others' round trips, which move by δ̄ on the
// mean, shift the losses they share); the bottleneck's utilisation and mean queue, which
// the sum of the windows decides, move by less than 1%. Exact folding is unchanged (0,
// the default, is TestFluidFoldMatchesFlowByFlow's).
func TestFluidFoldDelay(t *testing.T) {
	const n, tol = 40, 0.05
	for _, rule := range []model.DropRule{model.DropSynchronized, model.DropProportional} {
		sc := dumbbell(n, "rtt-spread", false, rule, 100e6, 60)
		bins := map[float64][]int{}
		for i := range n {
			b := math.Floor(math.Log(sc.Links[2+i].DelayS) / math.Log1p(tol))
			bins[b] = append(bins[b], i)
		}
		first := fluid.Classes(sc, fluid.Settings{FoldDelay: tol})
		if got := countClasses(first); got != len(bins) {
			t.Errorf("%s: %d flows in %d classes at FoldDelay %g, want one per bin: %d", rule, n, got, tol, len(bins))
		}
		exact := runFluid(t, sc, fluid.Settings{Seed: 1})
		folded := runFluid(t, sc, fluid.Settings{Seed: 1, FoldDelay: tol})
		delta := make([]float64, n) // each flow's relative change of round trip
		meanDelta := 0.0
		for _, members := range bins {
			mean := 0.0
			for _, i := range members {
				mean += sc.Links[2+i].DelayS / float64(len(members))
			}
			for _, i := range members {
				own := sc.Links[2+i].DelayS
				delta[i] = 2 * math.Abs(mean-own) / (2 * (own + sc.Links[0].DelayS))
				meanDelta += delta[i] / n
			}
		}
		worst := 0.0
		for i := range n {
			e, f := exact.Flows[i].GoodputBps, folded.Flows[i].GoodputBps
			d := math.Abs(f-e) / e
			if want := 2 * (delta[i] + meanDelta); d > want {
				t.Errorf("%s: flow %d goodput %.5g folded, %.5g exact: %.3f%% apart, want below 2(δ + δ̄) = %.3f%%", rule, i, f, e, 100*d, 100*want)
			}
			worst = max(worst, d)
		}
		le, lf := exact.Links[0], folded.Links[0]
		t.Logf("%s: %d classes, δ̄ %.3f%%; worst goodput difference %.3f%%; utilisation %.5f / %.5f, queue %.2f / %.2f packets", rule, len(bins),
			100*meanDelta, 100*worst, lf.Utilisation, le.Utilisation, lf.MeanQueuePkts, le.MeanQueuePkts)
		if math.Abs(lf.Utilisation-le.Utilisation) > 0.01*le.Utilisation || math.Abs(lf.MeanQueuePkts-le.MeanQueuePkts) > 0.01*le.MeanQueuePkts {
			t.Errorf("%s: bottleneck utilisation %.5f and queue %.2f packets folded, %.5f and %.2f exact: want within 1%%", rule,
				lf.Utilisation, lf.MeanQueuePkts, le.Utilisation, le.MeanQueuePkts)
		}
	}
}

// Settings out of range are refused with model.ErrScenario and a message naming the
// value, before anything runs.
func TestFluidSettingsRefused(t *testing.T) {
	sc := dumbbell(2, "rtt-spread", false, model.DropSynchronized, 100e6, 1)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set  fluid.Settings
		want string
	}{
		{fluid.Settings{FoldDelay: -0.01}, "fold delay -0.01"},
		{fluid.Settings{FoldDelay: 0.6}, "fold delay 0.6"},
		{fluid.Settings{FoldDelay: math.NaN()}, "fold delay NaN"},
		{fluid.Settings{Folding: fluid.Folding(7)}, "folding 7"},
		{fluid.Settings{SampleS: -1}, "sample interval -1 s"},
		{fluid.Settings{Form: "sawtooth"}, `form "sawtooth"`},
		{fluid.Settings{StopAfterLosses: -1}, "stop after -1 losses"},
	} {
		_, err := fluid.Run(t.Context(), sc, c.set)
		if !errors.Is(err, model.ErrScenario) || !strings.Contains(fmt.Sprint(err), c.want) {
			t.Errorf("%+v: error %v, want model.ErrScenario naming %q", c.set, err, c.want)
		}
	}
}
