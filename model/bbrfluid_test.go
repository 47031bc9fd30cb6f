package model

import (
	"math"
	"testing"
)

// Drain ends once the flow's own flight is down to the BDP, even while another flow keeps
// the queue full: BBR fills a 100 Mb/s, 40 ms path alone, then from 0.3 s a competitor
// doubles the RTT and takes half the link. Drain's flight is what BBR sent less what left
// its path a base RTT ago (the engine's counts, here at a millisecond's resolution), so
// Drain lasts about a round, as a packet sender's does, and BtlBw keeps the link's rate. Counted as BtlBw·RTT instead, the flight stayed above the BDP as long as the RTT
// did: Drain never ended, and BtlBw, sampled from Drain's slow pacing, fell to 4% of the
// link within 3 s.
func TestBBRDrainEndsBehindAnotherQueue(t *testing.T) {
	const (
		capPkts = 100e6 / (1500 * 8) // packets/s
		shared  = 0.3                // s: the competitor arrives
	)
	alg, err := New("bbr")
	if err != nil {
		t.Fatal(err)
	}
	law := alg.NewFluid(FlowConfig{InitialCwnd: 10})
	f := law.(*bbrFluid)
	var sent float64 // packets, as the fluid engine counts them
	obs := func(t float64, x []float64) Observation {
		rtt, link := 0.04, capPkts
		if t >= shared {
			rtt, link = 0.08, capPkts/2
		}
		o := Observation{Now: t, RTT: rtt, BaseRTT: 0.04, SentPkts: sent}
		o.DeliveryRate = math.Min(f.sendRate(x, o), link)
		// Its packets in the queue are its delivery rate times the queueing delay (Little);
		// the rest of what it sent has left the path, delivered or dropped.
		o.LeftPkts = max(sent-o.DeliveryRate*(rtt-o.BaseRTT), 0)
		return o
	}
	sim := newLawSim(law, 1e-4, obs, 0)
	var drainFrom, drainTo float64
	for sim.t < 3 && drainTo == 0 {
		sent += f.sendRate(sim.x, obs(sim.t, sim.x)) * 1e-3
		sim.run(sim.t+1e-3, nil)
		switch {
		case f.mode == bbrDrain && drainFrom == 0:
			drainFrom = sim.t
		case drainFrom > 0 && f.mode != bbrDrain:
			drainTo = sim.t
		}
	}
	bw := f.maxBw()
	t.Logf("Drain from %.3f s to %.3f s; BtlBw then %.0f packets/s (link %.0f)", drainFrom, drainTo, bw, capPkts)
	if drainFrom < shared || drainTo == 0 || drainTo-drainFrom > 2*0.08 {
		t.Errorf("Drain from %.3f s to %.3f s, want it entered after %.2f s and over within two rounds (0.16 s)", drainFrom, drainTo, shared)
	}
	if bw < 0.9*capPkts {
		t.Errorf("BtlBw %.0f packets/s when Drain ends, want the link's %.0f within 10%%", bw, capPkts)
	}
}

// RTprop takes the bottom of a dip in the RTT between two rounds' ends, as a packet
// sender's filter does from every ACK's sample (bbr_update_min_rtt): the RTT of 0.4 s dips
// to 0.3 s for 0.1 s in the middle of a 0.4-s round. Refreshed at the rounds' ends only,
// RTprop stayed 0.4 s and ProbeRTT came 10 s after the start instead of 10 s after the dip.
func TestBBRFluidRTpropTakesEverySample(t *testing.T) {
	const bottom, dipAt, dipHalf = 0.3, 1.0, 0.05 // s
	law := mustAlgo(t, "bbr").NewFluid(FlowConfig{InitialCwnd: 10, MaxCwnd: 1e6})
	f := law.(*bbrFluid)
	rtt := func(t float64) float64 {
		if d := math.Abs(t - dipAt); d < dipHalf {
			return bottom + (0.4-bottom)*d/dipHalf
		}
		return 0.4
	}
	obs := func(t float64, x []float64) Observation {
		return Observation{Now: t, RTT: rtt(t), BaseRTT: bottom, DeliveryRate: 100, SentPkts: x[1] + 40, LeftPkts: x[1]}
	}
	sim := newLawSim(law, 1e-3, obs, 0)
	sim.run(1.5, nil)
	if f.minRTT > bottom/(1-bbrMinRTTStep) || f.minRTT < bottom {
		t.Errorf("RTprop %.4f s after the dip, want its bottom %.3f s within a step (%g)", f.minRTT, bottom, bbrMinRTTStep)
	}
	if math.Abs(f.minRTTStamp-dipAt) > dipHalf {
		t.Errorf("RTprop refreshed at %.3f s, want within the dip (%.2f ± %.2f s)", f.minRTTStamp, dipAt, dipHalf)
	}
}

// ProbeRTT keeps the larger of the window it saved before (at a loss) and the window it
// enters with, and restores that (capped at the target) when it ends: Linux's
// bbr_update_min_rtt sets the mode before bbr_save_cwnd, which then takes the maximum, as
// ns-3's TcpBbr does. It had saved the window it entered with, 52 packets where a packet
// sender came back with the 800 of before its last loss, then its target.
func TestBBRFluidProbeRTTRestoresTheSavedWindow(t *testing.T) {
	law := mustAlgo(t, "bbr").NewFluid(FlowConfig{InitialCwnd: 10, MaxCwnd: 1e6})
	f := law.(*bbrFluid)
	x := make([]float64, law.Vars())
	o := Observation{Now: 0, RTT: 0.4, BaseRTT: 0.04, DeliveryRate: 100}
	law.Init(x, o)
	f.mode, f.fullBwReached, f.priorCwnd = bbrProbeBW, true, 800
	f.cycleIdx, f.cycleStamp = 2, 0
	f.updateGains()
	f.sampleBw(1000) // packets/s: a target of 2·1000·0.4 = 800 packets and the budget
	x[0] = 52
	f.minRTT, f.minRTTStamp = 0.4, 0
	o.Now = f.p.minRTTWin
	law.Switch(x, o)
	if f.mode != bbrProbeRTT || x[0] != bbrMinCwnd || f.priorCwnd != 800 {
		t.Fatalf("at the filter's expiry: mode %d, cwnd %g, saved %g; want ProbeRTT, %d, 800", f.mode, x[0], f.priorCwnd, bbrMinCwnd)
	}
	o.Now = f.probeRTTExit
	law.Switch(x, o)
	if want := math.Min(800, f.targetCwnd()); f.mode != bbrProbeBW || x[0] != want {
		t.Errorf("after ProbeRTT: mode %d, cwnd %g; want ProbeBW, %g (the saved 800, capped at the target)", f.mode, x[0], want)
	}
}
