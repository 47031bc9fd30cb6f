package packet

// ns2RTT is ns-2.35 Agent/TCP/Linux's retransmission timer with timestamps
// (LinuxTcpAgent::rtt_update): every ACK gives a sample (now less the echoed timestamp),
// rounded to whole ticks of tcp_tick_ = 1/JIFFY_RATIO = 1 ms and at least one tick, into
// BSD's fixed-point estimators — t_srtt_ (8·SRTT) and t_rttvar_ (4·RTTVAR) in ticks — with
// Linux's asymmetry: a sample below SRTT moves RTTVAR by an eighth of what a sample above
// it does. Unlike RFC 6298 (model.RTTEstimator) no floor holds RTTVAR up (the agent's line
// that kept t_rttvar_ at one tick is commented out) and no clock granularity G is added, so with a
// sample per ACK on a steady path 4·RTTVAR decays by a quarter of itself rounded down and
// stops at 3 ticks: the timeout is SRTT and 3 ms (437 of the 600 Reno timeouts beside
// H-TCP, seed 1, came 3.0 ms after SRTT). A sender whose window leaves in one burst per round trip then
// waits nearly an RTT for the next ACK, and times out whenever the queue has grown by more
// than the burst lasts: the timeouts ns-2's Reno flows take beside HighSpeed.
type ns2RTT struct {
	srtt8, rttvar4 int64 // ticks, fixed point: 8·SRTT and 4·RTTVAR
	rtxcur         int64 // ticks: the timeout the latest sample set (t_rtxcur_); 0 before any
}

// ns2TickS is ns-2 TCP/Linux's tcp_tick_, s (1/JIFFY_RATIO).
const ns2TickS = 0.001

// sample feeds one round-trip measurement r, s.
func (e *ns2RTT) sample(r float64) {
	m := max(int64(r/ns2TickS+0.5), 1)
	if e.srtt8 == 0 {
		e.srtt8, e.rttvar4 = m<<3, m<<1
	} else {
		delta := m - e.srtt8>>3
		if e.srtt8 += delta; e.srtt8 <= 0 {
			e.srtt8 = 1
		}
		if delta < 0 {
			if delta = -delta - e.rttvar4>>2; delta > 0 {
				delta >>= 3
			}
		} else {
			delta -= e.rttvar4 >> 2
		}
		e.rttvar4 += delta
	}
	e.rtxcur = (e.rttvar4<<3 + e.srtt8) >> 3
}

// base is the timeout before ns-2's minrto_ floor and the backoff, s: SRTT + 4·RTTVAR in
// whole ticks as the latest sample left it (t_rtxcur_), or 0 before the first sample.
func (e *ns2RTT) base() float64 { return float64(e.rtxcur) * ns2TickS }

// forget starts the estimators afresh at the next sample (ns-2's rtt_backoff after more
// than eight backoffs sets t_srtt_ to 0); the timeout stays until then.
func (e *ns2RTT) forget() { e.srtt8 = 0 }
