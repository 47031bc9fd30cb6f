package fluid

import "math"

// ackPast is a subflow's acknowledged rate (bytes/s leaving its path, less what RED took)
// at the ends of the solver's accepted steps and on both sides of each jump, over the last
// return lag: the ACKs reaching the sender at t are those of packets that left its path's
// last link a return lag before (ackLag). Between the newest entry and now the rate is
// read on their chord, as queuePast reads the queues.
type ackPast struct {
	head int
	t, r []float64 // s ascending (equal on both sides of a jump); bytes/s
	// jumps are the jumps recorded, oldest first, that a slow start on its ACK clock has
	// yet to meet a return lag later (ackclock.go).
	jumps []ackJump
}

// ackJump is an edge of the acknowledged rate at time t from the rate before, bytes/s: a
// change of more than half between two entries (a burst's start or end); sharp when they
// are a jump apart (jumpSpanS).
type ackJump struct {
	t, before float64
	sharp     bool
}

// jumpSpanS is how close two entries of a rate that changes between them make a jump, s: a
// located event's root lies within it of the step that ends before it, and a packet takes
// 1.2 µs on a 10 Gb/s link.
const jumpSpanS = 1e-9

// record appends rate r at time t and forgets what no look-up reaching keep s back needs.
func (a *ackPast) record(t, r, keep float64) {
	for a.head+1 < len(a.t) && a.t[a.head+1] <= t-keep {
		a.head++
	}
	if a.head > 0 && 2*a.head >= len(a.t) {
		n := copy(a.t, a.t[a.head:])
		copy(a.r, a.r[a.head:])
		a.t, a.r, a.head = a.t[:n], a.r[:n], 0
	}
	e := ackJump{t: t, sharp: true} // the first entry jumps from nothing sent
	edge := r != 0
	if n := len(a.t); n > a.head {
		if a.t[n-1] == t && a.r[n-1] == r {
			return
		}
		e.before = a.r[n-1]
		change, size := math.Abs(r-e.before), max(math.Abs(r), math.Abs(e.before))
		e.sharp = t-a.t[n-1] <= jumpSpanS && change > 1e-3*size
		edge = e.sharp || change > size/2
	}
	if k := len(a.jumps); edge && (k == 0 || a.jumps[k-1].t < t) {
		a.jumps = append(a.jumps, e)
	}
	a.t = append(a.t, t)
	a.r = append(a.r, r)
}

// at is the rate at time x ≤ now, when the rate is rNow: 0 before the first entry (the
// sender had sent nothing to acknowledge). At a jump still pending it is the rate after
// it, or with left the rate before it: the end of a solver's step reads the left limit.
func (a *ackPast) at(x, now, rNow float64, left bool) float64 {
	if len(a.jumps) > 0 && a.jumps[0].sharp && math.Abs(x-a.jumps[0].t) <= jumpSpanS {
		if left {
			return a.jumps[0].before
		}
		x = max(x, a.jumps[0].t) // the sum of a jump's time and a lag, rounded
	}
	n := len(a.t)
	if n == a.head || x < a.t[a.head] {
		return 0
	}
	last := n - 1
	if x >= a.t[last] {
		if now > a.t[last] {
			return a.r[last] + (rNow-a.r[last])*(x-a.t[last])/(now-a.t[last])
		}
		return rNow
	}
	lo, hi := a.head, last // a.t[lo] ≤ x < a.t[hi]
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if a.t[mid] <= x {
			lo = mid
		} else {
			hi = mid
		}
	}
	return a.r[lo] + (a.r[hi]-a.r[lo])*(x-a.t[lo])/(a.t[hi]-a.t[lo])
}

// ackLag is the return lag of subflow f's ACKs, s: the fluid's streams reach each link
// of the path as they leave the one before, so the whole propagation of the round trip,
// forward and back, lies between a packet leaving the last link and its ACK.
func (s *system) ackLag(f *subflow) float64 { return f.propRTT }

// recordAcks adds every subflow's acknowledged rate of the evaluated state at time t, in
// the counted form (the only one that reads it).
func (s *system) recordAcks(t float64) {
	if !s.form.counted {
		return
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		f.ackPast.record(t, f.acked, s.pastKeep)
	}
}
