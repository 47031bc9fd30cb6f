package fluid

import (
	"math"
	"testing"
)

// fifoLink is a busy link of capacity 1000 bytes/s with two streams arriving at a and b
// bytes/s and an empty admissions history.
func fifoLink(a, b float64) *link {
	l := &link{}
	l.capBps, l.mode = 1000, queueBusy
	l.streams = []*stream{{arrive: a}, {arrive: b}}
	l.arrive = a + b
	l.fifo = &fifoHistory{n: 2}
	l.phi = make([]float64, 2)
	l.open = make([]bool, 2)
	return l
}

// The bytes leaving a FIFO link are served at the streams' shares of the admissions when
// those bytes came: a stream that tripled its rate is served at its old share until the
// bytes admitted after the change reach the head of the queue.
func TestFIFOSharesOfTheAdmissionsThen(t *testing.T) {
	l := fifoLink(1, 1)
	l.fifo.record(l, 0, 0)     // admitted 0 bytes so far, at rates 1:1
	l.fifo.record(l, 50, 50)   // admitted 100
	l.streams[1].arrive = 3    // the second stream triples
	l.fifo.record(l, 100, 100) // admitted 200, at rates 1:3
	l.streams[1].arrive = 1    // and falls back, now
	cases := []struct {
		departed, queued float64
		want             float64 // the second stream's share
	}{
		{0, 200, 0.5},
		{50, 150, 0.5},
		{100, 100, 0.5},    // the last byte admitted at 1:1
		{150, 50, 2.0 / 3}, // half-way to the 1:3 entry: rates 1:2
		{200, 0, 0.75},     // the newest entry
		{250, 50, 2.0 / 3}, // half-way from the newest entry (1:3) to the current rates (1:1)
	}
	for _, c := range cases {
		if !l.fifo.shares(l, c.departed, c.queued, l.phi) {
			t.Fatalf("departed %v: no shares", c.departed)
		}
		if math.Abs(l.phi[1]-c.want) > 1e-12 || math.Abs(l.phi[0]+l.phi[1]-1) > 1e-12 {
			t.Errorf("departed %v bytes, %v queued: shares %v, want the second %v", c.departed, c.queued, l.phi, c.want)
		}
	}
}

// A busy link serves each stream at its share of the bytes at the head of the queue, not
// of all it holds, and no stream faster than it can drain: what a stream cannot use goes
// to the others.
func TestShareBusyServesInArrivalOrder(t *testing.T) {
	l := fifoLink(1, 1)
	l.refBytes, l.copies = 1, 1 // a packet time of 1 ms
	l.fifo.record(l, 0, 0)      // 1:1 from 0 bytes
	l.streams[1].arrive = 3
	l.fifo.record(l, 25, 25) // 1:3 from 50 bytes
	l.streams[0].content, l.streams[1].content = 0, 1
	l.off = 2
	y := []float64{37.5, 62.5, 100, 0} // contents; 100 bytes queued, none departed
	l.shareBusy(y)
	if got := l.streams[1].depart / l.capBps; math.Abs(got-0.5) > 1e-12 {
		t.Errorf("the second stream leaves at %.4f of the link, want 0.5, its share of the bytes at the head (0.625 of what the link holds)", got)
	}
	y[1] = 0.1 // it holds a tenth of a byte: at most 0.1 per ms plus its 3 bytes/s
	l.shareBusy(y)
	if got, want := l.streams[1].depart, 0.1/1e-3+3; math.Abs(got-want) > 1e-9 {
		t.Errorf("the second stream leaves at %v bytes/s, want %v", got, want)
	}
	if got := l.streams[0].depart + l.streams[1].depart; math.Abs(got-l.capBps) > 1e-9 {
		t.Errorf("the link sends %v bytes/s, want its capacity %v", got, l.capBps)
	}
}

// The history forgets what has left and reuses its storage: no allocation per entry once
// the queueing delay's worth of entries is held.
func TestFIFOHistoryForgets(t *testing.T) {
	l := fifoLink(1, 1)
	departed := 0.0
	step := func() {
		departed += 10
		l.fifo.record(l, departed, 100) // 10 entries' worth queued
	}
	for range 100 {
		step()
	}
	if live := len(l.fifo.cum) - l.fifo.head; live > 12 {
		t.Errorf("%d entries live, want about 10 (100 bytes queued, 10 admitted an entry)", live)
	}
	if allocs := testing.AllocsPerRun(1000, step); allocs != 0 {
		t.Errorf("%v allocations an entry, want 0", allocs)
	}
}

// A jump of the admission rates behind a queue is a break of the departure shares a
// queueing delay later: the look-up holds the shares before it until the run passes the
// break, then reads those after it, so the solver can stop there instead of stepping
// across a jump of its right-hand side.
func TestFIFOBreakHoldsUntilPassed(t *testing.T) {
	l := fifoLink(1, 1)
	l.up = true
	l.fifo.record(l, 0, 0)
	l.fifo.record(l, 50, 50) // 100 bytes admitted at 1:1
	l.streams[1].arrive = 3
	if !l.fifo.record(l, 50, 50) { // the jump, at the same admissions
		t.Fatal("a jump of the rates at the same admissions is not reported")
	}
	l.fifo.addBreak(l, 1, 100, 50)
	if got := l.fifo.breakAt; math.Abs(got-1.05) > 1e-12 {
		t.Errorf("break due at %v s, want 1.05 (50 bytes queued at 1000 bytes/s)", got)
	}
	share := func(departed float64) float64 {
		if !l.fifo.shares(l, departed, 10, l.phi) {
			t.Fatalf("departed %v: no shares", departed)
		}
		return l.phi[1]
	}
	if got := share(100.5); got != 0.5 {
		t.Errorf("past the break before the run reaches it: share %v, want 0.5 (held)", got)
	}
	l.fifo.breaks, l.fifo.passed = l.fifo.breaks[:0], 100 // passBreaks at the break
	if got := share(100 - 1e-9); got != 0.75 {
		t.Errorf("at the break once passed: share %v, want 0.75 (the rates after the jump)", got)
	}
}
