package packet

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// TestNS2SendTimerSlowStart: a replica of ns-2's TCP/Linux sender with a send overhead J
// counts only the ACKs that find the window full (ns2send.go). Alone on a link whose queue
// stands, its ACKs return one packet time τ apart; after a counted ACK the send waits
// D ~ U(0, J), and the k-th ACK after it is not counted when D > kτ, so each counted ACK is
// followed by Σ_k P(D > kτ) uncounted ones on average: with J = 2τ a slow start grows by
// 2/3 of a packet per ACK (ns-2.35's HighSpeed flow alone in slow start: 5,400 a second
// against the bottleneck's 8,278 ACKs, 0.65), with J = 4τ by 1/(1 + 3/4 + 1/2 + 1/4) = 0.4,
// and without an overhead by one.
func TestNS2SendTimerSlowStart(t *testing.T) {
	const (
		capBps = 100e6
		delayS = 0.05
		buffer = 5000
	)
	f := model.Flow{Algorithm: "highspeed@linux", WindowScaling: true, InitialCwnd: 2}
	s := oneLink(t, model.Link{CapacityBps: capBps, DelayS: delayS, BufferPkts: buffer}, f, 10)
	tau := (float64(s.Flows[0].MSSBytes) + s.Flows[0].HeaderBytes) * 8 / capBps
	bdp := 2 * delayS / tau
	for _, c := range []struct {
		jitterS float64
		want    float64 // window growth per ACK
	}{{0, 1}, {2 * tau, 2.0 / 3}, {4 * tau, 0.4}} {
		r, err := Run(context.Background(), s, Settings{Seed: 1, SampleS: 0.01, JitterS: c.jitterS, SACK: true, StopAfterLosses: 1, RecordLosses: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Losses) != 1 {
			t.Fatalf("jitter %g s: %d loss events, want the first", c.jitterS, len(r.Losses))
		}
		// From twice the BDP (the queue stands) to the first loss event.
		var first, last *model.Sample
		for i := range r.Trace {
			x := &r.Trace[i]
			if x.Flow != 0 || x.CwndPkts < 2*bdp || x.TS >= r.Losses[0].TS {
				continue
			}
			if first == nil {
				first = x
			}
			last = x
		}
		if first == nil || last.DeliveredPkts-first.DeliveredPkts < 2000 {
			t.Fatalf("jitter %g s: no slow start of 2000 ACKs above twice the BDP (%.0f packets)", c.jitterS, bdp)
		}
		acks := last.DeliveredPkts - first.DeliveredPkts
		got := (last.CwndPkts - first.CwndPkts) / acks
		// The counts are a renewal process of about acks·want cycles; 3% is over five of
		// its standard deviations at 2000 ACKs.
		if math.Abs(got-c.want) > 0.03 {
			t.Errorf("jitter %.3g ms: slow start grew %.3f packets per ACK over %.0f ACKs, want %.3f",
				1e3*c.jitterS, got, acks, c.want)
		}
	}
}
