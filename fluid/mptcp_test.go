package fluid_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// seed001Run is one fluid run of seed001-mptcp with the MPTCP flow's algorithm set (or, for
// "reno-p1", a single-path Reno flow on p1 in its place).
func seed001Run(t *testing.T, algo string, seed uint64) *model.Result {
	t.Helper()
	sc, err := model.Builtin("seed001-mptcp")
	if err != nil {
		t.Fatal(err)
	}
	if algo == "reno-p1" {
		sc.Flows[0].Algorithm, sc.Flows[0].Paths, sc.Flows[0].Path = "reno", nil, "p1"
	} else {
		sc.Flows[0].Algorithm = algo
	}
	res, err := fluid.Run(context.Background(), sc, fluid.Settings{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Seed 001's experiment in the fluid engine, 1000 s, mean of four seeds (random losses at
// 1e-6 give only about 16 loss events on p1 per run). Theory (RFC 6356 §2): LIA's p1 subflow
// grows at most as Reno does there (min(α/W_total, 1/W) ≤ 1/W per ACK), so it gets less than
// a single-path Reno flow on p1 in the same network; and the MPTCP flow as a whole takes no
// more than that Reno flow on its best path (goal 2; 5% for the noise of four seeds). VLIA's
// CUBIC subflow has a mean window 1.054·(τ/p)^(3/4) ≥ 5927 packets, above p1's BDP of 4281,
// and keeps 0.7·(BDP + buffer) > BDP after a loss, so it keeps p1 nearly busy: 90% is
// asserted (the paper measured 80%, 397 of 500 Mb/s; the brief asks for over 70%). LIA
// must use under 25% of p1 (the paper: 10–20%), from the testbed's start at ssthresh 400.
func TestSeed001MPTCP(t *testing.T) {
	const seeds = 4
	const capP1, fileBytes = 500e6, 10e9
	type sums struct{ p1, p2, tcp float64 }
	mean := map[string]*sums{}
	for _, algo := range []string{"lia", "vlia", "olia", "reno-p1"} {
		m := &sums{}
		mean[algo] = m
		for seed := uint64(1); seed <= seeds; seed++ {
			res := seed001Run(t, algo, seed)
			for _, f := range res.Flows {
				v := f.MeanThroughputBps
				if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
					t.Fatalf("%s seed %d: flow %s throughput %g", algo, seed, f.Name, v)
				}
			}
			if algo == "reno-p1" {
				m.p1 += res.Flows[0].MeanThroughputBps / seeds
				m.tcp += res.Flows[1].MeanThroughputBps / seeds
				continue
			}
			if n := len(res.Flows); n != 3 || res.Flows[0].Name != "mptcp/0" || res.Flows[1].Name != "mptcp/1" ||
				res.Flows[0].Path != "p1" || res.Flows[1].Path != "p2" || res.Flows[1].Subflow != 1 {
				t.Fatalf("%s: result rows %+v", algo, res.Flows)
			}
			m.p1 += res.Flows[0].MeanThroughputBps / seeds
			m.p2 += res.Flows[1].MeanThroughputBps / seeds
			m.tcp += res.Flows[2].MeanThroughputBps / seeds
		}
		t.Logf("%-7s p1 %6.1f Mb/s (%4.1f%% of p1), p2 %5.1f Mb/s, MPTCP total %6.1f Mb/s, tcp on p2 %5.1f Mb/s",
			algo, m.p1/1e6, 100*m.p1/capP1, m.p2/1e6, (m.p1+m.p2)/1e6, m.tcp/1e6)
	}
	lia, vlia, reno := mean["lia"], mean["vlia"], mean["reno-p1"]
	if lia.p1 >= reno.p1 || lia.p1+lia.p2 > 1.05*reno.p1 {
		t.Errorf("LIA: p1 %.1f Mb/s and total %.1f Mb/s, want below single-path Reno's %.1f Mb/s on p1 (total +5%%)",
			lia.p1/1e6, (lia.p1+lia.p2)/1e6, reno.p1/1e6)
	}
	if olia := mean["olia"]; olia.p1 >= reno.p1 {
		t.Errorf("OLIA on p1 %.1f Mb/s, want below single-path Reno's %.1f Mb/s", olia.p1/1e6, reno.p1/1e6)
	}
	if share := lia.p1 / capP1; share >= 0.25 {
		t.Errorf("LIA uses %.1f%% of p1, want under 25%% (paper 10–20%%)", 100*share)
	}
	if share := vlia.p1 / capP1; share < 0.9 {
		t.Errorf("VLIA uses %.1f%% of p1, want over 90%%", 100*share)
	}
	tLIA := fileBytes * 8 / (lia.p1 + lia.p2)
	tVLIA := fileBytes * 8 / (vlia.p1 + vlia.p2)
	t.Logf("10 GB download: LIA %.1f s, VLIA %.1f s, ratio %.2f (paper 3.67: 115 vs 422 Mb/s)", tLIA, tVLIA, tLIA/tVLIA)
}
