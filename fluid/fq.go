package fluid

import (
	"math"
	"slices"
)

// FQ-CoDel's flow queues in the fluid form (model.QueueFQCoDel). Each stream of the link —
// each subflow and CBR source crossing it, as the packet engine hashes them — is its own
// queue, its content the state variable every stream already has. Deficit round robin with
// a quantum of about a packet serves the backlogged queues alike over any stretch longer
// than a round of quanta, so the fluid serves them by max–min fairness (processor sharing):
// a queue that holds nothing and receives less than the fair rate r passes what it
// receives, at once — the sparse flows DRR's new-flows list serves first — and every other
// queue departs at r, where r fills the capacity:
//
//	Σ_unconstrained a_i + n_constrained · r = C.
//
// The quantum itself (a packet's worth of order within a round) is below the fluid's
// resolution. Above the buffer, the fattest queue loses the excess, as Linux's
// fq_codel_drop takes packets from the queue with the most bytes. Each queue runs its own
// CoDel on its sojourn time content/r (aqm.go).

// shareFair sets the departures of FQ link l's streams by max–min fairness over the
// contents y and their arrivals, the link's departure and its fair rate.
func (l *link) shareFair(y []float64) {
	// Backlogged queues claim the fair rate whatever they receive; the others claim what
	// they receive, smallest first, while it is below the share of what is left.
	l.order = l.order[:0]
	claim := 0
	for i, st := range l.streams {
		if y[st.content] > 0 {
			claim++
		} else {
			l.order = append(l.order, int32(i))
		}
	}
	slices.SortFunc(l.order, func(a, b int32) int {
		return cmpFloat(l.streams[a].arrive, l.streams[b].arrive)
	})
	left, claimants := l.capBps, claim+len(l.order)
	for _, i := range l.order {
		a := l.streams[i].arrive
		if a > left/float64(claimants) {
			break
		}
		left -= a
		claimants--
	}
	l.fair = math.Inf(1)
	if claimants > 0 {
		l.fair = math.Max(left, 0) / float64(claimants)
	}
	l.depart = 0
	for _, st := range l.streams {
		st.depart = math.Min(st.arrive, l.fair)
		if y[st.content] > 0 {
			st.depart = l.fair
		}
		l.depart += st.depart
	}
	l.fatMax, l.fatW = 0, 0
	if l.mode == queueFull {
		for _, st := range l.streams {
			l.fatMax = math.Max(l.fatMax, y[st.content])
		}
		for _, st := range l.streams {
			l.fatW += fatWeight(y[st.content], l.fatMax)
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// fqDropRate is the rate, bytes/s, at which full FQ link l drops stream st's bytes (state
// y): the excess over capacity, from the fattest queues. Linux's fq_codel_drop takes the
// queue with the most bytes; taken literally by a fluid, the fattest of queues that hold
// about the same would change at every instant (each loses until another is fatter), so
// the excess is shared in proportion to the eighth power of what each holds — a smooth
// stand-in that takes 2.1 times as much from a queue holding 10% more, and keeps tied
// queues tied.
func (l *link) fqDropRate(st *stream, y []float64) float64 {
	if l.mode != queueFull || !(l.arrive > l.capBps) || !(l.fatW > 0) {
		return 0
	}
	return (l.arrive - l.capBps) * fatWeight(y[st.content], l.fatMax) / l.fatW
}

// fatWeight is (c/max)⁸ for a content c ≤ max, bytes.
func fatWeight(c, max float64) float64 {
	if c <= 0 || !(max > 0) {
		return 0
	}
	r := c / max
	r *= r
	r *= r
	return r * r
}

// fqDelay is the queueing delay, s, of what stream st of FQ link l holds (content c, bytes)
// at its departure rate: its own queue, not the link's.
func (l *link) fqDelay(st *stream, c float64) float64 {
	if c <= 0 || !(st.depart > 0) {
		return 0
	}
	return c / st.depart
}

// fqFattest is the stream of FQ link l holding the most bytes in state y, or nil.
func (l *link) fqFattest(y []float64) *stream {
	var fat *stream
	for _, st := range l.streams {
		if fat == nil || y[st.content] > y[fat.content] {
			fat = st
		}
	}
	return fat
}

// fqRTTs sets the RTT of every subflow crossing an FQ link to what its queues there hold at
// their departure rates (fqDelay) — the other links' as pathRTT has them — and its sending
// rate at that RTT. pathRTT's first guess, the link's whole queue at capacity, is exact for
// queues of equal contents; a queue that passes what it receives holds nothing.
func (s *system) fqRTTs(t float64, y []float64) {
	for fi := range s.flows {
		f := &s.flows[fi]
		fq := false
		rtt := f.propRTT
		for k, li := range f.links {
			switch l := &s.links[li]; {
			case l.fq:
				fq = true
				rtt += l.fqDelay(&f.streams[k], y[f.streams[k].content])
			case l.capBps > 0:
				rtt += y[l.off+lvQueue] / l.capBps
			}
		}
		if fq {
			f.rtt = math.Max(rtt, f.minRTT)
			s.sendRate(f, t, y)
		}
	}
}
