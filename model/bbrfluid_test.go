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
