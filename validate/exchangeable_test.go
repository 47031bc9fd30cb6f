package validate

import (
	"context"
	"slices"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Flows that differ in nothing but their names and starts less than a round trip apart
// are judged by their group's mean, not one by one; a flow that starts later, or runs
// another algorithm, is judged on its own.
func TestExchangeableFlowsJudgedByMean(t *testing.T) {
	sc := &model.Scenario{
		Name: "exchangeable", DurationS: 20,
		Links: []model.Link{{Name: "l", CapacityBps: 20e6, DelayS: 0.02, BufferBDP: 1}},
		Paths: []model.Path{{Name: "p", Links: []string{"l"}}},
	}
	for i, f := range []struct {
		algo  string
		start float64
	}{{"reno", 0}, {"reno", 0.001}, {"reno", 0.03}, {"reno", 2}, {"cubic", 0}} {
		sc.Flows = append(sc.Flows, model.Flow{Name: string(rune('a' + i)), Algorithm: f.algo, Path: "p", StartS: f.start, WindowScaling: true})
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	if g := exchangeableGroups(sc); len(g) != 1 || !slices.Equal(g[0], []int{0, 1, 2}) {
		t.Fatalf("groups %v, want [[0 1 2]] (the RTT is 40 ms)", g)
	}
	v, err := Scenario(context.Background(), sc, 1)
	if err != nil {
		t.Fatal(err)
	}
	means := 0
	for _, m := range v.Metrics {
		switch {
		case len(m.Flows) > 0:
			means++
			if !m.Judged || v.Subject(m) != "flows 0–2 (mean)" {
				t.Errorf("%s %s: judged %v, want the group's judged mean", m.Metric, v.Subject(m), m.Judged)
			}
		case m.Flow != nil && *m.Flow <= 2 && m.Judged:
			t.Errorf("%s of flow %d is judged, want it reported only", m.Metric, *m.Flow)
		case m.Flow != nil && *m.Flow > 2 && !m.Judged:
			t.Errorf("%s of flow %d is not judged: %s", m.Metric, *m.Flow, m.Reason)
		}
	}
	if means != 3 {
		t.Errorf("%d group means, want 3 (window, throughput, loss events)", means)
	}
	if v.Passed+v.FailedCount+v.NotJudged != len(v.Metrics) || v.NotJudged < 9 {
		t.Errorf("counts %d passed, %d failed, %d not judged of %d metrics", v.Passed, v.FailedCount, v.NotJudged, len(v.Metrics))
	}
}
