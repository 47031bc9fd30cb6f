package fluid

// stream is one source's packets at one link of its path — a subflow's or a CBR source's:
// what arrives, what departs, and how many of its bytes the link holds (a state variable).
// A busy queue serves its streams in proportion to what each holds (first in, first out):
// a source that stops sending keeps the share of its backlog until the backlog is gone,
// rather than handing it to the sources still arriving.
type stream struct {
	prev   *stream  // the same source's stream at the previous link of its path; nil at its first link
	source *float64 // the source's sending rate, bytes/s, read at its first link
	// content is the offset in the state vector of the bytes of this stream the link holds.
	content int
	// flow is its subflow's engine index and cnt the offset of the subflow's counters (-1
	// for a CBR source), wire its packets' size on the wire, bytes: for settle and lose;
	// slot is its index in its link's streams.
	flow, slot int
	cnt        int
	wire       float64
	tx         float64 // a packet's transmission at the link, s (storeforward.go)
	// offered is what reaches the link, arrive what its random or periodic loss and its
	// RED let in, depart what leaves it, bytes/s.
	offered, arrive, depart float64
	paced                   bool      // its flow paces its sends (slotrace.go)
	hints                   pastHints // where its RTT sample's look-ups in the link's past ended (queuepast.go)
}

// arrival is what reaches the stream's link: the source's rate at its first link, the
// stream's departures from the previous link after it.
func (st *stream) arrival() float64 {
	if st.prev == nil {
		return *st.source
	}
	return st.prev.depart
}

// serve computes link l's departures and its streams' shares of them from the arrivals and
// the contents y. An empty queue passes what arrives, up to its capacity (past it only in
// a solver's trial state beyond the crossing its guard locates, where the excess queues as
// in the busy queue that follows); a busy or full one sends at capacity, each stream its
// share (shareBusy).
func (l *link) serve(y []float64) {
	switch {
	case !l.up:
		l.depart = 0
		for _, st := range l.streams {
			st.depart = 0
		}
	case l.mode == queueEmpty:
		l.depart = min(l.arrive, l.capBps)
		scale := 0.0
		if l.arrive > 0 {
			scale = l.depart / l.arrive
		}
		for _, st := range l.streams {
			st.depart = st.arrive * scale
		}
	case l.fq:
		l.shareFair(y)
	default:
		l.depart = l.capBps
		l.shareBusy(y)
	}
}

// shareBusy splits a busy link's capacity among its streams. A FIFO link (fifo.go) serves
// each at its share of the bytes at the head of the queue, admitted a queueing delay ago,
// but no stream faster than what it holds drains in one packet time plus what it admits:
// the capacity a stream cannot use goes to the others by their shares. A link without a
// history yet serves by what each holds plus one packet time's arrivals, which is the
// arrival share while the queue is near empty; there a stream that holds nothing may be
// served a little faster than it arrives, borrowing from the others (its content goes
// below zero), and settle evens the books when the queue empties.
func (l *link) shareBusy(y []float64) {
	h := l.packetTime(l.refBytes)
	if l.fifo != nil && h > 0 && l.fifo.shares(l, y[l.off+lvDeparted], max(y[l.off+lvQueue], 0), l.phi) {
		l.serveFIFO(y, h)
		return
	}
	total := 0.0
	for _, st := range l.streams {
		total += max(y[st.content], 0) + st.arrive*h
	}
	for _, st := range l.streams {
		st.depart = 0
		if total > 0 {
			st.depart = l.capBps * (max(y[st.content], 0) + st.arrive*h) / total
		}
	}
}

// settle credits each subflow stream's residual content (a fraction of a packet, of
// either sign, when the queue empties) to its subflow's deliveries, as if it crossed the
// rest of the path at once: what a stream borrowed near the empty queue is paid back and
// what it lent is delivered, so every source's packets balance.
func (l *link) settle(y []float64) {
	for _, st := range l.streams {
		if st.cnt >= 0 {
			y[st.cnt+cntDelivered] += y[st.content] / st.wire
		}
	}
}

// drop takes b bytes of stream st's content at link l off its queue as dropped (state y).
func (l *link) drop(st *stream, b float64, y []float64) {
	y[st.content] -= b
	y[l.off+lvQueue] -= b
	y[l.off+lvDropped] += b
}

// lose counts what each subflow stream holds as its subflow's drops: a failed link's
// queue (what a stream borrowed near the empty queue it repays, as settle does). The
// link's FIFO history goes with it: none of those bytes will leave.
func (l *link) lose(y []float64) {
	for _, st := range l.streams {
		switch c := y[st.content]; {
		case st.cnt < 0:
		case c >= 0:
			y[st.cnt+cntDropped] += c / st.wire
		default:
			y[st.cnt+cntDelivered] += c / st.wire
		}
	}
	if l.fifo != nil {
		l.fifo.forget()
	}
}

// contentRate is d(content)/dt of a stream of link l: what it admits (arrivals, less at a
// full queue its share of the dropped excess, in proportion to arrivals; an FQ link is
// never full: it drops in batches, fqOverflow), less what departs.
func (l *link) contentRate(st *stream, y []float64) float64 {
	if !l.up {
		return 0
	}
	return l.admission(st) - st.depart
}

// setContents makes link l's streams hold q bytes in all, in proportion to what they hold
// now (to what arrives when they hold nothing, as a queue filling from empty holds what
// came): a queue switched to empty or to full.
func (l *link) setContents(y []float64, q float64) {
	total := 0.0
	for _, st := range l.streams {
		total += max(y[st.content], 0)
	}
	for _, st := range l.streams {
		if c := y[st.content]; c < 0 && st.cnt >= 0 && q > 0 {
			y[st.cnt+cntDelivered] += c / st.wire // what it borrowed near the empty queue, repaid (settle)
		}
		switch {
		case q == 0:
			y[st.content] = 0
		case total > 0:
			y[st.content] = max(y[st.content], 0) * q / total
		case l.arrive > 0:
			y[st.content] = q * st.arrive / l.arrive
		default:
			y[st.content] = q / float64(len(l.streams))
		}
	}
}
