package packet

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Reno at a congestion-avoidance overflow of a one-BDP buffer (doc.go, "Reno at a
// drop-tail overflow"), against ns-2.35 on the same dumbbell over eleven bottleneck delays
// (testdata/reno_overflow_ns2.json). Whether an overflow costs Reno a timeout depends on
// the phase of the ACK clock, so the check is per run: both engines time out once in slow
// start, and wherever this engine also times out after an overflow, ns-2 does too, as
// many times.
func TestRenoOverflowNS2(t *testing.T) {
	var ref struct {
		DelayMS    []float64 `json:"delay_ms"`
		BufferPkts []float64 `json:"buffer_pkts"`
		Timeouts   []int
	}
	readTestdata(t, "reno_overflow_ns2.json", &ref)
	overflowTimeouts := 0
	for i, d := range ref.DelayMS {
		bdp := math.Ceil(10e6 * 2 * (20 + d) / 1000 / (8 * 1460))
		if bdp != ref.BufferPkts[i] {
			t.Fatalf("D = %v ms: buffer %v packets, ns-2 had %v", d, bdp, ref.BufferPkts[i])
		}
		s := &model.Scenario{
			Name: "reno-overflow", DurationS: 600,
			Links: []model.Link{
				{Name: "a", CapacityBps: 20e6, DelayS: 0.010, BufferPkts: 2 * bdp},
				{Name: "b", CapacityBps: 10e6, DelayS: d / 1000, BufferPkts: bdp},
				{Name: "c", CapacityBps: 20e6, DelayS: 0.010, BufferPkts: 2 * bdp},
			},
			Paths: []model.Path{{Name: "p", Links: []string{"a", "b", "c"}}},
			Flows: []model.Flow{{Algorithm: "reno", Path: "p", MSSBytes: 1420, HeaderBytes: 40,
				RwndBytes: 100000 * 1420, WindowScaling: true}},
		}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		r, err := Run(context.Background(), s, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		got, want := r.Flows[0].Timeouts, ref.Timeouts[i]
		t.Logf("D = %3.0f ms: timeouts %d (ns-2 %d), bottleneck utilisation %.4f", d, got, want, r.Links[1].Utilisation)
		switch {
		case got < 1:
			t.Errorf("D = %v ms: no timeout, want slow start's overshoot to cost one as in ns-2", d)
		case got > 1 && got != want:
			t.Errorf("D = %v ms: %d timeouts, ns-2 %d: want the engine's overflow timeouts to be ns-2's", d, got, want)
		}
		if got > 1 {
			overflowTimeouts++
		}
	}
	if overflowTimeouts == 0 {
		t.Error("no run timed out after an overflow; ns-2's Reno does in 6 of 11")
	}
}
