package response_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
)

// Reno's response function under periodic loss is the Mathis sawtooth, W̄ = sqrt(3/2)/√p.
func ExampleResponse() {
	rep, err := response.Response(context.Background(), response.Settings{
		Algorithms: []string{"reno"}, PMin: 1e-6, PMax: 1e-2, Points: 3, RTTExponentP: -1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rep.Results[0]
	fmt.Printf("W = %.3f / p^%.2f (%s)\n", r.C, r.D, r.Reference.Source)
	// Output: W = 1.217 / p^0.50 (Mathis et al. 1997 (periodic loss, ACK every packet))
}

// NewReno needs 20 minutes to fill 1 Gb/s at 100 ms with 1000-byte packets, and 10 to
// recover after a loss: seed 000's figures.
func ExampleConverge() {
	rep, err := response.Converge(context.Background(), response.ConvergeSettings{
		Algorithms: []string{"newreno"}, BandwidthsBps: []float64{1e9}, MSSBytes: []float64{1000},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rep.Results[0]
	fmt.Printf("BDP %.0f packets: fill %.0f s, recover %.0f s\n", r.BDPPkts, *r.FillTimeS, *r.RecoveryTimeS)
	// Output: BDP 12500 packets: fill 1250 s, recover 625 s
}

// Jain's index of two flows whose throughputs differ by a factor 2.
func ExampleJain() {
	fmt.Printf("%.2f\n", response.Jain([]float64{10e6, 20e6}))
	// Output: 0.90
}

// BBR paces at its delivery-rate estimate, which a response point's path (no bottleneck)
// never bounds: it has no response function, and Responds says so before any run.
func ExampleResponds() {
	for _, algo := range []string{"cubic", "bbr2"} {
		err := response.Responds(algo)
		fmt.Println(algo, err == nil, errors.Is(err, model.ErrSettings))
	}
	// Output:
	// cubic true false
	// bbr2 false true
}
