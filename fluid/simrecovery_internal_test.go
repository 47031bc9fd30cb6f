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
		r.start(model.RecoveryLinux, 0, rtt, w0, 31, 31, c.idle, 2, busyQueue{})
		for _, u := range []float64{0.1, 0.25, 0.4} {
			want := math.Max(31, w0*(1-c.lowering*u))
			if got := r.window(u*rtt, 31); math.Abs(got-want) > 1e-12 {
				t.Errorf("idle %.3f, RecoveryLinux at %.2f RTT: window %.6f, want %.6f", c.idle, u, got, want)
			}
			if pace, ok := r.sendPace(u * rtt); want > 31 && (!ok || math.Abs(pace-w0*(1-c.lowering)) > 1e-12) {
				t.Errorf("idle %.3f at %.2f RTT: send pace %.6f (%v), want %.6f a round trip", c.idle, u, pace, ok, w0*(1-c.lowering))
			}
		}
		r.start(model.RecoveryLinuxMinCwnd, 0, rtt, w0, 35, 35, c.idle, 2, busyQueue{})
		if got, want := r.window(0.999*rtt, 35), math.Max(17.5, w0*(1-c.lowering*0.999)); math.Abs(got-want) > 1e-12 {
			t.Errorf("idle %.3f, RecoveryLinuxMinCwnd near the end: window %.6f, want %.6f", c.idle, got, want)
		}
		if got, want := r.end, math.Min(35, math.Max(17.5, w0*(1-c.lowering))+linuxMaxBurst); math.Abs(got-want) > 1e-12 {
			t.Errorf("idle %.3f, RecoveryLinuxMinCwnd: restarts at %.6f, want %.6f", c.idle, got, want)
		}
	}
}

// The slow start back after a RecoveryLinuxMinCwnd recovery grows by the factor it is
// given a round trip: W − ½ doubles, or grows 5/3 times behind ns-2's delayed send of two
// packet times (its packets leave as a train, 2/3 of their ACKs counted). From W = 40 with
// ssthresh 35 and every ACK idle: the restart at 23, then 23 − ½ times 5/3 a round trip
// until 35.
func TestSimRecSlowStartBackGrowth(t *testing.T) {
	const w0, rtt, ss = 40.0, 0.1, 35.0
	for _, growth := range []float64{2, 5.0 / 3} {
		var r simRec
		r.start(model.RecoveryLinuxMinCwnd, 0, rtt, w0, ss, ss, 1, growth, busyQueue{})
		if r.end != 23 {
			t.Fatalf("restarts at %g, want 23 (the pipe of 20 and tcp_max_burst)", r.end)
		}
		if got, want := r.window(rtt+0.5*rtt, ss), 0.5+22.5*math.Sqrt(growth); math.Abs(got-want) > 1e-12 {
			t.Errorf("growth %.4f: half a round trip into the slow start back the window is %.6f, want %.6f", growth, got, want)
		}
		if got, want := r.holdUntil(), rtt+rtt*math.Log(34.5/22.5)/math.Log(growth); math.Abs(got-want) > 1e-12 {
			t.Errorf("growth %.4f: the slow start back ends at %.6f s, want %.6f", growth, got, want)
		}
		// Timed by a path of half the round trip when the recovery ends (rebuildFrom), it
		// grows as fast in half the time and sends its growth, (W − ½)·ln(growth)/R'.
		r.rebuildFrom(rtt / 2)
		if got, want := r.holdUntil(), rtt+rtt/2*math.Log(34.5/22.5)/math.Log(growth); math.Abs(got-want) > 1e-12 {
			t.Errorf("growth %.4f, a round trip of R/2: the slow start back ends at %.6f s, want %.6f", growth, got, want)
		}
		w := r.window(rtt+0.25*rtt, ss)
		if want := 0.5 + 22.5*math.Sqrt(growth); math.Abs(w-want) > 1e-12 {
			t.Errorf("growth %.4f: half of R/2 into the slow start back the window is %.6f, want %.6f", growth, w, want)
		}
		if got, want := r.rebuildRate(rtt+0.25*rtt), (w-0.5)*math.Log(growth)/(rtt/2); math.Abs(got-want) > 1e-9 {
			t.Errorf("growth %.4f: the slow start back sends its growth at %.6f packets/s, want %.6f", growth, got, want)
		}
		if got := r.rebuildRate(r.holdUntil()); got != 0 {
			t.Errorf("growth %.4f: %.6f packets/s of growth after the slow start back, want 0", growth, got)
		}
	}
}

// A busy queue keeps a rate-halving recovery's ACK pace (simRec.setPace). From W = 400
// over R = 0.2 s (A = 2000 ACKs/s) with ssthresh 100 and every ACK idle (keep ½),
// extended to 3R:
//   - a flow alone on a link of 2000 packets/s with 200 packets queued: the window falls
//     at A/2 until the queue drains at 0.2 s (to 200), then, over round trips of
//     R − 0.1 s, at A/4 and A/8;
//   - a hundredth of a link of 2·10⁵ packets/s with 20000 queued: its second round's ACKs
//     come at ½/(1 − ½·0.01) of the first's, close to a free path's ½;
//   - no queue: the free path's rounds, 400·(1 − u/2), then 200·(1 − (u − 1)/2) to 100.
func TestSimRecBusyQueuePace(t *testing.T) {
	const w0, rtt, ss = 400.0, 0.2, 100.0
	for _, c := range []struct {
		name string
		busy busyQueue
		at   []float64 // times, s
		want []float64 // windows, packets
	}{
		{"alone", busyQueue{pkts: 200, servicePkts: 2000, mult: 1}, []float64{0.1, 0.2, 0.25, 0.35},
			[]float64{300, 200, 175, 137.5}},
		{"a hundredth", busyQueue{pkts: 20000, servicePkts: 2e5, mult: 1}, []float64{0.1, 0.3},
			[]float64{300, 200 - 0.5*2000*0.5/(1-0.5*0.01)*0.1}},
		{"free", busyQueue{}, []float64{0.1, 0.3, 0.5}, []float64{300, 150, 100}},
	} {
		var r simRec
		r.start(model.RecoveryLinux, 0, rtt, w0, ss, ss, 1, 2, c.busy)
		r.extend(3 * rtt)
		for i, at := range c.at {
			if got := r.window(at, ss); math.Abs(got-c.want[i]) > 1e-9 {
				t.Errorf("%s: window %.6f at %.2f s, want %.6f", c.name, got, at, c.want[i])
			}
		}
	}
}

// A rate-halving recovery's window, whatever queue it starts behind, is finite, never
// rises, stays at or above its floor, and its rounds end after the time asked.
func FuzzSimRecBusyQueue(f *testing.F) {
	f.Add(400.0, 0.2, 100.0, 200.0, 2000.0, 1.0, 1.0)
	f.Add(4128.0, 0.49, 2064.0, 2053.0, 8278.0, 2.0/3, 1.0)
	f.Add(10.0, 0.24, 5.0, 2000.0, 8278.0, 0.5, 1.0)
	f.Add(50.0, 1e-3, 25.0, 1e6, 1e3, 0.4, 3.0)
	f.Fuzz(func(t *testing.T, w0, rtt, ss, q, c, idle, mult float64) {
		if !(w0 >= 1 && w0 < 1e7 && rtt > 1e-6 && rtt < 100 && ss >= 1 && ss <= w0 && q >= 0 && q < 1e8 &&
			c > 0 && c < 1e10 && idle > 0.05 && idle <= 1 && mult >= 1 && mult < 1e4) {
			t.Skip()
		}
		var r simRec
		r.start(model.RecoveryLinux, 0, rtt, w0, ss, ss, idle, 2, busyQueue{pkts: q, servicePkts: c, mult: mult})
		r.extend(3 * rtt)
		prev := math.Inf(1)
		for i := 0; i <= 300; i++ {
			at := 3 * rtt * float64(i) / 300
			w := r.window(at, ss)
			if math.IsNaN(w) || math.IsInf(w, 0) || w > prev*(1+1e-12) || w < r.floor*(1-1e-12) {
				t.Fatalf("window %v at %v s after %v (floor %v): want finite, falling, at or above the floor", w, at, prev, r.floor)
			}
			prev = w
			if at < r.t1 {
				if end := r.roundEnd(at); !(end > at) {
					t.Fatalf("round after %v s ends at %v", at, end)
				}
			}
		}
	})
}

// The slow start back after a RecoveryLinuxMinCwnd recovery, timed by any round trip the
// path has when the recovery ends (rebuildFrom): the window rises from where the recovery
// left it to the law's window, reaching it where the slow start ends, and what it sends
// beyond its ACKs (rebuildRate) is finite, positive while it rises and zero after.
func FuzzSimRecSlowStartBack(f *testing.F) {
	f.Add(40.0, 0.1, 35.0, 1.0, 2.0, 0.05)
	f.Add(3634.0, 0.49, 2698.0, 2.0/3, 5.0/3, 0.24)
	f.Add(12.0, 1e-3, 11.0, 0.4, 1.4, 1e-3)
	f.Fuzz(func(t *testing.T, w0, rtt, ss, idle, growth, rtt2 float64) {
		if !(w0 >= 1 && w0 < 1e7 && rtt > 1e-6 && rtt < 100 && ss >= 1 && ss <= w0 && idle > 0.05 && idle <= 1 &&
			growth > 1.01 && growth <= 2 && rtt2 > 1e-6 && rtt2 < 100) {
			t.Skip()
		}
		var r simRec
		r.start(model.RecoveryLinuxMinCwnd, 0, rtt, w0, ss, ss, idle, growth, busyQueue{})
		if r.holdUntil() == 0 {
			return // the recovery left the law's window: no slow start back
		}
		r.rebuildFrom(rtt2)
		until := r.holdUntil()
		if !(until >= r.t1) || math.IsInf(until, 0) {
			t.Fatalf("the slow start back from %v at %v s ends at %v s", r.end, r.t1, until)
		}
		if until-r.t1 < 1e-9*rtt2 {
			return // a restart a rounding error below the law's window: nothing to rise through
		}
		prev := r.window(r.t1, ss)
		for i := 1; i <= 100; i++ {
			at := r.t1 + (until-r.t1)*float64(i)/101
			w, g := r.window(at, ss), r.rebuildRate(at)
			if math.IsNaN(w) || w < prev*(1-1e-12) || w > ss*(1+1e-9) || !(g > 0) || math.IsInf(g, 0) {
				t.Fatalf("at %v s: window %v after %v (law %v), growth %v packets/s: want rising to the law's, growing", at, w, prev, ss, g)
			}
			prev = w
		}
		if w := r.window(math.Nextafter(until, 0), ss); math.Abs(w-ss) > 1e-6*ss {
			t.Errorf("the slow start back ends at %v packets, want the law's %v", w, ss)
		}
		if g := r.rebuildRate(until); g != 0 {
			t.Errorf("%v packets/s of growth where the slow start back ends, want 0", g)
		}
	})
}
