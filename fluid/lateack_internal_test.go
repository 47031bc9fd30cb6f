package fluid

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// ns-2's timer fires where the round's rise (the RTT a packet sent now meets over the one
// the latest ACK reports) exceeds the burst, two ticks and the lag of the timer behind
// that sample (lateack.go): 6·e·(7/8)^W after a round whose RTT rose by e, none for a
// window of 100 packets, 36 ms for one of 12 after a 30 ms rise; 15/8·|e|·(7/8)^W after
// a fall, where SRTT still holds the higher RTTs before it (the end of a recovery that
// drained the queue) and RTTVAR an eighth of what a rise gives it.
func TestLateByMargin(t *testing.T) {
	s := &system{links: make([]link, 1)}
	s.links[0].capBps, s.links[0].copies = 12.5e6, 1
	const burst12, burst100 = 12 * 1500 / 12.5e6, 100 * 1500 / 12.5e6
	for _, c := range []struct{ w, rise, riseAvg, want float64 }{
		{100, 0.030, 0.030, 0.030 - burst100 - ns2TimerMarginS - 6*0.030*math.Pow(7.0/8, 100)},
		{12, 0.030, 0.030, 0.030 - burst12 - ns2TimerMarginS - 0.03624},
		{12, 0.010, -0.010, 0.010 - burst12 - ns2TimerMarginS - 0.003777},
	} {
		f := &subflow{}
		f.links, f.wire = []int{0}, 1500
		f.rtt, f.rttSeen, f.sendW, f.riseAvg = 0.300+c.rise, 0.300, c.w, c.riseAvg
		if got := s.lateBy(f); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("W %g after a rise of %g s (%g s over the round): late by %.5f s, want %.5f", c.w, c.rise, c.riseAvg, got, c.want)
		}
	}
}

// A late-burst timeout arms the timer again only a round trip on, when the first burst
// sent after it returns: the window the timeout left would judge the same rise at once
// (a burst of one packet has the largest margin), and the late ACKs slow-start it back to
// ssthresh within half a round, where the same rise fired it again and again.
func TestLateAckRearmsARoundOn(t *testing.T) {
	s := &system{links: make([]link, 1), form: form{counted: true}}
	s.links[0].capBps, s.links[0].copies = 12.5e6, 1
	s.flows = []subflow{{}}
	f := &s.flows[0]
	f.links, f.wire, f.nSub, f.recovery, f.active = []int{0}, 1500, 1, model.RecoveryLinux, true
	f.rtt, f.rttSeen, f.sendW, f.riseAvg = 0.3, 0.3, 1, 0
	f.lateFired, f.lateAt = true, 10
	if s.lateBy(f) >= 0 {
		t.Fatalf("late by %g s with no rise: want the burst in time", s.lateBy(f))
	}
	s.lateAcksStepped(10.1, 10.2)
	if !f.lateFired {
		t.Errorf("armed again 0.2 s after a late-burst timeout, within its round trip of 0.3 s")
	}
	s.lateAcksStepped(10.2, 10.31)
	if f.lateFired {
		t.Errorf("still disarmed a round trip after the timeout with its bursts in time")
	}
}
