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
		if d := (p.DeliveredPkts - f.DeliveredPkts) / p.CwndPkts; math.Abs(d) > 0.25 || math.Abs(f.CwndPkts/p.CwndPkts-1) > 0.01 {
			t.Errorf("loss event %d: fluid at %.2f s, %.0f delivered, window %.1f; packet at %.2f s, %.0f delivered, window %.1f (%.2f windows apart)",
				i, f.TS, f.DeliveredPkts, f.CwndPkts, p.TS, p.DeliveredPkts, p.CwndPkts, d)
		}
	}
}
