package response

import (
	"fmt"
	"math"
)

// Caveat kinds: why a derived figure of a response function should not be read as found.
const (
	// CaveatPoorFit: the power law c·p^−d describes the points poorly (R² < MinFitR2).
	CaveatPoorFit = "poor_fit"
	// CaveatExtrapolated: the friendliness point lies outside the measured loss rates, so
	// it is a property of the two fits, not of a measurement.
	CaveatExtrapolated = "extrapolated"
	// CaveatSameAsReno: every point equals Reno's at the same loss rate, so the law reduces
	// to Reno's on this path (a delay-based law such as Vegas sees no queueing delay on
	// the response function's uncongested path).
	CaveatSameAsReno = "same_as_reno"
)

// MinFitR2 is the coefficient of determination below which a fit earns CaveatPoorFit. The
// power laws of the classic algorithms fit their points with R² ≥ 0.9996 (the residue is
// the integer loss clocking); below 0.99 the points curve and c, d describe none of them.
const MinFitR2 = 0.99

// sameAsRenoRel is how close every point must be to Reno's for CaveatSameAsReno: the fluid
// engine is deterministic under periodic loss, so a law that reduces to Reno's gives
// Reno's numbers to the solver's tolerance, far inside 0.1%.
const sameAsRenoRel = 1e-3

// Caveat is one reason to doubt a derived figure, in words for a terminal.
type Caveat struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// caveats lists what falls outside the validity of ar's derived figures; reno is Reno's
// own response in the same report, or nil.
func caveats(ar AlgorithmResponse, reno *AlgorithmResponse) []Caveat {
	out := []Caveat{}
	if ar.FitPoints >= 3 && ar.R2 < MinFitR2 {
		out = append(out, Caveat{CaveatPoorFit, fmt.Sprintf("fit R² %.3f < %g: W̄ is not a power law of p over p ≤ %.0e; read the points, not c and d",
			ar.R2, MinFitR2, ar.FitPMax)})
	}
	if lo, hi, _ := pRange(ar.Points); ar.Friendly != nil && ar.Friendly.Extrapolated {
		out = append(out, Caveat{CaveatExtrapolated, fmt.Sprintf("friendliness point p* = %.2g is outside the measured loss rates [%.0e, %.0e]: a crossing of the fits, not a measurement",
			ar.Friendly.PStar, lo, hi)})
	}
	if reno != nil && ar.Algorithm != reno.Algorithm && sameAsReno(ar.Points, reno.Points) {
		out = append(out, Caveat{CaveatSameAsReno, fmt.Sprintf("W̄ equals %s's at every measured loss rate: on this path (no queueing delay, one loss per window) the law reduces to Reno's",
			reno.Algorithm)})
	}
	return out
}

// pRange is the smallest and largest loss rate measured.
func pRange(points []Point) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, pt := range points {
		lo, hi = min(lo, pt.P), max(hi, pt.P)
	}
	return lo, hi, len(points) > 0
}

// sameAsReno reports whether every point of a equals b's point at the same loss rate.
func sameAsReno(a, b []Point) bool {
	if len(a) == 0 || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].P != b[i].P || !(math.Abs(a[i].MeanCwndPkts-b[i].MeanCwndPkts) <= sameAsRenoRel*b[i].MeanCwndPkts) {
			return false
		}
	}
	return true
}
