package model

import (
	"math"
	"testing"
)

// newBBR2Event is a BBR v2 event law without TSO budget in ProbeBW's given phase with
// BtlBw bw (packets/s), RTprop 40 ms and cwnd w.
func newBBR2Event(t *testing.T, phase int, bw, w float64) *bbrEvent {
	t.Helper()
	alg, err := Configure("bbr2", map[string]float64{"tso_budget": 0})
	if err != nil {
		t.Fatal(err)
	}
	e := alg.NewEvent(FlowConfig{InitialCwnd: 10}).(*bbrEvent)
	e.started, e.minRTT, e.minRTTStamp = true, 0.04, 0
	e.fullBwReached, e.mode, e.cycleIdx = true, bbrProbeBW, phase
	e.updateGains()
	e.v2.bwHi[0], e.cwnd = bw, w
	return e
}

// The window's bound in each phase (tcp_bbr2.c bbr2_bound_cwnd_for_inflight_model):
// inflight_hi in DOWN, REFILL and UP, 15% below it in CRUISE and ProbeRTT, none in
// Startup, and inflight_lo below all of them.
func TestBBR2WindowBound(t *testing.T) {
	for _, c := range []struct {
		mode, phase int
		lo, want    float64
	}{
		{bbrProbeBW, bbr2Up, math.Inf(1), 400},
		{bbrProbeBW, bbr2Down, math.Inf(1), 400},
		{bbrProbeBW, bbr2Refill, math.Inf(1), 400},
		{bbrProbeBW, bbr2Cruise, math.Inf(1), 340},
		{bbrProbeRTT, bbr2Cruise, math.Inf(1), 340},
		{bbrStartup, 0, math.Inf(1), math.Inf(1)},
		{bbrProbeBW, bbr2Up, 300, 300},
		{bbrProbeBW, bbr2Cruise, 2, bbrMinCwnd},
	} {
		e := newBBR2Event(t, c.phase, 8562, 400)
		e.mode, e.v2.inflightHi, e.v2.inflightLo = c.mode, 400, c.lo
		if got := e.cwndCap(); got != c.want {
			t.Errorf("mode %d phase %d, inflight_lo %g: bound %g, want %g", c.mode, c.phase, c.lo, got, c.want)
		}
	}
}

// A round with loss outside probing cuts bw_lo and inflight_lo by beta (30%), not below
// what the round delivered; while probing it cuts nothing.
func TestBBR2LowerBounds(t *testing.T) {
	for _, c := range []struct {
		phase                int
		bwLatest, inflLatest float64
		wantBw, wantInfl     float64
	}{
		{bbr2Cruise, 1000, 100, 0.7 * 8000, 0.7 * 400},
		{bbr2Cruise, 7000, 350, 7000, 350},
		{bbr2Down, 1000, 100, 0.7 * 8000, 0.7 * 400},
		{bbr2Up, 1000, 100, math.Inf(1), math.Inf(1)},
		{bbr2Refill, 1000, 100, math.Inf(1), math.Inf(1)},
	} {
		e := newBBR2Event(t, c.phase, 8000, 400)
		e.v2.lossInRound, e.v2.bwLatest, e.v2.inflightLatest = true, c.bwLatest, c.inflLatest
		e.adaptLower(e.cwnd)
		if e.v2.bwLo != c.wantBw || e.v2.inflightLo != c.wantInfl {
			t.Errorf("phase %d, latest %g/s %g: bw_lo %g, inflight_lo %g; want %g, %g", c.phase, c.bwLatest, c.inflLatest,
				e.v2.bwLo, e.v2.inflightLo, c.wantBw, c.wantInfl)
		}
	}
}

// Loss is too high above loss_thresh (2%) of the flight: 7 of 300 packets is, 6 is not.
// In UP, with the ACKs of the probe arriving, a too-high sample sets inflight_hi to the
// flight it left with (at least 70% of the BDP) and starts DOWN; in CRUISE it is no
// probe's and changes nothing.
func TestBBR2LossTooHigh(t *testing.T) {
	e := newBBR2Event(t, bbr2Up, 8562, 420)
	if e.tooHigh(6, 300) || !e.tooHigh(7, 300) {
		t.Fatalf("tooHigh(6, 300) = %v, tooHigh(7, 300) = %v; want false, true", e.tooHigh(6, 300), e.tooHigh(7, 300))
	}
	for _, c := range []struct {
		phase     int
		tx        float64
		wantHi    float64
		wantPhase int
	}{
		{bbr2Up, 400, 400, bbr2Down},
		{bbr2Up, 100, 0.7 * (343 + 2), bbr2Down}, // 0.7 of the BDP (342.5 packets, rounded up) and UP's 2
		{bbr2Cruise, 400, math.Inf(1), bbr2Cruise},
	} {
		e := newBBR2Event(t, c.phase, 8562, 420)
		e.v2.probeSamples = c.phase == bbr2Up
		e.cycleStamp, e.v2.probeWait = 0.9, 2 // no probe due
		rs := RateSample{Delivered: 300, IntervalS: 0.04, AckedSacked: 1, PriorInFlight: 420, InFlight: 420,
			DeliveredTotal: 1000, PriorDelivered: 700, Lost: 20, NewlyLost: 1, TxInFlight: c.tx}
		e.nextRTTDelivered = 2000 // no round starts
		e.OnRateSample(rs, Observation{Now: 1, RTT: 0.05})
		if got := e.v2.inflightHi; math.Abs(got-c.wantHi) > 1e-9 && !(math.IsInf(got, 1) && math.IsInf(c.wantHi, 1)) {
			t.Errorf("phase %d, tx_in_flight %g: inflight_hi %g, want %g", c.phase, c.tx, got, c.wantHi)
		}
		if e.cycleIdx != c.wantPhase {
			t.Errorf("phase %d, tx_in_flight %g: phase %d after, want %d", c.phase, c.tx, e.cycleIdx, c.wantPhase)
		}
	}
}

// v2 registers as its own algorithm with v2's constants, and v1 keeps none of them.
func TestBBR2Registered(t *testing.T) {
	alg, err := New("bbr2")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"beta": 0.3, "loss_thresh": 0.02, "inflight_headroom": 0.15, "probe_rtt_win": 5,
		"probe_rtt_cwnd_gain": 0.5, "drain_gain": 0.75, "probe_wait_base": 2, "probe_wait_rand": 1, "probe_max_rounds": 63}
	for _, p := range alg.Params() {
		if v, ok := want[p.Name]; ok {
			if p.Value != v {
				t.Errorf("bbr2 %s = %g, want %g", p.Name, p.Value, v)
			}
			delete(want, p.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("bbr2 lacks %v", want)
	}
	v1, _ := New("bbr")
	for _, p := range v1.Params() {
		if p.Name == "beta" || p.Name == "loss_thresh" {
			t.Errorf("bbr has v2's %s", p.Name)
		}
	}
	if f := alg.NewFluid(FlowConfig{}); f.Vars() != 3 {
		t.Errorf("bbr2's fluid face has %d variables, want 3", f.Vars())
	}
}
