package fluid_test

import (
	"context"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// CUBIC's first slow start beside BBR over a 10-BDP buffer (modern-bbr-cubic-deep) ends
// in an overshoot of some 2,500 packets, and the window it recovers with, with BBR's,
// still overfills the path: the queue stays full and drops about a quarter of what CUBIC
// sends, its retransmissions among them. A sender that finds its lost retransmissions
// (lost_retransmit) stays in that recovery while they last, while 2,500·φ^k ≥ 1 with φ
// near a quarter: five or six round trips of 0.44 s (the packet engine's lasts 4.5), and
// cuts its window once more when it ends: two loss events in the first 6 s in both engines, the second more than four round
// trips after the first. A recovery of one round trip ended into the full queue and cut
// the fluid CUBIC three times by 3 s. BBR, paced, recovers as long through the same full
// queue: two loss events in those 6 s in the fluid, three in the packet engine (one of them
// a count's granularity), where a recovery of one round trip counted one every two round
// trips, five.
func TestLostRetransmissionsExtendRecovery(t *testing.T) {
	sc := builtin(t, "modern-bbr-cubic-deep")
	sc.DurationS = 6
	fl, err := fluid.Run(context.Background(), sc, fluid.Settings{Seed: 1, Form: fluid.FormHybridRecovery, SACK: true, RecordLosses: true})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := packet.Run(context.Background(), sc, packet.Settings{Seed: 1, SACK: true, LostRetransmit: true, RecordLosses: true})
	if err != nil {
		t.Fatal(err)
	}
	const fullRTT = 0.44 // s: 40 ms and a full 10-BDP queue
	bbrEvents := map[string]int{}
	for _, e := range []struct {
		name   string
		losses []model.LossRecord
	}{{"fluid", fl.Losses}, {"packet", pk.Losses}} {
		var at, bbr []float64
		for _, l := range e.losses {
			if l.Flow == 1 {
				at = append(at, l.TS)
			} else {
				bbr = append(bbr, l.TS)
			}
		}
		t.Logf("%s: BBR's loss events at %.3f s", e.name, bbr)
		bbrEvents[e.name] = len(bbr)
		t.Logf("%s: CUBIC's loss events at %.3f s", e.name, at)
		if len(at) != 2 {
			t.Errorf("%s: %d loss events of CUBIC in 6 s, want 2", e.name, len(at))
			continue
		}
		if gap := at[1] - at[0]; gap < 4*fullRTT {
			t.Errorf("%s: CUBIC's second loss event %.3f s after its first, want at least four round trips (%.2f s)", e.name, gap, 4*fullRTT)
		}
	}
	if d := bbrEvents["fluid"] - bbrEvents["packet"]; d < -1 || d > 1 {
		t.Errorf("BBR's loss events in 6 s: %d in the fluid, %d in the packet engine, want within one", bbrEvents["fluid"], bbrEvents["packet"])
	}
}
