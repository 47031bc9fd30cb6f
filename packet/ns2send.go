package packet

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// ns-2.35's Agent/TCP/Linux with a send overhead (overhead_ > 0, Settings.JitterS) does not
// delay each packet: LinuxTcpAgent::send_much, called after an ACK or a timeout, sends
// nothing itself while the window has room. It arms the delayed-send timer for
// U(0, overhead_) (unless it is pending already, when it returns at once) and, when the
// timer fires, sends everything the window then allows, back to back. So the ACKs that
// return while the timer waits send nothing, and the next burst carries their packets.
//
// Those ACKs also leave the window uncounted. LinuxTcpAgent::recv hands the module the
// packets in flight before the ACK (prior_in_flight), and every module's cong_avoid
// returns at once unless they fill the window (tcp_is_cwnd_limited in
// tcp/linux/ns-linux-c.h: in_flight >= snd_cwnd), so tcp_slow_start's packet per ACK and
// the modules' per-ACK counts skip an ACK that finds a send still owed. Linux's Reno counts
// bytes in congestion avoidance (bytes_acked, which recv adds to on every ACK), so it loses
// nothing (model.ByteCounter). In ns-2's fairness runs that makes HighSpeed's slow start
// grow by about 0.65 of a packet per ACK where the bottleneck is full, and its first
// overshoot end at 6,690 packets instead of the 8,000 a packet per ACK reaches.

// ns2SendTimer reports whether the flow sends as ns-2's TCP/Linux does with overhead_: a
// RecoveryLinux* sender with Settings.JitterS.
func (f *tcpFlow) ns2SendTimer(sm *sim) bool { return f.ns2Timer() && sm.set.JitterS > 0 }

// armSend is send_much without force: nothing is sent now; if the window has room and the
// timer is idle, it fires after U(0, JitterS) (onSendTimer).
func (f *tcpFlow) armSend(sm *sim, room bool) {
	if f.sendWait || !room {
		return
	}
	f.sendWait = true
	sm.q.push(sm.now+sm.jitter.Float64()*sm.set.JitterS, event{kind: evSendTimer, idx: f.idx})
}

// onSendTimer is the delayed-send timer's expiry: send_much with force, inside
// LinuxTcpAgent::timeout's save_from_linux and load_to_linux. In a rate-halving recovery
// those two put back the allowance the forced send lowered: save_from_linux keeps
// max(next_pkts_in_flight_, snd_cwnd) in cwnd_, and load_to_linux restores it to
// next_pkts_in_flight_ while that is still above snd_cwnd, or else raises snd_cwnd to
// it. So a packet the timer sends does not count against the allowance; only the ACKs
// that return while the timer is pending (and send nothing) lower it. ns-2's windows thus
// fall about half as far as one packet for every two ACKs takes them: in its `same`
// HighSpeed run a window of 2,378 packets fell to 1,343 in its recovery, where it would
// have reached its min_cwnd floor of 855 (TestNS2SendTimerRateHalving).
func (f *tcpFlow) onSendTimer(sm *sim) {
	f.sendWait = false
	r := f.rec
	if !r.linux() || !f.inRecovery {
		f.recSendNow(sm)
		return
	}
	floor := math.Floor(r.recCwnd)
	saved := max(r.nextPIF, floor)
	f.recSendNow(sm)
	switch {
	case r.nextPIF > floor:
		r.nextPIF = saved
	case saved > floor:
		r.recCwnd = saved
	}
	f.account(sm.now)
	f.readCwnd(sm)
}

// cwndLimited is tcp_is_cwnd_limited for an ACK that found pif packets in flight: whether
// the module hears it. Only a replica of ns-2's TCP/Linux asks.
func (f *tcpFlow) cwndLimited(pif int64) bool {
	if !f.ns2Timer() || float64(pif) >= max(float64(int64(f.cwnd)), 1) {
		return true
	}
	bc, ok := f.conn.law.(model.ByteCounter)
	return ok && bc.CountsBytes() && !f.rec.rebuild
}
