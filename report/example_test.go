package report_test

import (
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/tcpfluid/tcpfluid/report"
)

func ExampleWrite() {
	// A response function on log-log axes with the Mathis et al. reference
	// W = sqrt(3/(2p)); the point at p = 0 cannot sit on a log axis and is
	// left out of the charts, and counted in the figure's note.
	ps := []float64{0, 1e-6, 1e-4, 1e-2}
	measured := []float64{0, 1220, 121, 12.1}
	reference := make([]float64, len(ps))
	for i, p := range ps {
		reference[i] = math.Sqrt(1.5 / p)
	}
	page := report.Page{
		Title: "Reno response function",
		Sections: []report.Section{{
			Title: "Response",
			Figures: []report.Figure{{
				ID: "reno-response", Title: "Reno", XLabel: "loss rate p", YLabel: "mean cwnd (packets)",
				LogX: true, LogY: true,
				Series: []report.Series{
					{Name: "fluid", X: ps, Y: measured, Points: true},
					{Name: "Mathis et al. 1997", X: ps, Y: reference, Reference: true},
				},
			}},
			Tables: []report.Table{{
				ID: "fit", Columns: []string{"algorithm", "c", "d"},
				Rows: [][]string{{"reno", "1.22", "0.5"}},
			}},
		}},
	}

	dir, err := os.MkdirTemp("", "tcpfluid-report")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// The zero Options inline the embedded ECharts, so the page works
	// offline; EChartsRemote would load it from the network instead.
	if err := report.Write(dir, page, report.Options{}); err != nil {
		log.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		fmt.Println(filepath.ToSlash(rel))
	}
	// Output:
	// data/fit.csv
	// data/fit.json
	// data/reno-response.csv
	// data/reno-response.json
	// figures/reno-response.pdf
	// figures/reno-response.png
	// figures/reno-response.svg
}
