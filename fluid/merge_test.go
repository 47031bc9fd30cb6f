package fluid_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// A reaction that waits for a shared solver stop waits under a quarter of its flow's ACK
// spacing, so the flow sends under a quarter of a packet more before it cuts its window: over
// L loss events a flow that delivers D packets is off by under L/4 packets, a relative
// L/(4D), and the others by as much again through the queue they share; the bottleneck's
// queue holds under N/4 packets more at an overflow of N flows' reactions. 40 Reno flows
// whose round trips all differ (90–129 ms) on a 100 Mb/s bottleneck for 60 s react within
// 30 µs of one another at each synchronized overflow; merged, every flow's goodput and
// window are within 2·L/(4D) of the exact run's, and the flows' total deliveries within
// ΣL/4 packets and the mean queue within N/4 packets, under either drop rule (the
// proportional rule's draws that follow a moved drop move too, so its flows are not held
// one by one).
func TestMergedReactionsAgreeWithExact(t *testing.T) {
	const n = 40
	for _, rule := range []model.DropRule{model.DropSynchronized, model.DropProportional, model.DropRandom} {
		sc := dumbbell(n, "rtt-spread", false, rule, 100e6, 60)
		exact := runFluid(t, sc, fluid.Settings{Seed: 1, Reactions: fluid.ReactionsExact})
		merged := runFluid(t, sc, fluid.Settings{Seed: 1, Reactions: fluid.ReactionsMerged})
		var lossesPerPkt, delivered, deliveredMerged, losses float64
		worst := 0.0 // a flow's relative difference over its bound
		for i, e := range exact.Flows {
			m := merged.Flows[i]
			bound := 2 * float64(e.LossEvents) / (4 * e.DeliveredPkts)
			d := max(math.Abs(m.DeliveredPkts/e.DeliveredPkts-1), math.Abs(m.MeanCwndPkts/e.MeanCwndPkts-1))
			worst = max(worst, d/bound)
			lossesPerPkt = max(lossesPerPkt, bound)
			delivered += e.DeliveredPkts
			deliveredMerged += m.DeliveredPkts
			losses += float64(e.LossEvents)
		}
		dq := math.Abs(merged.Links[0].MeanQueuePkts - exact.Links[0].MeanQueuePkts)
		t.Logf("%s: worst flow at %.2f of its bound (largest bound %.2g), deliveries %.1f packets apart (bound %.0f), mean queue %.3g packets (bound %d)",
			rule, worst, lossesPerPkt, math.Abs(deliveredMerged-delivered), losses/4, dq, n/4)
		if rule == model.DropSynchronized && worst > 1 {
			t.Errorf("%s: a flow's goodput or window %.2f times its bound 2·L/(4D) apart merged and exact", rule, worst)
		}
		if d := math.Abs(deliveredMerged - delivered); d > losses/4 {
			t.Errorf("%s: the flows deliver %.1f packets apart merged and exact, over ΣL/4 = %.0f", rule, d, losses/4)
		}
		if dq > n/4 {
			t.Errorf("%s: mean queue %.3g packets apart merged and exact, over N/4 = %d", rule, dq, n/4)
		}
	}
}

// BenchmarkFluidDistinctRTTsMerged: the dumbbell of BenchmarkFluidDistinctRTTsExact with
// merged reactions (the default from 50 classes on), at 50, 200 and 1000 flows under either
// drop rule: a stop takes the reactions of a quarter of an ACK spacing, which holds more
// flows the more there are (their ACKs are the sparser), and the proportional rule's drops
// are found after the steps that hold them (polldrops.go).
func BenchmarkFluidDistinctRTTsMerged(b *testing.B) {
	for _, c := range []struct {
		n    int
		rule model.DropRule
	}{{50, model.DropSynchronized}, {200, model.DropSynchronized}, {1000, model.DropSynchronized}, {200, model.DropProportional}, {1000, model.DropProportional}} {
		b.Run(fmt.Sprintf("%d/%s", c.n, c.rule), func(b *testing.B) {
			sc := dumbbell(c.n, "rtt-spread", false, c.rule, 1e9, 100)
			for b.Loop() {
				runFluid(b, sc, fluid.Settings{Seed: 1, Reactions: fluid.ReactionsMerged, Folding: fluid.FoldingCopies})
			}
		})
	}
}
