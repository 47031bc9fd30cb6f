package model

import "math"

// bbrFluid is BBR's fluid face, x = [W, D]: the window and the packets delivered.
type bbrFluid struct {
	bbrModel
	init0                bbrModel
	roundEnd, roundStart float64 // s
	roundD               float64 // D at the round's start, packets
	lossInPhase          bool
	probeRTTExit         float64 // s
	conserveUntil        float64 // s: packet conservation holds W until then, a round after a loss
	past                 bbrHistory
	flights              [bbrFlights]bbrFlight // phases' ends whose flights are still on the way, oldest first
	nFlights             int
	fv2                  bbr2Fluid // v2's round and timeout state (bbr2fluid.go)
}

// bbrFlights bounds the phase ends awaiting their delivery-rate sample: a phase lasts at
// least RTprop and its flight arrives within an RTT, so only a path whose queueing delay
// is several times its propagation delay has more, and those are dropped.
const bbrFlights = 16

// bbrFlight is the delivery-rate sample of the flight sent up to a phase's end: taken
// when its last packet reaches the receiver, over one RTT.
type bbrFlight struct{ at, window float64 } // s

// bbrHistory holds the packets delivered, D, those that have left the path
// (Observation.LeftPkts) and those lost (LostPkts) at the times of the last switches, to
// read them back in time.
type bbrHistory struct {
	t    [64]float64
	v    [64][3]float64 // D, left, lost
	n    int            // entries written
	last int            // index of the newest entry
}

func (h *bbrHistory) add(t, d, left, lost float64) {
	h.last = h.n % len(h.t)
	h.t[h.last], h.v[h.last] = t, [3]float64{d, left, lost}
	h.n++
}

// at is variable k (0: D, 1: left, 2: lost) at time t, interpolated between the switches around it,
// or between the newest one and now, where it is cur; the oldest kept if t is older.
func (h *bbrHistory) at(k int, t, now, cur float64) float64 {
	if h.n == 0 || t >= now {
		return cur
	}
	t0, v0, t1, v1, ok := h.segment(k, t, now, cur)
	switch {
	case !ok:
		return v1
	case t1 <= t0:
		return v0
	}
	return v0 + (t-t0)/(t1-t0)*(v1-v0)
}

// slope is the rate of change of variable k at time t: the slope of the segment between
// the switches around t (or between the newest one and now, where it is cur), 0 before
// the oldest kept.
func (h *bbrHistory) slope(k int, t, now, cur float64) float64 {
	t0, v0, t1, v1, ok := h.segment(k, t, now, cur)
	if !ok || t1 <= t0 {
		return 0
	}
	return (v1 - v0) / (t1 - t0)
}

// segment is the stretch of variable k's history around time t: the newest switch at or
// before t, and the one after it (now, where it is cur, past the newest); ok is false if t
// is older than the oldest kept, which is then the second end.
func (h *bbrHistory) segment(k int, t, now, cur float64) (t0, v0, t1, v1 float64, ok bool) {
	t1, v1 = now, cur
	for j := range min(h.n, len(h.t)) {
		i := (h.last - j + len(h.t)) % len(h.t)
		if h.t[i] <= t {
			return h.t[i], h.v[i][k], t1, v1, true
		}
		t1, v1 = h.t[i], h.v[i][k]
	}
	return 0, 0, t1, v1, false
}

func (f *bbrFluid) Vars() int {
	if f.v2.on {
		return 3 // and inflight_hi's growth in UP
	}
	return 2
}

func (f *bbrFluid) Init(x []float64, o Observation) {
	f.bbrModel = f.init0
	f.lossInPhase, f.probeRTTExit, f.conserveUntil = false, 0, 0
	f.past, f.nFlights = bbrHistory{}, 0
	f.start(o)
	x[0], x[1] = f.cwnd0, 0
	f.past.add(o.Now, 0, o.LeftPkts, o.LostPkts)
	f.initPacing(f.cwnd0, o)
	f.roundStart, f.roundEnd, f.roundD = o.Now, o.Now+ClockRTT(o), 0
	if f.v2.on {
		x[2] = 0
		f.fv2 = bbr2Fluid{roundLost: o.LostPkts, atMin: true} // RTprop is the first RTT
	}
}

// Flight is the packets in flight at state x (FluidFlight), at most the window: those the
// flow has sent less those that left its path, delivered or lost, one return delay (half
// the minimum RTT) ago, whose ACKs and SACKs have come back — a packet sender's count of
// its unacknowledged packets. It changes at the rate the flow sends less the rate its
// packets left the path, so it falls as the flow slows down whoever fills the queue, and
// is continuous when the pacing gain changes. (The packets sent over the last RTT, read
// with an RTT extrapolated from the queue's current slope, fell twice as fast when a gain
// phase turned the queue from filling to draining and ended the draining phase halfway:
// 0.2 BDP of buffer held 22 packets against the packet engine's 15.)
func (f *bbrFluid) Flight(x []float64, o Observation) float64 {
	back := o.Now - MinimumRTT(o)
	return min(max(x[0], 0), max(o.SentPkts-f.past.at(1, back, o.Now, o.LeftPkts), 0))
}

// sendRate is the rate the flow sends at, packets/s, as the engine sends a paced law's
// flow: the pacing rate while the flight leaves room in the window (FlightLimitedRate).
func (f *bbrFluid) sendRate(x []float64, o Observation) float64 {
	return FlightLimitedRate(x[0], f.Flight(x, o), f.pacingRate, f.FullRate(x, o), ClockRTT(o))
}

// FullRate is the rate the flow sends at with its window full (FluidFlight). In Startup
// it is the ACK clock: the packets delivered a base RTT ago, whose ACKs free the window
// now, twice over while the window grows by what they acknowledge (bbr_set_cwnd), so that
// in the first round trip, before any ACK, a full window sends nothing, as a packet
// sender's does. At W/RTT from the start the fluid sent 65% more than its first window in
// the first round trip, and its queue formed a round trip before the packet engine's.
// From Drain on it is W/RTT, the rate of a window that has been full for a round trip:
// the ACK clock read from the switches' history, a round's average, let ProbeBW's flights
// overrun the window, and over 1 BDP the fluid overflowed the buffer three times as often
// as the packet engine.
func (f *bbrFluid) FullRate(x []float64, o Observation) float64 {
	if f.fullBwReached {
		return max(x[0], 0) / ClockRTT(o)
	}
	acks := f.ackRate(x, o)
	if x[0] < f.maxCwnd && f.startupGrows(x) {
		return 2 * acks
	}
	return acks
}

// startupGrows reports whether Startup's window grows by what the ACKs acknowledge
// (bbr_set_cwnd before the pipe is full): below its target, or while v1 has delivered
// fewer than 10 packets and v2's window is below twice the initial one; v2's under its
// bounds too.
func (f *bbrFluid) startupGrows(x []float64) bool {
	if f.v2.on {
		return x[0] < f.cwndCap() && (x[0] < f.targetCwnd() || x[0] < 2*f.cwnd0)
	}
	return x[0] < f.targetCwnd() || x[1] < bbrInitCwnd
}

// PacingRate is the current pacing rate, packets/s.
func (f *bbrFluid) PacingRate([]float64, Observation) float64 { return f.pacingRate }

func (f *bbrFluid) Deriv(dx, x []float64, o Observation) {
	dlv := max(o.DeliveryRate, 0)
	if math.IsNaN(dlv) || math.IsInf(dlv, 0) {
		dlv = 0
	}
	if f.v2.on {
		f.derivV2(dx, x, o, dlv)
		return
	}
	dx[1] = dlv
	dx[0] = 0
	w := x[0]
	switch {
	case f.mode == bbrProbeRTT || w >= f.maxCwnd:
	case o.Now < f.conserveUntil:
		// Packet conservation: cwnd = packets in flight + delivered, the paced flight.
		if w < f.pacingRate*ClockRTT(o)+bbrMinCwnd {
			dx[0] = dlv
		}
	case !f.fullBwReached:
		if f.startupGrows(x) {
			dx[0] = f.ackRate(x, o)
		}
	case w < f.targetCwnd():
		dx[0] = dlv
	}
}

// ackRate is the rate the flow's ACKs return at, packets/s: its deliveries a base RTT
// ago, when the packets now acknowledged left the path (the fluid's deliveries carry no
// propagation), read from the history between its switches, where the pacing rate, and
// so the deliveries' slope on a free path, changes. Startup grows the window by what the
// ACKs acknowledge (bbr_set_cwnd), so it doubles per round as a packet sender's does; at
// the deliveries of now it grew 2.8 times a round.
func (f *bbrFluid) ackRate(x []float64, o Observation) float64 {
	return f.past.slope(0, o.Now-MinimumRTT(o), o.Now, x[1])
}

// Guard is the largest of the pending switches: the round's end, the phase's end, the
// arrival of a phase's flight (its delivery-rate sample), Drain's end, ProbeRTT's start
// and end.
func (f *bbrFluid) Guard(x []float64, o Observation) float64 {
	g := o.Now - f.roundEnd
	switch {
	case f.mode == bbrProbeBW && f.v2.on:
		g = max(g, f.cycleGuard(x, o))
	case f.mode == bbrProbeBW:
		g = max(g, f.phaseGuard(x, o))
	case f.mode == bbrDrain:
		g = max(g, f.inflight(f.maxBw(), 1)-f.Flight(x, o))
	case f.mode == bbrProbeRTT:
		g = max(g, o.Now-f.probeRTTExit)
	}
	if f.v2.on {
		g = max(g, f.atMinGuard(o))
	}
	if f.mode != bbrProbeRTT && f.p.probeRTTTime > 0 {
		g = max(g, o.Now-f.minRTTStamp-f.p.minRTTWin)
	}
	if f.nFlights > 0 {
		g = max(g, o.Now-f.flights[0].at)
	}
	g = max(g, f.minRTTGuard(o))
	return g
}

// bbrMinRTTStep is the fall of the RTT below RTprop that refreshes it between rounds: a
// packet sender takes every ACK's sample, so it finds the bottom of a dip in the queue
// that a round's end misses; the fluid takes the dip in steps of this fraction.
const bbrMinRTTStep = 0.01

// minRTTGuard crosses zero when the RTT falls a step below RTprop.
func (f *bbrFluid) minRTTGuard(o Observation) float64 {
	if math.IsInf(f.minRTT, 0) {
		return -1
	}
	return (1-bbrMinRTTStep)*f.minRTT - ClockRTT(o)
}

// phaseGuard crosses zero when the gain cycle's phase ends (bbr_is_next_cycle_phase).
func (f *bbrFluid) phaseGuard(x []float64, o Observation) float64 {
	elapsed := o.Now - f.cycleStamp - f.minRTT
	switch {
	case f.pacingGain == 1 || (f.pacingGain > 1 && f.lossInPhase):
		return elapsed
	case f.pacingGain > 1:
		return min(elapsed, f.Flight(x, o)-f.inflight(f.maxBw(), f.pacingGain))
	}
	return max(elapsed, f.inflight(f.maxBw(), 1)-f.Flight(x, o))
}

// guardSlack is how far below zero a guard may be located and still count as crossed, s
// or packets.
const guardSlack = 1e-9

// Switch applies every transition due at the located crossing, until none is (a phase
// entered with its early end already reached ends at once, as a packet sender's next ACK
// would end it).
func (f *bbrFluid) Switch(x []float64, o Observation) {
	if f.v2.on {
		f.foldHi(x)
	}
	for range 4 * bbrCycleLen {
		if !f.transition(x, o) {
			break
		}
	}
	if f.v2.restartRound {
		f.restartRound(x, o)
	}
	f.past.add(o.Now, x[1], o.LeftPkts, o.LostPkts)
	f.setPacing()
	if f.fullBwReached && f.mode != bbrProbeRTT {
		x[0] = min(x[0], f.targetCwnd())
	}
	if f.v2.on {
		f.boundV2(x)
	}
}

// transition applies the first transition due and reports whether there was one.
func (f *bbrFluid) transition(x []float64, o Observation) bool {
	now := o.Now
	if now-f.roundEnd >= -guardSlack {
		if f.v2.on {
			f.endRoundV2(x, o)
		} else {
			f.endRound(x, o)
		}
		return true
	}
	if f.nFlights > 0 && now-f.flights[0].at >= -guardSlack {
		w := f.flights[0].window
		f.sampleBw((x[1] - f.past.at(0, now-w, now, x[1])) / w)
		copy(f.flights[:], f.flights[1:f.nFlights])
		f.nFlights--
		return true
	}
	if f.minRTTGuard(o) >= -guardSlack {
		f.minRTT, f.minRTTStamp = ClockRTT(o), now
		return true
	}
	if f.v2.on && f.atMinGuard(o) >= -guardSlack {
		f.fv2.atMin = !f.fv2.atMin
		f.minRTTStamp = now
		return true
	}
	if f.mode != bbrProbeRTT && f.p.probeRTTTime > 0 && now-f.minRTTStamp-f.p.minRTTWin >= -guardSlack {
		// The filter expired: its next sample is the RTT now, and ProbeRTT starts. The
		// mode changes before the window is saved, so the saved one is the larger of it
		// and the one saved at the last loss (bbr_update_min_rtt, then bbr_save_cwnd).
		f.minRTT, f.minRTTStamp = ClockRTT(o), now
		f.enterProbeRTT(x[0], false)
		x[0] = min(x[0], f.probeRTTCwnd())
		f.probeRTTExit = now + f.p.probeRTTTime + f.minRTT
		return true
	}
	switch f.mode {
	case bbrProbeRTT:
		if now-f.probeRTTExit >= -guardSlack {
			f.minRTTStamp = now
			x[0] = max(x[0], f.priorCwnd)
			f.leaveProbeRTT(now)
			return true
		}
	case bbrDrain:
		if f.inflight(f.maxBw(), 1)-f.Flight(x, o) >= -guardSlack {
			f.leaveDrain(now)
			return true
		}
	case bbrProbeBW:
		if f.v2.on {
			return f.cycleV2(x, o)
		}
		if f.phaseGuard(x, o) >= -guardSlack {
			f.awaitFlight(o)
			f.advanceCycle(now)
			f.lossInPhase = false
			return true
		}
	}
	return false
}

// awaitFlight schedules the sample of the flight sent up to now, a gain-cycle phase's end:
// a packet sender's best-aligned rate samples of a probing phase (those of its last
// packets) count the packets sent over the RTT before it left, delivered as they reach
// the receiver, one forward delay (the RTT less the return propagation) later. Measured
// over the phase itself, the delivery would be that of the phase before.
func (f *bbrFluid) awaitFlight(o Observation) {
	if f.nFlights == bbrFlights {
		return
	}
	rtt := ClockRTT(o)
	fwd := rtt - MinimumRTT(o)/2
	f.flights[f.nFlights] = bbrFlight{at: o.Now + fwd, window: rtt}
	f.nFlights++
}

// endRound ends a round: a delivery-rate sample over it, RTprop, Startup's end.
func (f *bbrFluid) endRound(x []float64, o Observation) {
	now := o.Now
	if d := now - f.roundStart; d > 0 {
		f.sampleBw((x[1] - f.roundD) / d)
	}
	f.round++
	f.checkFullBw()
	if rtt := ClockRTT(o); rtt < f.minRTT {
		f.minRTT, f.minRTTStamp = rtt, now
	}
	if f.mode == bbrStartup && f.fullBwReached {
		f.mode = bbrDrain
		f.updateGains()
	}
	f.roundStart, f.roundD = now, x[1]
	f.roundEnd = now + ClockRTT(o)
}

// OnLoss cuts the window to the packets in flight (packet conservation) and ends a
// probing phase.
func (f *bbrFluid) OnLoss(x []float64, o Observation) {
	f.saveCwnd(x[0], false)
	if f.v2.on {
		return // v2 cuts by its bounds, at its rounds' ends (bbr2fluid.go)
	}
	f.lossInPhase = true
	x[0] = max(min(x[0], f.Flight(x, o)), bbrMinCwnd)
	f.conserveUntil = o.Now + ClockRTT(o)
	f.Switch(x, o) // a probing phase past its length ends now: its guard must not start positive
}

// EndRecovery restores the window of before the recovery, as a packet sender does when
// its recovery ends (bbr_set_cwnd_to_recover_or_restore); the hybrid-recovery form calls
// it where the recovery's last hole is repaired.
func (f *bbrFluid) EndRecovery(x []float64, _ Observation) {
	if f.v2.on && !f.fv2.timedOut {
		return // v2 restores its window after a timeout only
	}
	f.fv2.timedOut = false
	if f.mode != bbrProbeRTT {
		x[0] = min(max(x[0], f.priorCwnd), f.maxCwnd)
	}
}

// OnTimeout restarts from one packet.
func (f *bbrFluid) OnTimeout(x []float64, o Observation) {
	f.saveCwnd(x[0], false)
	f.fullBw = 0
	if f.v2.on {
		f.fv2.timedOut = true
		if !f.probing() && math.IsInf(f.v2.inflightLo, 1) {
			f.v2.inflightLo = f.priorCwnd
		}
	}
	x[0] = 1
	f.Switch(x, o)
}

func (f *bbrFluid) Ssthresh() float64 { return 0 }
