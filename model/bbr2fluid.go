package model

import "math"

// BBR v2's fluid face: v1's (bbrfluid.go), x = [W, D, H] with H the growth of inflight_hi
// in UP since the last switch (folded into the model's inflight_hi at every switch). Its
// loss signals are counts: the flow's packets lost, read from the history of
// Observation.LostPkts a return delay late, as a sender learns of them, over the last RTT
// (loss too high while probing: a guard) and over each round (the lower bounds, Startup's
// exit), where the event face reads them per ACK.

// bbr2Fluid is the state v2 adds to bbrFluid.
type bbr2Fluid struct {
	roundLost float64 // lost packets known at the round's start
	timedOut  bool    // the window of before a timeout comes back when its recovery ends
	atMin     bool    // the RTT sits at RTprop (an empty queue): every ACK refreshes its stamp
}

// The RTT counts as at RTprop once within bbr2AtMin of it (relative), and as having left
// it beyond bbr2LeftMin: the gap keeps the two switches apart.
const (
	bbr2AtMin   = 0.5e-3
	bbr2LeftMin = 1e-3
)

// lostKnown is the flow's packets lost that its sender knows of at time t: those lost a
// return delay before.
func (f *bbrFluid) lostKnown(t float64, o Observation) float64 {
	return f.past.at(2, t-MinimumRTT(o)/2, o.Now, o.LostPkts)
}

// tooHighGuard crosses zero when the packets lost over the last RTT exceed loss_thresh of
// the flight by half a packet (a packet sender's whole packets: at least one).
func (f *bbrFluid) tooHighGuard(x []float64, o Observation) float64 {
	lost := f.lostKnown(o.Now, o) - f.lostKnown(o.Now-ClockRTT(o), o)
	return lost - f.v2.p.lossThresh*f.Flight(x, o) - 0.5
}

// atMinGuard crosses zero when the RTT reaches RTprop, or leaves it.
func (f *bbrFluid) atMinGuard(o Observation) float64 {
	rtt := ClockRTT(o)
	switch {
	case math.IsInf(f.minRTT, 0):
		return -1
	case f.fv2.atMin:
		return rtt - f.minRTT*(1+bbr2LeftMin)
	}
	return f.minRTT*(1+bbr2AtMin) - rtt
}

// derivV2: W grows at the delivery rate towards its target under the bounds (in Startup
// at the ACK rate), and in UP, with the window full at inflight_hi, H grows by a packet per
// probeUpCnt delivered and W with it.
func (f *bbrFluid) derivV2(dx, x []float64, o Observation, dlv float64) {
	dx[0], dx[1], dx[2] = 0, dlv, 0
	w := x[0]
	if f.mode == bbrProbeRTT || w >= f.maxCwnd {
		return
	}
	if !f.fullBwReached {
		if f.startupGrows(x) {
			dx[0] = f.ackRate(x, o)
		}
		return
	}
	hi := f.v2.inflightHi + x[2]
	if f.mode == bbrProbeBW && f.cycleIdx == bbr2Up && !math.IsInf(hi, 1) && w >= hi-0.5 && f.Flight(x, o) >= w-1 {
		dx[2] = dlv / f.v2.probeUpCnt
	}
	target := f.targetCwnd()
	switch {
	case w < min(target, f.capAt(hi)):
		dx[0] = dlv
	case dx[2] > 0 && w < target:
		dx[0] = dx[2]
	}
}

// cycleGuard is the largest of the ProbeBW cycle's pending switches: the probe's loss too
// high, DOWN's and CRUISE's wait for the next probe, DOWN's drained flight, UP's end.
func (f *bbrFluid) cycleGuard(x []float64, o Observation) float64 {
	g := -1.0
	if f.v2.probeSamples {
		g = f.tooHighGuard(x, o)
	}
	wait := o.Now - f.cycleStamp - f.v2.probeWait
	switch f.cycleIdx {
	case bbr2Down:
		g = max(g, wait, f.cruiseGuard(x, o))
	case bbr2Cruise:
		g = max(g, wait)
	case bbr2Up:
		g = max(g, f.upGuard(x, o))
	}
	return g
}

// cruiseGuard crosses zero when DOWN has drained the flight to its target.
func (f *bbrFluid) cruiseGuard(x []float64, o Observation) float64 {
	return min(f.headroomHi(), f.inflight(f.maxBw(), 1)) - f.Flight(x, o)
}

// upGuard crosses zero when UP ends: the flight at inflight_hi after a probe that went too
// high, or at probe_gain·BDP after a min RTT.
func (f *bbrFluid) upGuard(x []float64, o Observation) float64 {
	flight := f.Flight(x, o)
	g := min(o.Now-f.cycleStamp-f.minRTT, flight-f.inflight(f.maxBw(), f.p.probeGain))
	if f.v2.prevProbeTooHigh {
		g = max(g, f.riskyGuard(x, o))
	}
	return g
}

// riskyGuard crosses zero when the flight reaches inflight_hi.
func (f *bbrFluid) riskyGuard(x []float64, o Observation) float64 {
	return f.Flight(x, o) - (f.v2.inflightHi + x[2])
}

// foldHi moves inflight_hi's growth in UP into the model's inflight_hi.
func (f *bbrFluid) foldHi(x []float64) {
	if !math.IsInf(f.v2.inflightHi, 1) {
		f.v2.inflightHi += x[2]
	}
	x[2] = 0
}

// restartRound starts a round now, as a v2 phase does (next_rtt_delivered).
func (f *bbrFluid) restartRound(x []float64, o Observation) {
	f.roundStart, f.roundD, f.fv2.roundLost = o.Now, x[1], f.lostKnown(o.Now, o)
	f.roundEnd = o.Now + ClockRTT(o)
	f.v2.restartRound = false
}

// boundV2 holds the window to ProbeRTT's and to the bounds (bbr2_bound_cwnd_for_inflight_model).
func (f *bbrFluid) boundV2(x []float64) {
	if f.mode == bbrProbeRTT {
		x[0] = min(x[0], f.probeRTTCwnd())
	}
	x[0] = min(x[0], f.cwndCap())
}

// cycleV2 applies a due transition of the ProbeBW cycle.
func (f *bbrFluid) cycleV2(x []float64, o Observation) bool {
	now := o.Now
	v := &f.v2
	if v.probeSamples && f.tooHighGuard(x, o) >= -guardSlack {
		up := f.cycleIdx == bbr2Up
		f.handleTooHigh(now, f.Flight(x, o), x[0])
		if up {
			f.awaitFlight(o)
		}
		return true
	}
	wait := now-f.cycleStamp-v.probeWait >= -guardSlack
	switch f.cycleIdx {
	case bbr2Down:
		switch {
		case wait:
			f.startRefill()
		case f.cruiseGuard(x, o) >= -guardSlack:
			f.startCruise()
		default:
			return false
		}
		return true
	case bbr2Cruise:
		if wait {
			f.startRefill()
			return true
		}
	case bbr2Up:
		risky := v.prevProbeTooHigh && f.riskyGuard(x, o) >= -guardSlack
		if risky || f.upGuard(x, o) >= -guardSlack {
			v.stopped = v.stopped || risky
			v.prevProbeTooHigh = false
			f.awaitFlight(o)
			f.startDown(now)
			return true
		}
	}
	return false
}

// endRoundV2 ends a round: a delivery-rate sample over it, RTprop, the loss round's
// bounds, Startup's ends, and the probe's round-timed steps.
func (f *bbrFluid) endRoundV2(x []float64, o Observation) {
	now := o.Now
	v := &f.v2
	rate := 0.0
	if d := now - f.roundStart; d > 0 {
		rate = (x[1] - f.roundD) / d
		f.sampleBw(rate)
	}
	f.round++
	v.roundsSinceProbe++
	f.checkFullBw()
	if rtt := ClockRTT(o); rtt < f.minRTT {
		f.minRTT, f.minRTTStamp = rtt, now
	}
	lost := f.lostKnown(now, o)
	lostRound := lost - f.fv2.roundLost
	v.lossInRound = lostRound >= 0.5
	// A packet sender's largest sample of the round is one whose interval lost nothing:
	// the rate it sends at, one packet more than a flight over the interval (the sample
	// counts the packets at both its ends), and what that delivers over the round. The
	// round's mean, short of it by the loss rate, cut bw_lo 1.6% a round at 1% random loss,
	// four times the packet engine's 0.4%; the rate sent, 1%.
	v.bwLatest = max(rate, f.sendRate(x, o)*(1+1/max(f.Flight(x, o), 1)))
	v.inflightLatest = max(x[1]-f.roundD, v.bwLatest*(now-f.roundStart))
	f.adaptLower(x[0])
	f.resetSignals()
	if !f.fullBwReached && v.p.fullLossCnt > 0 && lostRound >= v.p.fullLossCnt && f.tooHigh(lostRound, f.Flight(x, o)) {
		f.queueTooHighInStartup()
	}
	if f.mode == bbrStartup && f.fullBwReached {
		f.mode = bbrDrain
		f.updateGains()
	}
	f.roundStart, f.roundD, f.fv2.roundLost = now, x[1], lost
	f.roundEnd = now + ClockRTT(o)
	if f.fullBwReached {
		f.probeRoundV2(x, now)
	}
	v.restartRound = false // the round has just begun
}

// probeRoundV2 is a round's end in the probe's feedback and the ProbeBW cycle.
func (f *bbrFluid) probeRoundV2(x []float64, now float64) {
	v := &f.v2
	if v.ackPhase == bbr2AcksProbeStarting {
		v.ackPhase = bbr2AcksProbeFeedback
	}
	if v.ackPhase == bbr2AcksProbeStopping {
		v.probeSamples, v.ackPhase = false, bbr2AcksInit
		if f.mode == bbrProbeBW && v.bwHi[1] > 0 {
			v.bwHi[0], v.bwHi[1] = v.bwHi[1], 0
		}
		if f.mode == bbrProbeBW && v.stopped && !v.prevProbeTooHigh {
			f.startRefill()
			return
		}
	}
	if f.mode != bbrProbeBW {
		return
	}
	switch f.cycleIdx {
	case bbr2Refill:
		v.probeSamples = true
		f.startUp(now, x[0])
	case bbr2Cruise, bbr2Down:
		if f.timeToProbe(now, x[0]) {
			f.startRefill()
		}
	case bbr2Up:
		if x[0] >= v.inflightHi-0.5 {
			f.raiseSlope(x[0])
		}
	}
}
