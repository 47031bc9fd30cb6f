//go:build simulators

package reference

// Re-runs a few points of the reference set in the installed simulators and checks that
// the stored numbers reproduce:
//
//	go test -tags simulators -run TestReRun ./reference/
//
// It needs ns-2 (apt-get install ns2) and ns-3 with a C++ compiler (libns3-dev g++). The
// ns-3 program is built once into the user cache dir (TCPFLUID_REFERENCE_CACHE=off builds
// it afresh, about a minute more; =DIR caches there). The points are the set's cheapest,
// about 40 s of simulator time together on one core.

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// reRunPoints are the re-run points, each a file of the set and its simulator. A point
// stored with its experiment (Spec) and the same simulator version must reproduce
// exactly: ns-2 and ns-3 are deterministic for one experiment and seed. ns-2's response
// points of p ≥ 1e-4 predate Spec: the experiment is rebuilt as `tcpfluid reference`
// builds it, whose initial ssthresh comes from tcpfluid's fluid, so the window only
// agrees within the combined 95% confidence interval.
var reRunPoints = []struct{ sim, file string }{
	{NS2, "ns2/converge-scalable-1Gbps.json"},
	{NS2, "ns2/converge-compound-1Gbps.json"},
	{NS2, "ns2/converge-cubic-1Gbps.json"},
	{NS2, "ns2/response-reno-p1e-3.json"},
	{NS3, "ns3/response-cubic-p1e-2.json"},
	{NS3, "ns3/response-reno-p1e-2.json"},
	{NS3, "ns3/scenario-modern-dctcp-2.json"},
}

// storedPoint is the first measurement of sim in the set's file.
func storedPoint(t *testing.T, sim, file string) *Measurement {
	t.Helper()
	files, err := LoadSet(filepath.Join(setDir, filepath.Dir(file)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(f.Path) != filepath.Base(file) {
			continue
		}
		ms := f.Report.Rows[0].NS2
		if sim == NS3 {
			ms = f.Report.Rows[0].NS3
		}
		if len(ms) > 0 {
			return ms[0]
		}
	}
	t.Fatalf("%s has no %s measurement in the reference set", file, sim)
	return nil
}

// rebuild is the experiment of a stored response point without Spec, as `tcpfluid
// reference` built it: the algorithm and loss rate from its name, the initial ssthresh at
// the fluid's mean window of the simulator's variant.
func rebuild(t *testing.T, sim string, m *Measurement) *Experiment {
	t.Helper()
	name := strings.TrimPrefix(m.Experiment, "response-")
	i := strings.LastIndex(name, "-p")
	var p float64
	if m.Response == nil || i < 0 {
		t.Fatalf("%s: not a response point with its loss rate in the name", m.Experiment)
	}
	if _, err := fmt.Sscanf(name[i+2:], "%g", &p); err != nil {
		t.Fatalf("experiment %q: %v", m.Experiment, err)
	}
	algo, set := name[:i], SetLinux
	if sim == NS3 {
		set = SetNS3
	}
	fl, err := FluidResponse(t.Context(), TcpfluidAlgorithm(set, algo), p, 0.1, 1460, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Response(ResponseSpec{Algorithm: algo, P: p, StartPkts: fl.MeanCwndPkts, Losses: m.Response.LossEvents, Seed: m.Seed})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestReRun(t *testing.T) {
	r := DefaultRunner()
	t0 := time.Now()
	for _, c := range reRunPoints {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			if err := r.Available(c.sim); err != nil {
				t.Skip(err)
			}
			stored := storedPoint(t, c.sim, c.file)
			e, exact := stored.Spec, stored.Spec != nil
			if !exact {
				e = rebuild(t, c.sim, stored)
			}
			m, err := r.Run(t.Context(), c.sim, e)
			if err != nil {
				t.Fatal(err)
			}
			exact = exact && m.Version == stored.Version
			t.Logf("%s %s (%s %s): %.3g s wall, the set's %.3g s; exact: %v", c.sim, e.Name, m.Module, m.Version, m.WallS, stored.WallS, exact)
			switch {
			case stored.Converge != nil:
				reproduces(t, e.Name, m.Converge, stored.Converge)
			case stored.Scenario != nil && exact:
				reproducesScenario(t, e.Name, m.Scenario, stored.Scenario)
			case exact:
				same(t, e.Name+" mean cwnd (packets)", m.Response.MeanCwndPkts, stored.Response.MeanCwndPkts)
				same(t, e.Name+" 95% CI (packets)", m.Response.CI95Pkts, stored.Response.CI95Pkts)
				same(t, e.Name+" goodput (bit/s)", m.Response.GoodputBps, stored.Response.GoodputBps)
				same(t, e.Name+" sent (packets)", m.SentPkts, stored.SentPkts)
			default:
				got, want := m.Response.MeanCwndPkts, stored.Response.MeanCwndPkts
				ci := math.Hypot(m.Response.CI95Pkts, stored.Response.CI95Pkts)
				t.Logf("%s: mean cwnd %.4g ± %.2g packets, the set's %.4g ± %.2g", e.Name, got, m.Response.CI95Pkts, want, stored.Response.CI95Pkts)
				if math.Abs(got-want) > ci {
					t.Errorf("%s: mean cwnd %.4g packets, the set has %.4g: apart by more than the combined 95%% CI %.2g", e.Name, got, want, ci)
				}
			}
		})
	}
	t.Logf("re-runs: %.1f s", time.Since(t0).Seconds())
}

// reproduces checks a converge point: the loss, the window at it, the least window after
// and the time back at the BDP, as stored (a deterministic run with no confidence interval).
func reproduces(t *testing.T, name string, got, want *ConvergeStats) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s: no converge measurement", name)
	}
	same(t, name+" first loss (s)", got.FirstLossS, want.FirstLossS)
	same(t, name+" window at the loss (packets)", got.CwndAtLossPkts, want.CwndAtLossPkts)
	same(t, name+" least window after (packets)", got.MinAfterPkts, want.MinAfterPkts)
	if (got.RecoveryS == nil) != (want.RecoveryS == nil) {
		t.Fatalf("%s: back at the BDP after %v s, the set %v s", name, got.RecoveryS, want.RecoveryS)
	}
	if got.RecoveryS != nil {
		same(t, name+" back at the BDP after (s)", *got.RecoveryS, *want.RecoveryS)
	}
}

// reproducesScenario checks a scenario point: the queue, the marks and every flow, as stored.
func reproducesScenario(t *testing.T, name string, got, want *ScenarioStats) {
	t.Helper()
	if got == nil || len(got.Flows) != len(want.Flows) {
		t.Fatalf("%s: scenario measurement %+v, the set's has %d flows", name, got, len(want.Flows))
	}
	same(t, name+" mean queue (packets)", got.MeanQueuePkts, want.MeanQueuePkts)
	same(t, name+" utilisation", got.Utilisation, want.Utilisation)
	same(t, name+" ECN marks", got.MarkedPkts, want.MarkedPkts)
	for i, f := range got.Flows {
		same(t, fmt.Sprintf("%s flow %d goodput (bit/s)", name, i), f.GoodputBps, want.Flows[i].GoodputBps)
		same(t, fmt.Sprintf("%s flow %d mean cwnd (packets)", name, i), f.MeanCwndPkts, want.Flows[i].MeanCwndPkts)
	}
}

// same checks that a re-run number is the stored one: equal but for the 10^-9 the JSON's
// decimal round trip may leave.
func same(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*math.Max(math.Abs(want), 1) {
		t.Errorf("%s: %.12g, the set has %.12g", what, got, want)
	}
}
