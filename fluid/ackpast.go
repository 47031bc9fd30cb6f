package fluid

// ackPast is a subflow's acknowledged rate (bytes/s leaving its path, less what RED took)
// at the ends of the solver's accepted steps and on both sides of each jump, over the last
// return lag: the ACKs reaching the sender at t are those of packets that left its path's
// last link a return lag before (ackLag). Between the newest entry and now the rate is
// read on their chord, as queuePast reads the queues.
type ackPast struct {
	head int
	t, r []float64 // s ascending (equal on both sides of a jump); bytes/s
}

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
	if n := len(a.t); n > a.head && a.t[n-1] == t && a.r[n-1] == r {
		return
	}
	a.t = append(a.t, t)
	a.r = append(a.r, r)
}

// at is the rate at time x ≤ now, when the rate is rNow: 0 before the first entry (the
// sender had sent nothing to acknowledge).
func (a *ackPast) at(x, now, rNow float64) float64 {
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
