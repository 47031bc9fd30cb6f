package report

import (
	"math"
)

// samplePage is a page with every kind of content and every sanitising
// case: a log-log figure with a zero, a negative value and a NaN, a dashed
// reference line, a markers-only series, an empty series, a time series, a
// heatmap with a NaN cell, an empty figure and a table.
func samplePage() Page {
	ps := []float64{1e-6, 1e-5, 1e-4, 1e-3, 1e-2}
	mathis := make([]float64, len(ps))
	for i, p := range ps {
		mathis[i] = math.Sqrt(1.5 / p)
	}
	t := make([]float64, 300)
	cwnd := make([]float64, len(t))
	for i := range t {
		t[i] = float64(i) * 0.1
		cwnd[i] = 10 + math.Mod(float64(i), 50)
	}
	return Page{
		Title: "Sample <report>",
		Intro: "First paragraph.\n\nSecond paragraph & more.",
		Sections: []Section{
			{
				Title: "Response functions",
				Text:  "Mean window against loss rate.",
				Figures: []Figure{
					{
						ID: "response", Title: "Response function", XLabel: "loss rate p", YLabel: "mean cwnd (packets)",
						LogX: true, LogY: true,
						Series: []Series{
							// 0 on the log x axis, -1 on the log y axis and a NaN: three points not drawn.
							{Name: "reno", X: []float64{0, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2}, Y: []float64{5, 1224, 387, -1, math.NaN(), 12.2}, Points: true},
							{Name: "Mathis sqrt(3/2p)", X: ps, Y: mathis, Reference: true},
							{Name: "empty"},
						},
						Note: "Periodic loss.",
					},
					{ID: "nothing", Title: "Nothing to draw", XLabel: "x", YLabel: "y", LogX: true, LogY: true,
						Series: []Series{{Name: "zeros", X: []float64{0, 0}, Y: []float64{0, 1}}}},
				},
			},
			{
				Title: "Dynamics",
				Figures: []Figure{
					{ID: "cwnd", Title: "Congestion window", XLabel: "time (s)", YLabel: "cwnd (packets)",
						Series: []Series{{Name: "flow 0", X: t, Y: cwnd}}},
				},
				Heatmaps: []Heatmap{
					{ID: "sweep", Title: "Throughput over a sweep", XLabel: "gamma", YLabel: "RTT (s)", ZLabel: "throughput (bit/s)",
						X: []float64{0.5, 1, 2}, Y: []float64{0.01, 0.1},
						Z: [][]float64{{1e6, 2e6, 3e6}, {4e6, math.NaN(), 6e6}}},
				},
				Tables: []Table{
					{ID: "fill", Title: "Fill and recovery", Columns: []string{"algorithm", "fill_time_s", "recovery_time_s"},
						Rows: [][]string{{"reno", "1250", "625"}, {"cubic <fast>", "12.5", "3.1"}}, Note: "1 Gbit/s, 100 ms"},
				},
			},
		},
	}
}

// drawnPoints is the number of points of each chart of samplePage that can
// be drawn: response (3 reno + 5 Mathis), nothing, cwnd,
// sweep (5 finite cells).
var sampleDrawnPoints = map[string]int{"response": 8, "nothing": 0, "cwnd": 300, "sweep": 5}
