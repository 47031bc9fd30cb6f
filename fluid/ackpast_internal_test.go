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

// ackPast keeps the edges of the acknowledged rate that an ACK clock meets a return lag
// later: the first entry's rise from nothing, a jump recorded twice at one time, and a
// change of more than half between two entries; a step's end reads the rate before a
// jump (left), the next step the rate after it.
func TestAckPastEdges(t *testing.T) {
	var a ackPast
	a.record(1, 100, 10) // from nothing: an edge
	a.record(2, 120, 10) // +20%: none
	a.record(3, 120, 10)
	a.record(3, 20, 10) // a jump at 3 s
	a.record(4, 25, 10) // +25%: none
	a.record(5, 80, 10) // +220%: an edge
	want := []ackJump{{1, 0, true}, {3, 120, true}, {5, 25, false}}
	if len(a.jumps) != len(want) {
		t.Fatalf("edges %+v, want %+v", a.jumps, want)
	}
	for i, j := range a.jumps {
		if j != want[i] {
			t.Errorf("edge %d: %+v, want %+v", i, j, want[i])
		}
	}
	a.jumps = a.jumps[1:] // the clock has passed the first
	if l, r := a.at(3, 6, 80, true), a.at(3, 6, 80, false); l != 120 || r != 20 {
		t.Errorf("at the jump: left %g, right %g, want 120 and 20", l, r)
	}
}
