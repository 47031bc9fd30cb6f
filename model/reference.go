package model

import "math"

// Published figures an algorithm carries beside its law (ResponseReferencer,
// ConvergeReferencer), so that analyses compare against them without knowing algorithms
// by name.

// ResponseReference is a published response function W̄ = C·τ^E / p^D (packets, τ the RTT
// in seconds, p the loss rate per packet).
type ResponseReference struct {
	C      float64 `json:"c"`
	D      float64 `json:"d"`
	E      float64 `json:"e"`
	Source string  `json:"source"`
	// PMax is the largest loss rate at which the form holds (its fit range); 0: all.
	PMax float64 `json:"p_max,omitempty"`
}

// Window is the reference mean window in packets at loss rate p and RTT rttS seconds.
func (r ResponseReference) Window(p, rttS float64) float64 {
	return r.C * math.Pow(rttS, r.E) / math.Pow(p, r.D)
}

// EffectiveC is the reference constant at RTT rttS seconds: C·τ^E.
func (r ResponseReference) EffectiveC(rttS float64) float64 { return r.C * math.Pow(rttS, r.E) }

// ConvergeReference is a closed form of the time to fill a link from one packet (FillS)
// and to recover from a loss at the bandwidth-delay product back to it (RecoveryS), in
// seconds; nil where the algorithm has none. Note says what the form assumes.
type ConvergeReference struct {
	FillS, RecoveryS *float64
	Note             string
}

// Reno's response functions (Mathis et al. 1997), which every Reno-like law shares.
var (
	RenoPeriodicReference = ResponseReference{C: math.Sqrt(1.5), D: 0.5, Source: "Mathis et al. 1997 (periodic loss, ACK every packet)"}
	// Mathis's random-loss constant is the small-p limit: near p = 1e-2 two losses often
	// fall in one window and cost one reduction, which lifts the window by about 4%.
	RenoRandomReference = ResponseReference{C: 1.31, D: 0.5, Source: "Mathis et al. 1997 (random loss)", PMax: 1e-3}
)

// renoReference is Reno's response function under a loss model.
func renoReference(loss LossModel) ResponseReference {
	if loss == LossRandom {
		return RenoRandomReference
	}
	return RenoPeriodicReference
}

// aimdConverge is the closed form of +1 packet per RTT: from 1 to the BDP, and from BDP/2
// back to it.
func aimdConverge(bdpPkts, rttS float64) ConvergeReference {
	fill, rec := (bdpPkts-1)*rttS, bdpPkts/2*rttS
	return ConvergeReference{FillS: &fill, RecoveryS: &rec, Note: "AIMD(1, 1/2): (BDP−1)·RTT and BDP/2·RTT"}
}
