package fluid

// queuePast is a link's cumulative admitted and departed bytes at the ends of the solver's
// accepted steps over the last stretch a look-up can reach: what a sender's latest RTT
// sample reads. The packet whose ACK arrives at t left the link a return lag earlier, and
// it waited there from when the link's admissions reached what had departed when it left
// (first in, first out). A first-order guess from the current state, q − lag·dq/dt,
// misses the queue's kinks: it reads a queue that has just filled as full at once, where
// the samples report the filling for a round trip more. Between the newest entry and the
// current state the run is read on their chord, so a step's stages need no entry of their
// own and the look-up is continuous across steps.
type queuePast struct {
	head     int
	dropped  int       // entries forgotten before index 0, so that hints survive compaction
	t        []float64 // s, ascending
	adm, dep []float64 // bytes admitted (departed + queued) and departed by then, non-decreasing
	delay    float64   // s: the longest queueing delay recorded, which lengthens what is kept
}

// pastHints are where a stream's previous look-ups ended, as absolute entry numbers: the
// next look-up is near, so it walks from there instead of searching.
type pastHints struct{ left, came int }

// record appends the link's cumulative departures dep and its queue q (bytes) at time t,
// replacing an entry at the same time (a jump), and forgets entries that no look-up
// reaching keep s back, and a queueing delay more, can need.
func (p *queuePast) record(t, dep, q, capBps, keep float64) {
	if capBps > 0 {
		p.delay = max(p.delay, q/capBps)
	}
	adm := dep + q
	n := len(p.t)
	if n > p.head {
		adm = max(adm, p.adm[n-1]) // a queue lost at once takes back no admissions
		if p.t[n-1] >= t {
			p.adm[n-1], p.dep[n-1] = adm, dep
			return
		}
	}
	oldest := t - keep - p.delay
	for p.head+1 < len(p.t) && p.t[p.head+1] <= oldest {
		p.head++
	}
	if p.head > 0 && 2*p.head >= len(p.t) {
		kept := copy(p.t, p.t[p.head:])
		copy(p.adm, p.adm[p.head:])
		copy(p.dep, p.dep[p.head:])
		p.t, p.adm, p.dep = p.t[:kept], p.adm[:kept], p.dep[:kept]
		p.dropped += p.head
		p.head = 0
	}
	p.t = append(p.t, t)
	p.adm = append(p.adm, adm)
	p.dep = append(p.dep, dep)
}

// above is the first index k in [head, last] with vs[k] ≥ v for v ≤ vs[last], walking
// from the absolute entry number *hint and leaving it there.
func (p *queuePast) above(vs []float64, v float64, hint *int) int {
	k := min(max(*hint-p.dropped, p.head), len(vs)-1)
	for k > p.head && vs[k-1] >= v {
		k--
	}
	for vs[k] < v {
		k++
	}
	*hint = k + p.dropped
	return k
}

// along is y at x on the entries (xs, ys) from head on, ascending in x: linear between
// entries, on the chord to (xNow, yNow) past the newest, and the oldest's y before it.
func (p *queuePast) along(xs, ys []float64, x, xNow, yNow float64, hint *int) float64 {
	last := len(xs) - 1
	switch {
	case !(x < xs[last]): // NaN too: a trial state the solver rejects
		if xNow > xs[last] {
			return ys[last] + (yNow-ys[last])*(x-xs[last])/(xNow-xs[last])
		}
		return yNow
	case x <= xs[p.head]:
		return ys[p.head]
	}
	k := p.above(xs, x, hint)
	return ys[k-1] + (ys[k]-ys[k-1])*(x-xs[k-1])/(xs[k]-xs[k-1])
}

// sampledDelay is the queueing delay, s, that the packet whose ACK reaches its sender at
// now, lag s after the packet left the link, waited there; dep and q are the link's
// departures and queue now (bytes). With no entries it is the delay q/C of now.
func (l *link) sampledDelay(now, lag, dep, q float64, h *pastHints) float64 {
	p := &l.past
	last := len(p.t) - 1
	switch {
	case p.delay == 0 && q == 0: // a link that never queued
		return 0
	case last < p.head:
		return q / l.capBps
	}
	// What had departed when the packet left, and when the admissions reached it.
	left := now - lag
	gone := p.along(p.t, p.dep, left, now, dep, &h.left)
	came := p.along(p.adm, p.t, gone, max(dep+q, p.adm[last]), now, &h.came)
	return max(left-came, 0)
}

// keepPast sets how far back the look-ups reach: the longest round-trip propagation of
// any flow, at the start and whenever a link's delay changes.
func (s *system) keepPast() {
	s.pastKeep = 0
	for fi := range s.flows {
		s.pastKeep = max(s.pastKeep, s.flows[fi].propRTT)
	}
}

// recordPast adds state y at time t to every link's queue past and moments.
func (s *system) recordPast(t float64, y []float64) {
	for li := range s.links {
		l := &s.links[li]
		l.moments.record(t, l.shownQueue(max(y[l.off+lvQueue], 0)))
		if !l.fq && l.capBps > 0 {
			l.past.record(t, y[l.off+lvDeparted], max(y[l.off+lvQueue], 0), l.capBps, s.pastKeep)
		}
	}
}
