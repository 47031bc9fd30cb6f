package model

import "math"

// BBR v2's event face: tcp_bbr2.c's bbr2_main per ACK, on the shared model (bbr2.go).

// bbr2Event is the per-ACK state v2 adds to bbrEvent.
type bbr2Event struct {
	lossRoundDelivered float64 // a loss round ends when a packet sent after this count is delivered
	lossEvents         int     // ACKs that marked losses in Startup's current loss round
}

// onRateSampleV2 is bbr2_main: the congestion signals, the model, then pacing and cwnd.
func (e *bbrEvent) onRateSampleV2(rs RateSample, o Observation) {
	v := &e.v2
	now := o.Now
	roundStart := false
	if rs.Valid() && rs.PriorDelivered >= e.nextRTTDelivered {
		e.nextRTTDelivered = rs.DeliveredTotal
		e.round++
		roundStart = true
		v.roundsSinceProbe++
	}
	if rs.NewlyLost > 0 && !v.lossInRound {
		e.ev2.lossRoundDelivered = rs.DeliveredTotal // bbr2_skb_marked_lost: the loss round begins
	}
	v.lossInRound = v.lossInRound || rs.NewlyLost > 0
	lossRoundStart := e.updateSignals(rs)
	if !e.fullBwReached {
		e.checkLossInStartup(rs, lossRoundStart)
	}
	if roundStart && !rs.AppLimited {
		e.checkFullBw()
	}
	if e.mode == bbrStartup && e.fullBwReached {
		e.mode = bbrDrain
		e.updateGains()
		e.resetSignals()
	}
	if e.mode == bbrDrain && rs.InFlight <= e.inflight(e.maxBw(), 1) {
		e.mode = bbrProbeBW
		e.startDown(now)
	}
	if e.fullBwReached {
		e.updateCycleV2(rs, roundStart, now)
	}
	e.updateMinRTT(rs, o, roundStart)
	e.updateGains()
	e.setPacing()
	e.setCwndV2(rs)
	if v.restartRound {
		e.nextRTTDelivered, v.restartRound = rs.DeliveredTotal, false
	}
	e.prevRecovery = rs.InRecovery
}

// updateSignals is bbr2_update_congestion_signals: the bandwidth filter, the round's
// largest rate and volume, and at a loss round's end the lower bounds. It reports whether a
// loss round ended.
func (e *bbrEvent) updateSignals(rs RateSample) bool {
	v := &e.v2
	if !rs.Valid() || rs.AckedSacked <= 0 {
		return false
	}
	bw := rs.Rate()
	if !rs.AppLimited || bw >= e.maxBw() {
		e.sampleBw(bw)
	}
	v.bwLatest = max(v.bwLatest, bw)
	v.inflightLatest = max(v.inflightLatest, rs.Delivered)
	if rs.PriorDelivered < e.ev2.lossRoundDelivered {
		return false
	}
	e.ev2.lossRoundDelivered = rs.DeliveredTotal
	e.adaptLower(e.Cwnd())
	v.lossInRound = false
	v.bwLatest, v.inflightLatest = bw, rs.Delivered
	return true
}

// checkLossInStartup is bbr2_check_loss_too_high_in_startup: a loss round in recovery with
// full_loss_cnt loss-marking ACKs and a loss rate too high ends Startup.
func (e *bbrEvent) checkLossInStartup(rs RateSample, lossRoundStart bool) {
	if rs.NewlyLost > 0 && e.ev2.lossEvents < 15 {
		e.ev2.lossEvents++
	}
	if e.v2.p.fullLossCnt > 0 && lossRoundStart && rs.InRecovery &&
		float64(e.ev2.lossEvents) >= e.v2.p.fullLossCnt && e.tooHigh(rs.Lost, rs.TxInFlight) {
		e.queueTooHighInStartup()
		return
	}
	if lossRoundStart {
		e.ev2.lossEvents = 0
	}
}

// updateCycleV2 is bbr2_update_cycle_phase with bbr2_adapt_upper_bounds.
func (e *bbrEvent) updateCycleV2(rs RateSample, roundStart bool, now float64) {
	v := &e.v2
	if v.ackPhase == bbr2AcksProbeStarting && roundStart {
		v.ackPhase = bbr2AcksProbeFeedback
	}
	if v.ackPhase == bbr2AcksProbeStopping && roundStart {
		v.probeSamples, v.ackPhase = false, bbr2AcksInit
		if e.mode == bbrProbeBW && !rs.AppLimited && v.bwHi[1] > 0 {
			v.bwHi[0], v.bwHi[1] = v.bwHi[1], 0
		}
		if e.mode == bbrProbeBW && v.stopped && !v.prevProbeTooHigh {
			e.startRefill() // the probe stopped at inflight_hi without loss: probe again
			return
		}
	}
	if e.tooHigh(rs.Lost, rs.TxInFlight) {
		if v.probeSamples {
			e.handleTooHigh(now, rs.TxInFlight, e.Cwnd())
		}
	} else if !math.IsInf(v.inflightHi, 1) {
		v.inflightHi = max(v.inflightHi, rs.TxInFlight)
		if e.mode == bbrProbeBW && e.cycleIdx == bbr2Up {
			e.probeUpward(rs, roundStart)
		}
	}
	if e.mode != bbrProbeBW {
		return
	}
	inflight := rs.PriorInFlight
	switch e.cycleIdx {
	case bbr2Cruise:
		if e.timeToProbe(now, e.Cwnd()) {
			e.startRefill()
		}
	case bbr2Refill:
		if roundStart {
			v.probeSamples = true
			e.startUp(now, e.Cwnd())
		}
	case bbr2Up:
		risky := v.prevProbeTooHigh && inflight >= v.inflightHi
		queuing := !risky && now-e.cycleStamp > e.minRTT && inflight >= e.inflight(e.maxBw(), e.p.probeGain)
		if risky || queuing {
			v.stopped = v.stopped || risky
			v.prevProbeTooHigh = false
			e.startDown(now)
		}
	case bbr2Down:
		switch {
		case e.timeToProbe(now, e.Cwnd()):
			e.startRefill()
		case e.timeToCruise(inflight):
			e.startCruise()
		}
	}
}

// probeUpward raises inflight_hi in UP while the window is full at it: one packet per
// probeUpCnt delivered, the count halving every round.
func (e *bbrEvent) probeUpward(rs RateSample, roundStart bool) {
	v := &e.v2
	cwnd := e.Cwnd()
	if rs.PriorInFlight+1 < cwnd || cwnd < v.inflightHi {
		v.probeUpAcks = 0
		return
	}
	v.probeUpAcks += rs.AckedSacked
	if v.probeUpAcks >= v.probeUpCnt {
		d := math.Floor(v.probeUpAcks / v.probeUpCnt)
		v.probeUpAcks -= d * v.probeUpCnt
		v.inflightHi += d
	}
	if roundStart {
		e.raiseSlope(cwnd)
	}
}

// setCwndV2 is bbr_set_cwnd (without v1's packet conservation) and
// bbr2_bound_cwnd_for_inflight_model; the window saved at a timeout comes back once the
// timeout's losses are repaired (bbr2_set_state).
func (e *bbrEvent) setCwndV2(rs RateSample) {
	cwnd := e.Cwnd()
	if e.timedOut && !rs.InRecovery {
		cwnd, e.timedOut = max(cwnd, e.priorCwnd), false
	}
	if acked := rs.AckedSacked; acked > 0 {
		target := e.targetCwnd()
		switch {
		case e.fullBwReached:
			cwnd = min(cwnd+acked, target)
		case cwnd < target || cwnd < 2*e.cwnd0:
			cwnd += acked
		}
		cwnd = max(cwnd, bbrMinCwnd)
	}
	cwnd = min(cwnd, e.maxCwnd)
	if e.mode == bbrProbeRTT {
		cwnd = min(cwnd, e.probeRTTCwnd())
	}
	e.cwnd = max(min(cwnd, e.cwndCap()), 1)
}

// onTimeoutV2 is bbr2_set_state entering TCP_CA_Loss: one packet, the loss noted in the
// round, and inflight_lo from the window before it when not probing.
func (e *bbrEvent) onTimeoutV2() {
	e.saveCwnd(e.Cwnd(), e.prevRecovery)
	e.cwnd = 1
	e.fullBw = 0
	e.v2.lossInRound = true
	if !e.probing() && math.IsInf(e.v2.inflightLo, 1) {
		e.v2.inflightLo = e.priorCwnd
	}
	e.prevRecovery, e.timedOut = true, true
	e.round++
}
