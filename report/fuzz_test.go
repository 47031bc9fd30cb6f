package report

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzFigure feeds arbitrary values, including NaN, ±Inf, zeros, negatives
// and extremes, to both renderers and the data writers on every axis kind:
// none may fail or panic, and no NaN or Inf may reach the chart option or
// the data files.
func FuzzFigure(f *testing.F) {
	f.Add(0.0, 1.0, 1e-6, 1224.0, true, true, false)
	f.Add(math.NaN(), math.Inf(1), math.Inf(-1), -1.0, true, false, true)
	f.Add(math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 5e-324, false, true, false)
	f.Add(3.0, 3.0, 3.0, 3.0, true, true, true)
	f.Add(math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, false, false, false)
	f.Add(111.04285714285714, -462.0, -216.0, -27.8, true, false, false) // colour stop rounding past the maximum
	f.Fuzz(func(t *testing.T, x0, y0, x1, y1 float64, logX, logY, points bool) {
		fig := Figure{
			ID: "fuzz", XLabel: "x", YLabel: "y", LogX: logX, LogY: logY,
			Series: []Series{
				{Name: "a", X: []float64{x0, x1}, Y: []float64{y0, y1}, Points: points},
				{Name: "b", X: []float64{x1}, Y: []float64{x0}, Reference: true},
			},
		}
		dir := t.TempDir()
		if err := WriteFigure(filepath.Join(dir, "fuzz.svg"), fig); err != nil {
			t.Fatalf("WriteFigure: %v", err)
		}
		if err := writeFigureData(filepath.Join(dir, "fuzz"), fig); err != nil {
			t.Fatalf("writeFigureData: %v", err)
		}
		js, err := os.ReadFile(filepath.Join(dir, "fuzz.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(js) || bytes.Contains(js, []byte("NaN")) || bytes.Contains(js, []byte("Inf")) {
			t.Fatalf("data JSON invalid or not finite:\n%s", js)
		}
		line, _ := figureChart(fig, "chart_1", localAssetsHost)
		option := line.RenderSnippet().Option
		if strings.Contains(option, "NaN") || strings.Contains(option, "Inf") || !json.Valid([]byte(option)) {
			t.Fatalf("chart option invalid or not finite: %s", option)
		}

		h := Heatmap{ID: "h", X: []float64{x0, x1}, Y: []float64{y0}, Z: [][]float64{{y1, x0}}}
		if err := WriteHeatmap(filepath.Join(dir, "h.svg"), h); err != nil {
			t.Fatalf("WriteHeatmap: %v", err)
		}
		// Grid values may be NaN or ±Inf: they appear as text in labels,
		// never as numbers, which would make the option invalid JSON.
		option = heatmapChart(h, "chart_2", localAssetsHost).RenderSnippet().Option
		if !json.Valid([]byte(option)) {
			t.Fatalf("heatmap option is not valid JSON: %s", option)
		}
	})
}
