package response

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// The per-cycle confidence interval is honest: over 30 seeds, the spread of a point's mean
// window matches the standard error each run reports. The sample standard deviation of 30
// runs is itself uncertain by 1/√58 ≈ 13%, so the ratio must lie within 0.7 to 1.3 (about
// 2.3 of those). Scalable is the hard case: its windows at loss stay correlated for tens of
// cycles.
func TestCycleCIMatchesSeeds(t *testing.T) {
	for _, algo := range []string{"reno", "scalable"} {
		var means, ses []float64
		for seed := uint64(1); seed <= 30; seed++ {
			pt, err := MeasurePoint(context.Background(), algo, 1e-4,
				Settings{LossModel: "random", WarmupLosses: 200, MinLosses: 1600, MaxLosses: 1600, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			means = append(means, pt.MeanCwndPkts)
			// CI95Pkts is t(0.975, n − 1)·se; at n = 1600, t = 1.9615.
			ses = append(ses, pt.CI95Pkts/1.9615)
		}
		mean, sd := stat.MeanStdDev(means, nil)
		se := stat.Mean(ses, nil)
		t.Logf("%s: mean window %.2f packets, spread over seeds %.3f, reported standard error %.3f (ratio %.2f)", algo, mean, sd, se, sd/se)
		if r := sd / se; r < 0.7 || r > 1.3 {
			t.Errorf("%s: spread over seeds %.3f against reported standard error %.3f: ratio %.2f, want 0.7 to 1.3", algo, sd, se, r)
		}
	}
}

// The automatic warm-up finds CUBIC's slow transient without fast convergence: after 100
// loss events the deterministic cycle is still about 10% above RFC 9438's fixed point
// (5926 packets at p = 1e-6, τ = 0.1 s), and the trend test keeps discarding until the
// measured window is within 2% of it.
func TestAutoWarmupCubicTransient(t *testing.T) {
	cubicNoFC := map[string]float64{"fast_convergence": 0}
	s := Settings{Params: map[string]map[string]float64{"cubic": cubicNoFC}}
	pt, err := MeasurePoint(context.Background(), "cubic", 1e-6, s)
	if err != nil {
		t.Fatal(err)
	}
	want := RFC9438Table1["cubic"][4]
	t.Logf("p = 1e-6: %.1f packets after %d warm-up and %d measured loss events (RFC 9438: %.0f)", pt.MeanCwndPkts, pt.WarmupLosses, pt.LossEvents, want)
	if math.Abs(pt.MeanCwndPkts/want-1) > 0.02 {
		t.Errorf("automatic warm-up: %.1f packets, want %.0f ±2%%", pt.MeanCwndPkts, want)
	}
	s.WarmupLosses = 100
	fixed, err := MeasurePoint(context.Background(), "cubic", 1e-6, s)
	if err != nil {
		t.Fatal(err)
	}
	if fixed.MeanCwndPkts < 1.05*want {
		t.Errorf("a fixed warm-up of 100 gives %.1f packets: the transient this test is about has gone (want above %.0f)", fixed.MeanCwndPkts, 1.05*want)
	}
}

// A stationary run keeps the shortest warm-up: Reno under random loss settles within a
// few cycles, and no point's trend test fires.
func TestAutoWarmupStationary(t *testing.T) {
	for _, p := range []float64{1e-2, 1e-3, 1e-4} {
		pt, err := MeasurePoint(context.Background(), "reno", p, Settings{LossModel: "random", Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if pt.WarmupLosses != minWarmup {
			t.Errorf("reno p = %g: warm-up %d loss events, want %d", p, pt.WarmupLosses, minWarmup)
		}
	}
}
