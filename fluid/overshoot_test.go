package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// Reno's first slow start overflows a 1-BDP buffer (seed 000's dumbbell: 200/100/200 Mb/s,
// 240 ms, 1460-byte packets), and in the counted form loses what a packet sender loses.
// Its ACKs return at the bottleneck's rate C and each sends two packets, so the queue
// drops C packets a second from the first drop until the sender hears of it, a full
// round trip later, C·(RTT + B/C) = 4110 packets; held at a receiver window of 7191
// packets it stops growing after cap − (BDP + B) = 3081 more ACKs and drops that many, as
// the packet engine does (3081) and ns-2.35 (3135). A sender that kept W/RTT for the
// packets it has lost without knowing dropped 20–40% more.
func TestFluidSlowStartOvershoot(t *testing.T) {
	const mss = 1460.0
	c := 100e6 / (8 * mss)
	bdp := c * 0.24
	for _, tc := range []struct {
		name string
		rwnd float64 // bytes
		want float64 // packets dropped
	}{
		{"no cap", 1 << 30, c * (0.24 + math.Round(bdp)/c)},
		{"receiver window 3.5 BDP", 10.5e6, math.Floor(10.5e6/mss) - 2*math.Round(bdp)},
	} {
		sc := seed000Path(model.Flow{Algorithm: "reno", MSSBytes: mss, RwndBytes: tc.rwnd, WindowScaling: true}, 1, 30)
		res := runFluid(t, sc, fluid.Settings{Form: fluid.FormHybridRecovery})
		t.Logf("%s: %.0f packets dropped (theory %.0f)", tc.name, res.Flows[0].DroppedPkts, tc.want)
		if got := res.Flows[0].DroppedPkts; math.Abs(got/tc.want-1) > 0.01 {
			t.Errorf("%s: %.0f packets dropped, want %.0f ± 1%%", tc.name, got, tc.want)
		}
	}
}

// seed000Path is seed 000's path (200 Mb/s 10 ms, 100 Mb/s 100 ms, 200 Mb/s 10 ms: a round
// trip of 240 ms) for one flow f, the bottleneck's buffer bufferBDP bandwidth-delay
// products, for durationS seconds.
func seed000Path(f model.Flow, bufferBDP, durationS float64) *model.Scenario {
	f.Path = "p"
	return &model.Scenario{
		Name: "seed000-path", DurationS: durationS,
		Links: []model.Link{
			{Name: "in", CapacityBps: 200e6, DelayS: 0.01, BufferBDP: 1},
			{Name: "btl", CapacityBps: 100e6, DelayS: 0.1, BufferBDP: bufferBDP},
			{Name: "out", CapacityBps: 200e6, DelayS: 0.01, BufferBDP: 1},
		},
		Paths: []model.Path{{Name: "p", Links: []string{"in", "btl", "out"}}},
		Flows: []model.Flow{f},
	}
}
