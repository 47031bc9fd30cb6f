package model

import "math"

// RTTEstimator is RFC 6298's smoothed RTT and its variation (α = 1/8, β = 1/4), as both
// engines' senders keep it for their retransmission timers.
type RTTEstimator struct {
	SRTT, RTTVar float64 // s
	Have         bool    // a sample has been taken
	// Reinit: the next sample starts the estimator afresh (after several backoffs the old
	// SRTT says little about the path, RFC 6298 §5.7).
	Reinit bool
}

// Sample feeds one round-trip measurement r, s.
func (e *RTTEstimator) Sample(r float64) {
	if !e.Have || e.Reinit {
		e.SRTT, e.RTTVar = r, r/2
		e.Have, e.Reinit = true, false
		return
	}
	e.RTTVar = 0.75*e.RTTVar + 0.25*math.Abs(e.SRTT-r)
	e.SRTT = 0.875*e.SRTT + 0.125*r
}

// Base is the timeout before the floor and the backoff, s: SRTT + max(ClockGranularityS,
// 4·RTTVAR), or InitialRTOS before the first sample.
func (e *RTTEstimator) Base() float64 {
	if !e.Have {
		return InitialRTOS
	}
	return e.SRTT + max(ClockGranularityS, 4*e.RTTVar)
}
