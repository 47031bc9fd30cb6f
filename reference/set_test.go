package reference

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// setDir is the reference set, made by scripts/reference/regenerate.sh.
var setDir = filepath.Join("..", "testdata", "reference")

// TestReferenceSetShape reads the reference set without any simulator and checks that
// every file is a well-formed `tcpfluid reference` report: each row names its point, each
// simulator measurement has its version, module, wall time and the numbers of its kind.
func TestReferenceSetShape(t *testing.T) {
	files, err := LoadSet(setDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no reference set yet (scripts/reference/regenerate.sh makes it)")
	}
	kinds := map[string]int{}
	for _, f := range files {
		r := f.Report
		name := filepath.Base(f.Path)
		sim := filepath.Base(filepath.Dir(f.Path))
		if len(r.Rows) != 1 {
			t.Errorf("%s: %d rows, want 1", name, len(r.Rows))
			continue
		}
		if !strings.HasPrefix(name, r.Kind+"-") {
			t.Errorf("%s: kind %q does not match the file name", name, r.Kind)
		}
		kinds[sim+" "+r.Kind]++
		row := r.Rows[0]
		ms := row.NS2
		if sim == NS3 {
			ms = row.NS3
		}
		if len(ms) == 0 {
			t.Errorf("%s: no %s measurement", name, sim)
			continue
		}
		for _, m := range ms {
			if m.Simulator != sim || m.Version == "" || m.Module == "" || !(m.WallS > 0) || !(m.SimulatedS > 0) {
				t.Errorf("%s: measurement %+v lacks simulator, version, module or times", name, m)
			}
			switch r.Kind {
			case KindResponse:
				s := m.Response
				if s == nil || !(s.MeanCwndPkts > 0) || !(s.CI95Pkts >= 0) || s.LossEvents < Batches || !(s.GoodputBps > 0) {
					t.Errorf("%s: response %+v", name, s)
					continue
				}
				// The window is at least a packet; a point's CI is finite.
				if s.MeanCwndPkts < 1 || math.IsInf(s.CI95Pkts, 0) {
					t.Errorf("%s: mean %v ± %v", name, s.MeanCwndPkts, s.CI95Pkts)
				}
				if row.P <= 0 || math.Abs(m.DropPkts/m.SentPkts-row.P) > 0.5*row.P+3/m.SentPkts*math.Sqrt(m.SentPkts*row.P) {
					t.Errorf("%s: %v drops in %v packets at p = %v", name, m.DropPkts, m.SentPkts, row.P)
				}
			case KindConverge:
				// The drop ends slow start at the BDP, except where Vegas left it earlier
				// (ns-3's at 153 packets of 804 at 100 Mb/s).
				c := m.Converge
				if c == nil || !(c.BDPPkts > 0) || !(c.FirstLossS > 0) || !(c.CwndAtLossPkts >= c.BDPPkts || row.Algorithm == "vegas" && c.CwndAtLossPkts > 0) {
					t.Errorf("%s: converge %+v", name, c)
				}
			case KindFairness:
				fs := m.Fairness
				if fs == nil || len(fs.Shares) < 2 || !(fs.Jain > 0 && fs.Jain <= 1+1e-9) || !(fs.Utilisation > 0.5 && fs.Utilisation <= 1.01) {
					t.Errorf("%s: fairness %+v", name, fs)
				}
			case KindScenario:
				s := m.Scenario
				if s == nil || len(s.Flows) == 0 || m.Spec == nil || !(s.Utilisation > 0 && s.Utilisation <= 1.01) || !(s.MeanQueuePkts >= 0) ||
					len(row.Metrics) == 0 || row.Packet == nil {
					t.Errorf("%s: scenario %+v, %d metrics", name, s, len(row.Metrics))
				}
			}
		}
		if r.Kind == KindFairness {
			sum := row.NS2Fairness
			if sim == NS3 {
				sum = row.NS3Fairness
			}
			if sum == nil || sum.Jain.N != len(ms) {
				t.Errorf("%s: the summary over seeds is missing or counts %v", name, sum)
			}
		}
	}
	t.Logf("reference set: %v", kinds)
}

// A response point's stored runs are every seed's (seed 1 in response-NAME-pP.json, more in
// response-NAME-pP-seeds*.json), CUBIC with β = 717/1024 apart from CUBIC's; their summary
// is the mean window, the runs' intervals combined, and the loss rate they realized
// together, dropped over sent.
func TestStoredRunsSummary(t *testing.T) {
	runs, err := StoredRuns(setDir, NS2, "reno", 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	var sum, ci2, sent, dropped float64
	for _, m := range runs {
		seeds = append(seeds, m.Seed)
		sum += m.Response.MeanCwndPkts
		ci2 += m.Response.CI95Pkts * m.Response.CI95Pkts
		sent, dropped = sent+m.SentPkts, dropped+m.DropPkts
	}
	slices.Sort(seeds)
	if !slices.Equal(seeds, []uint64{1, 2, 3}) {
		t.Fatalf("reno 1e-3: seeds %v, want 1, 2, 3", seeds)
	}
	s := SummarizeResponse(runs)
	if s.Runs != 3 || math.Abs(s.MeanCwndPkts-sum/3) > 1e-12 || math.Abs(s.CI95Pkts-math.Sqrt(ci2)/3) > 1e-12 ||
		s.LossRate != dropped/sent || !(s.LossRate > 9e-4 && s.LossRate < 1e-3) {
		t.Errorf("reno 1e-3 summary %+v; want the mean of %v, CI %v, loss rate %v", s, sum/3, math.Sqrt(ci2)/3, dropped/sent)
	}
	c717, err := StoredRuns(setDir, NS2, "cubic717", 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	c, err := StoredRuns(setDir, NS2, "cubic", 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != 3 || len(c717) != 3 || !(SummarizeResponse(c717).MeanCwndPkts < 0.9*SummarizeResponse(c).MeanCwndPkts) {
		t.Errorf("cubic %d runs (%v), cubic717 %d runs (%v): want three each, β = 717/1024 the smaller window",
			len(c), SummarizeResponse(c), len(c717), SummarizeResponse(c717))
	}
	if _, err := StoredRuns(setDir, NS2, "reno", 3e-3); err == nil {
		t.Error("reno at 3e-3: no error for a point the set does not hold")
	}
}
