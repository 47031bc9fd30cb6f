package fluid

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// A drop on a counter that adds up several links waits, on average, the queues before the
// links it came from, weighted by what each takes: 100 packets queued at the first of two
// 10 Mb/s hops are 0.12 s; the second hop's overflow alone waits that long, the first's
// nothing, and the two overflowing alike half of it.
func TestWaitBeforeDrop(t *testing.T) {
	sc := &model.Scenario{Name: "two-hops", DurationS: 1,
		Links: []model.Link{{Name: "a", CapacityBps: 10e6, DelayS: 0.01, BufferPkts: 200}, {Name: "b", CapacityBps: 10e6, DelayS: 0.01, BufferPkts: 200}},
		Paths: []model.Path{{Name: "p", Links: []string{"a", "b"}}},
		Flows: []model.Flow{{Name: "f", Algorithm: "reno", Path: "p", MSSBytes: 1460, HeaderBytes: 40}},
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	set := Settings{}
	if err := set.resolve(); err != nil {
		t.Fatal(err)
	}
	s, err := newSystem(sc, set, nil)
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float64, s.dim)
	y[s.links[0].off+lvQueue] = 100 * 1500
	f := &s.flows[0]
	for _, c := range []struct {
		name string
		full [2]bool
		want float64
	}{
		{"second hop full", [2]bool{false, true}, 0.12},
		{"first hop full", [2]bool{true, false}, 0},
		{"both full", [2]bool{true, true}, 0.06},
		{"none full", [2]bool{false, false}, 0},
	} {
		for k := range s.links {
			l := &s.links[k]
			l.mode, l.arrive = queueBusy, 2*l.capBps
			if c.full[k] {
				l.mode = queueFull
			}
			f.streams[k].arrive = l.arrive
		}
		if got := s.waitBeforeDrop(f, dropOverflow, y); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: a drop waited %.6g s before its link, want %.6g", c.name, got, c.want)
		}
	}
}
