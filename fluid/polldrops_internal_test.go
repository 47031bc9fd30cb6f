package fluid

import (
	"math/rand/v2"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Merged, the proportional rule's drops take no solver stop of their own (pollDrops): 150
// Reno flows of distinct round trips take no more solver steps under the proportional
// rule than under the synchronized rule, whose overflows stop the solver once, and at least
// one fewer per loss event than stopping at every drop heard and every recovery's end
// (ReactionsExact): 1039 steps against 2015 and 2105, over 600 loss events.
func TestPolledDropsShareStops(t *testing.T) {
	sync, _ := spreadSteps(t, 150, 0.0001, model.DropSynchronized, ReactionsMerged)
	polled, losses := spreadSteps(t, 150, 0.0001, model.DropProportional, ReactionsMerged)
	exact, _ := spreadSteps(t, 150, 0.0001, model.DropProportional, ReactionsExact)
	t.Logf("solver steps: synchronized %d, proportional %d polled (%d loss events), %d exact", sync, polled, losses, exact)
	if polled > sync || exact-polled < losses {
		t.Errorf("proportional rule: %d solver steps polled, %d exact, synchronized %d: want at most the synchronized rule's, and %d (a loss event's) fewer than the exact run's", polled, exact, sync, losses)
	}
}

// Under model.DropRandom a flow's draws come one ahead, so that pollDrops can foresee
// where a count that comes back on drops next, and in the order the stream gives them:
// the run's numbers are those of drawing each when it is needed.
func TestDrawDropLooksAhead(t *testing.T) {
	var f subflow
	f.dropRng = rand.New(rand.NewPCG(1, dropStream))
	f.dropAhead = f.dropRng.ExpFloat64()
	ref := rand.New(rand.NewPCG(1, dropStream))
	for i := range 5 {
		want := ref.ExpFloat64()
		if got := f.nextDropDraw(); got != want {
			t.Fatalf("draw %d foreseen as %v, the stream's is %v", i, got, want)
		}
		f.drawDrop()
		if f.dropDraw != want {
			t.Fatalf("draw %d is %v, the stream's is %v", i, f.dropDraw, want)
		}
	}
	var g subflow
	if g.drawDrop(); g.dropDraw != 1 || g.nextDropDraw() != 1 {
		t.Errorf("proportional rule: draw %v, next %v; want 1 and 1", g.dropDraw, g.nextDropDraw())
	}
}
