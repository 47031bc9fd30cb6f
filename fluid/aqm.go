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
//   - PIE: the drop probability p is a state variable following RFC 8033's update as a rate,
//     dp/dt = s(p)·(α·(d − target)/T + β·dd/dt) with d = q/C, T = T_UPDATE and s(p) the
//     auto-tuning factor, capped at 2% per T once p ≥ 10%, plus 2% per T while d > 250 ms,
//     and decaying by 2% per T on an empty queue. Arrivals are dropped (or, ECN-capable
//     while p ≤ ecn_max_p, marked) as a Poisson process of intensity p·rate, except while
//     d < target/2 with p < 20% or at most two packets are queued (RFC 8033 §4.1); the
//     burst allowance after an idle period is not modelled. The sender reacts to a drop one
//     RTT later.
//
// FQ-CoDel has per-flow queues the fluid engine does not have: it refuses the queue.
const (
	extNone = iota
	extStep
	extRED // RED with ECN
	extCoDel
	extPIE
)

// linkExt is one link's marking or AQM state.
type linkExt struct {
	kind    int
	ecn     bool
	kBytes  float64 // step threshold K, bytes
	marking bool    // step: the queue is above K
	// CoDel
	cd                   model.CoDel
	thrBytes             float64 // the queue at which the sojourn time reaches target, at least one packet, bytes
	above, dropping      bool
	firstAbove, dropNext float64 // s
	count, lastCount     int
	codelFrac            float64 // marks per departing packet while dropping
	// PIE
	pie           model.PIE
	pOff          int     // offset of p in the state vector
	pieP, pieDrop float64 // p, and the probability applied to arrivals now
}

// init sets up link li's marking or AQM and reports whether it has one.
func (l *linkExt) init(s *system, li int, sl *model.Link, lay *layout) bool {
	*l = linkExt{pOff: -1, firstAbove: math.Inf(1), dropNext: math.Inf(1), ecn: sl.Marks()}
	L := &s.links[li]
	switch {
	case sl.MarkThresholdPkts > 0:
		l.kind, l.kBytes = extStep, sl.MarkThresholdPkts*L.refBytes
	case sl.Queue == model.QueueRED && sl.ECN:
		l.kind = extRED
	case sl.Queue == model.QueueCoDel:
		l.kind, l.cd = extCoDel, sl.CoDel
		l.thrBytes = math.Max(sl.CoDel.TargetS*L.capBps, L.refBytes)
	case sl.Queue == model.QueuePIE:
		l.kind, l.pie, l.pOff = extPIE, sl.PIE, lay.reserve(1)
	default:
		return false
	}
	return true
}

// guard is link li's located crossing: the queue crossing K (step) or the sojourn time
// crossing target (CoDel), in the direction of the current state's change.
func (l *linkExt) guard(s *system, li int, y []float64) float64 {
	q := y[s.links[li].off+lvQueue]
	switch l.kind {
	case extStep:
		if l.marking {
			return l.kBytes - q - queueSlackBytes
		}
		return q - l.kBytes - queueSlackBytes
	case extCoDel:
		if l.above {
			return l.thrBytes - q - queueSlackBytes
		}
		return q - l.thrBytes - queueSlackBytes
	}
	return -1
}

// linkEvent applies link li's located crossing at time t.
func (x *extension) linkEvent(s *system, li int, t float64, y []float64) {
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
	case extCoDel:
		l.above = !l.above
		if l.above {
			l.firstAbove = t + l.cd.IntervalS
		} else {
			l.firstAbove, l.dropping = math.Inf(1), false
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

// timer is the time of link li's next CoDel decision, s.
func (l *linkExt) timer() float64 {
	switch {
	case l.kind != extCoDel:
		return math.Inf(1)
	case l.dropping:
		return l.dropNext
	case l.above:
		return l.firstAbove
	}
	return math.Inf(1)
}

// fire makes the CoDel decision due at time t at link li: enter the dropping state, or
// drop the next packet.
func (l *linkExt) fire(s *system, x *extension, li int, t float64, y []float64) {
	if !l.dropping {
		l.dropping, l.firstAbove = true, math.Inf(1)
		if delta := l.count - l.lastCount; delta > 1 && t-l.dropNext < 16*l.cd.IntervalS {
			l.count = delta
		} else {
			l.count = 1
		}
		l.lastCount = l.count
		x.codelDrop(s, li, t, y)
		l.dropNext = t + l.cd.IntervalS/math.Sqrt(float64(l.count))
		return
	}
	l.count++
	x.codelDrop(s, li, t, y)
	l.dropNext += l.cd.IntervalS / math.Sqrt(float64(l.count))
}

// codelDrop drops (or marks) one packet at link li at time t, of a flow chosen by its
// share of the link's arrivals.
func (x *extension) codelDrop(s *system, li int, t float64, y []float64) {
	L := &s.links[li]
	if !(L.arrive > 0) {
		return
	}
	r := x.rng.Float64() * L.arrive
	for fi := range s.flows {
		f := &s.flows[fi]
		for k, fl := range f.links {
			if fl != li {
				continue
			}
			if r -= f.streams[k].arrive; r < 0 {
				if x.flows[fi].ect && x.links[li].ecn {
					x.flows[fi].push(toggle{at: t + f.rtt, k: -1, on: true})
				} else {
					x.dropped(s, f, li, t, y)
				}
				return
			}
		}
	}
	y[L.off+lvDropped] += L.refBytes // a CBR packet
}

// evaluate computes link li's signals at the network state last evaluated.
func (l *linkExt) evaluate(s *system, li int, y []float64) {
	L := &s.links[li]
	switch l.kind {
	case extCoDel:
		l.codelFrac = 0
		if l.dropping && L.depart > 0 {
			l.codelFrac = math.Min(math.Sqrt(float64(l.count))/l.cd.IntervalS/(L.depart/L.refBytes), 1)
		}
	case extPIE:
		p := math.Min(math.Max(y[l.pOff], 0), 1)
		q := y[L.off+lvQueue]
		d := q / L.capBps
		l.pieP, l.pieDrop = p, p
		if (d < l.pie.TargetS/2 && p < 0.2) || q <= 2*L.refBytes {
			l.pieDrop = 0
		}
	}
}

// derivs writes the rate of PIE's drop probability.
func (l *linkExt) derivs(s *system, li int, dy, y []float64) {
	if l.kind != extPIE {
		return
	}
	L := &s.links[li]
	p := y[l.pOff]
	pc := math.Min(math.Max(p, 0), 1)
	T := l.pie.TUpdateS
	d := y[L.off+lvQueue] / L.capBps
	dd := 0.0
	if L.mode == queueBusy {
		dd = (L.arrive - L.depart) / L.capBps
	}
	rate := l.pie.Scale(pc) * (l.pie.Alpha*(d-l.pie.TargetS)/T + l.pie.Beta*dd)
	if pc >= 0.1 {
		rate = math.Min(rate, 0.02/T)
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
