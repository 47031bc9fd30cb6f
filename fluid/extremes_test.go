package fluid_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// TestFluidExtremeGrid runs every single-path algorithm over the corners of what a user
// may ask for — capacity 1 kb/s to 100 Gb/s, round trip 1 µs to 10 s, random loss 1e-9 to
// 0.5 per packet, a 1-BDP drop-tail buffer (at least 2 packets) — for 0.2 s or 2000
// round trips, whichever is shorter, and checks
// that each run ends, marshals (no NaN or Inf) and keeps the invariants every engine keeps
// (model.Result.CheckInvariants) within the fuzz target's fluidSlack.
func TestFluidExtremeGrid(t *testing.T) {
	var algos []string
	multi := map[string]bool{}
	for _, a := range model.MultipathAlgorithms() {
		multi[a] = true
	}
	for _, a := range model.Algorithms() {
		if !multi[a] {
			algos = append(algos, a)
		}
	}
	if len(algos) < 13 {
		t.Fatalf("single-path algorithms %v, want the 13 of tcpfluid's tour at least", algos)
	}
	for _, algo := range algos {
		for _, capBps := range []float64{1e3, 1e6, 1e9, 1e11} {
			for _, rttS := range []float64{1e-6, 1e-3, 0.1, 10} {
				for _, p := range []float64{1e-9, 1e-5, 1e-2, 0.5} {
					sc := oneLink(algo, capBps, rttS/2, max(2, capBps*rttS/(1460*8)), min(0.2, 2000*rttS))
					sc.Links[0].Loss, sc.Links[0].LossP = model.LossRandom, p
					name := fmt.Sprintf("%s %g bit/s RTT %g s p %g", algo, capBps, rttS, p)
					if err := sc.Validate(); err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					res, err := fluid.Run(context.Background(), sc, fluid.Settings{Seed: 1, Form: fluid.FormHybridRecovery})
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					if _, err := json.Marshal(res); err != nil {
						t.Errorf("%s: result does not marshal: %v", name, err)
					}
					if err := res.CheckInvariants(sc, fluidSlack); err != nil {
						t.Errorf("%s: %v", name, err)
					}
				}
			}
		}
	}
}
