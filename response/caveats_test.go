package response

import (
	"slices"
	"testing"
)

func points(ws ...float64) []Point {
	ps := []float64{1e-2, 1e-3, 1e-4}
	out := make([]Point, len(ws))
	for i, w := range ws {
		out[i] = Point{P: ps[i], MeanCwndPkts: w}
	}
	return out
}

func TestCaveats(t *testing.T) {
	reno := AlgorithmResponse{Algorithm: "reno", Points: points(12.2, 38.7, 122.5), R2: 1, FitPoints: 3}
	for _, c := range []struct {
		name string
		ar   AlgorithmResponse
		want []string
	}{
		{"a power law unlike Reno's", AlgorithmResponse{Algorithm: "x", Points: points(10, 100, 1000), R2: 0.9999, FitPoints: 3,
			Friendly: &Friendliness{PStar: 1e-3}}, nil},
		{"R² below 0.99", AlgorithmResponse{Algorithm: "x", Points: points(10, 100, 1000), R2: 0.98, FitPoints: 3}, []string{CaveatPoorFit}},
		{"R² at 0.99 is a fit", AlgorithmResponse{Algorithm: "x", Points: points(10, 100, 1000), R2: 0.99, FitPoints: 3}, nil},
		{"two points fit exactly, so no R² caveat", AlgorithmResponse{Algorithm: "x", Points: points(10, 100), R2: 0.5, FitPoints: 2}, nil},
		{"p* extrapolated", AlgorithmResponse{Algorithm: "x", Points: points(10, 100, 1000), R2: 1, FitPoints: 3,
			Friendly: &Friendliness{PStar: 0.7, Extrapolated: true}}, []string{CaveatExtrapolated}},
		{"Reno's points within 0.1%", AlgorithmResponse{Algorithm: "vegas", Points: points(12.2, 38.72, 122.5), R2: 1, FitPoints: 3},
			[]string{CaveatSameAsReno}},
		{"0.2% from Reno is a law of its own", AlgorithmResponse{Algorithm: "y", Points: points(12.2, 38.78, 122.5), R2: 1, FitPoints: 3}, nil},
		{"Reno is not its own caveat", reno, nil},
	} {
		var kinds []string
		for _, cv := range caveats(c.ar, &reno) {
			kinds = append(kinds, cv.Kind)
		}
		if !slices.Equal(kinds, c.want) {
			t.Errorf("%s: caveats %v, want %v", c.name, kinds, c.want)
		}
	}
}

// crossing marks a friendliness point outside the measured loss rates as extrapolated.
func TestCrossingExtrapolated(t *testing.T) {
	// W = 0.0749/p against Reno's 1.225/√p cross at p* = (0.0749/1.225)² = 3.7e-3.
	for _, c := range []struct {
		pts  []Point
		want bool
	}{
		{points(10, 100, 1000), false}, // [1e-4, 1e-2] holds 3.7e-3
		{[]Point{{P: 1e-4, MeanCwndPkts: 749}, {P: 1e-5, MeanCwndPkts: 7490}}, true}, // [1e-5, 1e-4] does not
	} {
		f := crossing(AlgorithmResponse{C: 0.0749, D: 1, FitPoints: 2, Points: c.pts}, 1.225, 0.5)
		if f == nil || f.Extrapolated != c.want {
			t.Errorf("points %v: %+v, want extrapolated %v", c.pts, f, c.want)
		}
	}
}
