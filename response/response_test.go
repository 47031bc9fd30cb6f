package response

import (
	"context"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

func within(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got/want-1) > rel {
		t.Errorf("%s = %.6g, want %.6g ±%.3g%%", what, got, want, 100*rel)
	} else {
		t.Logf("%s = %.6g (reference %.6g, %+.2f%%)", what, got, want, 100*(got/want-1))
	}
}

func responseOf(t *testing.T, s Settings) *ResponseReport {
	t.Helper()
	s.RTTExponentP = -1
	rep, err := Response(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// docs/references.md "Response functions": Reno periodic c = sqrt(3/2), d = 0.5 (Mathis et al.
// 1997); Scalable 0.0749/p (Kelly 2003); HighSpeed 0.12/p^0.835 (RFC 3649 §5) fitted over
// p <= 1e-4. Tolerances are the issue's: Reno c ±2%, d ±0.01; Scalable c ±5%, d ±0.02;
// HighSpeed c ±10%, d ±0.02.
func TestResponsePeriodicFits(t *testing.T) {
	rep := responseOf(t, Settings{Algorithms: []string{"reno", "scalable", "highspeed"}})
	for _, r := range rep.Results {
		var cTol, dTol float64
		switch r.Algorithm {
		case "reno":
			cTol, dTol = 0.02, 0.01
		case "scalable":
			cTol, dTol = 0.05, 0.02
		case "highspeed":
			cTol, dTol = 0.10, 0.02
		}
		within(t, r.Algorithm+" c", r.C, r.Reference.C, cTol)
		if math.Abs(r.D-r.Reference.D) > dTol {
			t.Errorf("%s d = %.4f, want %.4f ±%g", r.Algorithm, r.D, r.Reference.D, dTol)
		}
		if r.R2 < 0.999 {
			t.Errorf("%s: R² = %.5f over %d points", r.Algorithm, r.R2, r.FitPoints)
		}
	}
}

// RFC 9438 Table 1 (τ = 0.1 s): the HSTCP row within 5%.
func TestResponseHighSpeedRFC9438Table1(t *testing.T) {
	rep := responseOf(t, Settings{Algorithms: []string{"highspeed"}, PMin: 1e-7, PMax: 1e-4, Points: 4})
	table := RFC9438Table1["highspeed"]
	for _, pt := range rep.Results[0].Points {
		for i, p := range RFC9438LossRates {
			if math.Abs(pt.P/p-1) < 1e-9 {
				within(t, "HSTCP W̄ at p="+fmtP(p), pt.MeanCwndPkts, table[i], 0.05)
			}
		}
	}
}

// RFC 9438 Tables 1 and 2 for CUBIC. The RFC's numbers come from the deterministic model
// in which every loss falls on the plateau W_max (RFC 9438 §5, without fast convergence);
// that cycle is a fixed point which attracts only as n^(−1/2) over n loss events
// (W_max − W(K−δ) = C·δ³), so the check runs with fast_convergence = 0 and 3000 warm-up
// losses (about 2% left). With fast convergence on (the default) every other loss falls
// before the plateau and the mean is about 6% lower: the response command reports that.
func TestResponseCubicRFC9438Tables(t *testing.T) {
	for _, tc := range []struct {
		rtt   float64
		table []float64
	}{{0.1, RFC9438Table1["cubic"]}, {0.01, RFC9438Table2Cubic}} {
		rep := responseOf(t, Settings{
			Algorithms: []string{"cubic", "reno"}, PMin: 1e-8, PMax: 1e-2, Points: 7, RTTS: tc.rtt,
			WarmupLosses: 3000, Params: map[string]map[string]float64{"cubic": {"fast_convergence": 0}},
		})
		cubic, reno := rep.Results[0], rep.Results[1]
		for i, pt := range cubic.Points {
			i := len(tc.table) - 1 - i // the tables run from p = 1e-2 down
			// Reno-like where the table shows Reno's 1.2/√p (the RFC rounds sqrt(3/2)):
			// compare with our Reno at the same p.
			want := tc.table[i]
			if math.Abs(want-1.2/math.Sqrt(pt.P)) < 0.01*want {
				want = reno.Points[len(tc.table)-1-i].MeanCwndPkts
			}
			within(t, "CUBIC W̄ at τ="+fmtP(tc.rtt)+" p="+fmtP(pt.P), pt.MeanCwndPkts, want, 0.05)
		}
	}
}

func fmtP(p float64) string { return strconv.FormatFloat(p, 'g', 3, 64) }

// Reno under random (Bernoulli) loss: c within 5% of Mathis's 1.31, fitted over
// p <= 1e-3 where the constant applies.
func TestResponseRenoRandom(t *testing.T) {
	rep := responseOf(t, Settings{Algorithms: []string{"reno"}, LossModel: "random", PMin: 1e-6, PMax: 1e-3, Points: 4, Seed: 7})
	r := rep.Results[0]
	for _, pt := range r.Points {
		t.Logf("p=%g W=%.5g ±%.3g (%d losses) W·√p=%.4f", pt.P, pt.MeanCwndPkts, pt.CI95Pkts, pt.LossEvents, pt.MeanCwndPkts*math.Sqrt(pt.P))
	}
	within(t, "reno random c", r.C, 1.31, 0.05)
	for _, pt := range r.Points {
		if pt.CI95Pkts > 0.02*pt.MeanCwndPkts && pt.LossEvents < 25600 {
			t.Errorf("p = %g: CI ±%.3g of %.4g with %d losses: stopped early", pt.P, pt.CI95Pkts, pt.MeanCwndPkts, pt.LossEvents)
		}
	}
}

// Every point of a random-loss sweep ends with its 95% interval within the 2% target, also
// for the algorithms whose cycles vary most: Scalable needs about 11,000 cycles where Reno
// needs 3,000 (a cap of 6,400 left it at 2.6%).
func TestResponseRandomIntervals(t *testing.T) {
	rep := responseOf(t, Settings{Algorithms: []string{"reno", "highspeed", "cubic", "scalable"}, LossModel: "random", PMin: 1e-6, PMax: 1e-2, Points: 3})
	for _, r := range rep.Results {
		for _, pt := range r.Points {
			if rel := pt.CI95Pkts / pt.MeanCwndPkts; !(rel <= 0.02) {
				t.Errorf("%s at p = %g: 95%% interval ±%.2f%% after %d cycles, want within 2%%", r.Algorithm, pt.P, 100*rel, pt.LossEvents)
			}
		}
	}
}

// The same seed gives the same numbers whatever the number of workers.
func TestResponseDeterministic(t *testing.T) {
	s := Settings{Algorithms: []string{"reno", "cubic"}, LossModel: "random", PMin: 1e-4, PMax: 1e-3, Points: 2, Seed: 3, MaxLosses: 400}
	s.Workers = 1
	a := responseOf(t, s)
	s.Workers = 4
	b := responseOf(t, s)
	for i := range a.Results {
		for j := range a.Results[i].Points {
			if a.Results[i].Points[j] != b.Results[i].Points[j] {
				t.Fatalf("worker count changed a point: %+v vs %+v", a.Results[i].Points[j], b.Results[i].Points[j])
			}
		}
	}
}

// CUBIC's window grows as τ^0.75 in the cubic region (RFC 9438 §5); Reno's not at all.
func TestResponseRTTExponent(t *testing.T) {
	rep, err := Response(context.Background(), Settings{Algorithms: []string{"cubic", "reno"}, PMin: 1e-6, PMax: 1e-6, Points: 1,
		Params: map[string]map[string]float64{"cubic": {"fast_convergence": 0}}, WarmupLosses: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if e := rep.Results[0].RTTExp.E; math.Abs(e-0.75) > 0.03 {
		t.Errorf("CUBIC RTT exponent %.3f, want 0.75 ±0.03", e)
	}
	if e := rep.Results[1].RTTExp.E; math.Abs(e) > 1e-3 {
		t.Errorf("Reno RTT exponent %.4f, want 0", e)
	}
}

// TCP friendliness: CUBIC meets Reno at W* = 1.654·τ^−1.5 (52 packets at 100 ms, RFC 9438
// §4.2 via docs/references.md); HighSpeed by construction near its Low_Window of 38 packets.
func TestResponseFriendlinessCrossing(t *testing.T) {
	rep := responseOf(t, Settings{Algorithms: []string{"reno", "highspeed", "cubic"}, WarmupLosses: 3000,
		Params: map[string]map[string]float64{"cubic": {"fast_convergence": 0}}})
	for _, r := range rep.Results {
		switch r.Algorithm {
		case "reno":
			if r.Friendly != nil {
				t.Errorf("reno crosses itself at %+v", r.Friendly)
			}
		case "highspeed":
			within(t, "HighSpeed W*", r.Friendly.WStarPkts, 38, 0.10)
		case "cubic":
			within(t, "CUBIC W*", r.Friendly.WStarPkts, 1.654*math.Pow(0.1, -1.5), 0.10)
		}
	}
}

func TestResponseBadInput(t *testing.T) {
	for _, s := range []Settings{
		{PMin: 0, PMax: 1},
		{PMin: -1e-3, PMax: 1e-2},
		{PMin: 1e-2, PMax: 1e-3},
		{Algorithms: []string{"nope"}},
		{LossModel: "bursty"},
		{RTTS: -0.1},
		{Points: -2},
	} {
		if _, err := Response(context.Background(), s); !errors.Is(err, model.ErrSettings) {
			t.Errorf("%+v: error %v, want model.ErrSettings", s, err)
		}
	}
	if _, err := MeasurePoint(context.Background(), "reno", 1, Settings{}); !errors.Is(err, model.ErrSettings) {
		t.Errorf("p = 1: error %v, want model.ErrSettings", err)
	}
}

func BenchmarkResponsePoint(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MeasurePoint(context.Background(), "reno", 1e-4, Settings{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResponseClassic11(b *testing.B) {
	for b.Loop() {
		if _, err := Response(context.Background(), Settings{RTTExponentP: -1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResponseCycle: the cost of one loss cycle of a random-loss point (p = 1e-4,
// 100 warm-up and 6,400 measured cycles), per algorithm, as ns/cycle.
func BenchmarkResponseCycle(b *testing.B) {
	for _, algo := range []string{"reno", "highspeed", "cubic", "scalable"} {
		b.Run(algo, func(b *testing.B) {
			s := Settings{LossModel: "random", WarmupLosses: 100, MinLosses: 6400, MaxLosses: 6400}
			cycles := 0
			for b.Loop() {
				pt, err := MeasurePoint(context.Background(), algo, 1e-4, s)
				if err != nil {
					b.Fatal(err)
				}
				cycles += pt.LossEvents + s.WarmupLosses
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(cycles), "ns/cycle")
		})
	}
}

// A paced, rate-based law has no response function: on the point's path, which has no
// bottleneck, BBR's delivery-rate estimate and the solver's work grow without end (a run
// took five minutes without a result). Window laws are measured.
func TestRespondsRefusesPacedLaws(t *testing.T) {
	for _, c := range []struct {
		algo string
		ok   bool
	}{{"reno", true}, {"cubic@linux", true}, {"dctcp", true}, {"bbr", false}, {"bbr2", false}} {
		err := Responds(c.algo)
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, model.ErrSettings)) {
			t.Errorf("Responds(%q) = %v, want ok %v (else ErrSettings)", c.algo, err, c.ok)
		}
		if _, err := PointScenario(c.algo, nil, 0.1, 1460); (err == nil) != c.ok {
			t.Errorf("PointScenario(%q): %v, want ok %v", c.algo, err, c.ok)
		}
	}
}
