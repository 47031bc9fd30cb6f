package fluid_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// A drop behind a queue is found a round trip later, from the duplicate ACKs of the
// packets behind it, and the window goes on growing until then. NewReno on 10 Mb/s and
// 20 ms (BDP 33 packets) with random loss 1e-4 keeps a window near 176 packets, a queue of
// 140: with common random numbers each of the counted form's loss events comes within a
// quarter window of delivered packets of the packet engine's (a third duplicate ACK and
// the fluid's even deliveries differ by a few packets) and at its window within 1%. Reacting
// at the drop put each a round trip, 0.8–0.95 windows, early.
func TestFluidFindsADropARoundTripOn(t *testing.T) {
	sc := oneLink("newreno", 10e6, 0.02, 2000, 300)
	sc.Links[0].Loss, sc.Links[0].LossP = model.LossRandom, 1e-4
	sc.Flows[0].InitialCwnd, sc.Flows[0].InitialSsthresh = 100, 100
	pairLossEvents(t, sc, 0.01)
}

// The round trip runs from when the packet left its sender, and the fluid has no
// propagation: a packet dropped downstream of a queue left the sender the queue's wait
// earlier. The same NewReno flow with its queue on a first 10 Mb/s hop and the random loss
// on a second, uncongested one: its loss events still pair with the packet engine's within
// a quarter window, at its window within 1% (counting from the drop, they came about 0.8
// windows late).
func TestFluidFindsADropDownstreamOfTheQueue(t *testing.T) {
	sc := &model.Scenario{Name: "two-hops", DurationS: 300,
		Links: []model.Link{
			{Name: "queue", CapacityBps: 10e6, DelayS: 0.01, BufferPkts: 2000},
			{Name: "lossy", CapacityBps: 100e6, DelayS: 0.01, BufferPkts: 2000, Loss: model.LossRandom, LossP: 1e-4},
		},
		Paths: []model.Path{{Name: "p", Links: []string{"queue", "lossy"}}},
		Flows: []model.Flow{{Name: "f", Algorithm: "newreno", Path: "p", WindowScaling: true, InitialCwnd: 100, InitialSsthresh: 100}},
	}
	pairLossEvents(t, sc, 0.01)
}

// pairLossEvents runs sc in the counted form and the packet engine with the same seed and
// requires their loss events to pair one to one under common random numbers: the k-th
// within a quarter window of delivered packets of the other's k-th, at its window within
// windowTol (relative).
func pairLossEvents(t *testing.T, sc *model.Scenario, windowTol float64) {
	t.Helper()
	fl := runFluid(t, sc, fluid.Settings{Form: fluid.FormHybridRecovery, RecordLosses: true, Seed: 2})
	pk, err := packet.Run(context.Background(), sc, packet.Settings{RecordLosses: true, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(fl.Losses) != len(pk.Losses) || len(fl.Losses) < 10 {
		t.Fatalf("%d fluid and %d packet loss events, want the same number, at least 10", len(fl.Losses), len(pk.Losses))
	}
	for i, f := range fl.Losses {
		p := pk.Losses[i]
		if d := (p.DeliveredPkts - f.DeliveredPkts) / p.CwndPkts; math.Abs(d) > 0.25 || math.Abs(f.CwndPkts/p.CwndPkts-1) > windowTol {
			t.Errorf("loss event %d: fluid at %.2f s, %.0f delivered, window %.1f; packet at %.2f s, %.0f delivered, window %.1f (%.2f windows apart)",
				i, f.TS, f.DeliveredPkts, f.CwndPkts, p.TS, p.DeliveredPkts, p.CwndPkts, d)
		}
	}
}

// A route-aware sender resumes after an outage with its window as one burst (no ACK clock
// paces it), and what the buffer cannot hold is lost: NewReno on 15 Mb/s and 10 ms with a
// 50-packet buffer (BDP 68 packets of 512 bytes), its window near 62 packets when the link
// fails for half a second at 5 s, loses 12 of them at the reconnection and times out, in the
// counted form as in the packet engine; the drops after the reconnection agree within 10%.
// Sending the window over its round trip, the fluid lost none there and did not time out.
func TestFluidRouteAwareResumesInABurst(t *testing.T) {
	sc := oneLink("newreno", 15e6, 0.01, 50, 6)
	sc.Flows[0].MSSBytes, sc.Flows[0].RouteAware = 512, true
	sc.Flows[0].InitialCwnd, sc.Flows[0].InitialSsthresh = 40, 40
	sc.Events = []model.TimedEvent{{AtS: 5, Kind: model.EventLinkDown, Link: "l0"}, {AtS: 5.5, Kind: model.EventLinkUp, Link: "l0"}}
	cut := *sc
	cut.DurationS, cut.Events = 5.4, sc.Events[:1]
	runs := map[string][2]*model.Result{}
	for _, engine := range []string{"fluid", "packet"} {
		var r [2]*model.Result
		for i, s := range []*model.Scenario{&cut, sc} {
			if engine == "fluid" {
				r[i] = runFluid(t, s, fluid.Settings{Form: fluid.FormHybridRecovery})
				continue
			}
			res, err := packet.Run(context.Background(), s, packet.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			r[i] = res
		}
		runs[engine] = r
	}
	after := func(engine string) (drops float64, timeouts int) {
		r := runs[engine]
		return r[1].Flows[0].DroppedPkts - r[0].Flows[0].DroppedPkts, r[1].Flows[0].Timeouts - r[0].Flows[0].Timeouts
	}
	got, gotTO := after("fluid")
	want, wantTO := after("packet")
	t.Logf("after the reconnection: fluid %.1f drops, %d timeouts; packet %.0f drops, %d timeouts", got, gotTO, want, wantTO)
	if want < 5 || math.Abs(got/want-1) > 0.1 {
		t.Errorf("%.1f packets dropped after the reconnection, packet engine %.0f: want at least 5 and within 10%%", got, want)
	}
	if gotTO != 1 || wantTO != 1 {
		t.Errorf("timeouts after the reconnection: fluid %d, packet %d; want one each", gotTO, wantTO)
	}
}
