package model_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// BIC's fluid face through the adaptive solver (the engine the study and validate run, not
// a fixed-step integration). After a loss at W_max = 500 (β = 0.8, S_max = 16, S_min =
// 0.01, B = 2) the window goes from 400 at S_max per RTT to 468 (4.25 RTTs), halves its
// distance to W_max every 2·ln 2 RTTs down to a distance of 2·S_min (2·ln(32/0.02) RTTs),
// crosses the plateau [W_max − 0.02, W_max + 0.01] at S_min per RTT (3 RTTs), then doubles
// its distance past W_max every RTT·ln 2 up to S_max (ln(16/0.01) RTTs) and adds S_max per
// RTT: at W_max + 32 after 30.38 RTTs. A solver that steps over the dip below S_max (every
// trial stage of a long step lands where the increase is S_max again) was back at W_max + 32
// after 8.25 RTTs.
//
// The tolerance, 0.1%, is the crossing's accuracy at the solver tolerances used: on the
// plateau a window error δW moves a crossing by δW/S_min RTTs, so the runs past W_max use
// converge's 1e-10 (1e-10·500 packets: 5e-6 RTT); below W_max the default 1e-6 suffices.
func TestBICFluidPlateau(t *testing.T) {
	const rtt, wMax = 0.1, 500.0
	approach := 68.0/16 + 2*math.Log(32/0.02) // RTTs from the loss to W_max − 2·S_min
	for _, c := range []struct {
		name   string
		relTol float64 // the solver's; 0: the engine's default
		level  float64 // packets
		want   float64 // RTTs after the loss
	}{
		{"at S_max", 0, wMax - 40, 60.0 / 16},
		{"halving the distance", 0, wMax - 1, 68.0/16 + 2*math.Log(32.0/1)},
		{"on the plateau", 1e-10, wMax, approach + 2},
		{"past the plateau", 1e-10, wMax + 1, approach + 3 + math.Log(1/0.01)},
		{"back at S_max", 1e-10, wMax + 32, approach + 3 + math.Log(16/0.01) + 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := &model.Scenario{
				Name:  "bic-plateau",
				Links: []model.Link{{Name: "l0", CapacityBps: 1e9, DelayS: rtt / 2, BufferBDP: 1}},
				Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
				Flows: []model.Flow{{Name: "bic", Algorithm: "bic", Path: "p0", MSSBytes: 1500, WindowScaling: true,
					InitialCwnd: wMax, InitialSsthresh: wMax}},
				DurationS: 100 * rtt,
			}
			if err := sc.Validate(); err != nil {
				t.Fatal(err)
			}
			set := fluid.Settings{InjectLoss: []int{0}, Watch: []fluid.Watch{{Flow: 0, CwndPkts: c.level}}, StopAtWatch: true}
			if c.relTol > 0 {
				set.RelTol, set.AbsTol = c.relTol, 10*c.relTol
			}
			res, err := fluid.Run(context.Background(), sc, set)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Crossings) != 1 {
				t.Fatalf("window never reached %g packets in %g s", c.level, sc.DurationS)
			}
			if got := res.Crossings[0].SinceStartS / rtt; math.Abs(got/c.want-1) > 1e-3 {
				t.Errorf("W = %g packets after %.4f RTTs, want %.4f ±0.1%%", c.level, got, c.want)
			}
		})
	}
}
