package fluid

// A SACK sender that finds its lost retransmissions (model.Scenario.LostRetransmit: Linux's
// tcp_mark_lost_retrans, then RACK) sends them again and stays in its recovery until every
// hole below the recovery point is repaired. At a drop-tail queue that stays full through
// the recovery — a window reduced from a slow start's overshoot still above what the path
// holds — its retransmissions are dropped as its other packets are, so each round trip
// repairs the holes but a fraction φ, the flow's packets dropped over that round trip per
// packet sent, and the recovery lasts as many rounds as the holes take to fall below one.
// The packet engine's CUBIC beside BBR over a 10-BDP buffer (modern-bbr-cubic-deep) stays
// 2 s, 4.5 round trips, in the recovery of its first slow start's 2,500 holes, and finds
// no new loss meanwhile; a recovery of one round trip ended into the full queue and cut
// CUBIC twice more (TestLostRetransmissionsExtendRecovery). Paced senders recover so too:
// the recovery is the TCP stack's, not the congestion module's. The BBR flow there, whose
// recovery lasted one round trip, counted a loss event every two round trips of the full
// queue, five in 1.3–4.9 s against the packet engine's three.

// rtxRound is the recovery round of a synchronized subflow whose lost retransmissions are
// found: the holes left below the recovery point and the counters at the round's start.
type rtxRound struct {
	holes, sent, overflow float64 // packets per member of the class
}

// startRtxRound begins a round of subflow f's recovery with holes packets, dropped by full
// queues, to repair (state y); none if less than one.
func (s *system) startRtxRound(f *subflow, holes float64, y []float64) {
	f.rtx = rtxRound{}
	if !s.sc.LostRetransmit || holes < 1 {
		return
	}
	f.rtx = rtxRound{holes: holes, sent: y[f.cnt+cntSent] / f.mult, overflow: y[f.cnt+cntOverflow] / f.mult}
}

// rtxRecheck ends a round of subflow f's recovery (startRtxRound began it) at time t
// (state y) and reports whether it settled what follows. The holes of the round are lost
// again at the fraction of the flow's packets dropped over it: if one is left, the
// recovery goes on another round trip, whose count of drops starts afresh (the sender
// knows of them); else, if the round lost packets sent during the recovery, their holes
// are in the SACKs already and the next recovery starts at once.
func (s *system) rtxRecheck(f *subflow, t float64, y []float64) bool {
	r := f.rtx
	f.rtx = rtxRound{}
	if f.timeoutDue {
		return false // its timer ends this recovery (timeoutFires)
	}
	sent := y[f.cnt+cntSent]/f.mult - r.sent
	if !(sent > 0) {
		return false
	}
	dropped := y[f.cnt+cntOverflow]/f.mult - r.overflow
	if holes := r.holes * min(max(dropped/sent, 0), 1); holes >= 1 {
		f.recoverUntil = t + f.rtt
		f.recheckAt = f.recoverUntil
		y[f.cnt+cntOverflow] = 0
		s.startRtxRound(f, holes, y)
		return true
	}
	if dropped >= 1 {
		f.reactAt = t
		return true
	}
	return false
}
