package model

import (
	"math"
	"testing"
)

// Linux's bandwidth switch (tcp_htcp.c htcp_beta_update) as htcp@linux runs it, on an empty
// path (RTT = base RTT: the adaptive β is beta_max = 102/128): the first loss has no
// previous cycle to compare with (β_min); a cycle within ±20% of the last re-arms the
// switch (modeswitch) but still backs off by β_min; the next one within gets the adaptive
// β; one outside ±20% falls back to β_min and needs two cycles within again.
func TestHTCPBandwidthSwitch(t *testing.T) {
	alg, err := New("htcp@linux")
	if err != nil {
		t.Fatal(err)
	}
	const rtt = 0.1
	r := &htcpRule{p: alg.(*htcp).p}
	r.Start(Observation{})
	for i, c := range []struct {
		w, beta float64 // window at the loss (packets), β wanted
	}{
		{100, 0.5},         // first loss
		{110, 0.5},         // within +20%: re-armed, still β_min
		{100, 102.0 / 128}, // within: adaptive
		{119, 102.0 / 128}, // +19%: within
		{90, 0.5},          // −24%: outside
		{95, 0.5},          // within: re-armed
		{95, 102.0 / 128},
		{114.5, 0.5}, // +20.5%: outside
	} {
		o := Observation{Now: float64(i + 1), RTT: rtt, BaseRTT: rtt}
		if got := r.Congestion(c.w, o); math.Abs(got-c.beta*c.w) > 1e-12 {
			t.Errorf("loss %d at W = %g: W after %g, want β = %.4f → %g", i, c.w, got, c.beta, c.beta*c.w)
		}
	}
	// The default keeps the adaptive β at every loss.
	def, _ := New("htcp")
	r = &htcpRule{p: def.(*htcp).p}
	r.Start(Observation{})
	for i, w := range []float64{100, 150, 60} {
		if got := r.Congestion(w, Observation{Now: float64(i + 1), RTT: rtt, BaseRTT: rtt}); got != 0.8*w {
			t.Errorf("htcp loss %d at W = %g: W after %g, want 0.8·W = %g", i, w, got, 0.8*w)
		}
	}
}
