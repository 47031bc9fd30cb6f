package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// A sender alone on its path slow-starts on its ACK clock, as a packet sender does: its
// first window leaves in one burst and each ACK releases two packets, so its window is its
// first one more the packets acknowledged. Reno from 10 packets over a free 100 Mb/s, 40 ms
// path holds 20, 40, 80 and 160 packets through its second to fifth rounds, whole packets
// as in the packet engine, and 2089 packets at 0.45 s (the pipe full since 0.2 s) in the
// packet engine: the fluid is held to half a packet in the rounds and to 1% at the end.
// Counted at W/RTT in flight, the window doubled a round too, but carried 2·ln 2 times the
// packets acknowledged: 32, 64, 128 and 256 in those rounds, 2330 at 0.45 s (+11.5%).
func TestLoneSlowStartOnItsACKClock(t *testing.T) {
	sc := &model.Scenario{
		Name:      "lone-slow-start",
		DurationS: 0.45,
		Links:     []model.Link{{Name: "l", CapacityBps: 100e6, DelayS: 0.02, BufferPkts: 5000}},
		Paths:     []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows:     []model.Flow{{Name: "f", Algorithm: "reno", Path: "p", WindowScaling: true, RwndBytes: 1 << 30, InitialCwnd: 10}},
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	window := func(res *model.Result, at float64) float64 {
		for _, s := range res.Trace {
			if s.Flow == 0 && s.Link == "" && math.Abs(s.TS-at) < 1e-9 {
				return s.CwndPkts
			}
		}
		t.Fatalf("no sample at %v s", at)
		return 0
	}
	fl, pk := runCounted(t, sc, 0.01), runPacket(t, sc, 0.01)
	for _, at := range []float64{0.07, 0.11, 0.15, 0.19} {
		f, p := window(fl, at), window(pk, at)
		t.Logf("%.2f s: fluid %.2f, packet %.0f packets", at, f, p)
		if math.Abs(f-p) > 0.5 {
			t.Errorf("window at %.2f s: fluid %.2f packets, packet engine %.0f (±0.5)", at, f, p)
		}
	}
	if f, p := window(fl, 0.45), window(pk, 0.45); relErr(f, p) > 0.01 {
		t.Errorf("window at 0.45 s: fluid %.1f packets, packet engine %.0f (±1%%)", f, p)
	}
}
