package fluid_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/internal/scengen"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/ode"
)

// FuzzRun runs small random scenarios (internal/scengen) in both fluid forms, with and
// without the exact advance, and checks
// that every one that validates runs without an engine failure or panic, marshals (no NaN
// or Inf) and keeps the invariants every engine keeps (model.Result.CheckInvariants),
// within fluidSlack.
// fluidSlack: a located loss may fall up to one packet from the counts it follows, and the
// counters carry the solver's global error, at the default tolerances (1e-6 per step) up to
// 1.1e-5 of the count in the fuzzer's worst case so far (tighter tolerances remove it).
var fluidSlack = model.Slack{Pkts: 1, Rel: 1e-4}

// fuzzMaxSteps bounds each generated run to about half a second, so that the fuzzer's hang
// detector (10 s per input, on a machine busy with other work) never fires on a slow input;
// a run that needs more ends with ode.ErrMaxSteps, which is the engine keeping its promise
// to stop. Inputs with thousands of loss events a second (testdata/fuzz/FuzzRun/
// cc6ca7bc7bd6dac9: periodic loss of 26% at 15,000 packets/s) reach it honestly, at about
// 17 µs a step. Scenarios whose link delay changed to 0 reached it while a round trip could
// shrink to microseconds; since it is floored at one packet's transmission they run in
// milliseconds (TestFluidSlowInputsStayCheap).
const fuzzMaxSteps = 30_000

// fuzzRunS bounds each run's wall time as well, s: a machine shared with other work, under
// the fuzzer's coverage instrumentation, can be several times slower than the half second
// fuzzMaxSteps allows; a run stopped by its context is the engine honouring cancellation.
const fuzzRunS = 2

func FuzzRun(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(1), uint16(500), uint8(0), uint8(3))
	f.Add(uint64(2), uint8(1), uint8(3), uint16(10), uint8(1), uint8(200))
	f.Add(uint64(3), uint8(3), uint8(2), uint16(60000), uint8(2), uint8(77))
	f.Add(uint64(4), uint8(2), uint8(2), uint16(3000), uint8(1), uint8(0xe9))
	f.Add(uint64(5), uint8(1), uint8(1), uint16(0), uint8(3), uint8(0x08))
	f.Add(uint64(1<<40|6), uint8(2), uint8(2), uint16(800), uint8(0), uint8(0x0a))         // a dumbbell that folds
	f.Add(uint64(1<<40|7), uint8(1), uint8(2), uint16(40), uint8(2), uint8(0x06))          // folds, periodic loss, CBR
	f.Add(uint64(1<<41|8), uint8(2), uint8(2), uint16(500), uint8(0), uint8(0x06))         // CoDel, CBR
	f.Add(uint64(2<<41|9), uint8(1), uint8(2), uint16(2000), uint8(0), uint8(0x26))        // FQ-CoDel, CBR
	f.Add(uint64(3<<41|10), uint8(2), uint8(1), uint16(800), uint8(1), uint8(0x0a))        // PIE, random loss
	f.Add(uint64(1<<43|11), uint8(1), uint8(2), uint16(3000), uint8(1), uint8(0x22))       // linux variants, SACK, random loss
	f.Add(uint64(2<<43|12), uint8(2), uint8(2), uint16(3000), uint8(0), uint8(0x02))       // ns3 variants
	f.Add(uint64(1<<45|1), uint8(2), uint8(3), uint16(5000), uint8(0), uint8(0x00))        // jittered: escapes drawn
	f.Add(uint64(1<<45|1<<40|14), uint8(2), uint8(3), uint16(2000), uint8(0), uint8(0x00)) // a jittered dumbbell
	f.Fuzz(func(t *testing.T, seed uint64, nLinks, nFlows uint8, capKbps uint16, lossKind, knobs uint8) {
		s := scengen.Scenario(seed, nLinks, nFlows, capKbps, lossKind, knobs)
		if err := s.Validate(); err != nil {
			return
		}
		// With knob 64 the runs record no trace and may take the exact advance (a lone flow
		// on one free link, between losses: exact.go).
		exact, sample := knobs&64 == 64, 0.05
		if exact {
			sample = 0
		}
		// With bit 45 of the seed the counted form's senders jitter their sends (a
		// millisecond), which draws the synchronized rule's escapes (escape.go).
		jitter := 0.0
		if seed>>45&1 == 1 {
			jitter = 1e-3
		}
		for _, form := range []string{fluid.FormHybrid, fluid.FormHybridRecovery} {
			set := fluid.Settings{Seed: seed, SampleS: sample, Form: form, MaxSteps: fuzzMaxSteps, SACK: knobs&32 == 32, Exact: exact}
			if form == fluid.FormHybridRecovery {
				set.SendJitterS = jitter
			}
			ctx, cancel := context.WithTimeout(context.Background(), fuzzRunS*time.Second)
			r, err := fluid.Run(ctx, s, set)
			cancel()
			if errors.Is(err, ode.ErrMaxSteps) || errors.Is(err, context.DeadlineExceeded) {
				continue // bounded, as promised: the engine refuses to go on, or stops when told
			}
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

// Fuzzers' inputs that once took over 10^5 solver steps finish well inside 20,000 in
// each form:
//   - a multi-path VLIA flow, BBR and BIC on a 254 kb/s link that goes down, comes back and
//     has its delay set to 0 (testdata/fuzz/FuzzRun/5919dd381288d101): round trips are
//     floored at one packet's transmission time, 20 ms, not 1 µs;
//   - HighSpeed, H-TCP and LIA behind a 21 kb/s link with periodic loss and CBR overload
//     (9934cb0f0431a5d5): H-TCP's packet-granular timer, with nothing in flight, was
//     checked again an instant later, every instant.
func TestFluidSlowInputsStayCheap(t *testing.T) {
	for _, c := range []struct {
		seed            uint64
		nLinks, nFlows  uint8
		capKbps         uint16
		lossKind, knobs uint8
	}{{15, 0xfc, 0x5c, 244, 0xf4, 0x6a}, {38, 'm', 'G', 11, 'b', ']'}} {
		s := scengen.Scenario(c.seed, c.nLinks, c.nFlows, c.capKbps, c.lossKind, c.knobs)
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, form := range []string{fluid.FormHybrid, fluid.FormHybridRecovery} {
			r, err := fluid.Run(context.Background(), s, fluid.Settings{Seed: c.seed, Form: form, MaxSteps: 20_000, SACK: c.knobs&32 == 32})
			if err != nil {
				t.Fatalf("seed %d %s: %v", c.seed, form, err)
			}
			if err := r.CheckInvariants(s, fluidSlack); err != nil {
				t.Errorf("seed %d %s: %v", c.seed, form, err)
			}
		}
	}
}
