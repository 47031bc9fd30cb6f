package model_test

import (
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// TestCheckInvariantsWindowGrowth holds the window rule to its return lag: a window may
// grow while the ACKs of packets delivered up to a return lag before still arrive, and not
// once that lag has passed with nothing delivered. The link's lag is 2 × 50 ms plus one
// 1000-byte packet at 1 Mb/s, 108 ms.
func TestCheckInvariantsWindowGrowth(t *testing.T) {
	sc := &model.Scenario{
		Name: "one link", DurationS: 2,
		Links: []model.Link{{Name: "l", CapacityBps: 1e6, DelayS: 0.05, BufferPkts: 10}},
		Paths: []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows: []model.Flow{{Name: "f", Algorithm: "reno", Path: "p", MSSBytes: 1000, RwndBytes: 65535, InitialCwnd: 1}},
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	sample := func(ts, cwnd, delivered float64) model.Sample {
		return model.Sample{TS: ts, CwndPkts: cwnd, DeliveredPkts: delivered, Ssthresh: 100}
	}
	recovering := func(ts, cwnd, delivered, ssthresh float64) model.Sample {
		return model.Sample{TS: ts, CwndPkts: cwnd, DeliveredPkts: delivered, Ssthresh: ssthresh}
	}
	for _, c := range []struct {
		name  string
		trace []model.Sample
		want  string // "" for no error
	}{
		{"grows as it delivers", []model.Sample{sample(1, 4, 10), sample(1.05, 8, 14)}, ""},
		{"grows on the ACKs of the last lag", []model.Sample{sample(0.9, 4, 10), sample(0.95, 4, 14), sample(1.0, 4, 14), sample(1.05, 8, 14)}, ""},
		{"grows a packet's slack", []model.Sample{sample(0.5, 4, 14), sample(1.0, 4, 14), sample(1.05, 5, 14)}, ""},
		{"grows with nothing delivered for a lag", []model.Sample{sample(0.5, 4, 14), sample(1.0, 4, 14), sample(1.05, 8, 14)}, "grew from 4 to 8"},
		{"grows with nothing ever delivered", []model.Sample{sample(0.01, 1, 0), sample(0.05, 5, 0)}, "grew from 1 to 5"},
		{"a loss event's inflated recovery", []model.Sample{sample(0.5, 2.2, 14), sample(1.0, 2.2, 14), recovering(1.05, 5.6, 14, 2.7)}, ""},
		{"a loss event past its inflation", []model.Sample{sample(0.5, 2.2, 14), sample(1.0, 2.2, 14), recovering(1.05, 6.8, 14, 2.7)}, "grew from 2.2 to 6.8"},
	} {
		r := &model.Result{Flows: []model.FlowResult{}, Links: []model.LinkResult{}, Trace: c.trace}
		err := r.CheckInvariants(sc, model.Slack{Pkts: 1})
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}
