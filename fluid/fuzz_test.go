package fluid_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/internal/scengen"
	"github.com/tcpfluid/tcpfluid/model"
)

// FuzzRun runs small random scenarios (internal/scengen) in both fluid forms and checks
// that every one that validates runs without an engine failure or panic, marshals (no NaN
// or Inf) and keeps the invariants every engine keeps (model.Result.CheckInvariants),
// within fluidSlack.
// fluidSlack: a located loss may fall up to one packet from the counts it follows, and the
// counters carry the solver's global error, at the default tolerances (1e-6 per step) up to
// 1.1e-5 of the count in the fuzzer's worst case so far (tighter tolerances remove it).
var fluidSlack = model.Slack{Pkts: 1, Rel: 1e-4}

func FuzzRun(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(1), uint16(500), uint8(0), uint8(3))
	f.Add(uint64(2), uint8(1), uint8(3), uint16(10), uint8(1), uint8(200))
	f.Add(uint64(3), uint8(3), uint8(2), uint16(60000), uint8(2), uint8(77))
	f.Add(uint64(4), uint8(2), uint8(2), uint16(3000), uint8(1), uint8(0xe9))
	f.Add(uint64(5), uint8(1), uint8(1), uint16(0), uint8(3), uint8(0x08))
	f.Fuzz(func(t *testing.T, seed uint64, nLinks, nFlows uint8, capKbps uint16, lossKind, knobs uint8) {
		s := scengen.Scenario(seed, nLinks, nFlows, capKbps, lossKind, knobs)
		if err := s.Validate(); err != nil {
			return
		}
		for _, form := range []string{fluid.FormHybrid, fluid.FormHybridRecovery} {
			r, err := fluid.Run(context.Background(), s, fluid.Settings{Seed: seed, SampleS: 0.05, Form: form, MaxSteps: 2_000_000, SACK: knobs&32 == 32})
			if err != nil {
				t.Fatalf("%s: run: %v", form, err)
			}
			if _, err := json.Marshal(struct{ R, T any }{r, r.Trace}); err != nil {
				t.Fatalf("%s: result does not marshal (NaN or Inf?): %v", form, err)
			}
			if err := r.CheckInvariants(s, fluidSlack); err != nil {
				sc, _ := json.Marshal(s)
				t.Fatalf("%s: %v; scenario %s", form, err, sc)
			}
		}
	})
}
