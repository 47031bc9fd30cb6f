package reference

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// startsGaps are the built-ins and engines whose BBR share, averaged over CUBIC's five
// starts, is out of tolerance against ns-3's average: over 0.2 BDP ns-3.37's TcpBbr
// collapses after its timeouts (docs/simulators.md) and takes 0.03 of the link where both
// engines' BBR takes 0.95; over 10 BDPs the fluid CUBIC's slow start behind BBR's fresh
// queue leaves it 0.78 of the link against ns-3's 0.86. The test fails when one leaves
// tolerance and when one listed here comes back within it.
var startsGaps = []string{
	"modern-bbr-cubic-shallow fluid",
	"modern-bbr-cubic-shallow packet",
	"modern-bbr-cubic-deep fluid",
}

// TestBBRCubicStartsNS3 judges BBR against one CUBIC flow over 0.2, 1 and 10 BDPs (the
// modern-bbr-cubic built-ins, tcpfluid's ns3 constants) on the mean of CUBIC starting 20,
// 40, 60, 80 and 100 ms after BBR, stored for ns-3.37 by scripts/reference (stages
// ns3-offsets and ns3-scenario). One start's shares turn on its phase against BBR's gain
// cycle (ns-3's BBR takes 0.101 to 0.163 of the link over 10 BDPs as CUBIC starts 20 to
// 100 ms after it), so BBR's share of the link is judged on the mean of the five: within
// 0.1 of ns-3's (issue 18's tolerance for the share) and its goodput within the scenario
// comparison's 15%.
func TestBBRCubicStartsNS3(t *testing.T) {
	if testing.Short() {
		t.Skip("fifteen 60-s runs in each engine")
	}
	set, err := LoadSet(filepath.Join(setDir, NS3))
	if err != nil {
		t.Fatal(err)
	}
	// goodput[builtin][engine][algorithm] sums the five starts' goodputs, bit/s.
	goodput := map[string]map[string]map[string]float64{}
	starts := map[string][]float64{}
	capBps := map[string]float64{} // each built-in's bottleneck, bit/s
	for _, f := range set {
		row := f.Report.Rows[0]
		name := strings.TrimPrefix(row.Experiment, "scenario-")
		if f.Report.Kind != KindScenario || !strings.HasPrefix(name, "modern-bbr-cubic-") {
			continue
		}
		m := row.NS3[0]
		sc, err := model.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Spec.Flows) != len(sc.Flows) {
			t.Fatalf("%s: ns-3 ran %d flows, the built-in has %d", f.Path, len(m.Spec.Flows), len(sc.Flows))
		}
		for i := range sc.Flows {
			sc.Flows[i].StartS = m.Spec.Flows[i].StartS
		}
		starts[name] = append(starts[name], sc.Flows[1].StartS)
		capBps[name] = sc.Links[0].CapacityBps
		fl, pk, err := TcpfluidScenario(t.Context(), ScenarioWithParams(sc, f.Report.TcpfluidParams), 1)
		if err != nil {
			t.Fatal(err)
		}
		if goodput[name] == nil {
			goodput[name] = map[string]map[string]float64{}
		}
		for engine, st := range map[string]*ScenarioStats{"fluid": fl.Scenario, "packet": pk.Scenario, "ns3": m.Scenario} {
			if goodput[name][engine] == nil {
				goodput[name][engine] = map[string]float64{}
			}
			for _, fs := range st.Flows {
				algo, _ := model.SplitVariant(fs.Algorithm)
				goodput[name][engine][algo] += fs.GoodputBps
			}
		}
	}
	tol := scenarioTolerances["goodput_bps"].tol
	var out []string
	for _, name := range []string{"modern-bbr-cubic-shallow", "modern-bbr-cubic-1bdp", "modern-bbr-cubic-deep"} {
		slices.Sort(starts[name])
		if !slices.EqualFunc(starts[name], []float64{0.02, 0.04, 0.06, 0.08, 0.1}, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) {
			t.Fatalf("%s: CUBIC starts %v s stored, want 0.02 to 0.1", name, starts[name])
		}
		link := 5 * capBps[name] // the five starts' goodputs are summed
		ns3 := goodput[name]["ns3"]
		for _, engine := range []string{"fluid", "packet"} {
			g := goodput[name][engine]
			share, rel := g["bbr"]/link, g["bbr"]/ns3["bbr"]-1
			key := name + " " + engine
			t.Logf("%s: BBR's share %.3f against ns-3's %.3f (goodput %+.3f), CUBIC's %.3f against %.3f", key, share, ns3["bbr"]/link, rel,
				g["cubic"]/link, ns3["cubic"]/link)
			if math.Abs(share-ns3["bbr"]/link) > 0.1 || math.Abs(rel) > tol {
				out = append(out, key)
			}
		}
	}
	assertGaps(t, "startsGaps", out, startsGaps)
}
