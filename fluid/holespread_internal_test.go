package fluid

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// The last of a window's holes lies, in round trips after the first, at the mean of the
// largest of n uniform draws, n/(n + 1): under the random rule n is Poisson(m), 1 − (1 −
// e^−m)/m; else ⌊m⌋ whole holes. None more, none later.
func TestHolesSpread(t *testing.T) {
	for _, c := range []struct {
		m      float64
		random bool
		want   float64
	}{
		{0, true, 0}, {0, false, 0}, {-1, true, 0},
		{1, true, 1 - (1 - math.Exp(-1))}, {9, true, 1 - (1-math.Exp(-9))/9},
		{0.7, false, 0}, {1, false, 0.5}, {2.5, false, 2.0 / 3}, {9, false, 0.9},
	} {
		if got := holesSpread(c.m, c.random); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("holesSpread(%g, random %v) = %.6f, want %.6f", c.m, c.random, got, c.want)
		}
	}
}

// A min_cwnd recovery extended to 1.5 round trips (keep 2/3 of the window a round): the
// window falls to 60·2/3 = 40 in the first round and by a third of a packet per ACK of the
// 40 in the second, 40·(1 − ½·⅓) ≈ 33.3 at its end; it restarts there plus tcp_max_burst and
// slow-starts back to ssthresh 45 at 5/3 a round trip. A recovery is never shortened, and
// PRR's never extended.
func TestSimRecExtend(t *testing.T) {
	const w0, rtt, ss, keep = 60.0, 0.1, 45.0, 2.0 / 3
	var r simRec
	r.start(model.RecoveryLinuxMinCwnd, 0, rtt, w0, ss, ss, keep, 5.0/3, busyQueue{})
	r.extend(1.5 * rtt)
	fallen := w0 * keep * (1 - (1-keep)*0.5)
	for _, c := range []struct{ t, want float64 }{
		{0.5 * rtt, w0 * (1 - (1-keep)*0.5)},
		{rtt, w0 * keep},
		{1.25 * rtt, w0 * keep * (1 - (1-keep)*0.25)},
	} {
		if got := r.window(c.t, ss); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("window at %.3f s = %.6f, want %.6f", c.t, got, c.want)
		}
	}
	if want := fallen + linuxMaxBurst; math.Abs(r.end-want) > 1e-9 {
		t.Errorf("restarts at %.6f, want %.6f", r.end, want)
	}
	if want := 1.5*rtt + rtt*math.Log((ss-0.5)/(r.end-0.5))/math.Log(5.0/3); math.Abs(r.holdUntil()-want) > 1e-12 {
		t.Errorf("slow start back ends at %.6f s, want %.6f", r.holdUntil(), want)
	}
	if k := r.nextKink(0); k != rtt {
		t.Errorf("first kink at %g s, want the first round's end %g", k, rtt)
	}
	if !r.kinkAt(rtt) || r.kinkAt(0.5*rtt) {
		t.Errorf("kinkAt: %v at the round's end, %v halfway", r.kinkAt(rtt), r.kinkAt(0.5*rtt))
	}
	r.extend(rtt)
	if r.t1 != 1.5*rtt {
		t.Errorf("extend to an earlier end moved it to %g s", r.t1)
	}
	r.start(model.RecoveryPRR, 0, rtt, w0, ss, ss, 1, 2, busyQueue{})
	r.extend(2 * rtt)
	if r.t1 != rtt {
		t.Errorf("a PRR recovery was extended to %g s", r.t1)
	}
}
