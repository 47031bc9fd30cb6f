// Command sweep runs seed 000's α experiment (the built-in seed000-colo-alpha: COLO alone on
// the dumbbell under random loss 1e-5) over COLO's largest increase α_max with 8
// replications per point, on all cores, and prints the mean queue and window it keeps and
// its throughput, each with its 95% confidence interval.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/sweep"
)

func main() {
	base, err := model.Builtin("seed000-colo-alpha")
	if err != nil {
		log.Fatal(err)
	}
	alpha, err := sweep.ParseGrid("colo.alpha_max", "2:32:4") // min:max:count
	if err != nil {
		log.Fatal(err)
	}
	table, err := sweep.Run(context.Background(), sweep.Spec{
		Base:         base,
		Axes:         []sweep.Axis{{Name: "colo.alpha_max", Values: alpha}},
		Metrics:      []string{sweep.MetricMeanQueue, sweep.MetricMeanCwnd, sweep.MetricThroughput},
		Replications: 8, // seeds derive from Seed, the point and the replicate
		Seed:         1,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("alpha_max  mean queue (pkts)  mean cwnd (pkts)  throughput (Mb/s)")
	for _, r := range table.Rows {
		if r.Error != "" {
			fmt.Printf("%9.0f  failed: %s\n", r.Params[0], r.Error)
			continue
		}
		fmt.Printf("%9.0f  %9.1f ± %5.1f  %9.1f ± %4.1f  %9.3f ± %.3f\n", r.Params[0],
			*r.Metrics[0], *r.CI95[0], *r.Metrics[1], *r.CI95[1], *r.Metrics[2]/1e6, *r.CI95[2]/1e6)
	}
	for _, n := range table.Notes() {
		fmt.Println("note:", n)
	}
}
