package fluid

import "testing"

// ackPast reads the acknowledged rate a return lag ago: linear between its entries, the
// later side at a jump recorded twice at one time, on the chord to the current rate past
// the newest entry, and nothing before the first (the sender had nothing acknowledged).
func TestAckPastAt(t *testing.T) {
	var a ackPast
	a.record(1, 100, 10)
	a.record(2, 300, 10)
	a.record(3, 300, 10)
	a.record(3, 50, 10) // a jump at 3 s
	for _, c := range []struct{ x, now, rNow, want float64 }{
		{0.5, 4, 60, 0},
		{1, 4, 60, 100},
		{1.5, 4, 60, 200},
		{2.5, 4, 60, 300},
		{3, 4, 60, 50},
		{3.5, 4, 60, 55},
		{4, 4, 60, 60},
	} {
		if got := a.at(c.x, c.now, c.rNow, false); got != c.want {
			t.Errorf("at(%g) with %g now = %g, want %g", c.x, c.rNow, got, c.want)
		}
	}
	// Entries no look-up reaching keep back can need are forgotten, the newest kept.
	for k := 4; k < 100; k++ {
		a.record(float64(k), 1, 2)
	}
	if n := len(a.t) - a.head; n > 4 {
		t.Errorf("%d entries kept over a 2 s reach with one a second, want at most 4", n)
	}
	if got := a.at(97.5, 99, 1, false); got != 1 {
		t.Errorf("at(97.5) = %g after compaction, want 1", got)
	}
}
