package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// A packet-granular retransmission timer, for subflows whose path takes longer to transmit
// one packet than the shortest retransmission timeout (model.MinRTOS): there the ACKs of a
// packet sender arrive further apart than its timer may wait. Before its first RTT sample
// the timer is model.InitialRTOS; it fires before the first ACK, the sender retransmits
// everything in flight (go-back-N), backs its timer off (RFC 6298 §5.5) and takes no
// sample until a packet sent after the timeout is acknowledged (Karn). The fluid's
// continuous deliveries would never let a timer fire, so for these subflows the engine
// follows the packet sender's timer ACK by ACK: an ACK is a whole packet of new data
// arriving, the timer restarts at each and fires RTO later, and the copies a timeout
// resends take the link but acknowledge nothing. Faster paths never arm it: their ACKs are
// far inside any RTO, and their timeouts are those of their loss recoveries (losses.go).
type ackTimer struct {
	est            model.RTTEstimator
	backoff        float64 // RTO multiplier: 1, 2, 4, …
	timing         bool
	timedSeq       float64 // the timed packet's number among the new packets (1-based)
	timedAt        float64 // when it was sent, s
	acked          float64 // whole packets of new data acknowledged
	lastAckAt      float64 // when the timer last restarted, s
	checkT, checkU float64 // the previous check: its time, s, and new data delivered then
	copies         []span  // spans of the sent count whose packets are go-back-N copies, in order
	retired        float64 // copies in spans that have wholly left the network (retire)
	oldSent        float64 // the sent count at the latest timeout
	nextCheck      float64 // s
}

// span is [from, to) of a subflow's count of packets sent.
type span struct{ from, to float64 }

// armAckTimers arms the packet-granular timer of every single-path subflow whose path has
// a link slower than one packet per model.MinRTOS.
func (s *system) armAckTimers() {
	for fi := range s.flows {
		f := &s.flows[fi]
		if f.nSub != 1 {
			continue
		}
		if s.slowestPacketS(f) >= model.MinRTOS {
			f.at = &ackTimer{backoff: 1, lastAckAt: f.start, checkT: f.start, nextCheck: f.start}
		}
	}
}

// rto is the timer's current timeout, s, as the packet sender computes it.
func (at *ackTimer) rto(f *subflow) float64 {
	base := at.est.Base()
	lo := model.MinRTOS
	if f.recovery == model.RecoveryPRR {
		lo = ns3MinRTOS
	}
	return min(max(base, lo)*at.backoff, model.MaxRTOS)
}

// copiesBelow is how many of the first n packets sent were copies, for n at or above the
// packets that have left the network.
func (at *ackTimer) copiesBelow(n float64) float64 {
	c := at.retired
	for _, sp := range at.copies {
		c += max(min(n, sp.to)-sp.from, 0)
	}
	return c
}

// retire folds the spans wholly below left into a count, so that a long run's timeouts do
// not lengthen the walk every evaluation makes (deliveringCopy).
func (at *ackTimer) retire(left float64) {
	k := 0
	for k < len(at.copies) && at.copies[k].to <= left {
		at.retired += at.copies[k].to - at.copies[k].from
		k++
	}
	at.copies = at.copies[k:]
}

// isCopy reports whether packet number n of the sent count is a copy.
func (at *ackTimer) isCopy(n float64) bool {
	for _, sp := range at.copies {
		if n >= sp.from && n < sp.to {
			return true
		}
	}
	return false
}

// countOfNew is the sent count at which the u-th packet of new data went out.
func (at *ackTimer) countOfNew(u float64) float64 {
	n := u + at.retired
	for _, sp := range at.copies {
		if sp.from < n {
			n += sp.to - sp.from
		}
	}
	return n
}

// left is how many of subflow f's packets have left the network, arrived or dropped, per
// member of its class: in order, the sent count of the packet arriving now.
func (f *subflow) left(y []float64) float64 {
	return (max(y[f.cnt+cntDelivered], 0) + max(y[f.cnt+cntDropped], 0)) / f.mult
}

// countPackets sets an observation's counts of the packets subflow f has sent and that
// have left the network, per member of its class, from its counters in y.
func (f *subflow) countPackets(o *model.Observation, y []float64) {
	o.SentPkts, o.LeftPkts = max(y[f.cnt+cntSent], 0)/f.mult, f.left(y)
	o.LostPkts = max(y[f.cnt+cntDropped], 0) / f.mult
}

// deliveringCopy reports whether the packets arriving now are copies: they acknowledge
// nothing, as a packet receiver's duplicate ACKs do not.
func (f *subflow) deliveringCopy(y []float64) bool {
	return f.at != nil && len(f.at.copies) > 0 && f.at.isCopy(f.left(y))
}

// checkAckTimer brings subflow f's timer up to time t: the ACKs of new data since the
// previous check restart it (the timed one is a sample), and if it has expired with data
// outstanding it fires. It reports whether the flow's state changed.
func (s *system) checkAckTimer(f *subflow, t float64, y []float64) bool {
	at := f.at
	sent := max(y[f.cnt+cntSent], 0) / f.mult
	left := f.left(y)
	at.retire(left)
	u := left - at.copiesBelow(left)
	when := func(v float64) float64 { // the time new data delivered passed v, s (linear)
		if u <= at.checkU {
			return t
		}
		return at.checkT + (t-at.checkT)*min(max((v-at.checkU)/(u-at.checkU), 0), 1)
	}
	if n := math.Floor(u + 1e-9); n > at.acked {
		if at.timing && n >= at.timedSeq {
			at.est.Sample(when(at.timedSeq) - at.timedAt)
			at.timing, at.backoff = false, 1
		}
		at.acked, at.lastAckAt = n, when(n)
	}
	newSent := sent - at.copiesBelow(sent)
	if !at.timing && f.rate > 0 && !at.isCopy(sent) && newSent > at.acked {
		at.timing, at.timedSeq, at.timedAt = true, math.Floor(newSent)+1, t
	}
	at.checkT, at.checkU = t, u
	changed := false
	outstanding := newSent > at.acked+1e-9
	if !outstanding {
		at.lastAckAt = t // nothing in flight: the timer is off, and starts with the next packet
	} else if t >= at.lastAckAt+at.rto(f)-1e-12 {
		s.ackTimeout(f, t, y, sent)
		changed = true
	}
	at.nextCheck = at.lastAckAt + at.rto(f)
	// The next ACK at the pace packets leave the network now: check there too, unless it
	// is not ahead (a count the drops have moved past): the deadline then decides.
	if rate := f.deliver / (f.wire * f.mult); rate > 0 {
		if next := t + (at.countOfNew(at.acked+1)-left)/rate; next > t*(1+1e-9)+1e-9 {
			at.nextCheck = min(at.nextCheck, next)
		}
	}
	return changed
}

// ackTimeout is an expiry of subflow f's packet-granular timer at time t with sent packets
// sent: the law's timeout jump and the timer backed off. A packet sender sends whole
// packets: the one the fluid is part way through has gone out, and after it every packet
// of new data not yet acknowledged is resent (go-back-N), as copies.
func (s *system) ackTimeout(f *subflow, t float64, y []float64, sent float64) {
	at := f.at
	s.countLoss(f, t, y)
	f.law.OnTimeout(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
	f.timeouts++
	at.timing = false
	if at.rto(f) < model.MaxRTOS {
		at.backoff *= 2
	}
	at.est.Reinit = at.est.Reinit || at.backoff > 8
	whole := math.Ceil(sent - 1e-9)
	if n := math.Ceil(whole-at.copiesBelow(whole)-1e-9) - at.acked; n > 0 {
		sp := span{whole, whole + n}
		if k := len(at.copies) - 1; k >= 0 && at.copies[k].to >= sp.from {
			at.copies[k].to = max(at.copies[k].to, sp.to) // still resending the last copies
		} else {
			at.copies = append(at.copies, sp)
		}
	}
	at.lastAckAt = t
	at.oldSent = whole
}

// inFlight is the packets subflow f keeps in flight in state y. A sender with a
// packet-granular timer counts whole packets, ⌊W⌋, and the packets sent before its latest
// timeout stay in the network besides the window it refills from the first of them: after a
// timeout a packet sender has up to the old flight and its new window out at once.
func (s *system) inFlight(f *subflow, y []float64) float64 {
	if f.at == nil {
		return s.form.inFlight(f.sendW, f.rwnd)
	}
	w := f.sendW
	if s.form.counted {
		w = max(math.Floor(w), 1)
	}
	return w + max(f.at.oldSent-f.left(y), 0)
}
