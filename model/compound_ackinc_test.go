package model

import (
	"math"
	"testing"
)

// Compound's per-ACK increment is its fluid face's growth per round spread over the
// window's ACKs, d·win/RTT = dW/dt, below γ (the delay window growing) and above it (the
// delay window shrinking), and one packet an ACK in slow start: the counted form then
// counts its ACKs as Linux's module does (fluid/sendjitter.go), where a law without one
// heard every ACK.
func TestCompoundAckIncrementIsItsGrowth(t *testing.T) {
	alg := mustAlgo(t, "compound@linux")
	for _, c := range []struct {
		name      string
		win, dwnd float64
		rtt       float64 // s; the base RTT is 0.1 s
	}{
		{"delay window growing", 200, 20, 0.1002},
		{"delay window shrinking", 200, 40, 0.2},
		{"Reno part alone", 200, 0, 0.2},
	} {
		f := alg.NewFluid(FlowConfig{InitialCwnd: 10, InitialSsthresh: 5, MaxCwnd: 1e6})
		x := make([]float64, f.Vars())
		o := Observation{RTT: c.rtt, BaseRTT: 0.1}
		f.Init(x, o)
		x[0], x[1] = c.win, c.dwnd
		dx := make([]float64, f.Vars())
		f.Deriv(dx, x, o)
		d := f.(AckIncrement).AckIncrement(x, o)
		if got := d * c.win / c.rtt; math.Abs(got-dx[0]) > 1e-9*math.Abs(dx[0]) {
			t.Errorf("%s: increment %g per ACK, %g packets/s at win/RTT ACKs; the fluid face grows %g", c.name, d, got, dx[0])
		}
	}
	f := alg.NewFluid(FlowConfig{InitialCwnd: 10, MaxCwnd: 1e6})
	x := make([]float64, f.Vars())
	f.Init(x, Observation{RTT: 0.1, BaseRTT: 0.1})
	if d := f.(AckIncrement).AckIncrement(x, Observation{RTT: 0.1, BaseRTT: 0.1}); d != 1 {
		t.Errorf("slow start: increment %g per ACK, want 1", d)
	}
}
