package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// Compound alone below the BDP: each round's delay-window step, α·W^k − 1 packets at the
// diff of an empty queue, waits at the link through the round's train, W/C of the round.
// The counted form shows that queue: its trace's queue is the step times the flow's rate
// over the link's, and the packet engine's mean queue over the same second agrees within
// 10% (its step leads the train, released by the round's first ACK). The textbook form
// queues nothing below the BDP.
func TestTrainQueue(t *testing.T) {
	sc := &model.Scenario{
		Name:      "compound-train",
		DurationS: 3,
		Links:     []model.Link{{Name: "l", CapacityBps: 100e6, DelayS: 0.05, BufferPkts: 2000}},
		Paths:     []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows: []model.Flow{{Name: "f", Algorithm: "compound", Path: "p", WindowScaling: true, RwndBytes: 1 << 30,
			InitialCwnd: 300, InitialSsthresh: 300}},
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	const from, to = 1.5, 2.5 // s: the window from about 450 to 650 packets, the BDP 833
	fl := runCounted(t, sc, 0.01)
	var fluidSum, packetSum, n float64
	for i, s := range fl.Trace {
		if s.Flow != -1 || s.TS < from || s.TS > to {
			continue
		}
		f := fl.Trace[i-1] // the flow's row at the same time
		if f.Flow != 0 || f.TS != s.TS {
			t.Fatalf("no flow row before the link's at %v s", s.TS)
		}
		step := math.Pow(f.CwndPkts, 0.75)/8 - 1
		want := step * f.RateBps / sc.Links[0].CapacityBps
		if relErr(s.QueuePkts, want) > 0.02 {
			t.Errorf("%.2f s: queue %.2f packets at W %.1f, want the step %.2f times the rate's share %.3f = %.2f (±2%%)",
				s.TS, s.QueuePkts, f.CwndPkts, step, f.RateBps/sc.Links[0].CapacityBps, want)
		}
		fluidSum += s.QueuePkts
		n++
	}
	pk := runPacket(t, sc, 0.001)
	var m float64
	for _, s := range pk.Trace {
		if s.Flow == -1 && s.TS >= from && s.TS <= to {
			packetSum += s.QueuePkts
			m++
		}
	}
	fq, pq := fluidSum/n, packetSum/m
	t.Logf("mean queue %.1f–%.1f s: fluid %.2f, packet %.2f packets", from, to, fq, pq)
	if relErr(fq, pq) > 0.1 {
		t.Errorf("mean queue %.1f–%.1f s: fluid %.2f packets, packet engine %.2f (±10%%)", from, to, fq, pq)
	}
	textbook := runFluid(t, sc, fluid.Settings{Seed: 1, Form: fluid.FormHybrid, SampleS: 0.01})
	if q := textbook.Links[0].MeanQueuePkts; q != 0 {
		t.Errorf("textbook form: mean queue %v packets, want 0 below the BDP", q)
	}
}
