package response_test

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/response"
)

// The fairness experiment over several seeds, in the packet engine with ns-2's send
// jitter: Jain's index is the mean over the seeds, with its spread.
func ExampleFairness_seeds() {
	rep, err := response.Fairness(context.Background(), response.FairnessSettings{
		Algorithms: []string{"reno"}, StartGapS: 10, DurationS: 60, MeasureFromS: 30, HeaderBytes: 50, SACK: true,
		Engine: response.EnginePacket, JitterS: 240e-6, Seeds: []uint64{1, 2},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rep.Results[0]
	o := r.OverSeeds
	fmt.Printf("%s engine, seeds %v: Jain %d values, mean within [min, max]: %v\n", rep.Engine, rep.Seeds, o.Jain.N,
		o.Jain.Min <= r.JainMean() && r.JainMean() <= o.Jain.Max)
	fmt.Printf("bottleneck %.0f packets, RTT %.0f ms\n", r.Experiment.BottleneckBufferPkts, 1000*r.Experiment.Flows[0].RTTS)
	// Output:
	// packet engine, seeds [1 2]: Jain 2 values, mean within [min, max]: true
	// bottleneck 2055 packets, RTT 240 ms
}
