package response_test

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/response"
)

// ns-2's CUBIC sees its first loss at 8654 packets on a 1 Gb/s, 100 ms link (BDP 8333 of
// 1500 bytes) and is back at the BDP 7.06 s later: tcpfluid's cubic@linux from the same
// window, holding it for the recovery round trip as a packet sender does.
func ExampleConverge_lossWindow() {
	const bdp = 1e9 * 0.1 / (8 * 1500)
	rep, err := response.Converge(context.Background(), response.ConvergeSettings{
		Algorithms: []string{"cubic@linux"}, BandwidthsBps: []float64{1e9}, MSSBytes: []float64{1500},
		LossWindowBDP: 8654 / bdp, Form: fluid.FormHybridRecovery,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rep.Results[0]
	fmt.Printf("loss at %.0f packets: back at the BDP after %.2f s (ns-2: 7.06 s)\n", r.LossWindowPkts, *r.RecoveryTimeS)
	// Output: loss at 8654 packets: back at the BDP after 7.11 s (ns-2: 7.06 s)
}
