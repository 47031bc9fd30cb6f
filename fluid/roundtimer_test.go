package fluid_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/packet"
)

// A first slow start into a buffer of 10 and 20 BDPs (10 Mb/s, 20 ms, 200 and 400
// packets) quadruples the round trip in its last rounds. A sender timing one packet a round
// trip (ns-2's one-way agents, the packet engine's) has an SRTT far behind, and the timer
// its fast retransmit arms fires before the retransmission, behind the queue the overshoot
// filled, returns: a spurious timeout, which Tahoe takes too. The fluid's roundTimer must
// fire there as the packet sender's does: once, spuriously, within a tenth of the packet
// engine's delay from the fast retransmit (0.22 and 0.46 s; the fluid's samples are read
// on its steps' chords). Before it, the fluid's Tahoe never timed out here and its Reno and
// NewReno timed out a round trip late.
func TestRoundTimerFiresBeforeALateRetransmission(t *testing.T) {
	for _, buf := range []float64{200, 400} {
		for _, algo := range []string{"tahoe", "reno", "newreno"} {
			sc := oneLink(algo, 10e6, 0.01, buf, 3)
			fl := runFluid(t, sc, fluid.Settings{Form: fluid.FormHybridRecovery, RecordLosses: true})
			pk, err := packet.Run(context.Background(), sc, packet.Settings{RecordLosses: true})
			if err != nil {
				t.Fatal(err)
			}
			f, p := fl.Flows[0], pk.Flows[0]
			if p.Timeouts != 1 || p.Spurious != 1 || len(pk.Losses) != 2 {
				t.Fatalf("%s, %v packets: test premise: the packet sender timed out %d times (%d spurious) in %d loss events, want once, spuriously, after its fast retransmit",
					algo, buf, p.Timeouts, p.Spurious, len(pk.Losses))
			}
			if f.Timeouts != 1 || f.Spurious != 1 || len(fl.Losses) != 2 {
				t.Errorf("%s, %v packets: the fluid sender timed out %d times (%d spurious) in %d loss events, want once, spuriously, as the packet sender",
					algo, buf, f.Timeouts, f.Spurious, len(fl.Losses))
				continue
			}
			got, want := fl.Losses[1].TS-fl.Losses[0].TS, pk.Losses[1].TS-pk.Losses[0].TS
			t.Logf("%s, %v packets: timeout %.3f s after the fast retransmit, packet engine %.3f s", algo, buf, got, want)
			if math.Abs(got/want-1) > 0.1 {
				t.Errorf("%s, %v packets: timeout %.3f s after the fast retransmit, packet engine %.3f s: want within 10%%", algo, buf, got, want)
			}
		}
	}
}
