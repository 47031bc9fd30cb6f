package fluid

import (
	"math"
	"sort"
)

// fifoHistory is what a first-in-first-out link needs to serve its streams in the order
// their bytes came: at points of the run, the cumulative bytes the link had admitted
// (departed + queued, from the state) and each stream's admission rate. The bytes leaving
// at t are those admitted when the cumulative admissions equalled the cumulative
// departures of t, so each stream's share of the departures is its share of the
// admissions then, a queueing delay ago (a delay equation on the link's own history).
// Serving by the shares of what the queue holds instead would let a stream's newest bytes
// leave with its oldest: a flow growing behind a standing queue would hear its growth
// too early.
type fifoHistory struct {
	n     int       // streams
	head  int       // first entry still needed
	cum   []float64 // cumulative bytes admitted at each entry, non-decreasing
	rates []float64 // each stream's admission rate at each entry, bytes/s, stride n
	// The admission rates jump at a jump of the state (a window cut, a flow's start), so
	// the departure shares jump a queueing delay later, when the departures reach that
	// entry. Each such break is a step boundary of the solver (fifobreaks.go): breaks are
	// the cumulative admissions of those yet to be reached, ascending, and breakAt when the
	// first will be; passed is the last one reached, from which the look-up reads the rates
	// after the jump.
	breaks  []float64
	breakAt float64
	passed  float64
}

// record appends an entry: admitted bytes so far and the streams' current admission rates.
// Entries that no departure can need any more (the next one admitted before what has
// departed) are dropped; the storage is reused. It reports whether the rates differ from
// the newest entry's, where both are at the same admissions (a jump).
func (h *fifoHistory) record(l *link, departed, queued float64) bool {
	cum := departed + queued
	if k := len(h.cum); k > 0 {
		// A tail drop takes queued bytes back; the entries before it still place what
		// departs ahead of the dropped bytes.
		cum = max(cum, h.cum[k-1])
	}
	if len(h.breaks) > 0 {
		departed = min(departed, h.breaks[0]) // the look-up holds there until the break is reached
	}
	for h.head+1 < len(h.cum) && h.cum[h.head+1] < departed {
		h.head++
	}
	if h.head > 0 && 2*h.head >= len(h.cum) {
		kept := copy(h.cum, h.cum[h.head:])
		copy(h.rates, h.rates[h.head*h.n:])
		h.cum, h.rates = h.cum[:kept], h.rates[:kept*h.n]
		h.head = 0
	}
	jumped := false
	if k := len(h.cum) - 1; k >= h.head && cum == h.cum[k] {
		for i, st := range l.streams {
			if r, a := h.rates[k*h.n+i], l.admission(st); math.Abs(a-r) > 1e-9*max(math.Abs(r), math.Abs(a)) {
				jumped = true
			}
		}
	}
	h.cum = append(h.cum, cum)
	for _, st := range l.streams {
		h.rates = append(h.rates, l.admission(st))
	}
	return jumped
}

// shares writes into phi each stream's share of the bytes that depart when departed bytes
// have left and queued are waiting; false when the history holds no admissions yet.
func (h *fifoHistory) shares(l *link, departed, queued float64, phi []float64) bool {
	last := len(h.cum) - 1
	if last < h.head {
		return false
	}
	now := departed + queued
	// Between two breaks the look-up is continuous: from the left up to the next (held
	// there until the solver stops at it), from the right at the last one passed.
	live := h.cum[h.head:]
	k := h.head + sort.SearchFloat64s(live, departed) - 1 // the last entry before
	switch {
	case len(h.breaks) > 0 && departed >= h.breaks[0]:
		departed = h.breaks[0]
		k = h.head + sort.SearchFloat64s(live, departed) - 1
	case departed <= h.passed:
		departed = h.passed
		k = h.head + sort.SearchFloat64s(live, math.Nextafter(departed, math.Inf(1))) - 1 // the last at or before
	}
	var lo, hi []float64
	theta := 0.0
	switch {
	case k < h.head:
		lo, hi = h.row(h.head), h.row(h.head)
	case k == last:
		// Admitted after the newest entry: between its rates and the current ones.
		lo = h.row(last)
		if now > h.cum[last] {
			theta = (departed - h.cum[last]) / (now - h.cum[last])
		}
	default:
		lo, hi = h.row(k), h.row(k+1)
		theta = (departed - h.cum[k]) / (h.cum[k+1] - h.cum[k])
	}
	total := 0.0
	for i, st := range l.streams {
		r := lo[i]
		if hi != nil {
			r += theta * (hi[i] - r)
		} else {
			r += theta * (l.admission(st) - r)
		}
		phi[i] = max(r, 0)
		total += phi[i]
	}
	if !(total > 0) {
		return false
	}
	for i := range phi {
		phi[i] /= total
	}
	return true
}

func (h *fifoHistory) row(k int) []float64 { return h.rates[k*h.n : (k+1)*h.n] }

// forget empties the history and its breaks: the link's queue was lost.
func (h *fifoHistory) forget() {
	h.cum, h.rates, h.breaks, h.head = h.cum[:0], h.rates[:0], h.breaks[:0], 0
}

// serveFIFO splits busy link l's capacity by the streams' shares of the head of the queue
// (l.phi), none faster than what it holds drains in one packet time h plus what it admits
// (a stream that borrowed, holding less than nothing, repays at that pace): what a stream
// cannot take goes to the others by their shares, round after round, and only when every
// stream is at its limit (the queue as good as empty) is the rest lent by the shares, as
// the content rule lends near the empty queue (settle).
func (l *link) serveFIFO(y []float64, h float64) {
	for i, st := range l.streams {
		st.depart = 0
		l.open[i] = l.phi[i] > 0
	}
	left := l.capBps
	for range l.streams {
		free := 0.0
		for i := range l.streams {
			if l.open[i] {
				free += l.phi[i]
			}
		}
		if !(free > 0) || left <= 1e-12*l.capBps {
			break
		}
		give := left
		for i, st := range l.streams {
			if !l.open[i] {
				continue
			}
			add := give * l.phi[i] / free
			if room := max(y[st.content]/h+l.admission(st), 0) - st.depart; add >= room {
				add, l.open[i] = max(room, 0), false
			}
			st.depart += add
			left -= add
		}
	}
	if left > 1e-12*l.capBps {
		for i, st := range l.streams {
			st.depart += left * l.phi[i]
		}
	}
}

// admission is the rate at which stream st's bytes enter link l's queue, bytes/s: what
// arrives, less its share of what a full queue drops — an even share, unless paced
// streams alone overfill it and race the others for its slots (slotrace.go).
func (l *link) admission(st *stream) float64 {
	if l.racing() {
		return l.raceAdmission(st)
	}
	if l.mode == queueFull && l.arrive > l.capBps {
		return st.arrive * l.capBps / l.arrive
	}
	return st.arrive
}

// stepped follows each accepted step of the solver, which ends at t1: the queues' past
// and moments (queuepast.go, queuesd.go), the FIFO links' histories and the trace.
func (s *system) stepped(t0, t1 float64) {
	s.recordPast(t1, s.drv.Y().RawVector().Data)
	if s.form.counted || len(s.fifo) > 0 {
		s.gen++
		s.stepEnd = s.clockEdgeAt(t1) // the rates before a jump of an ACK clock due at t1 (ackclock.go)
		s.ensure(t1, s.drv.Y())
		s.recordAcks(t1)
		if s.lateAcks {
			s.lateAcksStepped(t0, t1)
		}
		if s.roundTimers {
			s.roundTimersStepped(t1)
		}
		if s.form.counted && !s.set.SACK {
			s.profileHoles(s.drv.Y().RawVector().Data)
		}
		if len(s.fifo) > 0 {
			s.recordFIFO(t1, s.drv.Y().RawVector().Data, false)
		}
		if s.stepEnd {
			s.stepEnd = false
			s.gen++ // the next step starts from the rates after it
		}
	}
	if s.set.SampleS > 0 {
		s.sample(t0, t1)
	}
}

// recordFIFO adds state y, whose network is evaluated, to the history of every link that
// serves several streams first in, first out; after a jump (at time t) a link whose
// admission rates jumped behind a queue gets a break there.
func (s *system) recordFIFO(t float64, y []float64, jump bool) {
	for _, li := range s.fifo {
		l := &s.links[li]
		q := max(y[l.off+lvQueue], 0)
		if l.fifo.record(l, y[l.off+lvDeparted], q) && jump && l.mode != queueEmpty && q > 0 {
			l.fifo.addBreak(l, t, y[l.off+lvDeparted]+q, y[l.off+lvDeparted])
		}
	}
	if jump {
		s.repredictBreaks(t, y)
	}
}
