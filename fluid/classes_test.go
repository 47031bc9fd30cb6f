package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// identicalFlows is n Reno flows that differ in nothing but their receiver windows when
// distinct: RwndBytes 2^30 − i bytes, far above any window the 100 Mb/s, 40 ms link lets
// them reach, so that the distinct flows follow exactly the trajectories of the identical
// ones while the engine cannot group them into one class.
func identicalFlows(n int, distinct bool, rule model.DropRule) *model.Scenario {
	sc := &model.Scenario{
		Name: "classes", DurationS: 60, DropRule: rule,
		Links: []model.Link{{Name: "l0", CapacityBps: 100e6, DelayS: 0.02, BufferBDP: 1}},
		Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
	}
	for i := range n {
		f := model.Flow{Algorithm: "reno", Path: "p0", WindowScaling: true, StartS: 0.5}
		if distinct {
			f.RwndBytes = 1<<30 - float64(i)
		}
		sc.Flows = append(sc.Flows, f)
	}
	return sc
}

// Identical flows run as one class and give every member the result the same flows give
// run one by one (2, 10, 100 flows; 1000 too in one of the four cases: the other three pass
// there as well, in 150 s together): the same trajectory scaled by the class's size, to the
// solver's tolerance (RelTol 1e-8 per step; 1e-5 relative accumulated over the run). The
// default RelTol 1e-6 is not enough: the two runs' error norms average over different
// numbers of variables, so they take different steps, and at 1e-6 the reactions to the
// first overflow (1.09 s) fall on either side of a sample (hybrid-recovery, proportional,
// 2 flows: mean windows 2.2e-5 apart, within 1e-5 before the round trip counted the
// packets' transmissions, by the same chance). Both
// runs stop the solver at every flow's own reactions and drops (fluid.ReactionsExact): 100
// flows run one by one would share stops, which approximates (merge.go, polldrops.go).
func TestFluidClassesMatchFlowByFlow(t *testing.T) {
	for _, c := range []struct {
		rule model.DropRule
		form string
	}{
		{model.DropSynchronized, fluid.FormHybrid},
		{model.DropProportional, fluid.FormHybrid},
		{model.DropSynchronized, fluid.FormHybridRecovery},
		{model.DropProportional, fluid.FormHybridRecovery},
	} {
		rule := c.rule
		sizes := []int{2, 10, 100}
		if rule == model.DropSynchronized && c.form == fluid.FormHybrid {
			sizes = append(sizes, 1000)
		}
		for _, n := range sizes {
			set := fluid.Settings{SampleS: 1, Form: c.form, Reactions: fluid.ReactionsExact, RelTol: 1e-8}
			one := runFluid(t, identicalFlows(n, false, rule), set)
			each := runFluid(t, identicalFlows(n, true, rule), set)
			if len(one.Flows) != n || len(each.Flows) != n {
				t.Fatalf("%s %s n=%d: %d and %d flow results", c.form, rule, n, len(one.Flows), len(each.Flows))
			}
			if len(one.Trace) != len(each.Trace) {
				t.Fatalf("%s %s n=%d: trace of %d rows, flow by flow %d", c.form, rule, n, len(one.Trace), len(each.Trace))
			}
			for i := range one.Flows {
				a, b := one.Flows[i], each.Flows[i]
				if a.Flow != i {
					t.Errorf("%s %s n=%d: result %d is flow %d", c.form, rule, n, i, a.Flow)
				}
				// The drops are what the queue refused of what was sent: their error is
				// relative to the packets sent, not to the drops.
				for _, m := range []struct {
					name  string
					a, b  float64
					scale float64
				}{
					{"mean cwnd, packets", a.MeanCwndPkts, b.MeanCwndPkts, b.MeanCwndPkts},
					{"throughput, bit/s", a.MeanThroughputBps, b.MeanThroughputBps, b.MeanThroughputBps},
					{"delivered, packets", a.DeliveredPkts, b.DeliveredPkts, b.DeliveredPkts},
					{"dropped, packets", a.DroppedPkts, b.DroppedPkts, b.SentPkts},
					{"loss events", float64(a.LossEvents), float64(b.LossEvents), 0},
				} {
					if math.Abs(m.a-m.b) > 1e-5*m.scale {
						t.Errorf("%s %s n=%d flow %d: %s %.9g as a class, %.9g flow by flow", c.form, rule, n, i, m.name, m.a, m.b)
					}
				}
			}
			if ua, ub := one.Links[0].Utilisation, each.Links[0].Utilisation; math.Abs(ua-ub) > 1e-5 {
				t.Errorf("%s %s n=%d: utilisation %.7f as a class, %.7f flow by flow", c.form, rule, n, ua, ub)
			}
		}
	}
}

// Flows a random loss reaches draw their own losses and never share a class: n flows on a
// lossy link are n different trajectories.
func TestFluidClassesKeepRandomLossPerFlow(t *testing.T) {
	sc := identicalFlows(4, false, model.DropSynchronized)
	sc.Links[0].Loss, sc.Links[0].LossP = model.LossRandom, 1e-3
	res := runFluid(t, sc, fluid.Settings{Seed: 1})
	if res.Flows[0].LossEvents == res.Flows[1].LossEvents && res.Flows[0].MeanCwndPkts == res.Flows[1].MeanCwndPkts {
		t.Errorf("flows 0 and 1 under independent random loss are the same: %+v", res.Flows[:2])
	}
}

// The classes make 10,000 identical flows cost one: the benchmark of the class against
// BenchmarkFluid1000Flows100s's distinguishable starts.
func BenchmarkFluid10000IdenticalFlows(b *testing.B) {
	benchFluid(b, identicalFlows(10000, false, model.DropSynchronized))
}

func BenchmarkFluid1000DistinctFlows(b *testing.B) {
	benchFluid(b, identicalFlows(1000, true, model.DropSynchronized))
}

// Polled drops are heard in time (polldrops.go): 100 identical flows run one by one with
// merged reactions, whose drops are found after the solver's steps, keep the class's exact
// run within 1e-3 in every flow's mean window and deliveries over 60 s (4e-4 at worst).
// Their drops all move together, so a drop heard late moves all of them: left unheard to
// the step's end, or for as long as a twentieth of a packet's sending, they were 5% off.
func TestPolledDropsKeepIdenticalFlowsTogether(t *testing.T) {
	set := fluid.Settings{SampleS: 1, Form: fluid.FormHybridRecovery}
	set.Reactions = fluid.ReactionsExact
	one := runFluid(t, identicalFlows(100, false, model.DropProportional), set)
	set.Reactions = fluid.ReactionsMerged
	each := runFluid(t, identicalFlows(100, true, model.DropProportional), set)
	worst := 0.0
	for i, b := range each.Flows {
		a := one.Flows[i]
		worst = max(worst, math.Abs(b.MeanCwndPkts/a.MeanCwndPkts-1), math.Abs(b.DeliveredPkts/a.DeliveredPkts-1))
	}
	t.Logf("worst flow %.2g from the class", worst)
	if worst > 1e-3 {
		t.Errorf("a flow's mean window or deliveries %.2g from the class's, want within 1e-3", worst)
	}
}
