package meanfield_test

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/meanfield"
	"github.com/tcpfluid/tcpfluid/model"
)

// ExampleRunScenario runs 10⁶ Reno flows, half on a path of 100 ms and half on one of
// 200 ms, over a 10 Tb/s drop-tail bottleneck with a buffer of 0.1 s: two classes, so
// the run costs what two flows cost. The fixed step of 10 ms (Settings.StepS) makes the
// figures those of 10⁶ distinguishable flows to rounding. Without slow start a window
// grows by one packet per RTT from its initial one, so over 60 s the short path's flows
// reach larger windows, and at half the RTT take three times the long path's rate.
func ExampleRunScenario() {
	sc := &model.Scenario{Name: "million", DurationS: 60,
		Links: []model.Link{
			{Name: "bottleneck", CapacityBps: 1e13, DelayS: 0.025, BufferPkts: 1.25e8},
			{Name: "near", CapacityBps: 1e14, DelayS: 0.025, BufferPkts: 1e9},
			{Name: "far", CapacityBps: 1e14, DelayS: 0.075, BufferPkts: 1e9}},
		Paths: []model.Path{{Name: "short", Links: []string{"near", "bottleneck"}}, {Name: "long", Links: []string{"far", "bottleneck"}}}}
	sc.Flows = make([]model.Flow, 1_000_000)
	for i := range sc.Flows {
		path := "short"
		if i%2 == 1 {
			path = "long"
		}
		sc.Flows[i] = model.Flow{Algorithm: "reno", Path: path, MSSBytes: 1000, WindowScaling: true}
	}
	if err := sc.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	net, _, err := meanfield.FromScenario(sc)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := meanfield.RunScenario(context.Background(), sc, meanfield.ScenarioSettings{StepS: 0.01})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d flows in %d classes\n", len(res.Flows), len(net.Classes))
	for _, f := range res.Flows[:2] {
		fmt.Printf("%s path: mean window %.0f packets, %.1f Mb/s\n", f.Path, f.MeanCwndPkts, f.MeanThroughputBps/1e6)
	}
	fmt.Printf("bottleneck utilisation %.2f\n", res.Links[0].Utilisation)
	// Output:
	// 1000000 flows in 2 classes
	// short path: mean window 216 packets, 12.4 Mb/s
	// long path: mean window 129 packets, 4.2 Mb/s
	// bottleneck utilisation 0.84
}

// ExampleRounds: the work of 10⁵ identical flows is one class's, 100 s over a 100 ms
// round trip.
func ExampleRounds() {
	sc := &model.Scenario{Name: "rounds", DurationS: 100,
		Links: []model.Link{{Name: "bottleneck", CapacityBps: 1e13, DelayS: 0.05, BufferPkts: 1e8}},
		Paths: []model.Path{{Name: "p", Links: []string{"bottleneck"}}}}
	sc.Flows = make([]model.Flow, 100_000)
	for i := range sc.Flows {
		sc.Flows[i] = model.Flow{Algorithm: "reno", Path: "p"}
	}
	if err := sc.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	rounds, err := meanfield.Rounds(sc)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d flows: %.0f round trips\n", len(sc.Flows), rounds)
	// Output:
	// 100000 flows: 1000 round trips
}
