package reference_test

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/reference"
	"github.com/tcpfluid/tcpfluid/response"
)

// tcpfluid's fluid on the stored ns-2 experiment `fairness --mode rtt` (the simulator's
// 50-byte headers and SACK), set beside ns-2's means over seeds 1–10 with a verdict and its 95% interval. The
// fluid is counted as a packet sender counts, its full queue dropping at random in
// proportion to arrivals, as ns-2's jittered drop tail does, over the same seeds.
func ExampleCompareFairness() {
	stored, err := reference.Stored()
	if err != nil {
		fmt.Println(err)
		return
	}
	s := reference.FairnessSettings(reference.FairnessSpec{Mode: response.ModeRTT, Algorithm: "reno@linux"})
	s.Form, s.DropRule, s.JitterS, s.Seeds = fluid.FormHybridRecovery, model.DropRandom, 240e-6, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	rep, err := response.Fairness(context.Background(), s)
	if err != nil {
		fmt.Println(err)
		return
	}
	reference.CompareFairness(rep, stored)
	ref := rep.Results[0].Reference
	fmt.Printf("%s: Jain %.3f, ns-2 %.3f ± %.3f over %d seeds: %+.3f ± %.3f (95%%), %s %g, decided %v\n", ref.Source, rep.Results[0].JainMean(),
		ref.Jain.Mean, ref.Jain.SD, ref.Jain.N, ref.JainDiff, ref.JainDiffCI95, ref.Verdict, ref.Tolerance, ref.Decided)
	// Output: testdata/reference/ns2/fairness-rtt-reno.json: Jain 0.956, ns-2 0.965 ± 0.020 over 10 seeds: -0.009 ± 0.018 (95%), within 0.05, decided true
}
