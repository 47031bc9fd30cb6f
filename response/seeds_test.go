package response

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
)

// Every random stream gives a measurement, and the streams agree within their confidence
// intervals. Seeds 3, 7 and 16 of bic@linux at p = 10⁻³ (counted form) once ran away: a
// loss fell due nanoseconds after a BIC level was reached, inside the solver's probe of
// the guard the two share, and was never seen again (ode.TestRestartRearmsGuardMovedBack).
func TestMeasurePointEverySeed(t *testing.T) {
	var first Point
	for i, seed := range []uint64{1, 3, 7, 16} {
		pt, err := MeasurePoint(context.Background(), "bic@linux", 1e-3,
			Settings{LossModel: "random", Form: fluid.FormHybridRecovery, Seed: seed})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if i == 0 {
			first = pt
			continue
		}
		if d := math.Abs(pt.MeanCwndPkts - first.MeanCwndPkts); d > pt.CI95Pkts+first.CI95Pkts {
			t.Errorf("seed %d: mean window %.2f pkts ± %.2f, seed 1 %.2f ± %.2f: %.2f apart",
				seed, pt.MeanCwndPkts, pt.CI95Pkts, first.MeanCwndPkts, first.CI95Pkts, d)
		}
	}
}
