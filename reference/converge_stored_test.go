package reference

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
)

// convergeTarget is docs/simulators.md's target for converge ("What tcpfluid must change",
// 3): tcpfluid's recovery time within 5% of the simulator's, from the simulator's initial
// condition.
const convergeTarget = 0.05

// convergeGaps are the stored converge points ("ns2 vegas 1Gbps") where tcpfluid's
// variant of the simulator's constants, from the simulator's window at its first loss in
// the hybrid-recovery form, is still outside convergeTarget, with why. Asserted both ways:
// a point that comes within the target fails until it is removed here (and from
// docs/simulators.md).
var convergeGaps = map[string]string{}

// TestConvergeFromStoredLoss runs tcpfluid's converge (the simulator's variant: linux for
// ns-2, ns3 for ns-3; both fluid forms) from each stored run's window at its first loss, on
// a link whose BDP is the simulator's pipe of payload and header packets, as `tcpfluid
// reference --experiment converge` does, and compares the time back to that BDP with the
// simulator's. Starting from the simulator's state is what closes CUBIC's +129% against
// ns-2 (from the BDP): W_max is the overshoot.
func TestConvergeFromStoredLoss(t *testing.T) {
	n := map[string]int{}
	for _, sim := range []struct{ name, set string }{{NS2, SetLinux}, {NS3, SetNS3}} {
		files, err := LoadSet(filepath.Join(setDir, sim.name))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f.Report.Kind != KindConverge {
				continue
			}
			n[sim.name]++
			row := &f.Report.Rows[0]
			ms := row.NS2
			if sim.name == NS3 {
				ms = row.NS3
			}
			if len(ms) == 0 {
				t.Errorf("%s: no %s run", f.Path, sim.name)
				continue
			}
			m := ms[0]
			cv := m.Converge
			key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f.Path), "converge-"), ".json")
			key = sim.name + " " + strings.Replace(key, "-", " ", 1)
			lw, from := row.LossWindow()
			if lw != cv.CwndAtLossPkts || from != sim.name {
				t.Errorf("%s: loss window %v from %q, want %s's %v", key, lw, from, sim.name, cv.CwndAtLossPkts)
			}
			if m.Spec == nil || math.Abs(cv.BDPPkts-m.Spec.PipePkts(sim.name)) > 1e-9*cv.BDPPkts {
				t.Errorf("%s: measured against a BDP of %v packets, not the simulator's pipe of payload and header", key, cv.BDPPkts)
				continue
			}
			// tcpfluid's link carries the simulator's payload rate: its BDP is the pipe.
			rtt := 2 * m.Spec.DelayS
			bw := m.Spec.PayloadBps(sim.name)
			tf := TcpfluidAlgorithm(sim.set, row.Algorithm)
			var got [2]*float64
			for i, form := range []string{fluid.FormHybrid, fluid.FormHybridRecovery} {
				st, err := FluidConverge(t.Context(), tf, form, bw, rtt, m.Spec.MSSBytes, lw, nil)
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
				t.Errorf("%s: %s back after %v s, tcpfluid %v s", key, sim.name, cv.RecoveryS, got[1])
				continue
			}
			ref := *cv.RecoveryS
			rel := *got[1]/ref - 1
			t.Logf("%-22s loss at %6.0f (BDP %6.0f): %s %7.4g s, %s hybrid %7.4g s (%+.1f%%), hybrid-recovery %7.4g s (%+.1f%%)",
				key, lw, cv.BDPPkts, sim.name, ref, tf, *got[0], 100*(*got[0]/ref-1), *got[1], 100*rel)
			switch {
			case known && math.Abs(rel) <= convergeTarget:
				t.Errorf("%s: tcpfluid %.4g s, %s %.4g s (%+.1f%%): the known %s gap closed; remove it from convergeGaps", key, *got[1], sim.name, ref, 100*rel, gap)
			case !known && math.Abs(rel) > convergeTarget:
				t.Errorf("%s: tcpfluid %.4g s, %s %.4g s (%+.1f%%), want within %.0f%%", key, *got[1], sim.name, ref, 100*rel, 100*convergeTarget)
			}
		}
	}
	if n[NS2] != 14 || n[NS3] != 13 {
		t.Errorf("stored converge points: %v, want ns-2 14 and ns-3 13", n)
	}
}
