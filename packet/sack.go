package packet

import "math"

// SACK loss recovery, Settings.SACK: the receiver's ACKs report the out-of-order packet
// that triggered them (a SACK block), the sender keeps a scoreboard of what the receiver
// holds above snd.una, and recovery sends by the data in flight (RFC 6675's pipe) instead
// of Reno's window inflation. A packet is taken as lost once any packet above it is
// SACKed (FACK, Mathis & Mahdavi 1996; Linux's default until 4.15, tcp_fack = 1), so one
// round trip repairs every hole of a window; RFC 6675 waits for three SACKed packets
// above a hole, which with an ACK per packet differs by two packets.
//
// Fast recovery starts at the third duplicate ACK unless snd.una has not passed the
// recovery point of the previous episode (RFC 6675 §5); the law's OnLoss sets the window.
// While in it the sender retransmits the lost packets in order, then sends new data,
// whenever pipe = (packets sent above the highest SACKed one) + (retransmissions neither
// ACKed nor SACKed) is below ⌊min(cwnd, rwnd)⌋; the law hears no ACKs until the recovery
// point is acknowledged, and every partial ACK restarts the timer (RFC 6298 §5.3). A
// timeout calls OnTimeout and keeps the scoreboard (as Linux does): from snd.una every
// packet not SACKed is lost and is resent, in order, within the law's window, while the
// law hears the ACKs. A lost retransmission is found only by the timer, unless
// Settings.LostRetransmit (signals.go) finds it from the SACK of a later packet. The law's
// Recovery() is not used: Tahoe, Reno and NewReno laws all recover by SACK.

// sackAck handles an ACK with its SACK block: the scoreboard first, then the cumulative
// acknowledgement, then sending by pipe.
func (f *tcpFlow) sackAck(sm *sim, a, s int64) {
	if s >= a && s >= f.sndUna && s < f.maxSent && !f.sacked.has(f.sndUna, s) {
		f.sacked.set(f.sndUna, s)
		f.sackedN++
		f.highSack = max(f.highSack, s+1)
		if s < f.rxtNext && f.rxtOut > 0 {
			f.rxtOut-- // every packet the search passed that was not SACKed was retransmitted
		}
	}
	switch {
	case a > f.sndUna:
		f.sackNewAck(sm, a)
	case a == f.sndUna && f.maxSent > f.sndUna:
		f.sackDupAck(sm)
	default:
		return // an old ACK
	}
	if f.ext != nil {
		f.ext.endAck(sm, f)
	}
	f.readCwnd(sm)
	f.sackSend(sm)
}

// sackNewAck handles a cumulative ACK of new data. As without SACK, the law is told of
// the packets it acknowledges less those duplicate ACKs already reported (at least one).
func (f *tcpFlow) sackNewAck(sm *sim, a int64) {
	newly := a - f.sndUna
	consumed := min(f.signalled, newly-1)
	f.signalled -= consumed
	for seq := f.sndUna; seq < a && (f.sackedN > 0 || f.rxtOut > 0); seq++ {
		switch {
		case f.sacked.has(f.sndUna, seq):
			f.sacked.clear(seq)
			f.sackedN--
		case seq < f.rxtNext && f.rxtOut > 0:
			f.rxtOut--
		}
	}
	f.sndUna = a
	f.highSack = max(f.highSack, a)
	f.rxtNext = max(f.rxtNext, a)
	f.dupacks = 0
	f.signalled = min(f.signalled, f.maxSent-a)
	if a >= f.recover {
		f.inRecovery, f.lossState, f.rxtOut = false, false, 0
	}
	if f.inRecovery {
		f.setTimer(sm, sm.now+f.rto(sm))
		return
	}
	if f.ext == nil || f.ext.mayRaise(f) {
		f.conn.law.OnAck(float64(newly-consumed), f.obs(sm))
	}
	f.afterNewAck(sm, a)
}

// sackDupAck counts a duplicate ACK and starts fast recovery at the third.
func (f *tcpFlow) sackDupAck(sm *sim) {
	f.countDupAck()
	if f.inRecovery || f.lossState || f.dupacks < DupAckThreshold || f.sndUna < f.recover {
		return
	}
	sm.lossEvent(f.idx)
	f.recover = f.maxSent
	f.timing = false
	if f.ext == nil || f.ext.mayReduce(f) {
		f.conn.law.OnLoss(f.obs(sm))
	}
	f.inRecovery = true
	// Fast retransmit: the first hole goes now, whatever pipe says (RFC 6675 §5 (4.1)).
	f.transmit(sm, f.sndUna)
	f.rxtNext, f.rxtOut = f.sndUna+1, 1
	f.setTimer(sm, sm.now+f.rto(sm))
}

// enterLoss starts the episode after a timeout (or a route-aware sender's reconnection):
// every packet from snd.una to snd.max not SACKed is lost and will be resent.
func (f *tcpFlow) enterLoss() {
	f.inRecovery, f.lossState = false, true
	f.recover = f.maxSent
	f.rxtNext, f.rxtOut = f.sndUna, 0
	if f.rec != nil {
		f.rec.markAllLost(f)
	}
}

// lostEnd is one past the last packet the scoreboard takes as lost: the highest SACKed in
// fast recovery, everything sent before the timeout after one, none outside an episode.
func (f *tcpFlow) lostEnd() int64 {
	switch {
	case f.inRecovery:
		return f.highSack
	case f.lossState:
		return max(f.highSack, f.recover)
	}
	return f.sndUna
}

// sackSend retransmits lost packets, then sends new data, while pipe < ⌊min(cwnd, rwnd)⌋
// (at least one), never letting snd.max − snd.una exceed the receiver window.
func (f *tcpFlow) sackSend(sm *sim) {
	if !f.running || f.outage {
		return
	}
	win := max(math.Floor(min(f.cwnd, f.rwnd)), 1)
	rwnd := math.Floor(f.rwnd)
	end := f.lostEnd()
	for {
		// Packets not SACKed below end are lost; every SACKed one lies below end.
		pipe := f.maxSent - max(end, f.sndUna) + f.rxtOut
		if end <= f.sndUna {
			pipe = f.maxSent - f.sndUna - f.sackedN
		}
		if float64(pipe) >= win || (f.ext != nil && f.ext.paceWait(sm, f)) {
			break
		}
		if seq := f.nextHole(end); seq >= 0 {
			f.transmit(sm, seq)
			f.rxtOut++
			continue
		}
		if f.conn.nextData >= f.conn.nPkts || float64(f.maxSent-f.sndUna) >= rwnd {
			break
		}
		f.transmit(sm, f.maxSent)
	}
	f.sndNxt = f.maxSent
}

// nextHole is the next packet below end that is neither SACKed nor already retransmitted
// in this episode, or -1.
func (f *tcpFlow) nextHole(end int64) int64 {
	for s := max(f.rxtNext, f.sndUna); s < end; s++ {
		if !f.sacked.has(f.sndUna, s) {
			f.rxtNext = s + 1
			return s
		}
	}
	f.rxtNext = max(f.rxtNext, end)
	return -1
}
