package fluid

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Rate halving behind ns-2's delayed send falls by the ACKs that find the send timer
// waiting, 1 − idle of them, instead of one packet per two ACKs (simRec.start): from
// W = 40 over a recovery round trip R, u = t/R,
//   - RecoveryLinux with ssthresh 31: max(31, 40·(1 − (1 − idle)·u)), the send pace
//     40·idle packets a round trip until the floor;
//   - RecoveryLinuxMinCwnd with ssthresh 35 (scalable@linux): the fall to max(35/2,
//     40·idle) at the end, then min(35, that + 3) slow-starting back.
func TestSimRecDelayedSendFall(t *testing.T) {
	const w0, rtt = 40.0, 0.1
	for _, c := range []struct {
		idle, lowering float64
	}{{1, 0.5}, {2.0 / 3, 1.0 / 3}, {0.4, 0.6}} {
		var r simRec
		r.start(model.RecoveryLinux, 0, rtt, w0, 31, 31, c.idle)
		for _, u := range []float64{0.1, 0.25, 0.4} {
			want := math.Max(31, w0*(1-c.lowering*u))
			if got := r.window(u*rtt, 31); math.Abs(got-want) > 1e-12 {
				t.Errorf("idle %.3f, RecoveryLinux at %.2f RTT: window %.6f, want %.6f", c.idle, u, got, want)
			}
			if pace, ok := r.sendPace(u * rtt); want > 31 && (!ok || math.Abs(pace-w0*(1-c.lowering)) > 1e-12) {
				t.Errorf("idle %.3f at %.2f RTT: send pace %.6f (%v), want %.6f a round trip", c.idle, u, pace, ok, w0*(1-c.lowering))
			}
		}
		r.start(model.RecoveryLinuxMinCwnd, 0, rtt, w0, 35, 35, c.idle)
		if got, want := r.window(0.999*rtt, 35), math.Max(17.5, w0*(1-c.lowering*0.999)); math.Abs(got-want) > 1e-12 {
			t.Errorf("idle %.3f, RecoveryLinuxMinCwnd near the end: window %.6f, want %.6f", c.idle, got, want)
		}
		if got, want := r.end, math.Min(35, math.Max(17.5, w0*(1-c.lowering))+linuxMaxBurst); math.Abs(got-want) > 1e-12 {
			t.Errorf("idle %.3f, RecoveryLinuxMinCwnd: restarts at %.6f, want %.6f", c.idle, got, want)
		}
	}
}
