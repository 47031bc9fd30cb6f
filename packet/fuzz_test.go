package packet

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tcpfluid/tcpfluid/internal/scengen"
	"github.com/tcpfluid/tcpfluid/model"
)

// FuzzRun runs small random scenarios (internal/scengen, with SACK, lost-retransmission
// detection and jitter) and checks that every one that validates runs without panicking,
// marshals (no NaN or Inf) and keeps the invariants every engine keeps
// (model.Result.CheckInvariants).
func FuzzRun(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(1), uint16(500), uint8(0), uint8(3))
	f.Add(uint64(2), uint8(1), uint8(3), uint16(10), uint8(1), uint8(200))
	f.Add(uint64(3), uint8(3), uint8(2), uint16(60000), uint8(2), uint8(77))
	f.Add(uint64(4), uint8(2), uint8(2), uint16(3000), uint8(1), uint8(0xe9))
	f.Add(uint64(1<<40|6), uint8(2), uint8(2), uint16(800), uint8(0), uint8(0x0a))   // a dumbbell
	f.Add(uint64(2<<41|9), uint8(1), uint8(2), uint16(2000), uint8(0), uint8(0x26))  // FQ-CoDel, CBR
	f.Add(uint64(3<<41|10), uint8(2), uint8(1), uint16(800), uint8(1), uint8(0x0a))  // PIE, random loss
	f.Add(uint64(1<<43|11), uint8(1), uint8(2), uint16(3000), uint8(1), uint8(0x22)) // linux variants, SACK, random loss
	f.Add(uint64(2<<43|12), uint8(2), uint8(2), uint16(3000), uint8(0), uint8(0x02)) // ns3 variants
	f.Fuzz(func(t *testing.T, seed uint64, nLinks, nFlows uint8, capKbps uint16, lossKind, knobs uint8) {
		s := scengen.Scenario(seed, nLinks, nFlows, capKbps, lossKind, knobs)
		if err := s.Validate(); err != nil {
			return
		}
		set := Settings{Seed: seed, SampleS: 0.25, MaxEvents: 5_000_000, SACK: knobs&32 == 32}
		set.LostRetransmit = set.SACK && seed&1 == 1
		if knobs&64 == 64 {
			set.JitterS = 0.001 * float64(capKbps%7)
		}
		r, err := Run(context.Background(), s, set)
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		b, err := json.Marshal(struct {
			R *model.Result
			T []model.Sample
		}{r, r.Trace})
		if err != nil {
			t.Fatalf("result does not marshal (NaN or Inf?): %v", err)
		}
		if err := r.CheckInvariants(s, model.Slack{Inflation: true}); err != nil {
			t.Fatalf("%v in %s", err, b)
		}
	})
}
