package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"strconv"
)

// formatFloat writes the shortest text that parses back to v exactly.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// csvFloat writes a non-finite value as an empty field.
func csvFloat(v float64) string {
	if !finite(v) {
		return ""
	}
	return formatFloat(v)
}

type seriesJSON struct {
	Name      string     `json:"name"`
	Reference bool       `json:"reference"`
	Points    bool       `json:"points"`
	X         []nullable `json:"x"`
	Y         []nullable `json:"y"`
	NotDrawn  notDrawn   `json:"not_drawn"`
}

type figureJSON struct {
	ID       string       `json:"id"`
	Title    string       `json:"title"`
	XLabel   string       `json:"x_label"`
	YLabel   string       `json:"y_label"`
	LogX     bool         `json:"log_x"`
	LogY     bool         `json:"log_y"`
	Note     string       `json:"note"`
	NotDrawn notDrawn     `json:"not_drawn"`
	Series   []seriesJSON `json:"series"`
}

type heatmapJSON struct {
	ID     string       `json:"id"`
	Title  string       `json:"title"`
	XLabel string       `json:"x_label"`
	YLabel string       `json:"y_label"`
	ZLabel string       `json:"z_label"`
	X      []nullable   `json:"x"`
	Y      []nullable   `json:"y"`
	Z      [][]nullable `json:"z"`
}

type tableJSON struct {
	ID      string     `json:"id"`
	Title   string     `json:"title"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	Note    string     `json:"note"`
}

// writeFigureData writes base+".csv" and base+".json" for f.
func writeFigureData(base string, f Figure) error {
	_, per, all := f.drawableSeries()
	fj := figureJSON{
		ID: f.ID, Title: f.Title, XLabel: f.XLabel, YLabel: f.YLabel,
		LogX: f.LogX, LogY: f.LogY, Note: f.noteWithDropped(all), NotDrawn: all,
		Series: make([]seriesJSON, len(f.Series)),
	}
	rows := [][]string{{"series", "x", "y"}}
	for i, s := range f.Series {
		fj.Series[i] = seriesJSON{
			Name: s.Name, Reference: s.Reference, Points: s.Points,
			X: nullables(s.X), Y: nullables(s.Y), NotDrawn: per[i],
		}
		for k, x := range s.X {
			rows = append(rows, []string{s.Name, csvFloat(x), csvFloat(s.Y[k])})
		}
	}
	return writeCSVJSON(base, rows, fj)
}

// writeHeatmapData writes base+".csv" and base+".json" for h.
func writeHeatmapData(base string, h Heatmap) error {
	hj := heatmapJSON{
		ID: h.ID, Title: h.Title, XLabel: h.XLabel, YLabel: h.YLabel, ZLabel: h.ZLabel,
		X: nullables(h.X), Y: nullables(h.Y), Z: make([][]nullable, len(h.Z)),
	}
	rows := [][]string{{"x", "y", "z"}}
	for iy, row := range h.Z {
		hj.Z[iy] = nullables(row)
		for ix, z := range row {
			rows = append(rows, []string{csvFloat(h.X[ix]), csvFloat(h.Y[iy]), csvFloat(z)})
		}
	}
	return writeCSVJSON(base, rows, hj)
}

// writeTableData writes base+".csv" and base+".json" for t.
func writeTableData(base string, t Table) error {
	tj := tableJSON{ID: t.ID, Title: t.Title, Columns: t.Columns, Rows: t.Rows, Note: t.Note}
	if tj.Columns == nil {
		tj.Columns = []string{}
	}
	if tj.Rows == nil {
		tj.Rows = [][]string{}
	}
	rows := append([][]string{t.Columns}, t.Rows...)
	return writeCSVJSON(base, rows, tj)
}

func writeCSVJSON(base string, rows [][]string, v any) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		return err
	}
	if err := os.WriteFile(base+".csv", buf.Bytes(), 0o644); err != nil {
		return err
	}
	js, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(base+".json", append(js, '\n'), 0o644)
}
