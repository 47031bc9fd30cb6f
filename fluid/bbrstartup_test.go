package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// BBR's Startup doubles its window every round (pacing and cwnd gain 2/ln2, the window
// growing by what the ACKs acknowledge, bbr_set_cwnd): alone on a free 1 Gb/s, 100 ms path
// from 10 packets, the packet engine's window is 20, 40, 71, 131, 257, 504, 1004, 2008 and
// 4016 at 0.1 … 0.9 s. The fluid's, grown by the deliveries of a base RTT before, is within
// a round of it at every tenth of a second until the BDP (8,333 packets; 0.8 of it today),
// and grows by 2 a round (1.9 to 2.1); grown by ln 2 times the deliveries of the same
// instant, it grew 2.8 times a round and was 1049 packets at 0.5 s, four times the packet
// engine's.
func TestBBRStartupDoublesPerRound(t *testing.T) {
	sc := &model.Scenario{
		Name: "bbr-startup", DurationS: 1.0, SACK: true,
		Links: []model.Link{{Name: "l", CapacityBps: 1e9, DelayS: 0.05, BufferBDP: 1}},
		Paths: []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows: []model.Flow{{Name: "bbr", Algorithm: "bbr", Path: "p", WindowScaling: true, MSSBytes: 1460,
			RwndBytes: 1 << 30, InitialCwnd: 10}},
	}
	fl := flowSamples(runFluid(t, sc, fluid.Settings{Seed: 1, Form: fluid.FormHybridRecovery, SACK: true, SampleS: 0.1}), 0)
	pk := flowSamples(runPacket(t, sc, 0.1), 0)
	prev := 0.0
	for i := range min(len(fl), len(pk)) {
		f, p := fl[i].CwndPkts, pk[i].CwndPkts
		t.Logf("%.1f s: window %.0f (fluid), %.0f (packet)", fl[i].TS, f, p)
		if fl[i].TS < 0.25 || p >= 8333 {
			prev = f
			continue
		}
		if r := f / p; r < 0.5 || r > 2 {
			t.Errorf("%.1f s: window %.0f packets in the fluid, %.0f in the packet engine: more than a round apart", fl[i].TS, f, p)
		}
		if g := f / prev; math.Abs(g-2) > 0.1 {
			t.Errorf("%.1f s: the fluid window grew %.2f times in a round (%.0f to %.0f), want 2 ± 0.1", fl[i].TS, g, prev, f)
		}
		prev = f
	}
}
