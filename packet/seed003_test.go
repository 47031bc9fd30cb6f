package packet

import (
	"context"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

// seed003Table is Table 3 of seed 003 (docs/references.md, "Seed 003"): TCP packets dropped at
// the bottleneck, TCP packets received at n4 ("sent", retransmitted copies and the SYN
// included) and mean throughput = unique data × 552 × 8 / 9 s, kbit/s.
var seed003Table = map[string]struct{ dropped, sent, kbps float64 }{
	"tahoe":   {28, 1418, 649.64},
	"reno":    {29, 1419, 637.38},
	"newreno": {30, 1462, 659.95},
	"vegas":   {0, 1475, 723.24},
}

// seed003Run runs the builtin with one algorithm as ns-2.35's agents run it: Agent/TCP,
// /Reno and /Newreno put 552 + 40 header bytes on the wire and ACKs of 40 bytes
// (tcpip_base_hdr_size_; the builtin's header_bytes); Agent/TCP/Vegas sends 552-byte
// segments, its output() adding no header (the ns-2 trace shows them), with v_alpha_ 1,
// v_beta_ 3, v_gamma_ 1 (ns-default.tcl). shiftS delays both CBR sources.
func seed003Run(t *testing.T, algo string, shiftS float64) *model.Result {
	t.Helper()
	s, err := model.Builtin("seed003-dumbbell")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetAlgorithm(algo); err != nil {
		t.Fatal(err)
	}
	if algo == "vegas" {
		s.Flows[0].HeaderBytes = 0
		s.Flows[0].Params = map[string]float64{"alpha": 1, "beta": 3, "gamma": 1}
	}
	for i := range s.CBR {
		s.CBR[i].StartS += shiftS
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), s, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// seed003Counts are the table's three numbers from a result: TCP drops at the n3-n4 queue
// (all TCP drops less those at n0-n3, which only TCP crosses), data packets received and
// distinct data packets received.
func seed003Counts(r *model.Result) (drops, delivered, unique float64) {
	f := r.Flows[0]
	return f.DroppedPkts - r.Links[0].DroppedPkts, f.DeliveredPkts, f.GoodputBps * f.ActiveS / (8 * 552)
}

type ns2Reference struct {
	Source     string
	ShiftS     []float64 `json:"shift_s"`
	Algorithms map[string]map[string][]float64
}

func loadNS2(t *testing.T) ns2Reference {
	t.Helper()
	var ref ns2Reference
	readTestdata(t, "seed003_ns2.json", &ref)
	return ref
}

// Seed 003's Table 3 against one run of the builtin. Received packets and throughput must
// be within 10%, Vegas must lose nothing and lead, and the throughput ranking must be the
// paper's. The drop counts are small and sensitive to phase: ns-2.35 itself, given the
// same script with both CBR starts moved by 0–19 ms, drops 22–29 (Tahoe), 19–31 (Reno) and
// 29–39 (NewReno) packets (testdata/seed003_ns2.json), so a single run's drops are held to
// that range; TestSeed003Ensemble compares means.
func TestSeed003Table(t *testing.T) {
	ref := loadNS2(t)
	kbps := map[string]float64{}
	for _, algo := range []string{"tahoe", "reno", "newreno", "vegas"} {
		r := seed003Run(t, algo, 0)
		drops, delivered, unique := seed003Counts(r)
		want := seed003Table[algo]
		kbps[algo] = unique * 552 * 8 / 9 / 1e3
		t.Logf("%-7s dropped %2.0f (table %2.0f), received %4.0f (table %4.0f, %+.1f%%), throughput %.2f kbit/s (table %.2f, %+.1f%%)",
			algo, drops, want.dropped, delivered, want.sent, 100*(delivered/want.sent-1), kbps[algo], want.kbps, 100*(kbps[algo]/want.kbps-1))
		if r.Flows[0].ActiveS != 9 {
			t.Errorf("%s: active %v s, want 9 s (1.0 to 10.0 s)", algo, r.Flows[0].ActiveS)
		}
		if e := relErr(delivered, want.sent); e > 0.10 {
			t.Errorf("%s: %v packets received, want %v ± 10%%", algo, delivered, want.sent)
		}
		if e := relErr(kbps[algo], want.kbps); e > 0.10 {
			t.Errorf("%s: throughput %.2f kbit/s, want %.2f ± 10%%", algo, kbps[algo], want.kbps)
		}
		ns2 := ref.Algorithms[algo]["bottleneck_drops"]
		if lo, hi := floats.Min(ns2), floats.Max(ns2); drops < lo || drops > hi {
			t.Errorf("%s: %v TCP drops at the bottleneck, want within ns-2's %v–%v over CBR phase shifts", algo, drops, lo, hi)
		}
	}
	if d, _, _ := seed003Counts(seed003Run(t, "vegas", 0)); d != 0 {
		t.Errorf("vegas: %v drops, want 0", d)
	}
	order := []string{"vegas", "newreno", "tahoe", "reno"} // Table 3's throughput ranking
	for i := 1; i < len(order); i++ {
		if kbps[order[i-1]] <= kbps[order[i]] {
			t.Errorf("throughput %s %.2f <= %s %.2f kbit/s, want Table 3's order %v", order[i-1], kbps[order[i-1]], order[i], kbps[order[i]], order)
		}
	}
}

// The engine against ns-2.35 on the seed-003 script over the same 20 shifts of the CBR
// starts (0–19 ms): the mean TCP drops at the bottleneck, received and distinct packets
// must agree within 10%, and the slow-start overshoot into the 50-packet access queue must
// cost what it costs ns-2 (54 packets, the same in every run).
func TestSeed003Ensemble(t *testing.T) {
	ref := loadNS2(t)
	for _, algo := range []string{"tahoe", "reno", "newreno", "vegas"} {
		n := len(ref.ShiftS)
		drops, delivered, unique, access := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i, shift := range ref.ShiftS {
			r := seed003Run(t, algo, shift)
			drops[i], delivered[i], unique[i] = seed003Counts(r)
			access[i] = r.Links[0].DroppedPkts
		}
		for _, m := range []struct {
			name string
			got  []float64
		}{{"bottleneck_drops", drops}, {"delivered_pkts", delivered}, {"unique_pkts", unique}, {"access_drops", access}} {
			want := ref.Algorithms[algo][m.name]
			g, w := stat.Mean(m.got, nil), stat.Mean(want, nil)
			t.Logf("%-7s %-16s engine %7.2f ± %5.2f   ns-2 %7.2f ± %5.2f (mean ± sd)", algo, m.name, g, stat.StdDev(m.got, nil), w, stat.StdDev(want, nil))
			if (w == 0 && g != 0) || (w != 0 && relErr(g, w) > 0.10) {
				t.Errorf("%s: mean %s %.2f, ns-2 %.2f, want within 10%%", algo, m.name, g, w)
			}
		}
	}
}
