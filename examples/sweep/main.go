// Command sweep runs COLO TCP on seed 000's dumbbell over a grid of its largest increase
// α_max and the bottleneck buffer, on all cores, and prints the queue it keeps and the
// losses it causes.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/sweep"
)

func main() {
	base, err := model.Builtin("seed000-dumbbell")
	if err != nil {
		log.Fatal(err)
	}
	if err := base.SetAlgorithm("colo"); err != nil {
		log.Fatal(err)
	}
	alpha, err := sweep.ParseGrid("colo.alpha_max", "2:32:4") // min:max:count
	if err != nil {
		log.Fatal(err)
	}
	buffer, err := sweep.ParseGrid("buffer", "0.25,0.5,1") // in BDP
	if err != nil {
		log.Fatal(err)
	}
	table, err := sweep.Run(context.Background(), sweep.Spec{
		Base:    base,
		Axes:    []sweep.Axis{{Name: "colo.alpha_max", Values: alpha}, {Name: "buffer", Values: buffer}},
		Metrics: []string{"mean_queue_pkts", "loss_events"},
		Seed:    1,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("alpha_max  buffer (BDP)  mean queue (pkts)  loss events")
	for _, r := range table.Rows {
		fmt.Printf("%9.0f  %12.2f  %17.1f  %11.0f\n", r.Params[0], r.Params[1], *r.Metrics[0], *r.Metrics[1])
	}
}
