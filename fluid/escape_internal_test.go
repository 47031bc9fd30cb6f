package fluid

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// A flow whose share of an overflow is m packets escapes it with probability e^(−m): over
// 20,000 reactions the fraction is within four binomial standard deviations. A reaction
// not heard from a full queue, or one that found a random or RED drop (found.go), never
// escapes, and a reaction consumes the mark.
func TestEscapesPoisson(t *testing.T) {
	const n = 20000
	for _, m := range []float64{0, 0.3, 1.4, 3} {
		f := &subflow{}
		f.escapeRng = rand.New(rand.NewPCG(1, escapeStream))
		escaped := 0
		for range n {
			f.overflowHeard = true
			if f.escapes(m) {
				escaped++
			}
			if f.overflowHeard {
				t.Fatalf("m = %g: the reaction left its mark", m)
			}
		}
		p := math.Exp(-m)
		if got, sd := float64(escaped)/n, math.Sqrt(p*(1-p)/n); math.Abs(got-p) > 4*sd+1e-12 {
			t.Errorf("m = %g: escaped %.4f of reactions, want e^(−m) = %.4f ± %.4f", m, got, p, 4*sd)
		}
	}
	f := &subflow{}
	f.escapeRng = rand.New(rand.NewPCG(1, escapeStream))
	if f.escapes(0) {
		t.Error("a reaction not heard from a full queue escaped")
	}
	f.overflowHeard, f.found.on = true, true
	if f.escapes(0) {
		t.Error("a reaction that found a random drop escaped")
	}
	f.overflowHeard, f.found = true, foundLoss{holes: 1}
	if f.escapes(0) {
		t.Error("a reaction with a found hole escaped")
	}
	f = &subflow{}
	f.overflowHeard = true
	if f.escapes(0) {
		t.Error("a flow without escape draws (no send jitter) escaped")
	}
}

// A flow reaches a link smoothly when a link before it on its path is no faster: the
// parking lot's long flow at h2–h4 (after h1, as fast), not at h1 (its first hop); a cross
// flow never, from its 1 Gb/s access link; seed 000's flows not, from 200 into 100 Mb/s.
func TestSmoothAt(t *testing.T) {
	sc := &model.Scenario{Links: []model.Link{
		{Name: "h1", CapacityBps: 50e6}, {Name: "h2", CapacityBps: 50e6}, {Name: "h3", CapacityBps: 50e6},
		{Name: "a", CapacityBps: 1e9}, {Name: "slow", CapacityBps: 10e6}, {Name: "fast", CapacityBps: 100e6},
	}}
	for _, c := range []struct {
		links []int
		k     int
		want  bool
	}{
		{[]int{0, 1, 2}, 0, false},
		{[]int{0, 1, 2}, 1, true},
		{[]int{0, 1, 2}, 2, true},
		{[]int{3, 1}, 1, false},
		{[]int{3, 5}, 1, false},
		{[]int{4, 3, 5}, 2, true}, // the slow link spaced the packets before the fast one
		{[]int{5, 0}, 1, false},
	} {
		if got := smoothAt(sc, c.links, c.k); got != c.want {
			t.Errorf("links %v, hop %d: smooth %v, want %v", c.links, c.k, got, c.want)
		}
	}
}
