package packet

import (
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Settings.LostRetransmit finds every lost retransmission, not only the first hole's: when
// CUBIC's slow start overflows a 10-BDP buffer that BBR keeps full, many retransmissions of
// the overflow's holes are dropped again. Found at the next SACK of a later packet, each
// costs one more round trip, and every recovery ends within a few of them (about 2 s of
// 440 ms round trips here). Found only when its hole becomes the first, one a round trip,
// the recovery lasted 26 s and ended in a timeout.
func TestLostRetransmitEveryHole(t *testing.T) {
	s, err := model.Builtin("modern-bbr-cubic-deep")
	if err != nil {
		t.Fatal(err)
	}
	s.DurationS = 15
	sm := mustSim(t, s, Settings{Seed: 1, SACK: true, LostRetransmit: true})
	const maxRTTS = 0.44 // s: the 40 ms path behind a full 10-BDP queue
	f := &sm.flows[1]    // CUBIC
	longest, since, episodes := 0.0, -1.0, 0
	for tick := 0.05; tick <= s.DurationS; tick += 0.05 {
		advance(t, sm, tick)
		switch in := f.inRecovery || f.lossState; {
		case in && since < 0:
			since = tick
			episodes++
		case !in && since >= 0:
			longest = max(longest, tick-since)
			since = -1
		}
	}
	if since >= 0 {
		longest = max(longest, s.DurationS-since)
	}
	t.Logf("CUBIC: %d recovery episodes, the longest %.2f s; %d timeouts", episodes, longest, f.timeouts)
	if episodes == 0 || longest > 10*maxRTTS {
		t.Errorf("longest recovery %.2f s in %d episodes, want some, each within 10 round trips (%.1f s)", longest, episodes, 10*maxRTTS)
	}
	if f.timeouts != 0 {
		t.Errorf("%d timeouts, want none: every lost retransmission is sent again at once", f.timeouts)
	}
}
