package fluid

import "math"

// Who a full drop-tail queue admits when a paced sender alone overfills it. Each departure
// frees one slot, and the first packet to arrive after it takes it. A paced sender's
// packets come evenly spaced, 1/a_p apart with a_p ≥ C, so one comes within U/a_p of each
// departure (U uniform), and another sender's packet (rate a_o, at random phases) wins the
// slot only by coming before it: with probability 1 − h(a_o/a_p), h(x) = (1 − e^(−x))/x,
// about a_o/(2a_p). The others get C·(1 − h(a_o/a_p)) in, the paced sender the rest of C,
// where the fluid's usual rule lets every stream lose the same fraction, (arrivals −
// capacity)/arrivals.
//
// In BBR's probe over a shallow drop-tail buffer (modern-bbr-cubic-shallow: pacing at
// 1.25·0.99 of an estimate near C) the others' packets thus get in at about C/(2a_p), 41%,
// where the even split let in 81%: BBR's delivery rate over the probe, and so its
// estimate, was 1% lower in the fluid than in the packet engine (a constant-rate source of
// 248 packets/s beside it: 8359 against 8443 packets/s at the ten-round maximum of a 40-ms
// window; the even split and the race give 8360 and 8459), which paced the cruising phases
// below capacity and left the queue empty between probes where the packet engine's stood
// at a few packets (12.38 against 14.66 packets over 60 s, −15.5%; −11.8% with the race).
// Below a_p = C the others fill the queue and the even split stays: a window-based sender's
// packets come on its ACK clock, not at random phases (taken as random there, BBR's
// packets lost 37% at CUBIC's overflows of modern-bbr-cubic-deep, and CUBIC's loss events
// rose from 8 to 9 against the packet engine's 7). Paced aggregates are taken as one
// evenly spaced stream, and the rates as packets of one size.

// markPacedStreams flags the streams of the flows that pace (a wall-clock law, ext.go).
func (s *system) markPacedStreams() {
	for fi := range s.flows {
		if f := &s.flows[fi]; s.paced(f) {
			for k := range f.streams {
				f.streams[k].paced = true
			}
		}
	}
}

// racing reports whether link l's one queue is full (an FQ link's flow queues drop by
// their own rule, fq.go), the paced streams' arrivals alone reach its capacity, and others
// arrive too.
func (l *link) racing() bool {
	return l.mode == queueFull && !l.fq && l.capBps > 0 && l.pacedArrive >= l.capBps && l.arrive > l.pacedArrive
}

// raceAdmission is the rate at which stream st's bytes enter link l while it is racing,
// bytes/s.
func (l *link) raceAdmission(st *stream) float64 {
	ap, ao, c := l.pacedArrive, l.arrive-l.pacedArrive, l.capBps
	others := c * (1 - slotFree(ao/ap)) // what the others together get in, bytes/s
	if st.paced {
		return st.arrive / ap * (c - others)
	}
	return st.arrive / ao * others
}

// slotFree is h(x) = (1 − e^(−x))/x: the chance that no other packet, x of them arriving
// at random per paced interval, comes before a paced packet due within U of it.
func slotFree(x float64) float64 {
	if x < 1e-9 {
		return 1 - x/2
	}
	return -math.Expm1(-x) / x
}
