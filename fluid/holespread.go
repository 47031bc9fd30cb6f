package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// A drop-tail overflow drops a flow's packets for as long as it lasts, up to the round
// trip a sender takes to react, so the holes of the window a recovery repairs were sent
// over that time, not at once: the first is found a round trip after it was sent and
// repaired a round trip later, the last as much later as it was sent after the first.
// ns-2.35's TCP/Linux sender stays in recovery until then, its rate halving letting out
// keep of a packet per ACK round after round (to ssthresh/2 with min_cwnd), and
// tcp_moderate_cwnd restarts it from the pipe left: the packet engine's HighSpeed beside
// four Reno flows (seed 000's dumbbell, seed 1, 146.6 s) recovers for 0.80 s, 1.64 round
// trips, its window falling from 2155 to 1106 packets before it slow-starts back to 1550,
// which steps the queue up by 420 packets in 0.15 s. A recovery of one round trip had
// stopped at 0.70 of the window and hardly stepped (lateack.go says what the step does).

// holesSpread is the expected send time of the last of a window's holes after its first,
// in round trips, when m more are expected beyond the one found, spread evenly over the
// round trip before it was found: under model.DropRandom a Poisson count, whose last of n
// lies at n/(n + 1), so 1 − (1 − e^−m)/m on average; else m whole holes, at ⌊m⌋/(⌊m⌋ + 1).
func holesSpread(m float64, random bool) float64 {
	switch {
	case !(m > 0):
		return 0
	case random:
		return 1 + math.Expm1(-m)/m
	}
	n := math.Floor(m)
	return n / (n + 1)
}

// spreadRecovery extends the recovery subflow f has begun at time t (state y) to the
// repair of its window's last hole, and behind ns-2's delayed send takes its holes from
// the ACKs that let packets out (simRec.loseHoles): a replica of ns-2's TCP/Linux sender
// (ns2Timer) after a drop-tail overflow. The further holes are its share of the
// overflow since the drop it found (the proportional rules), or those the synchronized
// rule counted beyond one.
func (s *system) spreadRecovery(f *subflow, t float64, y []float64) {
	if !s.ns2Timer(f) || !f.sr.on || f.sr.t0 != t {
		return // not a recovery begun now
	}
	more := f.holes - 1
	if s.sc.DropRule.Proportional() {
		more = f.overflowSinceDrop(y) / f.mult
	}
	f.sr.loseHoles(more)
	if e := holesSpread(more, s.sc.DropRule == model.DropRandom); e > 0 {
		s.extendRecovery(f, t+f.rtt*(1+e))
	}
}

// extendRecovery makes subflow f's recovery last until time until at least, and a
// simulator's recovery with it.
func (s *system) extendRecovery(f *subflow, until float64) {
	if until <= f.recoverUntil {
		return
	}
	f.recoverUntil = until
	if s.simRecovers(f) {
		f.sr.extend(until)
	}
}
