package response

import (
	"context"
	"math"
	"testing"
)

// The exact advance (Reno's line, Scalable's exponential, CUBIC's relaxation toward its
// curve between losses) gives the points the solver's steps give, to its tolerance: the
// same loss sequence (the same random draws) along the same trajectory. RelTol 1e-6 per
// step, carried over thousands of cycles, leaves them within 1e-4 of each other (fluid's
// TestFluidExactAdvanceMatchesTightSteps compares them at a tight tolerance).
func TestExactAdvanceMatchesSteps(t *testing.T) {
	for _, c := range []struct {
		algo, loss string
		p          float64
	}{
		{"reno", "periodic", 1e-3}, {"reno", "random", 1e-2}, {"reno", "random", 1e-5},
		{"newreno", "random", 1e-3}, {"tahoe", "periodic", 1e-4},
		{"scalable", "periodic", 1e-4}, {"scalable", "random", 1e-3},
		{"cubic", "random", 1e-5}, {"cubic", "random", 1e-3},
	} {
		s := Settings{LossModel: c.loss, Seed: 4, MaxLosses: 1600}
		exact, err := MeasurePoint(context.Background(), c.algo, c.p, s)
		if err != nil {
			t.Fatal(err)
		}
		s.Stepped = true
		stepped, err := MeasurePoint(context.Background(), c.algo, c.p, s)
		if err != nil {
			t.Fatal(err)
		}
		d := exact.MeanCwndPkts/stepped.MeanCwndPkts - 1
		t.Logf("%s %s p = %g: exact %.6g, stepped %.6g packets (%.1e); %d and %d cycles", c.algo, c.loss, c.p,
			exact.MeanCwndPkts, stepped.MeanCwndPkts, d, exact.LossEvents, stepped.LossEvents)
		if math.Abs(d) > 1e-4 || exact.LossEvents != stepped.LossEvents {
			t.Errorf("%s %s p = %g: exact %.8g after %d cycles, stepped %.8g after %d", c.algo, c.loss, c.p,
				exact.MeanCwndPkts, exact.LossEvents, stepped.MeanCwndPkts, stepped.LossEvents)
		}
	}
}
