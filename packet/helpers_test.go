package packet

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// stubAIMD is a test-local Reno law with a settable initial ssthresh, so that the engine's
// ACK clock can be checked in congestion avoidance from the first packet. The real laws
// live in model/ and take their initial ssthresh from the receiver window.
type stubAIMD struct{ ssthresh float64 }

const stubName = "packettest-aimd"

func init() {
	model.Register(stubName, func() model.Algorithm { return &stubAIMD{ssthresh: math.Inf(1)} })
}

func (a *stubAIMD) Name() string     { return stubName }
func (a *stubAIMD) Describe() string { return "test-only Reno law with a settable initial ssthresh" }
func (a *stubAIMD) Params() []model.Param {
	return []model.Param{{Name: "ssthresh", Value: a.ssthresh, Unit: "packets", Min: 1, Max: math.Inf(1)}}
}

func (a *stubAIMD) Set(name string, v float64) error {
	if name != "ssthresh" || !(v >= 1) {
		return model.ErrParam
	}
	a.ssthresh = v
	return nil
}

// NewFluid is never called by the packet engine.
func (a *stubAIMD) NewFluid(model.FlowConfig) model.FluidLaw { return nil }

func (a *stubAIMD) NewEvent(c model.FlowConfig) model.EventLaw {
	return &stubEvent{cwnd: c.InitialCwnd, ssthresh: a.ssthresh}
}

type stubEvent struct{ cwnd, ssthresh float64 }

func (e *stubEvent) Cwnd() float64     { return e.cwnd }
func (e *stubEvent) Ssthresh() float64 { return e.ssthresh }
func (e *stubEvent) OnAck(acked float64, _ model.Observation) {
	for range int(acked) {
		if e.cwnd < e.ssthresh {
			e.cwnd++
		} else {
			e.cwnd += 1 / e.cwnd
		}
	}
}
func (e *stubEvent) OnLoss(model.Observation) {
	e.ssthresh = math.Max(e.cwnd/2, 2)
	e.cwnd = e.ssthresh
}
func (e *stubEvent) OnTimeout(model.Observation) {
	e.ssthresh = math.Max(e.cwnd/2, 2)
	e.cwnd = 1
}
func (e *stubEvent) Recovery() model.Recovery { return model.RecoveryReno }

// oneLink is a validated single-link scenario with one flow on it.
func oneLink(t testing.TB, l model.Link, f model.Flow, durationS float64) *model.Scenario {
	t.Helper()
	l.Name = "l"
	f.Path = "p"
	s := &model.Scenario{
		Name:      t.Name(),
		DurationS: durationS,
		Links:     []model.Link{l},
		Paths:     []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows:     []model.Flow{f},
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// mustSim builds a simulation or fails the test.
func mustSim(t testing.TB, s *model.Scenario, set Settings) *sim {
	t.Helper()
	sm, err := newSim(s, set)
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

// advance runs the simulation up to time until (s).
func advance(t testing.TB, sm *sim, until float64) {
	t.Helper()
	if err := sm.run(context.Background(), until, math.MaxInt); err != nil {
		t.Fatal(err)
	}
}

// cwndIntegral is flow i's ∫cwnd dt up to time at (s), which must not precede the last
// event run, packet·s.
func cwndIntegral(sm *sim, i int, at float64) float64 {
	f := &sm.flows[i]
	f.account(at)
	return f.cwndInt
}

// busyTime is link i's serialization time up to time at (s), which must not precede the
// last event run.
func busyTime(sm *sim, i int, at float64) float64 {
	l := &sm.links[i]
	if l.busy {
		return l.busyS + at - l.txStart
	}
	return l.busyS
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

// readTestdata decodes the JSON file testdata/name into v.
func readTestdata(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}
