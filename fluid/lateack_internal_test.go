package fluid

import (
	"math"
	"testing"
)

// ns-2's timer fires where the round's rise exceeds the burst, two ticks and the margin a
// rising RTT leaves it, 6·e·(7/8)^W for the rise e of the round before (lateack.go): none
// for a window of 100 packets, 36 ms for one of 12 after a 30 ms rise. The rise is the
// lesser of the queue's slope now and its mean over the round: at the end of a recovery
// that drained the queue the slope turns up while the round's samples stood higher.
func TestLateByMargin(t *testing.T) {
	s := &system{links: make([]link, 1)}
	s.links[0].capBps, s.links[0].copies = 12.5e6, 1
	const burst12, burst100 = 12 * 1500 / 12.5e6, 100 * 1500 / 12.5e6
	for _, c := range []struct{ w, rise, riseAvg, want float64 }{
		{100, 0.030, 0.030, 0.030 - burst100 - ns2TimerMarginS - 6*0.030*math.Pow(7.0/8, 100)},
		{12, 0.030, 0.030, 0.030 - burst12 - ns2TimerMarginS - 0.03624},
		{100, 0.030, 0.010, 0.010 - burst100 - ns2TimerMarginS - 6*0.010*math.Pow(7.0/8, 100)},
		{12, 0.010, -0.010, -0.010 - burst12 - ns2TimerMarginS},
	} {
		f := &subflow{}
		f.links, f.wire = []int{0}, 1500
		f.rtt, f.timerRTT, f.sendW, f.riseAvg = 0.300+c.rise, 0.300, c.w, c.riseAvg
		if got := s.lateBy(f); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("W %g after a rise of %g s (%g s over the round): late by %.5f s, want %.5f", c.w, c.rise, c.riseAvg, got, c.want)
		}
	}
}
