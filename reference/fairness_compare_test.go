package reference

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
)

// The embedded summary is the reference set's fairness files, summarised: `go test
// ./reference -update` rewrites it after scripts/reference/regenerate.sh.
func TestStoredFairness(t *testing.T) {
	files, err := LoadSet(setDir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(StoredFairnessOf(files), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	path := filepath.Join("stored", "ns2-fairness.json")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(b) != string(storedFairnessJSON) {
		t.Errorf("%s is not the reference set's fairness files (go test ./reference -update rewrites it)", path)
	}
	st, err := Stored()
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 15 {
		t.Errorf("%d stored fairness experiments, want 15 (5 algorithms × 3 modes)", len(st))
	}
	for _, s := range st {
		if s.Spec == nil || s.Jain.N < 10 || len(s.Shares) != len(s.Spec.Flows) || !strings.HasPrefix(s.Source, "testdata/reference/ns2/fairness-") {
			t.Errorf("%s: %d seeds, %d shares, spec %v", s.Source, s.Jain.N, len(s.Shares), s.Spec != nil)
		}
	}
}

// tcpfluid's fairness run with the reference's settings is the stored experiment: the
// comparison is attached with the differences of the means, and an experiment that is not
// the stored one (another bottleneck) or an algorithm the set lacks gets a note instead.
func TestCompareFairness(t *testing.T) {
	st, err := Stored()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"same", "rtt", "friendliness"} {
		s := FairnessSettings(FairnessSpec{Mode: mode, Algorithm: "reno"})
		s.Algorithms = []string{"cubic@linux", "scalable"}
		rep, err := response.Fairness(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		notes := CompareFairness(rep, st)
		for _, r := range rep.Results[:1] {
			ref := r.Reference
			if ref == nil {
				t.Fatalf("%s %s: no reference; notes %q", mode, r.Algorithm, notes)
			}
			if d := r.Jain - ref.Jain.Mean; math.Abs(ref.JainDiff-d) > 1e-12 || len(ref.ShareDiffs) != len(r.Shares) {
				t.Errorf("%s %s: Jain diff %v, want %v; %d share diffs", mode, r.Algorithm, ref.JainDiff, d, len(ref.ShareDiffs))
			}
			if want := FairnessVerdict(ref.JainDiff, ref.MaxShareDiff); ref.Verdict != want || ref.Tolerance != FairnessTolerance {
				t.Errorf("%s %s: verdict %q (±%v), want %q (±%v)", mode, r.Algorithm, ref.Verdict, ref.Tolerance, want, FairnessTolerance)
			}
			// Header, SACK and the receiver window are the simulators'; the engine and
			// the seeds are not, nor (friendliness) the textbook Reno flows.
			d := ref.Differences
			if mode == "friendliness" && len(d) == 3 && strings.HasPrefix(d[2], "competing flows reno,") {
				d = d[:2]
			}
			if len(d) != 2 || !strings.Contains(d[0], "fluid engine") || d[1] != "1 seeds, ns-2 10" {
				t.Errorf("%s %s: differences %q, want the engine's and the seeds' (and the competing flows')", mode, r.Algorithm, ref.Differences)
			}
		}
		if rep.Results[1].Reference != nil || len(notes) != 1 || !strings.Contains(notes[0], "scalable: no stored ns-2 run") {
			t.Errorf("%s scalable: reference %v, notes %q", mode, rep.Results[1].Reference, notes)
		}
		// The fluid counted as ns-2's jittered sender counts, with its random drops, over
		// ns-2's ten seeds, is ns-2's experiment: no difference is left to state.
		like := s
		like.Algorithms, like.Form, like.DropRule, like.JitterS, like.Seeds = []string{"cubic@linux"}, fluid.FormHybridRecovery, model.DropRandom, 240e-6, st[0].Seeds
		if mode == "friendliness" {
			// The textbook Reno flows are a difference: ns-2's are Linux's.
			if rep, err = response.Fairness(context.Background(), like); err != nil {
				t.Fatal(err)
			}
			CompareFairness(rep, st)
			if d := rep.Results[0].Reference.Differences; len(d) != 1 || d[0] != "competing flows reno, ns-2's run Linux's reno module (--against reno@linux:4)" {
				t.Errorf("cubic@linux against reno: differences %q, want the competing flows'", d)
			}
			like.Against = "reno@linux"
		}
		if rep, err = response.Fairness(context.Background(), like); err != nil {
			t.Fatal(err)
		}
		if CompareFairness(rep, st); rep.Results[0].Reference == nil || len(rep.Results[0].Reference.Differences) != 0 {
			t.Errorf("%s cubic@linux as ns-2 ran it: reference %+v", mode, rep.Results[0].Reference)
		}
		if mode != "rtt" {
			continue
		}
		s.BottleneckBps, s.Algorithms = 50e6, []string{"reno"}
		if rep, err = response.Fairness(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		notes = CompareFairness(rep, st)
		if rep.Results[0].Reference != nil || len(notes) != 1 || !strings.Contains(notes[0], "bottleneck 50 Mb/s, ns-2 100 Mb/s") {
			t.Errorf("%s at 50 Mb/s: reference %v, notes %q", mode, rep.Results[0].Reference, notes)
		}
	}
}

// The verdict is "within" only when both the Jain difference (either sign) and the largest
// share difference are at most FairnessTolerance; CompareSummary finds the largest share
// difference of an engine's run against a simulator's means.
func TestFairnessVerdict(t *testing.T) {
	sum := &FairnessSummary{SeedSpread: response.SeedSpread{Jain: Spread{Mean: 0.95}, Shares: []Spread{{Mean: 0.5}, {Mean: 0.3}, {Mean: 0.2}}}}
	for _, c := range []struct {
		jain    float64
		shares  []float64
		dj, ds  float64
		verdict string
		ok      bool
	}{
		{0.95, []float64{0.5, 0.3, 0.2}, 0, 0, "within", true},
		{0.99, []float64{0.47, 0.32, 0.21}, 0.04, 0.03, "within", true},
		{0.90, []float64{0.5, 0.3, 0.2}, -0.05, 0, "within", true},
		{0.89, []float64{0.5, 0.3, 0.2}, -0.06, 0, "outside", true},
		{0.95, []float64{0.5, 0.24, 0.26}, 0, 0.06, "outside", true},
		{0.95, []float64{0.5, 0.5}, 0, 0, "", false},
	} {
		dj, ds, v, ok := CompareSummary(&EngineStats{Jain: c.jain, Shares: c.shares}, sum)
		if ok != c.ok || v != c.verdict || math.Abs(dj-c.dj) > 1e-12 || math.Abs(ds-c.ds) > 1e-12 {
			t.Errorf("Jain %v shares %v: %+.3f, %.3f, %q, %v; want %+.3f, %.3f, %q, %v", c.jain, c.shares, dj, ds, v, ok, c.dj, c.ds, c.verdict, c.ok)
		}
	}
	if _, _, _, ok := CompareSummary(nil, sum); ok {
		t.Error("no engine run compared")
	}
}

// The seeds decide a verdict when every difference's 95% interval lies within the
// tolerance (within) or one lies wholly beyond it (outside); otherwise more seeds would.
func TestFairnessNoiseDecides(t *testing.T) {
	sim := response.SeedSpread{Jain: response.Spread{Mean: 0.95, SD: 0.02, N: 10},
		Shares: []response.Spread{{Mean: 0.5, SD: 0.05, N: 10}, {Mean: 0.5, SD: 0.05, N: 10}}}
	for _, c := range []struct {
		name    string
		shares  []float64
		verdict string
		decided bool
	}{
		{"close, within", []float64{0.51, 0.49}, "within", true},          // 0.01 + 0.036 ≤ 0.05
		{"near the edge, within", []float64{0.54, 0.46}, "within", false}, // 0.04 + 0.036 > 0.05
		{"near the edge, outside", []float64{0.56, 0.44}, "outside", false},
		{"far, outside", []float64{0.65, 0.35}, "outside", true}, // 0.15 − 0.036 > 0.05
	} {
		sds := []float64{c.shares[0] - 0.5, c.shares[1] - 0.5}
		ds := math.Max(math.Abs(sds[0]), math.Abs(sds[1]))
		if v := FairnessVerdict(0, ds); v != c.verdict {
			t.Fatalf("%s: verdict %s, want %s", c.name, v, c.verdict)
		}
		_, shw, decided := fairnessNoise(nil, 0.95, c.shares, sim, 0, sds, c.verdict)
		if decided != c.decided || math.Abs(shw[0]-0.03577) > 1e-4 {
			t.Errorf("%s: decided %v (share ±%.4f), want %v (±0.0358: t(0.975, 9)·0.05/√10)", c.name, decided, shw[0], c.decided)
		}
	}
}
