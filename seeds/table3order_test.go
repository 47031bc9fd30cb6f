package seeds

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestTable3PhaseAgree recounts table3PhaseAgree from ns-2.35's stored runs of the seed's
// script with both CBR starts moved by 0–19 ms: distinct segments received at n4.
func TestTable3PhaseAgree(t *testing.T) {
	b, err := os.ReadFile("../packet/testdata/seed003_ns2.json")
	if err != nil {
		t.Fatal(err)
	}
	var runs struct {
		ShiftS     []float64 `json:"shift_s"`
		Algorithms map[string]struct {
			UniquePkts []int `json:"unique_pkts"`
		} `json:"algorithms"`
	}
	if err := json.Unmarshal(b, &runs); err != nil {
		t.Fatal(err)
	}
	if len(runs.ShiftS) != Table3PhaseRuns {
		t.Fatalf("%d stored runs, Table3PhaseRuns %d", len(runs.ShiftS), Table3PhaseRuns)
	}
	if len(table3PhaseAgree) != len(Table3Ranking)*(len(Table3Ranking)-1)/2 {
		t.Errorf("%d pairs counted, Table 3 ranks %d algorithms", len(table3PhaseAgree), len(Table3Ranking))
	}
	for pair, want := range table3PhaseAgree {
		hi, lo := runs.Algorithms[pair[0]].UniquePkts, runs.Algorithms[pair[1]].UniquePkts
		if len(hi) != Table3PhaseRuns || len(lo) != Table3PhaseRuns {
			t.Fatalf("%v: %d and %d runs stored", pair, len(hi), len(lo))
		}
		got := 0
		for i := range hi {
			if hi[i] > lo[i] {
				got++
			}
		}
		if got != want {
			t.Errorf("%s above %s in %d of the stored runs, table3PhaseAgree says %d", pair[0], pair[1], got, want)
		}
	}
}

// The sign test's two-sided p-values against the binomial distribution's, by hand:
// P(X ≤ 6 | n = 20, p = ½) = 60460/2^20, P(X ≥ 12) = 263950/2^20.
func TestSignTestP(t *testing.T) {
	for _, c := range []struct {
		k, n int
		want float64
	}{
		{6, 20, 2 * 60460.0 / (1 << 20)},
		{14, 20, 2 * 60460.0 / (1 << 20)},
		{20, 20, 2.0 / (1 << 20)},
		{0, 20, 2.0 / (1 << 20)},
		{10, 20, 1},
		{12, 20, 2 * 263950.0 / (1 << 20)},
	} {
		if got := signTestP(c.k, c.n); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("signTestP(%d, %d) = %.12g, want %.12g", c.k, c.n, got, c.want)
		}
	}
}
