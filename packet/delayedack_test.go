package packet

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// Behind a receiver that acknowledges every second packet (model.Flow.DelayedAck), laws
// that count packets acknowledged (Reno) still grow one packet per RTT in congestion
// avoidance, and laws that count ACKs (LIA, as Linux's mptcp_coupled.c) half a packet, in
// both engines. From 10 packets over 300 round trips of 0.1 s with no loss, the fluid's
// hybrid form reaches exactly 310 and 160 packets. A packet sender keeps ⌊W⌋ packets in
// flight and grows per ACK at the window reached in its round, about 1/W less per round
// (3.4 packets over Reno's climb), which the fluid's hybrid-recovery form counts too; the
// engines must agree within 2% there.
func TestDelayedAckCounting(t *testing.T) {
	for _, c := range []struct {
		algo string
		want float64 // packets after 30 s, hybrid form
	}{{"reno", 310}, {"lia", 160}} {
		s := oneLink(t, model.Link{CapacityBps: 1e12, DelayS: 0.05, BufferPkts: 1e6},
			model.Flow{Algorithm: c.algo, WindowScaling: true, InitialCwnd: 10, InitialSsthresh: 10, DelayedAck: true}, 30)
		last := func(r *model.Result) float64 {
			w := math.NaN()
			for _, x := range r.Trace {
				if x.Link == "" {
					w = x.CwndPkts
				}
			}
			return w
		}
		var w [3]float64 // hybrid, hybrid-recovery, packet
		for i, form := range []string{fluid.FormHybrid, fluid.FormHybridRecovery} {
			fl, err := fluid.Run(context.Background(), s, fluid.Settings{SampleS: 0.5, Form: form})
			if err != nil {
				t.Fatal(err)
			}
			w[i] = last(fl)
		}
		pk, err := Run(context.Background(), s, Settings{SampleS: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		w[2] = last(pk)
		t.Logf("%s: cwnd at 30 s: fluid %.2f (hybrid), %.2f (hybrid-recovery), packet %.2f", c.algo, w[0], w[1], w[2])
		if math.Abs(w[0]/c.want-1) > 1e-6 {
			t.Errorf("%s fluid with delayed ACKs: cwnd %.4f packets at 30 s, want %g", c.algo, w[0], c.want)
		}
		if math.Abs(w[2]/w[1]-1) > 0.02 {
			t.Errorf("%s with delayed ACKs at 30 s: packet cwnd %.2f, fluid (recovery form) %.2f, want within 2%%", c.algo, w[2], w[1])
		}
	}
}
