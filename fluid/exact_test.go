package fluid_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/ode"
)

// With the exact advance a Reno or Scalable flow alone on a free path goes from loss to
// loss without the solver: 2000 random losses take fewer than 1000 solver steps (the
// first slow start), where the stepped run needs several steps per cycle.
func TestFluidExactAdvanceSkipsSteps(t *testing.T) {
	for _, algo := range []string{"reno", "scalable"} {
		sc := oneLink(algo, 1e18, 0.05, 1e9, 1e9)
		sc.Links[0].Loss, sc.Links[0].LossP = model.LossRandom, 1e-3
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		set := fluid.Settings{Seed: 1, StopAfterLosses: 2000, MaxSteps: 1000, Exact: true}
		res, err := fluid.Run(context.Background(), sc, set)
		if err != nil {
			t.Fatalf("%s exact: %v", algo, err)
		}
		if res.Flows[0].LossEvents != 2000 {
			t.Errorf("%s exact: %d loss events, want 2000", algo, res.Flows[0].LossEvents)
		}
		if err := res.CheckInvariants(sc, model.Slack{Pkts: 1, Rel: 1e-6}); err != nil {
			t.Errorf("%s exact: %v", algo, err)
		}
		set.Exact = false
		if _, err := fluid.Run(context.Background(), sc, set); !errors.Is(err, ode.ErrMaxSteps) {
			t.Errorf("%s stepped: error %v, want the step limit (the exact run skipped them)", algo, err)
		}
	}
}

// The exact advance is the flow the solver steps along: with the stretches it cannot skip
// (slow start, CUBIC's Reno-friendly region) stepped at RelTol 1e-10, it agrees with a run
// stepped at RelTol 1e-10 throughout to 1e-6 — the windows at the first 25 losses and the
// mean window over 1500 cycles, periodic and random, for every law that has one. (At the
// default tolerance, 1e-6 per step, the stepped stretches leave 1e-4 over 1500 cycles, and
// under random loss at p = 1e-6 a difference of 1e-6 in a window decides, some 30 losses
// on, which side of fast convergence's whole-packet test a loss falls.)
func TestFluidExactAdvanceMatchesTightSteps(t *testing.T) {
	for _, c := range []struct {
		algo string
		loss model.LossModel
		p    float64
	}{
		{"reno", model.LossPeriodic, 1e-4}, {"scalable", model.LossRandom, 1e-4},
		{"highspeed", model.LossPeriodic, 1e-5}, {"highspeed", model.LossRandom, 1e-3}, {"highspeed", model.LossRandom, 1e-6},
		{"cubic", model.LossPeriodic, 1e-6}, {"cubic", model.LossPeriodic, 1e-3}, {"cubic", model.LossRandom, 1e-2},
		{"cubic", model.LossRandom, 1e-3}, {"cubic", model.LossRandom, 1e-6},
	} {
		losses := func(exact bool) []model.LossRecord {
			sc := oneLink(c.algo, 1e18, 0.05, 1e9, 1e12)
			sc.Links[0].Loss, sc.Links[0].LossP = c.loss, c.p
			set := fluid.Settings{Exact: exact, RelTol: 1e-10, AbsTol: 1e-10, Seed: 3, StopAfterLosses: 1601, RecordLosses: true}
			return runFluid(t, sc, set).Losses
		}
		exact, tight := losses(true), losses(false)
		for i := range 25 {
			if d := exact[i].CwndPkts/tight[i].CwndPkts - 1; math.Abs(d) > 1e-6 {
				t.Errorf("%s %s p = %g: window at loss %d %.8g, stepped %.8g", c.algo, c.loss, c.p, i, exact[i].CwndPkts, tight[i].CwndPkts)
			}
		}
		mean := func(ls []model.LossRecord) float64 {
			a, b := ls[100], ls[1600]
			return (b.CwndTimePktS - a.CwndTimePktS) / (b.TS - a.TS)
		}
		e, g := mean(exact), mean(tight)
		t.Logf("%s %s p = %g: mean window exact %.7g, stepped %.7g packets (%.1e)", c.algo, c.loss, c.p, e, g, e/g-1)
		if math.Abs(e/g-1) > 1e-6 {
			t.Errorf("%s %s p = %g: mean window exact %.8g, stepped %.8g", c.algo, c.loss, c.p, e, g)
		}
	}
}
