package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// A sender whose sends wait a random time (Settings.SendJitterS, ns-2's overhead_) does not
// count every ACK. ns-2.35's LinuxTcpAgent::send_much, with overhead_ > 0, sends nothing at
// once: it arms a timer of U(0, overhead_) and sends what the window allows when it fires.
// LinuxTcpAgent::recv takes the packets in flight before each ACK (prior_in_flight) and
// the module's cong_avoid returns at once unless they fill the window
// (tcp_is_cwnd_limited, tcp/linux/ns-linux-c.h: in_flight >= snd_cwnd): an ACK that
// returns while the send of an earlier one still waits finds the window short by that
// packet and adds nothing to snd_cwnd_cnt, in slow start (tcp_slow_start) and in every
// module's congestion avoidance but Reno's, which counts bytes (model.ByteCounter).
//
// After a counted ACK the send waits D ~ U(0, J); the flow's next ACKs return as its
// packets left its path's slowest link, one packet time τ apart when they left back to
// back. If the flows' departures there interleave at random, the k-th slot after one of
// the flow's is its own with probability a = λτ, the flow's fraction of the link (λ its
// packet rate), and the ACKs lost to one wait are a·Σ_k P(D > kτ) on average:
//
//	counted = 1 / (1 + a·Σ_{k ≥ 1, kτ < J} (1 − kτ/J))
//
// (J = 2τ, ns-2's 0.24 ms at 100 Mb/s: 1/(1 + a/2)). In ns-2's rtt fairness run of
// HighSpeed (flows of 50, 75 and 100 ms, shares 0.48, 0.29 and 0.20) the windows grow by
// 0.83, 0.94 and 0.97 of the packets their table adds per ACK (acks against cwnd every
// 20 ms, 250 s of seed 1), what the departures the bottleneck's trace records give (0.84,
// 0.93, 0.97), and the rule 0.81, 0.87 and 0.91; Reno's windows, counted by bytes, 1.000.
// Flows of one RTT leave in trains (86 to 99% of a flow's departures back to back in the
// friendliness run's trace, where Compound's window grows by 0.71 of its count and Reno's
// by 1.000): out of slow start the rule does not model trains; in it, see jitterCounted.

// countedFraction is the fraction of subflow f's ACKs its law counts at window w: below 1
// only in the counted form, for a replica of ns-2's TCP/Linux sender (its recoveries) with
// Settings.SendJitterS, while its law counts calls (model.ByteCounter).
func (s *system) countedFraction(f *subflow, w float64) float64 {
	if bc, ok := f.law.(model.ByteCounter); ok && bc.CountsBytes() {
		return 1
	}
	if w < model.SsthreshOf(f.law, f.sub) {
		return s.jitterCounted(f, true)
	}
	return s.idleAcks(f)
}

// idleAcks is the fraction of subflow f's ACKs that find ns-2's delayed-send timer idle:
// below 1 only in the counted form, for a replica of ns-2's TCP/Linux sender with
// Settings.SendJitterS. The others return while a send waits and send nothing.
func (s *system) idleAcks(f *subflow) float64 { return s.jitterCounted(f, false) }

// jitterCounted is idleAcks with the flow's share of its slowest link's slots; in a slow
// start (train) its own: each ACK sends two packets at twice the rate the ACKs come, so
// they reach that link faster than it serves them and leave it back to back, and so do
// their ACKs, whatever the flow's mean share. With J = 2τ a third of them are missed, the
// window grows 1.67 times a round: ns-2's TCP/Linux with overhead_ 0.24 ms on seed 000's
// dumbbell grows 1.64–1.72 times a round in its first slow start and behind a standing
// queue (seed 1, flows 0 and 1) and finds its first overflow at 4.57 s (the fluid 4.70 s;
// counting by its mean share, nearly every ACK of a small window, 3.85 s).
func (s *system) jitterCounted(f *subflow, train bool) float64 {
	j := s.set.SendJitterS
	if !(j > 0) || !s.form.counted || !linuxRecovery(f.recovery) {
		return 1
	}
	tau, share := 0.0, 0.0
	for k, li := range f.links {
		l := &s.links[li]
		if !(l.capBps > 0) {
			continue
		}
		// The slowest link sets the spacing of the flow's ACKs.
		if t := l.packetTime(f.wire); t > tau {
			tau, share = t, min(f.streams[k].depart*l.copies/(f.mult*l.capBps), 1)
		}
	}
	if train {
		share = 1
	}
	return jitterCounted(share, tau, j)
}

// jitterCounted is the fraction of a flow's ACKs counted when each send waits U(0, j) s
// and the flow takes the fraction share of the slots, tau s apart, of its slowest link.
func jitterCounted(share, tau, j float64) float64 {
	if !(share > 0) || !(tau > 0) || !(j > 0) {
		return 1
	}
	m := math.Ceil(j/tau) - 1 // the slots k ≥ 1 with kτ < j
	return 1 / (1 + share*(m-tau/j*m*(m+1)/2))
}
