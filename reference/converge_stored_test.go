package reference

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
)

// convergeTarget is docs/simulators.md's target for converge ("What tcpfluid must change",
// 3): tcpfluid's recovery time within 5% of ns-2's at 1 and 10 Gb/s, from ns-2's initial
// condition.
const convergeTarget = 0.05

// convergeGaps are the stored converge points where tcpfluid's linux set, from ns-2's
// window at its first loss in the hybrid-recovery form, is still outside convergeTarget,
// with why. Asserted both ways: a point that comes within the target fails until it is
// removed here (and from docs/simulators.md).
var convergeGaps = map[string]string{
	// ns-2's Vegas grows one packet per two RTTs, from 4,167 packets after the loss, and
	// stops at 8,068 (97% of the BDP) at 781 s, where it stays to the end of a 2,113 s run
	// (re-run 2026-12-05 with its trace kept); tcpfluid's vegas@linux, which grows so too,
	// is back at the BDP in 833 s. What stops ns-2's short of the BDP on an empty path is not
	// found yet.
	"vegas 1Gbps": "law",
}

// TestConvergeFromStoredLoss runs tcpfluid's converge (the linux variant, both fluid
// forms) from each stored ns-2 run's window at its first loss, as `tcpfluid reference
// --experiment converge` does, and compares the time back to the BDP with ns-2's. Starting
// from ns-2's state is what closes CUBIC's +129% (from the BDP): W_max is the overshoot.
func TestConvergeFromStoredLoss(t *testing.T) {
	files, err := LoadSet(filepath.Join(setDir, NS2))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if f.Report.Kind != KindConverge {
			continue
		}
		n++
		row := &f.Report.Rows[0]
		cv := row.NS2[0].Converge
		key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f.Path), "converge-"), ".json")
		key = strings.Replace(key, "-", " ", 1)
		lw, from := row.LossWindow()
		if lw != cv.CwndAtLossPkts || from != NS2 {
			t.Errorf("%s: loss window %v from %q, want ns-2's %v", key, lw, from, cv.CwndAtLossPkts)
		}
		tf := TcpfluidAlgorithm(SetLinux, row.Algorithm)
		var got [2]*float64
		for i, form := range []string{fluid.FormHybrid, fluid.FormHybridRecovery} {
			st, err := FluidConverge(t.Context(), tf, form, row.Bandwidth, 0.1, 1500, lw, nil)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(st.LossWindowPkts-lw) > 1e-6*lw || st.Form != form {
				t.Errorf("%s: tcpfluid lost at %v packets in form %s, want %v in %s", key, st.LossWindowPkts, st.Form, lw, form)
			}
			got[i] = st.RecoveryS
		}
		gap, known := convergeGaps[key]
		if cv.RecoveryS == nil || got[1] == nil {
			if !known || got[1] == nil {
				t.Errorf("%s: ns-2 back after %v s, tcpfluid %v s", key, cv.RecoveryS, got[1])
				continue
			}
			t.Logf("%-15s ns-2 never back at the BDP, %s %v s (known gap: %s)", key, tf, *got[1], gap)
			continue
		}
		ns := *cv.RecoveryS
		rel := *got[1]/ns - 1
		t.Logf("%-15s loss at %6.0f (BDP %6.0f): ns-2 %7.4g s, %s hybrid %7.4g s (%+.1f%%), hybrid-recovery %7.4g s (%+.1f%%)",
			key, lw, cv.BDPPkts, ns, tf, *got[0], 100*(*got[0]/ns-1), *got[1], 100*rel)
		switch {
		case known && math.Abs(rel) <= convergeTarget:
			t.Errorf("%s: tcpfluid %.4g s, ns-2 %.4g s (%+.1f%%): the known %s gap closed; remove it from convergeGaps", key, *got[1], ns, 100*rel, gap)
		case !known && math.Abs(rel) > convergeTarget:
			t.Errorf("%s: tcpfluid %.4g s, ns-2 %.4g s (%+.1f%%), want within %.0f%%", key, *got[1], ns, 100*rel, 100*convergeTarget)
		}
	}
	if n != 13 {
		t.Errorf("%d stored ns-2 converge points, want 13", n)
	}
}
