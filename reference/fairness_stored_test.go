package reference

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/response"
)

// fairnessGaps are the stored ns-2 fairness experiments where tcpfluid's fluid in its
// counted form with the random drop rule (the simulator's experiment: 50-byte headers,
// SACK, the linux variants against linux Reno), its means over seeds 1–3, is not within
// FairnessTolerance of ns-2's means over seeds 1–3. Asserted both ways: an experiment that
// comes within fails until it is removed here.
var fairnessGaps = map[string]string{
	// Reno's shares within 0.03 of a third in the fluid; in ns-2 the flow that starts last
	// takes the most in every seed (0.35–0.45, with 3–5 loss events against the others'
	// 6–7): a phase effect of its drop-tail queue that two packet times of send jitter
	// leave, which drops at random in proportion to arrivals cannot have.
	"same reno": "ns-2's last starter",
	// H-TCP's 50 ms flow takes 0.35 where ns-2's takes 0.28: ns-2's cuts twice, 0.3 s
	// apart, at a third of the overflows (the packets its recovery sends meet the queue the
	// slower flows still keep full).
	"rtt htcp": "RTT unfairness",
	// ns-2's HighSpeed takes 0.87 of the bottleneck from 4 Reno flows, the fluid's 0.77 once
	// it counts, as ns-2's sender does, 0.68–0.70 of its ACKs (fluid/sendjitter.go; it took
	// 0.82 counting all): ns-2's Reno flows count 34–44 loss events a flow against
	// HighSpeed's 25, 17–26 of them spurious timeouts — each sends its window in one burst a
	// round trip, and ns-2's timer is SRTT plus a few milliseconds — which the packet engine
	// reproduces (TestPacketFairnessAgainstNS2) and a fluid, without bursts, cannot.
	"friendliness highspeed": "Reno's timeouts beside HighSpeed",
	// ns-2's Compound takes 0.29 of the bottleneck from 4 Reno flows, the fluid's 0.17: in
	// ns-2's 1000 s its window stays above the Reno flows' from its head start (loss cycles
	// of about 130 s, at each of which three or four of the five flows cut), and it has half
	// as many loss events as they do. ns-2's module counts 0.71 of its ACKs there (its
	// flows' departures come in trains, which the fluid's rule, fluid/sendjitter.go, does
	// not model: 0.9 at its share; 0.19 counting every ACK), and each overflow's five drops
	// fall 11–24 ms after some flow's window grew; the packet engine reproduces both and still cuts Compound as
	// often as Reno (docs/simulators.md): not yet diagnosed.
	"friendliness compound": "friendliness",
}

// TestFairnessAgainstStored runs tcpfluid's fluid, counted as a packet sender counts
// (fluid.FormHybridRecovery) and with the random drop rule over seeds 1–3, on each stored
// ns-2 fairness experiment as `tcpfluid
// reference --experiment fairness` does (TcpfluidFairness), checks that it is
// the same experiment (CompareFairness's topology) and gives the verdict against ns-2.
func TestFairnessAgainstStored(t *testing.T) {
	stored, err := Stored()
	if err != nil {
		t.Fatal(err)
	}
	within := 0
	for _, st := range stored {
		key := st.Mode + " " + st.Algorithm
		spec := FairnessSpec{Mode: st.Mode, Algorithm: st.Algorithm, JitterS: st.Spec.JitterS}
		e, err := Fairness(spec)
		if err != nil {
			t.Fatal(err)
		}
		if e.BufferPkts != st.Spec.BufferPkts || len(e.Flows) != len(st.Spec.Flows) || e.HeaderBytes != st.Spec.HeaderBytes {
			t.Errorf("%s: experiment %d-packet buffer, %d flows, %g-byte header; ns-2 ran %d, %d, %g", key, e.BufferPkts, len(e.Flows),
				e.HeaderBytes, st.Spec.BufferPkts, len(st.Spec.Flows), st.Spec.HeaderBytes)
		}
		tf, against := TcpfluidAlgorithm(SetLinux, st.Algorithm), TcpfluidAlgorithm(SetLinux, "reno")
		fl, err := TcpfluidFairness(t.Context(), response.EngineFluid, fluid.FormHybridRecovery, spec, tf, against, nil, []uint64{1, 2, 3})
		if err != nil {
			t.Fatal(err)
		}
		dj, ds, verdict, ok := CompareSummary(fl, &FairnessSummary{SeedSpread: st.SeedSpread})
		if !ok {
			t.Fatalf("%s: %d fluid shares, ns-2 %d", key, len(fl.Shares), len(st.Shares))
		}
		t.Logf("%-22s fluid Jain %.3f, ns-2 %.3f ± %.3f: %+.3f, largest share difference %.3f: %s", key, fl.Jain, st.Jain.Mean, st.Jain.SD, dj, ds, verdict)
		gap, known := fairnessGaps[key]
		switch {
		case verdict == "within" && known:
			t.Errorf("%s: Jain %+.3f, shares within %.3f of ns-2: the known gap (%s) closed; remove it from fairnessGaps", key, dj, ds, gap)
		case verdict != "within" && !known:
			t.Errorf("%s: Jain %+.3f, largest share difference %.3f from ns-2, want both within %g", key, dj, ds, FairnessTolerance)
		case verdict == "within":
			within++
		}
		if want := math.Abs(dj) <= FairnessTolerance && ds <= FairnessTolerance; want != (verdict == "within") {
			t.Errorf("%s: verdict %s for Jain %+.3f, share %.3f", key, verdict, dj, ds)
		}
	}
	if len(stored) != 15 || within != 15-len(fairnessGaps) {
		t.Errorf("%d stored experiments, %d within: want 15 and %d", len(stored), within, 15-len(fairnessGaps))
	}
}
