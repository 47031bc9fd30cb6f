package response

import (
	"context"
	"testing"
)

// TestParallelAnalyses runs each analysis that fans out over workers (settings.Parallel)
// on a small grid with two workers, and checks that the parallel result equals the serial
// one: a cheap target for `go test -race` (CI runs it), and a test that fails if workers
// share state that one of them writes.
func TestParallelAnalyses(t *testing.T) {
	ctx := context.Background()
	algos := []string{"reno", "cubic", "scalable"}
	resp := func(w int) *ResponseReport {
		r, err := Response(ctx, Settings{Algorithms: algos, PMin: 1e-3, PMax: 1e-2, Points: 3, RTTExponentP: -1, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	fair := func(w int) *FairnessReport {
		r, err := Fairness(ctx, FairnessSettings{Mode: ModeRTT, Algorithms: algos, DurationS: 60, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	conv := func(w int) *ConvergeReport {
		r, err := Converge(ctx, ConvergeSettings{Algorithms: algos, BandwidthsBps: []float64{1e8}, MSSBytes: []float64{1500}, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r1, r2 := resp(1), resp(2)
	for i := range r1.Results {
		for k := range r1.Results[i].Points {
			if a, b := r1.Results[i].Points[k], r2.Results[i].Points[k]; a != b {
				t.Errorf("response %s point %d: %+v serial, %+v on 2 workers", algos[i], k, a, b)
			}
		}
	}
	f1, f2 := fair(1), fair(2)
	for i := range f1.Results {
		if f1.Results[i].Jain != f2.Results[i].Jain {
			t.Errorf("fairness %s: Jain %v serial, %v on 2 workers", algos[i], f1.Results[i].Jain, f2.Results[i].Jain)
		}
	}
	c1, c2 := conv(1), conv(2)
	for i := range c1.Results {
		a, b := c1.Results[i].RecoveryTimeS, c2.Results[i].RecoveryTimeS
		if (a == nil) != (b == nil) || (a != nil && *a != *b) {
			t.Errorf("converge row %d: recovery %v serial, %v on 2 workers", i, a, b)
		}
	}
}
