package fluid_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// CUBIC's first slow start on seed 000's path overshoots by a BDP and a buffer: found at
// 3.60 s, its NewReno recovery waits for its timer (1.0 s, its retransmission behind the
// queue its overshoot filled). Meanwhile the duplicate ACKs inflate the window it held
// (0.7 × 8221 packets) past what is outstanding and let new packets out, one an ACK: the
// packet sender sends 4935 between 3.6 and 4.6 s. The fluid must send as many, within 10%
// (validate's bound on a throughput); before it sent none.
func TestAwaitedFlightSendsWhatDuplicateACKsLetOut(t *testing.T) {
	sent := func(engine string, durationS float64) float64 {
		sc := seed000Path(model.Flow{Algorithm: "cubic", MSSBytes: 1460, RwndBytes: 1 << 30, WindowScaling: true}, 1, durationS)
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		var res *model.Result
		if engine == "fluid" {
			res = runFluid(t, sc, fluid.Settings{Form: fluid.FormHybridRecovery})
		} else {
			var err error
			if res, err = packet.Run(context.Background(), sc, packet.Settings{Seed: 1}); err != nil {
				t.Fatal(err)
			}
		}
		if durationS > 4 && res.Flows[0].Timeouts != 0 {
			t.Fatalf("test premise: %s engine timed out before %.1f s", engine, durationS)
		}
		return res.Flows[0].SentPkts
	}
	pk := sent("packet", 4.6) - sent("packet", 3.6)
	fl := sent("fluid", 4.6) - sent("fluid", 3.6)
	t.Logf("sent while the recovery waits for its timer: fluid %.0f, packet %.0f packets", fl, pk)
	if pk < 4000 {
		t.Fatalf("test premise: the packet sender sent %.0f packets while it waited, want 4000 or more", pk)
	}
	if math.Abs(fl/pk-1) > 0.1 {
		t.Errorf("the fluid sent %.0f packets while its recovery waited for its timer, the packet sender %.0f: want within 10%%", fl, pk)
	}
}
