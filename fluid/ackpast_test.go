package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// A flow that slow-starts behind a standing queue doubles its window once a round trip, as
// a packet sender does: the ACKs that open its window are those of packets that left the
// queue a return lag before, not the ones leaving it now. A Reno flow held at 500 packets
// by its receiver window keeps 157 packets queued at a 100 Mb/s, 40 ms bottleneck (RTT
// 58 ms); a second Reno flow starts from 10 packets at 1 s. The fluid window crosses 30,
// 60, … 960 packets within a round trip of the packet engine's: a round's packets leave a
// packet sender in one train and the fluid's spread over the round, so a level is crossed
// up to a round apart (34 ms late at 30 packets, 12 ms early at 960). Clocked by the ACKs
// leaving the queue at that instant, the fluid grew 2.8 times a round at first and crossed
// 960 packets 182 ms (3.1 rounds) early.
func TestSlowStartBehindQueueDoublesPerRound(t *testing.T) {
	sc := &model.Scenario{
		Name:      "slow-start-behind-queue",
		DurationS: 1.7,
		Links:     []model.Link{{Name: "l", CapacityBps: 100e6, DelayS: 0.02, BufferPkts: 3425}},
		Paths:     []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows: []model.Flow{
			{Name: "standing", Algorithm: "reno", Path: "p", WindowScaling: true, RwndBytes: 500 * 1460, InitialCwnd: 500, InitialSsthresh: 400},
			{Name: "late", Algorithm: "reno", Path: "p", WindowScaling: true, StartS: 1, InitialCwnd: 10},
		},
	}
	const roundS = 0.04 + 157*1500*8/100e6
	crossings := func(res *model.Result) []float64 {
		var at []float64
		level := 30.0
		for _, s := range res.Trace {
			if s.Flow == 1 && s.Link == "" && s.CwndPkts >= level && level < 1000 {
				at = append(at, s.TS)
				level *= 2
			}
		}
		return at
	}
	fl, pk := crossings(runCounted(t, sc, 0.002)), crossings(runPacket(t, sc, 0.002))
	if len(fl) != 6 || len(pk) != 6 {
		t.Fatalf("crossings of 30 … 960 packets: fluid %v, packet %v; want six each", fl, pk)
	}
	for k := range fl {
		level := 30 * math.Pow(2, float64(k))
		t.Logf("%4.0f packets: fluid %.3f s, packet %.3f s", level, fl[k], pk[k])
		if d := fl[k] - pk[k]; math.Abs(d) > roundS {
			t.Errorf("window of %.0f packets reached at %.3f s in the fluid, %.3f s in the packet engine: %.0f ms apart, over a round trip (%.0f ms)", level, fl[k], pk[k], 1e3*d, 1e3*roundS)
		}
	}
}
