package fluid

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// A NewReno sender that waits for its timer has repaired one hole per partial ACK, one a
// round trip of its recovery: the round trip when the recovery began, not the path's when
// the timer fires, which the silent sender has let drain. Seed 003's NewReno (seed 1) lost
// 8.4 packets of a 46-packet window at 5.41 s behind a 0.25-s queue, and its timer fired at
// 6.05 s on a 21-ms path: two holes repaired and 6.4 left to go back N over; timed by the
// path then, thirty "repaired" left one, and no go-back-N. Reno repairs the first only.
func TestHolesAtTimeoutPartialAckPace(t *testing.T) {
	var s system
	y := make([]float64, flowCounters)
	y[cntDropped] = 61.89
	for _, c := range []struct {
		rec  model.Recovery
		want float64
	}{{model.RecoveryNewReno, 61.89 - 53.5 - 2}, {model.RecoveryReno, 61.89 - 53.5 - 1}} {
		f := &subflow{}
		f.mult, f.recovery = 1, c.rec
		f.recoverFrom, f.recoverRTT, f.rtt, f.gbn.dropsFrom = 5.41, 0.25, 0.021, 53.5
		if got := s.holesAtTimeout(f, 6.05, y); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %.4f holes left at the timeout, want %.4f", c.rec, got, c.want)
		}
	}
}
