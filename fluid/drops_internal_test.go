package fluid

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// The proportional rule's drop guard is off while a flow could not hear a drop (a reaction
// due, a recovery under way): the drops of one overflow no longer stop the solver once per
// packet. 40 Reno flows of distinct round trips take no more solver steps under the
// proportional rule than twice the synchronized rule's, whose overflows stop it once
// (with the guard on throughout they took 29 times as many).
func TestProportionalDropsStopOnce(t *testing.T) {
	steps := map[model.DropRule]int{}
	for _, rule := range []model.DropRule{model.DropSynchronized, model.DropProportional} {
		var losses int
		steps[rule], losses = spreadSteps(t, 40, 0.0005, rule, ReactionsAuto)
		t.Logf("%s: %d solver steps, %d loss events", rule, steps[rule], losses)
	}
	if p, s := steps[model.DropProportional], steps[model.DropSynchronized]; p > 2*s {
		t.Errorf("proportional rule: %d solver steps, synchronized %d: want at most twice", p, s)
	}
}

// spreadSteps runs n Reno flows whose access delays are 5 ms apart by gapS each on a
// 1 Gb/s, 40 ms bottleneck for 30 s, and returns the solver's steps and the loss events.
func spreadSteps(t *testing.T, n int, gapS float64, rule model.DropRule, r Reactions) (int, int) {
	t.Helper()
	sc := &model.Scenario{Name: "spread", DurationS: 30, DropRule: rule,
		Links: []model.Link{{Name: "bottleneck", CapacityBps: 1e9, DelayS: 0.04, BufferBDP: 1}}}
	for i := range n {
		a, p := fmt.Sprintf("a%d", i), fmt.Sprintf("p%d", i)
		sc.Links = append(sc.Links, model.Link{Name: a, CapacityBps: 1e10, DelayS: 0.005 + gapS*float64(i), BufferPkts: 1000})
		sc.Paths = append(sc.Paths, model.Path{Name: p, Links: []string{a, "bottleneck"}})
		sc.Flows = append(sc.Flows, model.Flow{Name: fmt.Sprintf("f%d", i), Algorithm: "reno", Path: p, WindowScaling: true})
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	set := Settings{Seed: 1, Reactions: r}
	if err := set.resolve(); err != nil {
		t.Fatal(err)
	}
	s, err := newSystem(sc, set, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	losses := 0
	for _, f := range res.Flows {
		losses += f.LossEvents
	}
	return s.drv.Steps(), losses
}

// In the counted form under the proportional rules, a full queue's drop of a packet sent
// after the recovery began is a loss of the next window: the sender finds it a round trip
// after sending it, once the recovery has ended. A drop of a packet sent before is the
// recovery's own, and the hybrid form (or the synchronized rule) hears none until the
// recovery ends.
func TestDropDuringRecoveryStartsTheNext(t *testing.T) {
	for _, c := range []struct {
		name      string
		newWindow bool
		t, wait   float64 // the drop, and how long its packet waited before the queue, s
		want      float64 // the reaction, s (+Inf: none)
	}{
		{"sent after the recovery began", true, 10.05, 0.02, 10.13},
		{"sent before it began", true, 10.05, 0.06, math.Inf(1)},
		{"hybrid form: inside the recovery", false, 10.05, 0.02, math.Inf(1)},
		{"hybrid form: after the recovery", false, 10.11, 0.02, 10.19},
	} {
		var f subflow
		f.reactAt, f.rtt, f.recoverFrom, f.recoverUntil, f.recoverPoint = math.Inf(1), 0.1, 10, 10.1, 10.1
		f.hearsInRecovery = c.newWindow
		f.hearDrop(c.t, c.wait, c.newWindow)
		if !(math.Abs(f.reactAt-c.want) <= 1e-12 || f.reactAt == c.want) {
			t.Errorf("%s: reaction at %v, want %v", c.name, f.reactAt, c.want)
		}
		if deaf := f.deafToDrops(10.05); deaf != (f.reactAt != math.Inf(1) || !c.newWindow) {
			t.Errorf("%s: deaf to drops %v during the recovery", c.name, deaf)
		}
	}
}
