package reference

import (
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/response"
)

// Beside HighSpeed on seed 000's dumbbell each of ns-2's four Reno flows times out 16–30
// times in 1000 s (seeds 1–10), spuriously: its window leaves in one burst, and its timer,
// SRTT and a tick, fires before the next burst's first ACK when HighSpeed's slow start
// back after a long min_cwnd recovery steps the queue up (fluid/holespread.go,
// fluid/lateack.go). The fluid's Reno flows, means over seeds 1–3, take as many timeouts
// and loss events as ns-2's flows take in their range over its ten seeds, and HighSpeed as
// many loss events; without those two mechanisms they took none, and HighSpeed kept 0.77
// of the link against ns-2's 0.865.
func TestLateBurstTimeoutsAgainstNS2(t *testing.T) {
	if testing.Short() {
		t.Skip("three 1000 s fluid runs")
	}
	stored, err := Stored()
	if err != nil {
		t.Fatal(err)
	}
	var st *StoredFairness
	for i := range stored {
		if stored[i].Mode == "friendliness" && stored[i].Algorithm == "highspeed" {
			st = &stored[i]
		}
	}
	if st == nil {
		t.Fatal("no stored ns-2 friendliness run of highspeed")
	}
	spec := FairnessSpec{Mode: st.Mode, Algorithm: st.Algorithm, JitterS: st.Spec.JitterS}
	fl, err := TcpfluidFairness(t.Context(), response.EngineFluid, fluid.FormHybridRecovery, spec,
		TcpfluidAlgorithm(SetLinux, "highspeed"), TcpfluidAlgorithm(SetLinux, "reno"), nil, []uint64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range fl.FlowTimeouts {
		to, le := st.Timeouts[i], st.LossEvents[i]
		t.Logf("flow %d: fluid %.1f timeouts in %.1f loss events, ns-2 %.0f–%.0f in %.0f–%.0f", i,
			fl.FlowTimeouts[i], fl.FlowLossEvents[i], to.Min, to.Max, le.Min, le.Max)
		if i == 0 {
			if got := fl.FlowLossEvents[i]; got < le.Min || got > le.Max {
				t.Errorf("HighSpeed: %.1f loss events, ns-2 %.0f–%.0f", got, le.Min, le.Max)
			}
			continue
		}
		if got := fl.FlowTimeouts[i]; got < to.Min || got > to.Max {
			t.Errorf("Reno flow %d: %.1f timeouts, ns-2 %.0f–%.0f", i, got, to.Min, to.Max)
		}
		if got := fl.FlowLossEvents[i]; got < le.Min || got > le.Max {
			t.Errorf("Reno flow %d: %.1f loss events, ns-2 %.0f–%.0f", i, got, le.Min, le.Max)
		}
	}
}
