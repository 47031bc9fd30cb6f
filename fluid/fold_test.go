package fluid_test

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// dumbbell is n Reno flows, each on its own access link into one shared bottleneck
// (layout "access"), with an egress link of its own too ("two-sided"), with access delays
// of 5, 10 and 20 ms in turn ("rtt-groups"), on 5 Mb/s access links that are each flow's
// bottleneck ("slow-access"), or half of them behind one shared access link ("mixed"). When
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
// slow-access layout is itself 9e-5 from the converged value, at 1e-8 within 1e-6 (and the
// folded run with it), so the runs use 1e-8 and must agree within 1e-5.
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
			set := fluid.Settings{SampleS: 0.5, RelTol: 1e-8, AbsTol: 1e-8}
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

// BenchmarkFluid1000FlowsLayouts: 1000 Reno flows starting together on a 1 Gb/s, 100 ms
// bottleneck for 100 s, on each layout of dumbbell, with either drop rule. Folded, each
// layout costs what its classes cost.
func BenchmarkFluid1000FlowsLayouts(b *testing.B) {
	for _, layout := range []string{"access", "two-sided", "rtt-groups", "mixed"} {
		for _, rule := range []model.DropRule{model.DropSynchronized, model.DropProportional} {
			b.Run(fmt.Sprintf("%s/%s", layout, rule), func(b *testing.B) {
				benchFluid(b, dumbbell(1000, layout, false, rule, 1e9, 100))
			})
		}
	}
}

// Validating a dumbbell and folding its flows costs time linear in the flows: ten times
// the flows take under 30 times as long (a quadratic pass, as name lookups by scanning
// were, takes 100 times; a ratio, unlike a wall time, holds on a loaded machine).
func TestFluidFoldLinear(t *testing.T) {
	cost := func(n int) time.Duration {
		sc := dumbbell(n, "access", false, model.DropSynchronized, 1e9, 1)
		t0 := time.Now()
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		if got := countClasses(fluid.Classes(sc, fluid.Settings{})); got != 1 {
			t.Fatalf("%d flows fold into %d classes, want 1", n, got)
		}
		return time.Since(t0)
	}
	cost(200) // warm up
	small, large := cost(2000), cost(20000)
	if r := float64(large) / float64(small); r > 30 {
		t.Errorf("2000 flows in %v, 20,000 in %v: %.0f times as long, want under 30 (linear: 10)", small, large, r)
	}
}
