package fluid

import (
	"math"
	"slices"

	"github.com/tcpfluid/tcpfluid/model"
)

// loss applies a loss event to a flow, whose state and counters y holds, unless it falls
// inside the flow's current recovery (one window reduction per window of data, as NewReno
// and SACK senders do): a loss of data sent before the recovery began is one more hole in
// the window being repaired, which may cost a timeout, and in the counted form a loss of
// data sent during it starts the next recovery where this one ends.
func (s *system) loss(f *subflow, t float64, y []float64) {
	x := y[f.off : f.off+f.nLaw]
	f.clocked = false // its slow start ends (ackclock.go)
	if t < f.recoverUntil {
		if t >= f.recoverPoint && !f.timeoutDue && s.form.counted {
			// A packet sent during the recovery was lost: the sender finds the hole once
			// the recovery has ended, and reduces again there (RFC 6582 §3.2 step 5's
			// new recovery; RFC 6675 and Linux alike).
			f.reactAt = min(f.reactAt, f.recoverUntil)
			return
		}
		if t < f.recoverPoint && !f.timeoutDue {
			// A hole in the data sent before the recovery began keeps the cumulative ACK
			// below the recovery point until its retransmission returns, a round trip on.
			f.recoverUntil = max(f.recoverUntil, t+f.rtt)
		}
		if t >= f.silentUntil {
			f.holes++
			if s.retransmissionLost(f) {
				s.prrTimeout(f)
				return
			}
			if s.timesOut(f, f.holes) && !f.timeoutDue {
				s.recoveryTimeout(f)
			}
		}
		return
	}
	w0 := f.window(t, min(x[f.sub], f.rwnd))
	f.lossWindow, f.ackedAtLoss = w0, y[f.cnt+cntAcked]
	f.copies += f.gbn.lossEvent(w0, f.mult, f.droppedAtEvent, y[f.cnt+cntSent])
	f.dropsDeaf = true
	s.countLoss(f, t, y)
	if s.simRecovers(f) && f.sr.rebuilding(t) {
		// Linux's ssthresh() reads snd_cwnd, which after ns-2's min_cwnd recovery slow-starts
		// back to ssthresh outside the law: the reduction starts from the window reached.
		x[f.sub] = min(x[f.sub], w0)
	}
	// A loss found in slow start: the flow's packets left in trains, and so do the ACKs its
	// recovery hears (jitterCounted). The packet engine's HighSpeed joining seed 000's
	// dumbbell (ns-2's `same` run) falls from 1332 to 574 packets in its first recovery
	// within 0.5 s; at its mean share of the link the fluid's fell from 1108 to 824 in 0.9 s.
	train := w0 < model.SsthreshOf(f.law, f.sub)
	f.law.OnLoss(x, s.obsFor(f, t))
	f.recoverUntil = t + f.rtt
	f.recoverFrom, f.recoverPoint, f.recoverRTT = t, t+f.rtt, f.rtt
	f.holes = 1
	if f.lateRetransmission() {
		s.recoveryTimeout(f)
		f.lateRtx = true
	}
	if s.simRecovers(f) {
		resume := min(x[f.sub], f.rwnd)
		ss := model.SsthreshOf(f.law, f.sub)
		if !(ss > 0 && ss < resume) {
			ss = resume
		}
		f.sr.start(f.recovery, t, f.rtt, w0, ss, resume, s.jitterCounted(f, train), 1+s.jitterCounted(f, true), s.busyQueue(f, y))
		if s.retransmissionLost(f) {
			s.prrTimeout(f)
		}
	}
}

// busyQueue is the queue subflow f's packets meet at the slowest link of its path (state
// y), in its packets: a FIFO's, none at a fair queue's (its own queue drains at its share).
func (s *system) busyQueue(f *subflow, y []float64) busyQueue {
	li := s.slowestLink(f)
	if li < 0 || s.links[li].fq {
		return busyQueue{}
	}
	l := &s.links[li]
	return busyQueue{pkts: max(y[l.off+lvQueue], 0) / f.wire, servicePkts: l.capBps / f.wire, mult: f.mult}
}

// timesOut reports whether a sender repairing a window with holes lost packets waits for
// its retransmission timer. Reno's fast recovery ends at the first new ACK, so a second
// hole is left to the timer (RFC 5681). NewReno repairs one hole per round trip on partial
// ACKs (RFC 6582), and its timer restarts at the first partial ACK only (the "impatient"
// variant, as ns-2's and the packet engine's senders), so it fires when the remaining holes
// take longer than one RTO, max(model.MinRTOS, RTT). Tahoe goes back to slow start at once,
// and SACK senders (Settings.SACK, and in the counted form the simulators' SACK
// recoveries, simRecovers) repair every hole in one round trip.
func (s *system) timesOut(f *subflow, holes float64) bool {
	switch {
	case s.set.SACK || f.recovery == model.RecoveryTahoe || s.simRecovers(f):
		return false
	case f.recovery == model.RecoveryReno:
		return holes >= 2
	}
	return (holes-1)*f.rtt > f.rto()
}

// rto is the retransmission timeout a sender has armed, s: RFC 6298's SRTT + 4·RTTVAR,
// read as timerRTT, at least model.MinRTOS; a sender timing a packet a round trip, as
// ns-2's one-way agents do, reads its own estimator (roundtimer.go).
func (f *subflow) rto() float64 {
	if f.rt.on && f.rt.est.Have {
		return max(model.MinRTOS, f.rt.est.Base())
	}
	return max(model.MinRTOS, f.timerRTT)
}

// countLoss counts a window reduction of flow f at time t (y is the state just before
// it), records it when asked and ends the run after StopAfterLosses of flow 0 or
// when LossStop says so.
func (s *system) countLoss(f *subflow, t float64, y []float64) {
	if s.set.RecordLosses {
		c := f.cnt
		w := y[f.off+f.sub]
		s.losses = append(s.losses, model.LossRecord{Flow: f.idx, TS: t, CwndPkts: f.window(t, min(w, f.rwnd)),
			CwndTimePktS: y[c+cntCwndTime], DeliveredPkts: y[c+cntDelivered]})
	}
	f.lossEvents++
	f.rt.due = 0
	f.sentAtLoss, f.droppedAtEvent = y[f.cnt+cntSent], y[f.cnt+cntDropped]
	if f == &s.flows[0] && ((s.set.StopAfterLosses > 0 && f.lossEvents >= s.set.StopAfterLosses) ||
		(s.set.LossStop != nil && s.set.RecordLosses && s.set.LossStop(s.losses))) {
		s.end = t
	}
}

// recoveryTimeout is a recovery that times out. The fast retransmit at the loss's detection
// restarted the retransmission timer; the first ACK of new data, one RTT later, restarts
// it again (it ends Reno's fast recovery, and is NewReno's first partial ACK) unless the
// timer fires first, as it does when the retransmission waits behind a queue longer than
// the smoothed RTT says. The sender holds its reduced window until the timer fires
// (timeoutFires), sending only what its duplicate ACKs let out (awaitflight.go), then
// restarts from one packet, retransmitting from the first hole at once (go-back-N).
func (s *system) recoveryTimeout(f *subflow) {
	detected := f.recoverFrom
	rto := f.rto()
	f.silentUntil = detected + rto
	if f.rtt < rto {
		f.silentUntil += f.rtt
	}
	f.recoverUntil = f.silentUntil
	f.timeoutDue = true
	f.sr.on = false // it waits for its timer with the law's reduced window
}

// silent reports whether subflow f's window is still at time t while it waits for its
// timer, up to and including the instant a recovery's timer fires (the timeout's window,
// not the held one, sends from then on). It sends nothing then but what the duplicate ACKs
// of a recovery let out (awaitflight.go).
func (f *subflow) silent(t float64) bool {
	return t < f.silentUntil || (f.timeoutDue && t == f.silentUntil)
}

// timeoutFires is the expiry at time t of the timer recoveryTimeout armed: a loss event,
// the law's timeout jump.
func (s *system) timeoutFires(f *subflow, t float64, y []float64) {
	f.timeoutDue = false
	f.sr.on = false
	if f.lateRtx {
		f.spurious++ // the retransmission was on its way (RFC 3522's test)
		f.lateRtx = false
	}
	holes := s.holesAtTimeout(f, t, y)
	awaited := (y[f.cnt+cntSent] - f.sentAtLoss) / f.mult
	s.countLoss(f, t, y)
	f.law.OnTimeout(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
	f.timeouts++
	s.startGoBackN(f, t, y, holes, awaited)
}

// overflowSynchronized schedules a loss for every flow crossing link li (state y).
func (s *system) overflowSynchronized(li int, t float64, y []float64) {
	for fi := range s.flows {
		if f := &s.flows[fi]; f.active && slices.Contains(f.links, li) && f.reactAt == math.Inf(1) {
			f.hearDrop(t, s.waitBefore(f, li, y), false)
			f.overflowHeard = f.reactAt != math.Inf(1) && smoothAt(s.sc, f.links, slices.Index(f.links, li))
		}
	}
}

// hearDrop schedules subflow f's reaction to a queue's drop at time t of a packet that
// waited wait seconds in the queues before it: a round trip after the packet left its
// sender, from the duplicate ACKs of the packets behind it, unless a reaction is already
// due or the drop falls in the recovery it is in. With newWindow (hearsInRecovery) only a
// packet sent before the recovery began is the recovery's: one sent after it is a loss in
// the next window, which the sender finds a round trip on, once the recovery has ended
// (loss starts the next recovery there), as a SACK or NewReno sender does (RFC 6675, RFC
// 6582 §3.2) and ns-2's shortest-RTT flow in the rtt mode does in half its overflows.
func (f *subflow) hearDrop(t, wait float64, newWindow bool) {
	if r, ok := f.dropHeard(t, wait, newWindow); ok {
		f.reactAt = r
		f.dropsDeaf = true
	}
}

// dropHeard is hearDrop's verdict: whether the drop is heard, and when its reaction is due.
func (f *subflow) dropHeard(t, wait float64, newWindow bool) (float64, bool) {
	if f.reactAt == math.Inf(1) && (t >= f.recoverUntil || newWindow && t-wait >= f.recoverFrom) {
		return t + max(f.rtt-wait, 0), true
	}
	return 0, false
}

// deafToDrops reports whether a drop at time t would change nothing for subflow f: a
// reaction is already due, or the drop falls in the recovery under way (hearDrop). The
// proportional rule's drop guard is off then, so that the drops of one overflow do not
// stop the solver once per packet (100 flows of distinct RTTs: 66 located drops per loss
// event, and 20,000 steps where the synchronized rule takes 1,400).
func (f *subflow) deafToDrops(t float64) bool {
	return f.reactAt != math.Inf(1) || t < f.recoverUntil && !f.hearsInRecovery
}

// rearmDue reports whether subflow f's drop guard, off since it last heard a drop, comes
// back on at time t.
func (f *subflow) rearmDue(t float64) bool { return f.dropsDeaf && !f.deafToDrops(t) }

// rearmDrops turns subflow f's drop guard back on, keeping of the drops counted meanwhile
// what the guard would have left had each whole packet per member fired and reset it, or,
// under model.DropRandom, from a fresh count and draw (a Poisson process forgets the drops
// of the window it was deaf to); it reports whether it changed y.
func (f *subflow) rearmDrops(y []float64) bool {
	f.dropsDeaf = false
	c := &y[f.cnt+cntOverflow]
	if f.dropRng != nil {
		f.drawDrop()
		changed := *c != 0
		*c = 0
		return changed
	}
	if *c < f.mult {
		return false
	}
	*c = f.sinceWholeDrop(*c)
	return true
}

// dropStream seeds the random drop rule's draws (dropRng), apart from the random losses'
// streams so that the packet engine's common random numbers still pair them.
const dropStream = 0xd20b

// drawDrop sets where subflow f's next drop under the proportional rules falls, in
// packets of its share of a full queue's dropped excess per member of its class: one, or
// under model.DropRandom an Exp(1) draw. Which packets a full queue drops is chance there;
// a flow whose share of an overflow's drops is m packets loses at least one with
// probability 1 − e^(−m), as a Poisson count of mean m does (ns-2's jittered drop-tail
// queue: a Reno flow of 70 packets beside CUBIC's 3900 misses a third to a half of the
// overflows CUBIC causes).
func (f *subflow) drawDrop() {
	f.dropDraw = f.nextDropDraw()
	if f.dropRng != nil {
		f.dropAhead = f.dropRng.ExpFloat64()
	}
}

// nextDropDraw is the draw the next drawDrop sets.
func (f *subflow) nextDropDraw() float64 {
	if f.dropRng != nil {
		return f.dropAhead
	}
	return 1
}

// sinceWholeDrop is what a count of subflow f's drops leaves past its last whole packet
// per member of its class: the proportional rule's guard resets the count there.
func (f *subflow) sinceWholeDrop(c float64) float64 { return c - f.mult*math.Floor(c/f.mult) }

// nextReaction is the next time a flow's discrete state is due to change without a guard:
// its drop-tail reaction (nextDropReaction), and the resumptions and timers below.
func (s *system) nextReaction() float64 {
	next := s.nextDropReaction()
	for fi := range s.flows {
		f := &s.flows[fi]
		if r := s.form.resumesAt(f); r > s.drv.T() {
			next = min(next, r) // the law resumes: a step boundary
		}
		if f.silentUntil > s.drv.T() {
			next = min(next, f.silentUntil) // a timed-out sender resumes
		}
		if f.burstUntil != 0 {
			next = min(next, f.burstUntil) // its window's burst has left (ackclock.go)
		}
		next = min(next, s.nextClockJump(f)) // its ACK clock's rate jumps (ackclock.go)
		if s.sc.DropRule.Proportional() && !s.polled && f.dropsDeaf && f.recoverUntil > s.drv.T() && s.overflowing(f) {
			// The drop guard comes back on (rearmDrops). A queue that fills later stops
			// the solver where it does, and the guard comes back on there.
			next = min(next, f.recoverUntil)
		}
		next = min(next, f.sr.nextKink(s.drv.T())) // a simulator's recovery changes pace
		if f.at != nil && f.active {
			next = min(next, f.at.nextCheck) // a packet-granular timer (acktimer.go)
		}

	}
	return next
}

// dueReactions applies the drop-tail reactions due at time t and reports whether the
// state changed; s.touched lists the flows it changed.
func (s *system) dueReactions(t float64) bool {
	changed := false
	s.touched = s.touched[:0]
	var y []float64
	for fi := range s.flows {
		f := &s.flows[fi]
		if f.sr.kinkAt(t) {
			changed = true // the window's path changes its law: restart the solver there
			s.touched = append(s.touched, fi)
			if t == f.sr.t1 { // the recovery ends: time its slow start back by the path now
				if y == nil {
					y = s.state(t)
				}
				f.sr.rebuildFrom(s.pathRTT(f, y))
			}
		}
		if f.recheckAt <= t && f.rtx.holes > 0 {
			if y == nil {
				y = s.state(t)
			}
			if s.rtxRecheck(f, t, y) {
				changed = true
				s.touched = append(s.touched, fi)
			}
		}
		if s.form.resumesAt(f) == t || f.silentUntil == t {
			changed = true // a window's law resumes: restart the solver on the new field
			s.touched = append(s.touched, fi)
			if f.timeoutDue && f.silentUntil == t {
				if y == nil {
					y = s.state(t)
				}
				s.timeoutFires(f, t, y)
			}
			if law, ok := f.law.(model.RecoveryEnder); ok && f.nSub == 1 && t >= f.silentUntil {
				if y == nil {
					y = s.state(t)
				}
				law.EndRecovery(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
			}
			if f.silentUntil == t {
				if y == nil {
					y = s.state(t)
				}
				s.startBurst(f, t, y) // the timer fired: the pipe is empty (ackclock.go)
			}
		}
		if f.burstUntil != 0 && f.burstUntil <= t {
			f.burstUntil = 0 // the burst has left: the ACK clock alone sends from here
			changed = true
			s.touched = append(s.touched, fi)
		}
		if s.passClockJumps(f, t) {
			changed = true
			s.touched = append(s.touched, fi)
		}
		if f.at != nil && f.active && f.at.nextCheck <= t {
			if y == nil {
				y = s.state(t)
			}
			if s.checkAckTimer(f, t, y) {
				changed = true
				s.touched = append(s.touched, fi)
			}
		}
		if f.reactAt <= t {
			if y == nil {
				// Network quantities once: a reaction changes only its own flow's window.
				y = s.state(t)
			}
			f.reactAt = math.Inf(1)
			if (y[f.cnt+cntSent]-f.sentAtLoss)/f.mult < 1 {
				// Nothing sent since its last loss event: the sender has no packet to lose
				// (a window below a packet per round trip); it looks again a round trip on.
				f.recheckAt = t + f.rtt
				continue
			}
			if f.escapes(y[f.cnt+cntOverflow] / f.mult) {
				y[f.cnt+cntOverflow] = 0
				f.recheckAt = t
			} else {
				s.react(f, t, y)
			}
			changed = true
			s.touched = append(s.touched, fi)
		}
		if s.sc.DropRule.Proportional() && !s.polled && f.rearmDue(t) {
			if y == nil {
				y = s.state(t)
			}
			if f.rearmDrops(y) {
				changed = true
				s.touched = append(s.touched, fi)
			}
		}
		if f.recheckAt <= t {
			// A synchronized sender whose recovery ended while its queue is still full
			// loses again.
			f.recheckAt = math.Inf(1)
			for _, li := range f.links {
				if s.links[li].mode == queueFull && f.active {
					f.reactAt, f.overflowHeard = t+f.rtt, true
					break
				}
			}
		}
	}
	return changed
}

// react is subflow f's reaction at time t (state y) to the drops it heard: a loss event,
// whose holes under the synchronized rule are every packet the full queue took from it
// since its last reaction, and the further holes a finding (found.go) brought.
func (s *system) react(f *subflow, t float64, y []float64) {
	s.loss(f, t, y)
	more := s.foundAt(f, t)
	synchronized := !s.sc.DropRule.Proportional()
	if synchronized {
		// Every packet the full queue took from this flow since its last reaction
		// is a hole in the same window.
		overflow := y[f.cnt+cntOverflow] / f.mult
		f.holes = max(overflow, 1)
		y[f.cnt+cntOverflow] = 0
		s.startRtxRound(f, overflow, y)
	}
	if f.holes += more; s.timesOut(f, f.holes) && t >= f.silentUntil && !f.timeoutDue {
		s.recoveryTimeout(f)
	}
	if !f.timeoutDue {
		s.spreadRecovery(f, t, y)
	}
	if synchronized {
		f.recheckAt = f.recoverUntil // after the timeout, which moves it
	}
}

// drawRandomLoss draws the expected losses (p × packets, the unit of the cntRandom counter)
// to subflow f's next random loss. Over links that lose each packet with probability p (the
// sum of its path's random-loss probabilities, at most 1) the packets to the next loss are
// geometric, ⌈E/λ⌉ with E ~ Exp(1) and λ = −ln(1 − p), the packet engine's draw from the
// same stream (common random numbers), so a sender never sees more loss events than
// packets; for small p this is E, the Exp(1) draw of a Poisson process, which RED's varying
// probability alone gets.
func (s *system) drawRandomLoss(f *subflow) {
	p := s.randomLossP(f)
	switch {
	case p >= 1:
		f.randomThreshold = 1
	case p > 0:
		f.randomThreshold = p * max(math.Ceil(f.rng.ExpFloat64()/-math.Log1p(-p)), 1)
	default:
		f.randomThreshold = f.rng.ExpFloat64()
	}
}

// randomLossP is the sum of the random-loss probabilities of subflow f's path's links.
func (s *system) randomLossP(f *subflow) float64 {
	p := 0.0
	for _, li := range f.links {
		if l := &s.links[li]; l.loss == model.LossRandom {
			p += l.lossP
		}
	}
	return p
}
