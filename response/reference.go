package response

import "math"

// Reference is a published response function W̄ = C·τ^E / p^D (packets, τ in seconds).
type Reference struct {
	C      float64 `json:"c"`
	D      float64 `json:"d"`
	E      float64 `json:"e"`
	Source string  `json:"source"`
	// PMax is the largest loss rate at which the form holds (its fit range); 0: all.
	PMax float64 `json:"p_max,omitempty"`
}

// Window is the reference mean window in packets at loss rate p and RTT rttS.
func (r Reference) Window(p, rttS float64) float64 {
	return r.C * math.Pow(rttS, r.E) / math.Pow(p, r.D)
}

// EffectiveC is the reference constant at RTT rttS: C·τ^E.
func (r Reference) EffectiveC(rttS float64) float64 { return r.C * math.Pow(rttS, r.E) }

var (
	renoPeriodic = Reference{C: math.Sqrt(1.5), D: 0.5, Source: "Mathis et al. 1997 (periodic loss, ACK every packet)"}
	// Mathis's random-loss constant is the small-p limit: near p = 1e-2 two losses often
	// fall in one window and cost one reduction, which lifts the window by about 4%.
	renoRandom = Reference{C: 1.31, D: 0.5, Source: "Mathis et al. 1997 (random loss)", PMax: 1e-3}
)

// ReferenceFor returns the published response function of an algorithm under a loss
// model (REFERENCE.md, "Response functions"), and false when none is published.
func ReferenceFor(algo, lossModel string) (Reference, bool) {
	switch algo {
	case "reno", "newreno", "vegas":
		// Vegas on an uncongested path sees no queueing delay and grows like Reno.
		if lossModel == "random" {
			return renoRandom, true
		}
		return renoPeriodic, true
	case "scalable":
		// Above the legacy window (16 packets, reached near p = 5e-3).
		return Reference{C: 0.0749, D: 1, Source: "Kelly 2003 (a = 0.01, b = 0.125, derived for periodic loss)", PMax: 1e-3}, true
	case "highspeed":
		return Reference{C: 0.12, D: 0.835, Source: "RFC 3649 §5", PMax: 1e-4}, true
	case "cubic":
		return Reference{C: 1.054, D: 0.75, E: 0.75, Source: "RFC 9438 §5 (cubic region)", PMax: 1e-4}, true
	case "compound":
		return Reference{C: 0.255, D: 0.8, Source: "Tan et al. 2006 (derived, loss-driven bound)", PMax: 1e-4}, true
	}
	return Reference{}, false
}

// RFC 9438 Table 1 (τ = 0.1 s) and Table 2 (τ = 0.01 s): mean windows in packets.
var (
	RFC9438LossRates = []float64{1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8}
	RFC9438Table1    = map[string][]float64{
		"reno":      {12, 38, 120, 379, 1200, 3795, 12000},
		"highspeed": {12, 38, 263, 1795, 12280, 83981, 574356},
		"cubic":     {12, 38, 187, 1054, 5926, 33325, 187400},
	}
	RFC9438Table2Cubic = []float64{12, 38, 120, 379, 1200, 5926, 33325}
)
