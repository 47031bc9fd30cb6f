package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// BBR's Startup doubles its window every round (pacing and cwnd gain 2/ln2, the window
// growing by what the ACKs acknowledge, bbr_set_cwnd): alone on a free 1 Gb/s, 100 ms path
// from 10 packets, the packet engine's window is 10, 20, 40, 71, 131, 257, 504, 1004 and
// 2008 at 0.1 … 0.9 s. The fluid's, grown by the deliveries of a base RTT before, is within
// a round of it at every tenth of a second until the BDP (8,333 packets): 10, 20, 39, 77,
// 153, 305, 609, 1217 and 2433 since a full window in Startup sends at the ACK clock
// (bbrFluid.FullRate), 10, 24, 48, 95 and 190 at 0.1 … 0.5 s (45% ahead) while it sent at
// W/RTT from the start; and it grows by 2 a round (1.9 to 2.1). Grown by ln 2 times the
// deliveries of the same instant, it grew 2.8 times a round. The samples are paired by
// their time (the packet engine's trace has no row at 0 s).
func TestBBRStartupDoublesPerRound(t *testing.T) {
	sc := bbrAlone(1e9, 0.05, 1, 1.0)
	fl := flowSamples(runFluid(t, sc, fluid.Settings{Seed: 1, Form: fluid.FormHybridRecovery, SACK: true, SampleS: 0.1}), 0)
	pk := map[int]float64{} // window by tenth of a second
	for _, s := range flowSamples(runPacket(t, sc, 0.1), 0) {
		pk[int(math.Round(s.TS*10))] = s.CwndPkts
	}
	prev := 0.0
	for i := range fl {
		f, p := fl[i].CwndPkts, pk[int(math.Round(fl[i].TS*10))]
		if p == 0 {
			continue
		}
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

// BBR's Startup begins to queue when the packet engine's does: alone on a 100 Mb/s, 40 ms
// path, the bottleneck first holds 5 packets at 0.25 s in the packet engine (0.245 s in
// the fluid; 200 packets at 0.29 and 0.275 s). A full window in Startup sends at the ACK
// clock (bbrFluid.FullRate), nothing in the first round trip; sending at W/RTT from the
// start, the fluid sent 16.5 packets in its first round trip for a window of 10, and its
// queue held 5 packets at 0.21 s, a round trip early. Within a quarter of the round trip.
func TestBBRStartupQueueFormsWithPackets(t *testing.T) {
	sc := bbrAlone(100e6, 0.02, 10, 0.4)
	const sample = 0.005 // s
	fl := linkSamples(runFluid(t, sc, fluid.Settings{Seed: 1, Form: fluid.FormHybridRecovery, SACK: true, SampleS: sample}), "l")
	pk := linkSamples(runPacket(t, sc, sample), "l")
	reaches := func(ss []model.Sample, q float64) float64 {
		for _, s := range ss {
			if s.QueuePkts >= q {
				return s.TS
			}
		}
		return math.Inf(1)
	}
	f, p := reaches(fl, 5), reaches(pk, 5)
	t.Logf("a queue of 5 packets: %.3f s (fluid), %.3f s (packet); of 200: %.3f s, %.3f s", f, p, reaches(fl, 200), reaches(pk, 200))
	if math.Abs(f-p) > 0.010 {
		t.Errorf("the queue holds 5 packets at %.3f s in the fluid, %.3f s in the packet engine: want within 10 ms", f, p)
	}
}

// bbrAlone is one BBR flow from 10 packets on a link of capBps (bit/s) and delayS (s) one
// way, with a buffer of bufferBDP BDPs, SACK, for durationS (s).
func bbrAlone(capBps, delayS, bufferBDP, durationS float64) *model.Scenario {
	return &model.Scenario{
		Name: "bbr-alone", DurationS: durationS, SACK: true,
		Links: []model.Link{{Name: "l", CapacityBps: capBps, DelayS: delayS, BufferBDP: bufferBDP}},
		Paths: []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows: []model.Flow{{Name: "bbr", Algorithm: "bbr", Path: "p", WindowScaling: true, MSSBytes: 1460,
			RwndBytes: 1 << 30, InitialCwnd: 10}},
	}
}
