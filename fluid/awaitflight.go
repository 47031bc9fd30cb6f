package fluid

import "github.com/tcpfluid/tcpfluid/model"

// What a recovery that waits for its timer sends meanwhile. ns-2's Reno and NewReno agents
// (and the packet engine's tcpFlow) keep the window they reduced to at the fast retransmit
// and inflate it by one packet a duplicate ACK: once the duplicate ACKs outnumber the
// packets the reduction took off the outstanding window, each lets a new packet out, and a
// NewReno partial ACK one more (RFC 6582's deflation leaves the limit a packet higher).
// Reno's fast recovery ends at the first partial ACK, a round trip on, where the window,
// deflated, is below what is outstanding; NewReno's sends on until its timer fires. The
// outstanding window never exceeds the receiver's. So the sender sends at the rate its
// ACKs arrive once allowed = held + duplicate ACKs (+ partial ACKs) − outstanding at the
// loss, and its packets lost meanwhile send no duplicate ACK. In seed 003 the packet
// NewReno sends 62 packets between its fast retransmit at 5.33 s and its timeout at 5.90 s,
// and CUBIC's first slow start on seed 000's path 5025 in the second before its timer
// fires, where the fluid's 4961 now (TestAwaitedFlightSendsWhatDuplicateACKsLetOut);
// silent before, the fluid's access link carried 0.655 of its capacity in seed 003
// against the packet engine's 0.696 (now 0.678). What it sends widens the span its
// timeout goes back over (gobackn.go).

// dupAcksAtDetection is the duplicate ACKs a sender has heard when it retransmits fast
// (ns-2's numdupacks_, RFC 5681).
const dupAcksAtDetection = 3

// awaitRate is subflow f's sending rate (state y) at time t while its recovery waits for
// its timer, bytes/s (all members): its ACK rate while what it may send is ahead of what it
// sent (the step within a packet keeps the field continuous); ok is false where the sender
// is not in such a wait.
func (s *system) awaitRate(f *subflow, t float64, y []float64) (rate float64, ok bool) {
	if !f.timeoutDue || !s.roundTimed(f) || s.set.SACK || t < f.recoverFrom ||
		!f.active || !s.pathUp(f.links) {
		return 0, false
	}
	repaired := 0.0
	switch f.recovery {
	case model.RecoveryNewReno:
		repaired = f.partialAcks(t)
	case model.RecoveryReno:
		if t >= f.recoverFrom+f.recoverRTT {
			return 0, true
		}
	default:
		return 0, false
	}
	dupAcks := dupAcksAtDetection + (y[f.cnt+cntAcked]-f.ackedAtLoss)/f.mult
	allowed := min(min(y[f.off+f.sub], f.rwnd)+dupAcks+repaired, f.rwnd) - f.lossWindow
	ahead := allowed - (y[f.cnt+cntSent]-f.sentAtLoss)/f.mult
	return f.ackedLag * min(max(ahead, 0), 1), true
}
