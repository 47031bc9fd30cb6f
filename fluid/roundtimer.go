package fluid

import "github.com/tcpfluid/tcpfluid/model"

// ns-2's one-way agents (Agent/TCP, /Reno, /Newreno: the Tahoe, Reno and NewReno
// recoveries) time one packet at a time: a packet sent while none is timed, its RTT read
// when its ACK returns, RFC 6298's estimator fed once a round trip (rtt_active_; the packet
// engine's tcpFlow.timing). Where the queue grows by a large factor a round, as in a first
// slow start into a deep buffer, SRTT lags far behind, and the timer a fast retransmit
// arms fires before that retransmission, behind the queue the overshoot filled, returns:
// a spurious timeout (10 Mb/s, 20 ms, 200 packets: 0.22 s after the fast retransmit in
// both engines, TestRoundTimerFiresBeforeALateRetransmission). The fluid's first-order
// timer (timerRTT) reads that queue as it is and never fires there. The timer also sets
// when a recovery with several holes times out (losses.go, timesOut), and seed000-colo-
// gamma's COLO now does so within 10 ms of the packet sender. Which side of the
// retransmission's round trip the timer falls on turns on where the samples fall in the
// slow start: in seed 003 (1 Mb/s access, 592-byte packets) ns-2's stands at 223 ms
// against 251 and the fluid's at 203 ms against 253, both firing there; it stood at 303
// ms and waited for the holes' timeout 0.3 s later while the fluid's slow start ran a
// round ahead, its round trip without the packets' 7 ms of store-and-forward
// transmissions (storeforward.go).

// roundTimer is the retransmission timer of a sender that times one packet a round trip.
type roundTimer struct {
	on  bool
	est model.RTTEstimator
	due float64 // when the timed packet's ACK returns, s; 0 while none is timed
	// The subflow's round trips at the end of the step before (at), s: the one its latest
	// ACK reports and the one a packet sent then meets. A step can span rounds (a slow
	// start's steps last a round trip or two), and the samples due inside it read these
	// on the step's chord.
	at, seen, rtt float64
}

// roundTimed reports whether subflow f keeps a roundTimer: a single-path sender of one of
// ns-2's one-way agents' recoveries in the counted form, whose ACKs come faster than its
// timer (the slow paths' packet-granular timer, acktimer.go, keeps its own).
func (s *system) roundTimed(f *subflow) bool {
	switch f.recovery {
	case model.RecoveryTahoe, model.RecoveryReno, model.RecoveryNewReno:
		return s.form.counted && f.nSub == 1 && f.at == nil
	}
	return false
}

// armRoundTimers gives a roundTimer to every subflow that keeps one (roundTimed).
func (s *system) armRoundTimers() {
	for fi := range s.flows {
		f := &s.flows[fi]
		if f.rt.on = s.roundTimed(f); !f.rt.on {
			continue
		}
		s.roundTimers = true
		// Its first packet, sent as it starts, is timed.
		f.rt.due = f.start + f.baseRTT()
		f.rt.at, f.rt.seen, f.rt.rtt = f.start, f.baseRTT(), f.baseRTT()
	}
}

// roundTimersStepped follows an accepted step ending at t1, the network evaluated there:
// each timed packet whose ACK has returned is a sample, the RTT its ACK reports with the
// packet's own transmissions, and a sender sending new data times the next one, sent as
// that ACK arrives and back a round trip on. As the packet senders do (Karn), none is
// timed through a recovery, a timeout or a go-back-N rebuild (countLoss stops timing).
func (s *system) roundTimersStepped(t1 float64) {
	for fi := range s.flows {
		f := &s.flows[fi]
		rt := &f.rt
		if !rt.on || !f.active {
			continue
		}
		times := t1 >= f.recoverUntil && !f.silent(t1) && !f.gbn.on && s.pathUp(f.links)
		for rt.due > 0 && rt.due <= t1 {
			a := 1.0
			if t1 > rt.at {
				a = max(rt.due-rt.at, 0) / (t1 - rt.at)
			}
			rt.est.Sample(rt.seen + a*(f.rttSeen-rt.seen))
			rt.due += rt.rtt + a*(f.rtt-rt.rtt)
			if !times {
				rt.due = 0
			}
		}
		if rt.due == 0 && times {
			rt.due = t1 + f.rtt
		}
		rt.at, rt.seen, rt.rtt = t1, f.rttSeen, f.rtt
	}
}

// lateRetransmission reports whether subflow f's timer, armed again by the fast
// retransmit just sent, fires before that retransmission's ACK can return a round trip on:
// the round trip the queues give now is longer than the timer.
func (f *subflow) lateRetransmission() bool {
	return f.rt.on && f.rt.est.Have && f.rtt >= f.rto()
}
