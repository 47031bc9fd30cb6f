package validate

import (
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// TestSeedsJudgesMeans: each metric over seeds 1 and 2 is the mean of the two runs' values,
// judged by the tolerance that judged it at one seed, and its ci95 is the Student-t half
// width of the two per-seed signed errors (relative or absolute, as the metric's), |e1 − e2|/2 · t(0.975, 1). One seed's Seeds is
// that seed's Scenario. The parking lot's packet senders jitter their sends, so its seeds
// differ.
func TestSeedsJudgesMeans(t *testing.T) {
	sc, err := model.Builtin("parking-lot")
	if err != nil {
		t.Fatal(err)
	}
	sc.DurationS = 20
	one, err := Scenario(t.Context(), sc, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, err := Scenario(t.Context(), sc, 2)
	if err != nil {
		t.Fatal(err)
	}
	both, err := Seeds(t.Context(), sc, []uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(both.Seeds) != 2 || both.Seed != 1 || len(both.Metrics) != len(one.Metrics) {
		t.Fatalf("seeds %v, seed %d, %d metrics; want [1 2], 1, %d", both.Seeds, both.Seed, len(both.Metrics), len(one.Metrics))
	}
	const t975 = 12.706204736 // Student t, 1 degree of freedom
	differ := 0
	for i, m := range both.Metrics {
		a, b := one.Metrics[i], two.Metrics[i]
		if f, p := (a.Fluid+b.Fluid)/2, (a.Packet+b.Packet)/2; m.Fluid != f || m.Packet != p {
			t.Errorf("%s %s: fluid %g, packet %g; want the means %g, %g", m.Metric, both.Subject(m), m.Fluid, m.Packet, f, p)
		}
		if a.Packet != b.Packet {
			differ++
		}
		if m.Judged != a.Judged {
			t.Errorf("%s %s: judged %v over the seeds, %v at one", m.Metric, both.Subject(m), m.Judged, a.Judged)
			continue
		}
		if !m.Judged {
			continue
		}
		if want := a.tol.Judge(m.Metric, m.Fluid, m.Packet); m.Error != want.Error || m.OK != want.OK {
			t.Errorf("%s %s: error %g ok %v, want %g %v", m.Metric, both.Subject(m), m.Error, m.OK, want.Error, want.OK)
		}
		if m.Kind == Sign {
			continue
		}
		e1, e2 := a.Fluid-a.Packet, b.Fluid-b.Packet
		if m.Kind == Relative {
			e1, e2 = signedRelative(a.Fluid, a.Packet, a.tol.Scale), signedRelative(b.Fluid, b.Packet, b.tol.Scale)
		}
		if want := math.Abs(e1-e2) / 2 * t975; m.CI95 == nil || math.Abs(*m.CI95-want) > 1e-9*(1+want) {
			t.Errorf("%s %s: ci95 %v, want %g", m.Metric, both.Subject(m), m.CI95, want)
		}
	}
	if differ < len(one.Metrics)/2 {
		t.Errorf("only %d of %d packet values differ between seeds 1 and 2: the test would not tell a mean from a seed", differ, len(one.Metrics))
	}
	if both.FailedCount+both.Passed+both.NotJudged != len(both.Metrics) {
		t.Errorf("counts %d + %d + %d, want %d metrics", both.FailedCount, both.Passed, both.NotJudged, len(both.Metrics))
	}
	alone, err := Seeds(t.Context(), sc, []uint64{1})
	if err != nil {
		t.Fatal(err)
	}
	if alone.Seeds != nil || len(alone.Metrics) != len(one.Metrics) || alone.Metrics[0].Fluid != one.Metrics[0].Fluid {
		t.Errorf("one seed's Seeds is not its Scenario: seeds %v", alone.Seeds)
	}
}

// Where the packet engine draws nothing from the seed (seed 004's two flows: no loss
// process, no jitter) every seed gives one run and the report says so; under random loss
// the runs differ and it does not.
func TestSeedsSameRunNote(t *testing.T) {
	for _, c := range []struct {
		builtin string
		same    bool
	}{{"seed004-lfn", true}, {"modern-bbr-random-loss", false}} {
		sc, err := model.Builtin(c.builtin)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Seeds(t.Context(), sc, []uint64{1, 2})
		if err != nil {
			t.Fatal(err)
		}
		noted := false
		for _, n := range v.Notes {
			noted = noted || strings.Contains(n, "its 2 seeds gave one run")
		}
		if noted != c.same {
			t.Errorf("%s: one-run note %v, want %v (notes %q)", c.builtin, noted, c.same, v.Notes)
		}
	}
}
