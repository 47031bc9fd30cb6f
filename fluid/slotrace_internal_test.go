package fluid

import (
	"math"
	"testing"
)

// A full link racing a paced stream against two others: the admissions add up to the
// capacity, the others split theirs by their arrivals, and a sparse other stream gets in
// at C/(2·a_p) of what it sends, the chance that it comes before the paced packet due
// within U/a_p of a departure.
func TestRaceAdmission(t *testing.T) {
	for _, c := range []struct{ paced, o1, o2 float64 }{
		{1250, 10, 20}, {1000, 1, 1}, {1250, 200, 400}, {3000, 500, 0},
	} {
		l := &link{}
		l.capBps, l.mode = 1000, queueFull
		l.streams = []*stream{{arrive: c.paced, paced: true}, {arrive: c.o1}, {arrive: c.o2}}
		l.arrive, l.pacedArrive = c.paced+c.o1+c.o2, c.paced
		if !l.racing() {
			t.Fatalf("%+v: not racing", c)
		}
		var sum float64
		for _, st := range l.streams {
			a := l.admission(st)
			if !(a >= 0 && a <= st.arrive) {
				t.Errorf("%+v: stream admitted %g of %g", c, a, st.arrive)
			}
			sum += a
		}
		if math.Abs(sum-l.capBps) > 1e-9*l.capBps {
			t.Errorf("%+v: admissions %g, want the capacity %g", c, sum, l.capBps)
		}
		if c.o2 > 0 {
			if r1, r2 := l.admission(l.streams[1])/c.o1, l.admission(l.streams[2])/c.o2; math.Abs(r1-r2) > 1e-12 {
				t.Errorf("%+v: the others get in at %g and %g of their arrivals, want one fraction", c, r1, r2)
			}
		}
		if sparse := (c.o1 + c.o2) / c.paced; sparse < 0.05 {
			got, want := l.admission(l.streams[1])/c.o1, l.capBps/(2*c.paced)
			if math.Abs(got/want-1) > sparse {
				t.Errorf("%+v: a sparse stream gets in at %.4f of its arrivals, want C/(2a_p) = %.4f within %.2g", c, got, want, sparse)
			}
		}
	}
	// A link of no capacity does not race (a division by the paced arrivals, 0 there).
	l0 := &link{}
	l0.mode = queueFull
	l0.streams = []*stream{{arrive: 0, paced: true}, {arrive: 10}}
	l0.arrive = 10
	if l0.racing() {
		t.Error("a link of no capacity races")
	}
	// Below the capacity the paced stream does not race: the even split.
	l := &link{}
	l.capBps, l.mode = 1000, queueFull
	l.streams = []*stream{{arrive: 900, paced: true}, {arrive: 300}}
	l.arrive, l.pacedArrive = 1200, 900
	if l.racing() || math.Abs(l.admission(l.streams[1])-250) > 1e-9 {
		t.Errorf("paced 900 of 1000 bytes/s: racing %v, the other admitted %g, want the even split's 250", l.racing(), l.admission(l.streams[1]))
	}
}
