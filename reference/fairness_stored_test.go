package reference

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/response"
)

// fairnessGaps are the stored ns-2 fairness experiments where tcpfluid's fluid in its
// counted form with the random drop rule (the simulator's experiment: 50-byte headers,
// SACK, the linux variants against linux Reno), its means over the stored runs' seeds (1–10;
// 1–20 for these two and the friendliness of Reno), is not within FairnessTolerance of ns-2's means over the same seeds. Asserted both ways:
// an experiment that comes within fails until it is removed here.
var fairnessGaps = map[string]string{
	// ns-2's flow started at 10 s times out at 11.3 of its loss events a run (seeds 1–20)
	// and keeps 0.233 of the link (Jain 0.935 ± 0.030). The fluid's flows time out as the
	// first flow's slow start back refills the queue the recoveries drained (late bursts,
	// fluid/lateack.go), 15.2 and 9.9 times a run for the second and third, but by one rule
	// for the whole run: in most seeds the two escape the timeouts by the measured half and
	// share the link nearly evenly, in some they never do (Jain 0.57), where each of ns-2's
	// seeds lies between (0.83–0.97). The mean, 0.881, is outside by 0.054 ± 0.087, not
	// decided by the seeds (its shares within, 0.046). The packet engine's flow times out as
	// ns-2's and is within, decided.
	"same highspeed": "ns-2's second flow's timeouts",
	// ns-2's flow started at 10 s times out at 1–2 of its 5–6 loss events in nearly every seed
	// (1.4 a run over seeds 1–20) and keeps 0.227 of the link (Jain 0.933), the first of them
	// while the third flow's slow start fills the queue (the packet engine's flow too, 1.1 a
	// run); the fluid's times out 0.85 times a run and keeps 0.300 (Jain 0.984, outside by
	// 0.051 ± 0.021, its largest share difference 0.073 ± 0.025, not decided). Compound
	// cuts 3–6 times in 1000 s, so the measured half holds two or three cycles and a timeout
	// decides a share.
	"same compound": "ns-2's second flow's timeouts",
}

// TestFairnessAgainstStored runs tcpfluid's fluid, counted as a packet sender counts
// (fluid.FormHybridRecovery) and with the random drop rule over the stored runs' seeds, on each stored
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
		if e.BufferPkts != st.Spec.BufferPkts || len(e.Flows) != len(st.Spec.Flows) || e.HeaderBytes != st.Spec.HeaderBytes ||
			e.InitialCwndOf(NS2) != st.Spec.InitialCwndOf(NS2) {
			t.Errorf("%s: experiment %d-packet buffer, %d flows, %g-byte header, %d-packet first window; ns-2 ran %d, %d, %g, %d", key, e.BufferPkts, len(e.Flows),
				e.HeaderBytes, e.InitialCwndOf(NS2), st.Spec.BufferPkts, len(st.Spec.Flows), st.Spec.HeaderBytes, st.Spec.InitialCwndOf(NS2))
		}
		tf, against := TcpfluidAlgorithm(SetLinux, st.Algorithm), TcpfluidAlgorithm(SetLinux, "reno")
		fl, err := TcpfluidFairness(t.Context(), response.EngineFluid, fluid.FormHybridRecovery, spec, tf, against, nil, st.Seeds)
		if err != nil {
			t.Fatal(err)
		}
		dj, ds, verdict, ok := CompareSummary(fl, &FairnessSummary{SeedSpread: st.SeedSpread})
		if !ok {
			t.Fatalf("%s: %d fluid shares, ns-2 %d", key, len(fl.Shares), len(st.Shares))
		}
		jhw, shw, decided := SummaryNoise(fl, &FairnessSummary{SeedSpread: st.SeedSpread})
		t.Logf("%-22s fluid Jain %.3f, ns-2 %.3f ± %.3f: %+.3f ± %.3f, largest share difference %.3f ± %.3f: %s, decided %v (fluid shares %.3f)",
			key, fl.Jain, st.Jain.Mean, st.Jain.SD, dj, jhw, ds, shw, verdict, decided, fl.Shares)
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
