package packet

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// The queue's standard deviation the packet engine integrates at every change of its queue
// is the one a trace sampled every millisecond gives, within 1%, over Reno's sawtooth
// through a 100-packet buffer.
func TestPacketQueueSD(t *testing.T) {
	sc := &model.Scenario{
		Name: "queue-sd", DurationS: 60,
		Links: []model.Link{{Name: "l0", CapacityBps: 10e6, DelayS: 0.02, BufferPkts: 100}},
		Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
		Flows: []model.Flow{{Name: "f0", Algorithm: "reno", Path: "p0", WindowScaling: true}},
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), sc, Settings{Seed: 1, SampleS: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	var n, sum, sumSq float64
	for _, s := range res.Trace {
		if s.Flow == -1 {
			n, sum, sumSq = n+1, sum+s.QueuePkts, sumSq+s.QueuePkts*s.QueuePkts
		}
	}
	want, got := model.TimeSD(sum/n, sumSq/n), res.Links[0].QueueSDPkts
	t.Logf("queue mean %.3f, sd %.3f packets; the trace's %.3f, %.3f", res.Links[0].MeanQueuePkts, got, sum/n, want)
	if want < 10 {
		t.Fatalf("the trace's queue varies by %.3g packets: no sawtooth to measure", want)
	}
	if math.Abs(got-want) > 0.01*want {
		t.Errorf("queue sd %.4g packets, the trace's %.4g: want within 1%%", got, want)
	}
}
