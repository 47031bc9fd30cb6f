package fluid

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
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

// At its buffer an FQ link drops from its fattest queue only, half its bytes in whole
// packets at once (at most fqDropBatch, at least one), and only that queue's flow reacts,
// a round trip later.
func TestFQOverflowDropsABatch(t *testing.T) {
	for _, c := range []struct {
		name    string
		content []float64 // bytes, of three flows' queues; packets of 100 bytes
		left    []float64
	}{
		{"half of the fattest, rounded up to whole packets", []float64{1000, 1050, 300}, []float64{1000, 450, 300}},
		{"at least one packet", []float64{100, 50, 0}, []float64{0, 50, 0}},
		{"at most a batch", []float64{100, 20000, 0}, []float64{100, 20000 - fqDropBatch*100, 0}},
	} {
		const nq, lvOff = 3, 3 // the queues' contents, then the link's variables
		y := make([]float64, nq+lvOff+linkVars+nq*flowCounters)
		s := &system{sc: &model.Scenario{DropRule: model.DropSynchronized}}
		s.links = []link{{linkSpec: linkSpec{capBps: 1e6, fq: true, refBytes: 100, off: lvOff}, linkState: linkState{up: true, mode: queueBusy}}}
		for i, b := range c.content {
			y[i] = b
			y[lvOff+lvQueue] += b
			st := &stream{content: i, flow: i, slot: i, wire: 100, cnt: nq + lvOff + linkVars + i*flowCounters}
			s.links[0].streams = append(s.links[0].streams, st)
			s.flows = append(s.flows, subflow{subflowState: subflowState{active: true, reactAt: math.Inf(1)}})
			s.flows[i].rtt = 0.1
		}
		queued := y[lvOff+lvQueue]
		s.fqOverflow(0, 2, y)
		for i, want := range c.left {
			if y[i] != want {
				t.Errorf("%s: queue %d holds %v bytes after the overflow, want %v", c.name, i, y[i], want)
			}
			hit := c.content[i] != want
			if reacts := s.flows[i].reactAt == 2.1; reacts != hit {
				t.Errorf("%s: flow %d reacts at %v; want a reaction at 2.1 s only for the queue dropped from", c.name, i, s.flows[i].reactAt)
			}
		}
		if gone := queued - y[lvOff+lvQueue]; gone != y[lvOff+lvDropped] || math.Abs(gone-(sum(c.content)-sum(c.left))) > 1e-9 {
			t.Errorf("%s: link queue lost %v bytes, dropped counter %v, want the contents' %v", c.name, gone, y[lvOff+lvDropped], sum(c.content)-sum(c.left))
		}
	}
}

func sum(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t
}
