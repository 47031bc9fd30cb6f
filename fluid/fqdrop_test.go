package fluid_test

import (
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// An FQ-CoDel overflow drops from the head of the fattest queue (Linux's fq_codel_drop),
// so the packets behind the first dropped one leave at once and the receiver finds the hole
// without that queue's wait: the sender reacts a round trip after the dropped packet left
// it. Ten CUBIC flows slow-starting into modern-bufferbloat-fq_codel's 1-BDP buffer cut
// their windows by β = 0.7 at their first reactions, from 113 packets on average in the
// packet engine; reacting a queue's sojourn later (40 ms at the fair rate, half a round
// trip of slow start, ×√2 of growth), the fluid cut from 154 (ssthresh 108 against 79).
// The mean slow-start threshold after each flow's first reaction is held to the packet
// engine's within 10%, a quarter of that lag's growth.
func TestFQOverflowHeardFromTheHead(t *testing.T) {
	sc := builtin(t, "modern-bufferbloat-fq_codel")
	sc.SetDuration(0.5)
	firstCut := func(res *model.Result) float64 {
		first := map[int]float64{}
		last := map[int]float64{}
		for _, s := range res.Trace {
			if s.Flow < 0 {
				continue
			}
			if l, ok := last[s.Flow]; ok && s.Ssthresh != l {
				if _, seen := first[s.Flow]; !seen {
					first[s.Flow] = s.Ssthresh
				}
			}
			last[s.Flow] = s.Ssthresh
		}
		if len(first) != len(sc.Flows) {
			t.Fatalf("%d of %d flows reduced their window in 0.5 s", len(first), len(sc.Flows))
		}
		sum := 0.0
		for _, v := range first {
			sum += v
		}
		return sum / float64(len(first))
	}
	fl, pk := firstCut(runCounted(t, sc, 0.005)), firstCut(runPacket(t, sc, 0.005))
	t.Logf("mean ssthresh after the first reaction: fluid %.1f, packet %.1f packets", fl, pk)
	if relErr(fl, pk) > 0.10 {
		t.Errorf("mean ssthresh after the first reaction %.1f packets, packet engine %.1f (±10%%)", fl, pk)
	}
}
