package fluid_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/packet"
)

// A window of W packets on an empty path delivers W packets a round trip, and the round
// trip counts the packet's transmission at every link and its ACK's (store and forward):
// on seed 003's 1 Mb/s, 2 ms access link with 552-byte segments and 40-byte headers a
// packet takes 4.74 ms to send and its ACK 0.32 ms, so one packet a round trip of 9.06 ms
// delivers 110 packets a second, not the 250 of the 4 ms propagation; two fill the link
// (211 packets a second). The packet engine agrees within 1% (its flows ramp up from one
// packet: the first round trips weigh 1% of a 20-s run).
func TestStoreAndForwardRoundTrip(t *testing.T) {
	const capBps, delayS, mss, header = 1e6, 0.002, 552.0, 40.0
	rtt := 2*delayS + (mss+2*header)*8/capBps
	linkPkts := capBps / 8 / (mss + header)
	for _, w := range []float64{1, 2, 3} {
		t.Run(fmt.Sprintf("rwnd %g", w), func(t *testing.T) {
			sc := oneLink("reno", capBps, delayS, 50, 20)
			sc.Flows[0].MSSBytes, sc.Flows[0].HeaderBytes, sc.Flows[0].RwndBytes = mss, header, w*mss
			sc.Flows[0].WindowScaling = false
			want := min(w/rtt, linkPkts)
			fr := runFluid(t, sc, fluid.Settings{})
			pr, err := packet.Run(context.Background(), sc, packet.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			got := fr.Flows[0].MeanThroughputBps / 8 / mss // payload bits
			pkt := pr.Flows[0].MeanThroughputBps / 8 / mss
			if math.Abs(got/want-1) > 1e-3 {
				t.Errorf("fluid delivers %.2f packets/s, want %.2f (W/RTT with RTT %.2f ms, at most the link's %.1f)", got, want, rtt*1e3, linkPkts)
			}
			if math.Abs(got/pkt-1) > 0.01 {
				t.Errorf("fluid delivers %.2f packets/s, the packet engine %.2f: want within 1%%", got, pkt)
			}
		})
	}
}
