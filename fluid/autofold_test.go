package fluid_test

import (
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// FoldingAuto folds the flows of a dumbbell of distinct access delays at 2% from 200
// classes on, where that at least halves them (access delays 5–25 ms: 82 bins); not below
// 200, not where the delays lie too far apart to share bins, not with FoldingCopies, and
// an explicit FoldDelay is kept. A run reports the width it folded at.
func TestAutoFold(t *testing.T) {
	spread := func(n int, ratio float64) *model.Scenario {
		sc := dumbbell(n, "rtt-spread", false, model.DropSynchronized, 1e9, 1)
		if ratio > 0 {
			d := 0.005
			for i := range n {
				sc.Links[2+i].DelayS, d = d, d*ratio // every delay in a bin of its own
			}
		}
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		return sc
	}
	for _, c := range []struct {
		name          string
		sc            *model.Scenario
		set           fluid.Settings
		fold          float64
		classes, runs int
	}{
		{"200 flows", spread(200, 0), fluid.Settings{}, 0.02, 82, 1},
		{"199 flows", spread(199, 0), fluid.Settings{}, 0, 199, 0},
		{"delays 3% apart", spread(200, 1.03), fluid.Settings{}, 0, 200, 0},
		{"copies only", spread(200, 0), fluid.Settings{Folding: fluid.FoldingCopies}, 0, 200, 0},
		{"5% asked", spread(200, 0), fluid.Settings{FoldDelay: 0.05}, 0.05, 34, 1},
	} {
		if got := fluid.FoldDelayOf(c.sc, c.set); got != c.fold {
			t.Errorf("%s: folds at %v, want %v", c.name, got, c.fold)
		}
		if got := fluid.ClassCount(c.sc, c.set); got != c.classes {
			t.Errorf("%s: %d classes, want %d", c.name, got, c.classes)
		}
		if c.runs == 0 {
			continue
		}
		res := runFluid(t, c.sc, c.set)
		if res.FoldDelay != c.fold || len(res.Flows) != len(c.sc.Flows) {
			t.Errorf("%s: the run reports fold_delay %v and %d flows, want %v and %d", c.name, res.FoldDelay, len(res.Flows), c.fold, len(c.sc.Flows))
		}
	}
}
