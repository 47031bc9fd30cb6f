package fluid_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// BBR beside a constant-rate source of 248 packets/s on modern-bbr-cubic-shallow's link
// (100 Mb/s, 40 ms, a 0.2-BDP drop-tail buffer), 60 s: at each probe BBR's paced packets
// alone overfill the queue and take the slots its departures free before the source's
// packets can, which lose about half their packets there (slotrace.go). The source's drops
// in the fluid within 10% of the packet engine's (validate's bound on a throughput): 662
// against 683; the even split gave 226.
func TestPacedProbeRacesOthersForSlots(t *testing.T) {
	sc, err := model.Builtin("modern-bbr-cubic-shallow")
	if err != nil {
		t.Fatal(err)
	}
	sc.Flows = sc.Flows[:1]
	sc.CBR = []model.CBR{{Name: "cbr", Path: sc.Flows[0].Path, RateBps: 2.9e6, PacketBytes: 1460, StartS: 0.1}}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	cbrDrops := func(r *model.Result) float64 { return r.Links[0].DroppedPkts - r.Flows[0].DroppedPkts }
	fl := runFluid(t, sc, fluid.Settings{Form: fluid.FormHybridRecovery})
	pk, err := packet.Run(context.Background(), sc, packet.Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	f, p := cbrDrops(fl), cbrDrops(pk)
	t.Logf("the constant-rate source's drops: fluid %.0f, packet %.0f", f, p)
	if p < 500 {
		t.Fatalf("test premise: the packet engine dropped %.0f of the source's packets, want 500 or more", p)
	}
	if math.Abs(f/p-1) > 0.1 {
		t.Errorf("the fluid dropped %.0f of the source's packets, the packet engine %.0f: want within 10%%", f, p)
	}
}
