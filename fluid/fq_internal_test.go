package fluid

import (
	"math"
	"testing"
)

// An FQ link's queues share its capacity by max–min fairness: a queue that holds nothing
// and receives less than the fair rate passes what it receives, every other queue departs
// at the fair rate, and the departures fill the capacity whenever a queue is constrained.
func TestFQShareFair(t *testing.T) {
	for _, c := range []struct {
		name     string
		arrive   []float64 // bytes/s
		content  []float64 // bytes
		fair     float64
		departed []float64
	}{
		{"all below their share pass", []float64{1, 2, 3}, []float64{0, 0, 0}, math.Inf(1), []float64{1, 2, 3}},
		{"water-filling", []float64{1, 3, 8, 8}, []float64{0, 0, 0, 0}, 3, []float64{1, 3, 3, 3}},
		{"a backlogged queue takes the fair rate whatever it receives", []float64{0, 9, 1}, []float64{500, 0, 0}, 4.5, []float64{4.5, 4.5, 1}},
		{"a queue that lent near empty passes", []float64{2, 20}, []float64{-0.1, 100}, 8, []float64{2, 8}},
	} {
		l := &link{linkSpec: linkSpec{capBps: 10, fq: true}, linkState: linkState{up: true, mode: queueBusy}}
		y := make([]float64, len(c.arrive))
		for i, a := range c.arrive {
			l.streams = append(l.streams, &stream{content: i, arrive: a})
			y[i] = c.content[i]
		}
		l.serve(y)
		if l.fair != c.fair {
			t.Errorf("%s: fair rate %v, want %v", c.name, l.fair, c.fair)
		}
		sum := 0.0
		for i, st := range l.streams {
			sum += c.departed[i]
			if math.Abs(st.depart-c.departed[i]) > 1e-12 {
				t.Errorf("%s: stream %d departs at %v, want %v", c.name, i, st.depart, c.departed[i])
			}
		}
		if math.Abs(l.depart-sum) > 1e-12 {
			t.Errorf("%s: link departs at %v, want %v", c.name, l.depart, sum)
		}
	}
}

// Above the buffer the fattest queues lose the excess: in proportion to the eighth power of
// their contents, so that tied queues stay tied, a queue holding 10% more loses 2.14 times
// as much, and the drops add up to the excess.
func TestFQDropFromTheFattest(t *testing.T) {
	l := &link{linkSpec: linkSpec{capBps: 10, fq: true}, linkState: linkState{up: true, mode: queueFull}}
	y := []float64{110, 100, 100, 0}
	for i, a := range []float64{5, 5, 5, 1} {
		l.streams = append(l.streams, &stream{content: i, arrive: a})
	}
	l.arrive = 16
	l.serve(y)
	drop := make([]float64, len(y))
	total := 0.0
	for i, st := range l.streams {
		drop[i] = l.fqDropRate(st, y)
		total += drop[i]
	}
	if math.Abs(total-6) > 1e-12 || drop[1] != drop[2] || drop[3] != 0 || math.Abs(drop[0]/drop[1]-math.Pow(1.1, 8)) > 1e-12 {
		t.Errorf("drops %v bytes/s, want 6 in all, the two tied queues alike, the empty one none and the fattest 1.1⁸ times the tied ones", drop)
	}
}
