package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// ns-2.35's TCP/Linux sender takes an RTT sample from every ACK and keeps no floor under
// RTTVAR, so on a steady path its timer is SRTT and 3 ticks (packet/ns2rtt.go). Its
// window leaves in one burst a round trip, lasting W packet times at its slowest link, and
// the timer restarts at the burst's last ACK: the next burst's first ACK comes late by what
// the queue grew over the round trip less the burst's length, and the timer fires first
// when that exceeds its margin. The timeout is spurious (RFC 3522: the ACK of a packet sent
// before it follows at once), but the sender takes it as any: its law's timeout, the
// window from one packet, the returning ACKs slow-starting it back to ssthresh.

// ns2TimerMarginS is how long after SRTT ns-2 TCP/Linux's timer fires on a steady path, s:
// its fixed-point 4·RTTVAR, in 1-ms ticks, decays by a quarter of itself rounded down, so
// it stops at 3 ticks (packet/ns2rtt.go). 437 of the packet engine's 600 Reno timeouts
// beside H-TCP (seed 1) came 3.0 ms after SRTT, the rest 2.1–4 ms and a few later.
const ns2TimerMarginS = 0.003

// Where the RTT moves round after round the timer has more margin. A burst's first sample
// exceeds SRTT by e, the round's rise, and each next one by 7/8 of the excess before;
// RTTVAR takes a quarter of each and forgets a quarter. After the burst's W samples SRTT
// lags by e·(7/8)^W and RTTVAR holds about (7/4)·e·(7/8)^W (e/4 · Σ (3/4)^(W−i)·(7/8)^i), so
// the timer stands 6·e·(7/8)^W above the burst's RTT: nothing for a window of 100 packets,
// 1.2·e for one of 12. After a fall SRTT still stands above the samples (by
// 15/8·|e|·(7/8)^W with RTTVAR): the end of a recovery that drained the queue, whose refill
// would otherwise read as a rise. The rise is the RTT a packet sent now meets over the one
// the latest ACK reports (rttSeen: the queues its packet met). With these the fluid's Reno
// flows beside H-TCP (ns-2's friendliness run, seeds 1–10) time out 233–234 times a run
// in 279–282 loss events (ns-2: 196–229 in 257–282 on average over its seeds, 220–260
// without its one seed where the Reno flows never time out); 485 without the margin. Beside HighSpeed they
// time out at each of its overflows, 1.6–1.8 s after it, as the packet engine's do.

// ns2Timer reports whether subflow f keeps ns-2 TCP/Linux's timer: a replica of its sender
// (RecoveryLinux*) in the counted form.
func (s *system) ns2Timer(f *subflow) bool {
	return s.simRecovers(f) && linuxRecovery(f.recovery)
}

// lateBy is how much later than subflow f's timer its next burst's first ACK would come,
// s, from the network last evaluated: negative while it comes first.
func (s *system) lateBy(f *subflow) float64 {
	burst := f.sendW * s.slowestPacketS(f)
	return f.riseOverRound() - burst - ns2TimerMarginS - timerLag(f.riseAvg)*math.Pow(7.0/8, f.sendW)
}

// timerLag is how far ns-2's timer, SRTT + 4·RTTVAR, stands above a burst's last sample
// after a round whose RTT rose by e (s), before the factor (7/8)^W of the burst's W
// samples: 6·e on a rising RTT (SRTT e below, RTTVAR 7/4·e); 15/8·|e| on a falling one,
// SRTT |e| above and RTTVAR an eighth of 7/4·|e|, since Linux's estimator moves RTTVAR by
// an eighth for a sample below SRTT (packet/ns2rtt.go).
func timerLag(e float64) float64 {
	if e < 0 {
		return -15.0 / 8 * e
	}
	return 6 * e
}

// riseOverRound is how much subflow f's RTT has grown over the last round trip, s, from
// the network last evaluated: the RTT now over the one its latest sample reports.
func (f *subflow) riseOverRound() float64 { return f.rtt - f.rttSeen }

// lateAckDue reports whether subflow f's timer can fire at time t (state yd) for a late
// burst: armed, in congestion avoidance, outside a recovery and its slow start back, not
// silent. In slow start a flow's RTTVAR still holds much of its first sample's R/2, and it
// does not fire there: a flow joining seed 000's dumbbell in `same` Compound would time
// out every round of a queue growing 30 packets a round at windows of 11 packets, where
// ns-2's (10 seeds) and the packet engine's (5) never do.
func (s *system) lateAckDue(f *subflow, t float64, yd []float64) bool {
	return !f.lateFired && f.active && t >= f.recoverUntil && t >= f.sr.holdUntil() && !f.timeoutDue && !f.silent(t) &&
		yd[f.off+f.sub] >= model.SsthreshOf(f.law, f.sub)
}

// lateAckTimeout is subflow f's timer firing at time t (state y) before its burst's ACKs:
// a loss event and the law's timeout jump, and no other until a round trip on and the
// lateness has gone (lateAcksStepped).
func (s *system) lateAckTimeout(f *subflow, t float64, y []float64) {
	f.lateFired, f.lateAt = true, t
	s.countLoss(f, t, y)
	f.law.OnTimeout(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
	f.timeouts++
	f.spurious++
}

// settleLateAcks fires, at a jump at time t (state yd, network evaluated), the timers of
// the flows already late: a guard restarted past zero never fires, and would hide its
// flow's other guards. It reports whether it changed a flow.
func (s *system) settleLateAcks(t float64, yd []float64) bool {
	changed := false
	for fi := range s.flows {
		f := &s.flows[fi]
		if f.lateFired || !s.ns2Timer(f) || !(s.lateBy(f) >= 0) {
			continue
		}
		if !s.lateAckDue(f, t, yd) {
			f.lateFired = true // in a recovery: no timeout for this lateness
			continue
		}
		s.lateAckTimeout(f, t, yd)
		changed = true
	}
	return changed
}

// lateAcksStepped follows an accepted step from t0 to t1: each timer's rise of the round
// before (riseAvg, the rise over a round trip averaged over one), and the timers armed
// again whose bursts come in time once more. After a late-burst timeout that is judged a
// round trip on, by the first burst sent after it: the window the timeout left, a packet,
// would leave at once, and the late ACKs slow-start it back to ssthresh within half a
// round, so the same rise fired it again and again (Reno beside HighSpeed, seed 1, 416.3,
// 416.6 and 416.7 s at windows of 76, 39 and 19 packets, where the packet engine's and
// ns-2's Reno flows time out at most once in a rise).
func (s *system) lateAcksStepped(t0, t1 float64) {
	dt := t1 - t0
	for fi := range s.flows {
		f := &s.flows[fi]
		if !f.active || !s.ns2Timer(f) {
			continue
		}
		f.riseAvg += min(dt/f.rtt, 1) * (f.riseOverRound() - f.riseAvg)
		if f.lateFired && t1 >= f.lateAt+f.rtt && s.lateBy(f) < 0 {
			f.lateFired = false
		}
	}
}
