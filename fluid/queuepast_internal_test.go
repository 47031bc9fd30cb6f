package fluid

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// TestSampledDelayFillingQueue checks the sample's queueing delay on a queue that fills at
// a constant rate and then stays full, against first in, first out by hand: admissions at
// a = 1.5·C from t = 0 (A = a·t, D = C·t) until the buffer B is full at t1 = B/(a − C),
// then departures at C. A packet leaving at td < t1 came when A = D(td), at C·td/a, and
// waited td·(1 − C/a); one leaving at td ≥ t1 came when a·t = C·td, while a·t ≤ a·t1, or
// later in the full phase, where it waited B/C. So a lag after the queue filled the sample
// reports two thirds of the full buffer's delay, where the first-order reading of the same
// queue, q − lag·dq/dt, is the full buffer as soon as it is full.
func TestSampledDelayFillingQueue(t *testing.T) {
	const (
		capBps = 1e6 // bytes/s
		a      = 1.5 * capBps
		buf    = 2e5 // bytes
		lag    = 0.1 // s from the queue back to the sender
		step   = 1e-3
	)
	t1 := buf / (a - capBps)
	queue := func(t float64) float64 { return min((a-capBps)*t, buf) }
	l := &link{linkSpec: linkSpec{capBps: capBps}}
	var h pastHints
	want := func(td float64) float64 {
		came := capBps * td / a
		if came > t1 { // came in the full phase: admitted at C after t1, behind B
			came = td - buf/capBps
		}
		return td - came
	}
	checked := 0
	for k := 0; k <= 1000; k++ {
		now := float64(k) * step
		l.past.record(now, capBps*now, queue(now), capBps, 2*lag)
		if k%50 != 0 || now < lag {
			continue
		}
		td := now - lag
		got := l.sampledDelay(now, lag, capBps*now, queue(now), &h)
		if w := want(td); math.Abs(got-w) > 1e-9+1e-6*w {
			t.Errorf("left at %.2f s: sampled delay %.6f s, want %.6f (the queue now %.0f bytes, %.3f s)", td, got, w, queue(now), queue(now)/capBps)
		}
		checked++
	}
	if checked != 19 {
		t.Errorf("%d look-ups, want 19", checked)
	}
}

// TestSampledDelayIdleLink: a link that never queued samples no delay, and before any
// entry the delay is the queue of now.
func TestSampledDelayIdleLink(t *testing.T) {
	l := &link{linkSpec: linkSpec{capBps: 1e6}}
	var h pastHints
	if got := l.sampledDelay(1, 0.1, 1e6, 5e4, &h); got != 0.05 {
		t.Errorf("no entries, queue 5e4 bytes at 1e6 bytes/s: %v s, want 0.05", got)
	}
	for k := 0; k <= 10; k++ {
		l.past.record(float64(k)*0.1, 1e5*float64(k), 0, 1e6, 0.5)
	}
	if got := l.sampledDelay(1, 0.3, 1e6, 0, &h); got != 0 {
		t.Errorf("a link that never queued: %v s, want 0", got)
	}
}

// TestQueuePastForgets: entries older than the keep window and the longest delay are
// dropped, so a long run's past stays bounded, and hints stay valid across compaction.
func TestQueuePastForgets(t *testing.T) {
	l := &link{linkSpec: linkSpec{capBps: 1e6}}
	var h pastHints
	for k := 0; k <= 100000; k++ {
		now := float64(k) * 1e-3
		q := 1e4 * (1 + math.Sin(now)) // up to 0.02 s of delay
		l.past.record(now, 1e6*now, q, 1e6, 0.2)
		if k%97 == 0 {
			if d := l.sampledDelay(now, 0.1, 1e6*now, q, &h); !(d >= 0 && d <= 0.02+1e-9) {
				t.Fatalf("t = %.3f s: sampled delay %v s, want within [0, 0.02]", now, d)
			}
		}
	}
	if n := len(l.past.t) - l.past.head; n > 230 {
		t.Errorf("%d live entries for 0.22 s at 1 ms steps, want at most 230", n)
	}
	if c := cap(l.past.t); c > 1024 {
		t.Errorf("storage grew to %d entries", c)
	}
}

// TestTraceLeavesTheRunAlone: the queues' past is recorded at every accepted step whether
// or not a trace is sampled, so asking for a trace changes no result. COLO's slow start
// on seed 000's dumbbell brakes by the queue its samples read (one flow a link: no FIFO
// history to record steps for it).
func TestTraceLeavesTheRunAlone(t *testing.T) {
	sc, err := model.Builtin("seed000-slow-start")
	if err != nil {
		t.Fatal(err)
	}
	run := func(sample float64) *model.Result {
		r, err := Run(t.Context(), sc, Settings{Form: FormHybridRecovery, SampleS: sample})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	plain, traced := run(0), run(0.01)
	for i := range plain.Flows {
		p, q := plain.Flows[i], traced.Flows[i]
		if p.DroppedPkts != q.DroppedPkts || p.MeanCwndPkts != q.MeanCwndPkts || p.LossEvents != q.LossEvents {
			t.Errorf("flow %d: %.3f dropped, mean window %.3f, %d loss events without a trace; %.3f, %.3f, %d with one",
				i, p.DroppedPkts, p.MeanCwndPkts, p.LossEvents, q.DroppedPkts, q.MeanCwndPkts, q.LossEvents)
		}
	}
}
