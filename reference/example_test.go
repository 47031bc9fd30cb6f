package reference_test

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/reference"
	"github.com/tcpfluid/tcpfluid/response"
)

// tcpfluid's fluid on the stored ns-2 experiment `fairness --mode rtt` (the simulator's
// 50-byte headers and SACK), set beside ns-2's means over seeds 1–3 with a verdict.
func ExampleCompareFairness() {
	stored, err := reference.Stored()
	if err != nil {
		fmt.Println(err)
		return
	}
	s := reference.FairnessSettings(reference.FairnessSpec{Mode: response.ModeRTT, Algorithm: "reno"})
	rep, err := response.Fairness(context.Background(), s)
	if err != nil {
		fmt.Println(err)
		return
	}
	reference.CompareFairness(rep, stored)
	ref := rep.Results[0].Reference
	fmt.Printf("%s: Jain %.3f, ns-2 %.3f ± %.3f over %d seeds: %s %g\n", ref.Source, rep.Results[0].Jain, ref.Jain.Mean, ref.Jain.SD,
		ref.Jain.N, ref.Verdict, ref.Tolerance)
	// Output: testdata/reference/ns2/fairness-rtt-reno.json: Jain 0.911, ns-2 0.945 ± 0.007 over 3 seeds: within 0.05
}
