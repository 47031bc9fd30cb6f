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

// TestNS2SendTimerRateHalving: in a rate-halving recovery a packet the delayed-send timer
// lets out does not lower ns-2's allowance (LinuxTcpAgent::timeout's load_to_linux puts
// it back, ns2send.go); only the ACKs that return while the timer waits do. Alone on a
// link whose queue stands, a flow's ACKs are one packet time τ apart and each one that
// finds the timer idle is followed by m = Σ_k P(D > kτ) waiting ones on average, D ~
// U(0, J): the window falls by m/(1 + m) of a packet per ACK, 1/3 at J = 2τ and 3/5 at
// J = 4τ, where without an overhead one packet leaves for every two ACKs.
func TestNS2SendTimerRateHalving(t *testing.T) {
	const (
		capBps = 100e6
		delayS = 0.005
	)
	l := model.Link{CapacityBps: capBps, DelayS: delayS, BufferPkts: 20000, Loss: model.LossPeriodic, LossP: 1.0 / 8000}
	f := model.Flow{Algorithm: "reno@linux", WindowScaling: true, InitialCwnd: 2}
	s := oneLink(t, l, f, 30)
	tau := (float64(s.Flows[0].MSSBytes) + s.Flows[0].HeaderBytes) * 8 / capBps
	for _, c := range []struct {
		jitterS float64
		want    float64 // the allowance's fall per ACK
		varK    float64 // the variance of the waiting ACKs after an idle one
	}{{0, 0.5, 0}, {2 * tau, 1.0 / 3, 0.25}, {4 * tau, 0.6, 5.0 / 8}} {
		r, err := Run(context.Background(), s, Settings{Seed: 1, SampleS: 0.002, JitterS: c.jitterS, SACK: true, StopAfterLosses: 2, RecordLosses: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Losses) != 2 {
			t.Fatalf("jitter %g s: %d loss events, want two", c.jitterS, len(r.Losses))
		}
		loss := r.Losses[0]
		w0 := loss.CwndPkts
		rtt := 2*delayS + w0*tau // the queue stands at the window less a few packets
		if w0 < 1000 {
			t.Fatalf("jitter %g s: first loss at a window of %.0f packets, want a standing queue of 1000 or more", c.jitterS, w0)
		}
		// The fall over the middle of the recovery round trip, above the floor W/2.
		var first, last *model.Sample
		for i := range r.Trace {
			x := &r.Trace[i]
			if x.Flow != 0 || x.TS < loss.TS+0.1*rtt || x.TS > loss.TS+0.8*rtt || x.CwndPkts <= w0/2+1 {
				continue
			}
			if first == nil {
				first = x
			}
			last = x
		}
		if first == nil || last.DeliveredPkts-first.DeliveredPkts < 500 {
			t.Fatalf("jitter %g s: no recovery of 500 ACKs above the floor", c.jitterS)
		}
		acks := last.DeliveredPkts - first.DeliveredPkts
		got := (first.CwndPkts - last.CwndPkts) / acks
		// The waiting ACKs are a renewal reward over acks/(1 + m) idle ones: five of the
		// fall's standard deviations, at least one packet's rounding over the span.
		m := c.want / (1 - c.want)
		tol := max(5*math.Sqrt(acks/(1+m)*c.varK)/acks, 2/acks)
		if math.Abs(got-c.want) > tol {
			t.Errorf("jitter %.3g ms: the allowance fell %.3f packets per ACK over %.0f ACKs, want %.3f ± %.3f",
				1e3*c.jitterS, got, acks, c.want, tol)
		}
	}
}
