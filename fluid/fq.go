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
// resolution. When the discipline reaches its buffer, the queue with the most bytes loses a
// batch at once, as Linux's and ns-3's fq_codel_drop take it (fqOverflow), and the link
// stays busy: the one flow hit learns of it, the others not, which is what breaks the
// symmetry of flows that FQ-CoDel otherwise isolates. Each queue runs its own CoDel on its
// sojourn time content/r (aqm.go).

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
		l.fair = max(left, 0) / float64(claimants)
	}
	l.depart = 0
	for _, st := range l.streams {
		st.depart = min(st.arrive, l.fair)
		if y[st.content] > 0 {
			st.depart = l.fair
		}
		l.depart += st.depart
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
		rtt := f.propRTT + f.ackTxS
		for k, li := range f.links {
			switch l := &s.links[li]; {
			case l.fq:
				fq = true
				rtt += f.streams[k].delay(l.fqDelay(&f.streams[k], y[f.streams[k].content]))
			case l.capBps > 0:
				rtt += f.streams[k].delay(y[l.off+lvQueue] / l.capBps)
			}
		}
		if fq {
			f.rtt = max(rtt, f.minRTT)
			s.sendRate(f, t, y)
		}
	}
}

// fqDropBatch is Linux's and ns-3's drop_batch_size: the most packets one overflow drops.
const fqDropBatch = 64

// fqOverflow is FQ link li's full buffer at time t (state y): the queue with the most bytes
// loses packets from its head until half its bytes or fqDropBatch packets are gone (at
// least one), and its flow reacts a round trip after the first of them left its sender:
// the packets behind it leave at once, so the receiver finds the hole without the wait in
// that queue that a drop at the tail would add.
func (s *system) fqOverflow(li int, t float64, y []float64) {
	l := &s.links[li]
	st := l.fqFattest(y)
	if st == nil || !(y[st.content] > 0) {
		return
	}
	c, pkt := y[st.content], st.wire
	sojourn := l.fqDelay(st, c)
	if pkt == 0 {
		pkt = l.refBytes // a CBR source
	}
	drop := min(c, min(max(math.Ceil(c/2/pkt), 1), fqDropBatch)*pkt)
	l.drop(st, drop, y)
	if st.flow < 0 {
		return
	}
	f := &s.flows[st.flow]
	y[st.cnt+cntDropped] += drop / pkt
	if !s.sc.DropRule.Proportional() {
		y[st.cnt+cntOverflow] += drop / pkt // the holes of the window it reacts to
	}
	if f.active {
		f.hearDrop(t, s.waitBefore(f, li, y)+sojourn, false)
	}
}
