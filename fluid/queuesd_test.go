package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// traceQueueSD is the standard deviation of link's queue over a trace sampled evenly.
func traceQueueSD(res *model.Result, link string) (mean, sd float64) {
	var n, sum, sumSq float64
	for _, s := range res.Trace {
		if s.Flow == -1 && s.Link == link {
			n, sum, sumSq = n+1, sum+s.QueuePkts, sumSq+s.QueuePkts*s.QueuePkts
		}
	}
	return sum / n, model.TimeSD(sum/n, sumSq/n)
}

// The queue's standard deviation the fluid engine integrates step by step is the one a
// trace sampled every millisecond gives, within 1%, over Reno's sawtooth through a
// 100-packet buffer, in both hybrid forms.
func TestFluidQueueSD(t *testing.T) {
	for _, form := range []string{fluid.FormHybrid, fluid.FormHybridRecovery} {
		res := runFluid(t, oneLink("reno", 10e6, 0.02, 100, 60), fluid.Settings{Form: form, SampleS: 0.001})
		mean, want := traceQueueSD(res, "l0")
		got := res.Links[0].QueueSDPkts
		t.Logf("%s: queue mean %.3f, sd %.3f packets; the trace's %.3f, %.3f", form, res.Links[0].MeanQueuePkts, got, mean, want)
		if want < 10 {
			t.Fatalf("%s: the trace's queue varies by %.3g packets: no sawtooth to measure", form, want)
		}
		if math.Abs(got-want) > 0.01*want {
			t.Errorf("%s: queue sd %.4g packets, the trace's %.4g: want within 1%%", form, got, want)
		}
	}
}
