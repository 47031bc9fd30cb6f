package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// Fluid forms of the marking and AQM queues (model/aqm.go), driven by the queue's sojourn
// time q/C — the delay of the packet arriving now, which a FIFO's departing packet met on
// arrival — and by drop or mark probabilities:
//
//   - Step marking (ecn.go): the queue above K packets marks every ECN-capable packet; the
//     crossings of K are located events, and each sender sees the change one RTT later.
//   - RED with ECN: RED's probability from the averaged queue (network.go) marks an
//     ECN-capable flow's packets, a Poisson process of intensity p·rate as RED's drops are.
//   - CoDel: the sojourn time crossing target (at least one packet queued) is a located
//     event; once it has stayed above for an interval CoDel drops, then again
//     interval/√count later, count growing by one per drop, until it falls below target
//     (re-entering within 16 intervals resumes at the count the last episode added, RFC
//     8289). Drops are timed events, each hitting one flow with probability its share of
//     the link's arrivals (a seeded generator); the sender reacts one RTT later, as to a
//     drop-tail overflow, or, with ECN, sees a mark then.
//   - FQ-CoDel (fq.go): a CoDel per flow queue, on that queue's sojourn time at its
//     departure rate with at least a packet in the whole discipline; its drops hit the
//     queue's own source.
//   - PIE: the drop probability p is a state variable following RFC 8033's update as a rate,
//     dp/dt = s(p)·(α·(d − target)/T + β·dd/dt) with d = q/C, T = T_UPDATE and s(p) the
//     auto-tuning factor, capped at 2% per T once p ≥ 10%, plus 2% per T while d > 250 ms,
//     and decaying by 2% per T on an empty queue. Arrivals are dropped (or, ECN-capable
//     while p ≤ ecn_max_p, marked) as a Poisson process of intensity p·rate, except while
//     d < target/2 with p < 20% or at most two packets are queued (RFC 8033 §4.1); the
//     burst allowance after an idle period is not modelled. The sender reacts to a drop one
//     RTT later.
const (
	extNone = iota
	extStep
	extRED // RED with ECN
	extCoDel
	extFQCoDel // a CoDel per flow queue
	extPIE
)

// linkExt is one link's marking or AQM state.
type linkExt struct {
	kind    int
	ecn     bool
	kBytes  float64 // step threshold K, bytes
	marking bool    // step: the queue is above K
	// CoDel: one state for the link, or one per stream at an FQ-CoDel link
	cd       model.CoDel
	thrBytes float64 // the queue at which the sojourn time reaches target, at least one packet, bytes
	queues   []codelState
	// PIE
	pie           model.PIE
	pOff          int     // offset of p in the state vector
	pieP, pieDrop float64 // p, and the probability applied to arrivals now
}

// codelState is one CoDel queue's control state.
type codelState struct {
	above, dropping      bool
	firstAbove, dropNext float64 // s
	count, lastCount     int
	frac                 float64 // marks per departing packet while dropping
	// rise is how far above target·rate an FQ-CoDel flow queue's next upward crossing
	// lies, bytes: a packet's worth times a seeded U(0, 1) drawn at each downward one.
	rise float64
}

func newCoDelStates(n int) []codelState {
	q := make([]codelState, n)
	for i := range q {
		q[i].firstAbove, q[i].dropNext = math.Inf(1), math.Inf(1)
	}
	return q
}

// init sets up link li's marking or AQM and reports whether it has one.
func (l *linkExt) init(s *system, li int, sl *model.Link, lay *layout) bool {
	*l = linkExt{pOff: -1, ecn: sl.Marks()}
	L := &s.links[li]
	switch {
	case sl.MarkThresholdPkts > 0:
		l.kind, l.kBytes = extStep, sl.MarkThresholdPkts*L.refBytes
	case sl.Queue == model.QueueRED && sl.ECN:
		l.kind = extRED
	case sl.Queue == model.QueueCoDel:
		l.kind, l.cd, l.queues = extCoDel, sl.CoDel, newCoDelStates(1)
		l.thrBytes = max(sl.CoDel.TargetS*L.capBps, L.refBytes)
	case sl.Queue == model.QueueFQCoDel:
		l.kind, l.cd, l.queues = extFQCoDel, sl.FQCoDel.CoDel, newCoDelStates(len(L.streams))
	case sl.Queue == model.QueuePIE:
		l.kind, l.pie, l.pOff = extPIE, sl.PIE, lay.reserve(1)
	default:
		return false
	}
	return true
}

// guard is link li's located crossing: the queue crossing K (step) or the sojourn time
// of CoDel queue j crossing target, in the direction of the current state's change.
func (l *linkExt) guard(s *system, li, j int, y []float64) float64 {
	L := &s.links[li]
	q := y[L.off+lvQueue]
	switch l.kind {
	case extStep:
		if l.marking {
			return l.kBytes - q - queueSlackBytes
		}
		return q - l.kBytes - queueSlackBytes
	case extCoDel:
		if l.queues[0].above {
			return l.thrBytes - q - queueSlackBytes
		}
		return q - l.thrBytes - queueSlackBytes
	case extFQCoDel:
		// The flow queue's sojourn time at its departure rate against target, and at least
		// a packet in the whole discipline (Linux passes CoDel the qdisc's backlog).
		st := L.streams[j]
		over := min(y[st.content]-l.cd.TargetS*st.depart, q-L.refBytes)
		if l.queues[j].above {
			return -over - queueSlackBytes
		}
		return over - l.queues[j].rise - queueSlackBytes
	}
	return -1
}

// linkEvent applies the located crossing of link li (CoDel queue j) at time t.
func (x *extension) linkEvent(s *system, li, j int, t float64) {
	l := &x.links[li]
	switch l.kind {
	case extStep:
		l.marking = !l.marking
		for fi := range s.flows {
			f := &s.flows[fi]
			if !x.flows[fi].ect {
				continue
			}
			for k, fl := range f.links {
				if fl == li {
					x.flows[fi].push(toggle{at: t + f.rtt, k: k, on: l.marking})
				}
			}
		}
	case extCoDel, extFQCoDel:
		c := &l.queues[j]
		c.above = !c.above
		if l.kind == extFQCoDel && !c.above {
			c.rise = x.rng.Float64() * s.links[li].refBytes
		}
		if c.above {
			c.firstAbove = t + l.cd.IntervalS
		} else {
			c.firstAbove, c.dropping = math.Inf(1), false
		}
	}
}

// push queues a change on its way back to the sender, in time order.
func (fx *flowExt) push(tg toggle) {
	if n := len(fx.toggles); n > fx.head && tg.at < fx.toggles[n-1].at {
		tg.at = fx.toggles[n-1].at
	}
	fx.toggles = append(fx.toggles, tg)
}

// timer is the time of the queue's next CoDel decision, s.
func (c *codelState) timer() float64 {
	switch {
	case c.dropping:
		return c.dropNext
	case c.above:
		return c.firstAbove
	}
	return math.Inf(1)
}

// timer is the time of link li's next CoDel decision, s.
func (l *linkExt) timer() float64 {
	next := math.Inf(1)
	for j := range l.queues {
		next = min(next, l.queues[j].timer())
	}
	return next
}

// fire makes the CoDel decisions due at time t at link li: enter the dropping state, or
// drop the next packet.
func (l *linkExt) fire(s *system, x *extension, li int, t float64, y []float64) {
	for j := range l.queues {
		c := &l.queues[j]
		if c.timer() > t {
			continue
		}
		if !c.dropping {
			c.dropping, c.firstAbove = true, math.Inf(1)
			if delta := c.count - c.lastCount; delta > 1 && t-c.dropNext < 16*l.cd.IntervalS {
				c.count = delta
			} else {
				c.count = 1
			}
			c.lastCount = c.count
			x.codelDrop(s, li, j, t, y)
			c.dropNext = t + l.cd.IntervalS/math.Sqrt(float64(c.count))
			continue
		}
		c.count++
		x.codelDrop(s, li, j, t, y)
		c.dropNext += l.cd.IntervalS / math.Sqrt(float64(c.count))
	}
}

// codelDrop drops (or marks) one packet of CoDel queue j at link li at time t: of the flow
// queue's source at an FQ-CoDel link, else of a stream with a packet waiting, chosen by
// its share of the link's departures: CoDel drops at the head, as the packet leaves.
func (x *extension) codelDrop(s *system, li, j int, t float64, y []float64) {
	L := &s.links[li]
	hit := func(f *subflow) {
		if x.flows[f.idx].ect && x.links[li].ecn {
			x.flows[f.idx].push(toggle{at: t + f.rtt, k: -1, on: true})
		} else {
			x.dropped(s, f, li, t, y)
		}
	}
	if x.links[li].kind == extFQCoDel {
		if st := L.streams[j]; st.flow >= 0 {
			hit(&s.flows[st.flow])
		} else {
			y[L.off+lvDropped] += L.refBytes // a CBR packet
		}
		return
	}
	// The head packet is of a stream with a packet waiting, at its share of the departures
	// (of every stream's when none holds a whole packet).
	waiting := func(st *stream) bool { return y[st.content] >= max(st.wire, L.refBytes*1e-9) }
	total, some := 0.0, false
	for _, st := range L.streams {
		if waiting(st) {
			total += st.depart
			some = true
		}
	}
	if !some {
		total = L.depart
	}
	if !(total > 0) {
		return
	}
	r := x.rng.Float64() * total
	for _, st := range L.streams {
		if some && !waiting(st) {
			continue
		}
		if r -= st.depart; r < 0 {
			if st.flow >= 0 {
				hit(&s.flows[st.flow])
				return
			}
			break
		}
	}
	y[L.off+lvDropped] += L.refBytes // a CBR packet
}

// evaluate computes link li's signals at the network state last evaluated.
func (l *linkExt) evaluate(s *system, li int, y []float64) {
	L := &s.links[li]
	switch l.kind {
	case extCoDel:
		l.queues[0].frac = codelFrac(&l.queues[0], l.cd, L.depart, L.refBytes)
	case extFQCoDel:
		for j, st := range L.streams {
			l.queues[j].frac = codelFrac(&l.queues[j], l.cd, st.depart, L.refBytes)
		}
	case extPIE:
		p := min(max(y[l.pOff], 0), 1)
		q := y[L.off+lvQueue]
		d := q / L.capBps
		l.pieP, l.pieDrop = p, p
		if (d < l.pie.TargetS/2 && p < 0.2) || q <= 2*L.refBytes {
			l.pieDrop = 0
		}
	}
}

// codelFrac is the fraction of a CoDel queue's departing packets (departing at depart
// bytes/s, of ref bytes) its control law marks while dropping: √count per interval.
func codelFrac(c *codelState, cd model.CoDel, depart, ref float64) float64 {
	if !c.dropping || !(depart > 0) {
		return 0
	}
	return min(math.Sqrt(float64(c.count))/cd.IntervalS/(depart/ref), 1)
}

// derivs writes the rate of PIE's drop probability.
func (l *linkExt) derivs(s *system, li int, dy, y []float64) {
	if l.kind != extPIE {
		return
	}
	L := &s.links[li]
	p := y[l.pOff]
	pc := min(max(p, 0), 1)
	T := l.pie.TUpdateS
	d := y[L.off+lvQueue] / L.capBps
	dd := 0.0
	if L.mode == queueBusy {
		dd = (L.arrive - L.depart) / L.capBps
	}
	rate := l.pie.Scale(pc) * (l.pie.Alpha*(d-l.pie.TargetS)/T + l.pie.Beta*dd)
	if pc >= 0.1 {
		rate = min(rate, 0.02/T)
	}
	if d > 0.25 {
		rate += 0.02 / T
	}
	if L.mode == queueEmpty {
		rate += math.Log(0.98) * pc / T
	}
	if (p <= 0 && rate < 0) || (p >= 1 && rate > 0) {
		rate = 0
	}
	dy[l.pOff] = rate
}
