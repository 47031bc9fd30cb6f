package response

import (
	"context"
	"math"
	"testing"
)

// Three Reno flows with equal RTTs and synchronized losses converge to equal shares:
// Jain > 0.98 after convergence (each synchronized halving halves their differences).
func TestFairnessSameReno(t *testing.T) {
	rep, err := Fairness(context.Background(), FairnessSettings{Algorithms: []string{"reno", "cubic"}, StartGapS: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Jain <= 0.98 {
			t.Errorf("%s: Jain %.4f after convergence, want > 0.98", r.Algorithm, r.Jain)
		}
		if r.Utilisation > 1+1e-9 {
			t.Errorf("%s: utilisation %.6f above capacity", r.Algorithm, r.Utilisation)
		}
		for _, j := range r.JainSeries {
			if j.Jain < 1.0/3-1e-12 || j.Jain > 1+1e-12 {
				t.Fatalf("%s: Jain %.4f at %g s outside [1/n, 1]", r.Algorithm, j.Jain, j.TS)
			}
		}
	}
}

// With synchronized losses the throughput ratio of two flows is (τ₂/τ₁)^(1/(1−d)):
// Reno (d = 1/2) 4 for RTTs in ratio 2, CUBIC linear, 2 (docs/references.md "Fairness", RFC
// 9438 §3.3). A 2%-of-BDP buffer keeps queueing delay (≤ 2 ms) from diluting the RTT ratio;
// CUBIC runs at 1 Gb/s so that its windows (~3000 packets) stay far above the Reno-friendly
// region (W* = 1.654·τ^−1.5 = 148 packets at 50 ms).
func TestFairnessRTTRatio(t *testing.T) {
	for _, tc := range []struct {
		algo       string
		bottleneck float64
		ratio      float64
	}{{"reno", 100e6, 4}, {"cubic", 1e9, 2}} {
		rep, err := Fairness(context.Background(), FairnessSettings{Mode: ModeRTT, Algorithms: []string{tc.algo},
			RTTsS: []float64{0.05, 0.1}, BufferBDP: 0.02, BottleneckBps: tc.bottleneck, AccessBps: 2 * tc.bottleneck, DurationS: 2000})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Results[0]
		within(t, r.Algorithm+" throughput ratio", r.Shares[0].ThroughputBps/r.Shares[1].ThroughputBps, tc.ratio, 0.10)
		if e := math.Log2(tc.ratio); r.RTTExponent == nil || math.Abs(*r.RTTExponent-e) > 0.15 {
			t.Errorf("%s: RTT-unfairness exponent %.3f, want %.2f ±0.15", r.Algorithm, *r.RTTExponent, e)
		}
	}
}

func TestJain(t *testing.T) {
	for _, tc := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{1, 1, 1}, 1},
		{[]float64{1, 0}, 0.5},
		{[]float64{3, 0, 0}, 1.0 / 3},
		{[]float64{1, 2}, 0.9}, // docs/references.md: ratio 2 → J(2) = 0.90
		{[]float64{1, 3}, 0.8}, // ratio 3 → J(3) = 0.80
		{nil, 1},
	} {
		if got := Jain(tc.x); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Jain(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}
