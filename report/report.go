package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Errors returned by this package; they are wrapped with the offending field
// and value, so test them with errors.Is.
var (
	// ErrID reports an ID that is empty, not file-safe or used twice in a page.
	ErrID = errors.New("report: bad ID")
	// ErrShape reports data whose lengths do not match: a series with
	// len(X) != len(Y), a heatmap whose Z is not len(Y)×len(X), a table row
	// whose width differs from the number of columns.
	ErrShape = errors.New("report: data shape mismatch")
	// ErrFormat reports a static figure format other than svg, png or pdf.
	ErrFormat = errors.New("report: unknown figure format")
	// ErrOption reports an Options field out of its allowed range.
	ErrOption = errors.New("report: bad option")
	// ErrNoECharts reports that no echarts.min.js could be found.
	ErrNoECharts = errors.New("report: echarts.min.js not found")
)

// Series is one named curve of a Figure.
type Series struct {
	Name string
	// X and Y are the coordinates of the points, in the units named by the
	// figure's axis labels; they must have the same length.
	X, Y []float64
	// Reference marks a published reference curve, drawn dashed.
	Reference bool
	// Points draws markers only, without a connecting line.
	Points bool
	// Of names another series of the figure that this one belongs to, such
	// as a curve fitted to measured points or their published reference: it
	// is drawn in that series' colour as a line without markers (solid, or
	// dashed when Reference), and the interactive chart's legend shows and
	// hides both together. Its own Name is shown in tooltips and kept in the
	// data files.
	Of string
	// Key labels the static legend's entry for all series with Of that share
	// it and their line style, drawn in grey (e.g. "least-squares fit");
	// series with an empty Key get no entry of their own.
	Key string
}

// Figure is an x–y chart of one or more series.
type Figure struct {
	// ID names the figure's files (figures/<ID>.svg, data/<ID>.csv, ...). It
	// may hold ASCII letters, digits, '-' and '_', and must be unique within
	// a Page.
	ID string
	// Title is shown above the chart. XLabel and YLabel name the axes and
	// should carry the units, e.g. "loss rate p" or "cwnd (packets)".
	Title, XLabel, YLabel string
	// LogX and LogY select logarithmic axes.
	LogX, LogY bool
	// YMax, when not zero, is the top of the y axis: a bound the values
	// cannot exceed, such as 1 for Jain's fairness index. The bottom then
	// follows the data with a margin. Otherwise both ends follow the data.
	YMax   float64
	Series []Series
	// Note is shown under the interactive chart and stored in the data file.
	Note string
}

// Heatmap shows a value Z over a grid of two parameters X and Y, as a
// parameter sweep does. Cells are drawn equally sized, in the order of X and
// Y, so log-spaced grids look even; axis labels show the values.
type Heatmap struct {
	// ID names the heatmap's files, as Figure.ID does.
	ID                            string
	Title, XLabel, YLabel, ZLabel string
	// X and Y are the grid's parameter values.
	X, Y []float64
	// Z holds the value at each grid point, Z[iy][ix]; it must have len(Y)
	// rows of len(X) values. A non-finite value leaves its cell empty.
	Z [][]float64
}

// Table is a table of pre-formatted cells.
type Table struct {
	// ID names the table's data files, as Figure.ID does.
	ID      string
	Title   string
	Columns []string
	// Rows holds the cells, each row as wide as Columns.
	Rows [][]string
	Note string
}

// Section is a titled part of a Page. Its figures come first, then its
// heatmaps, then its tables.
type Section struct {
	Title string
	// Text is plain text; blank lines separate paragraphs.
	Text     string
	Figures  []Figure
	Heatmaps []Heatmap
	Tables   []Table
}

// Page is the whole report.
type Page struct {
	Title string
	// Intro is plain text shown under the title; blank lines separate
	// paragraphs.
	Intro    string
	Sections []Section
}

// EChartsMode chooses where index.html loads ECharts from.
type EChartsMode int

const (
	// EChartsInline embeds echarts.min.js in index.html (about 1 MB), so the
	// page alone works offline. It is the default.
	EChartsInline EChartsMode = iota
	// EChartsLocal copies echarts.min.js next to index.html and loads it
	// from there; the report directory works offline as a whole.
	EChartsLocal
	// EChartsRemote loads ECharts from go-echarts' default asset host; the
	// page needs a network connection to show its charts, and shows the
	// static figures in their place without one.
	EChartsRemote
)

var eChartsModeNames = [...]string{"inline", "local", "remote"}

// String returns "inline", "local" or "remote".
func (m EChartsMode) String() string {
	if m < 0 || int(m) >= len(eChartsModeNames) {
		return fmt.Sprintf("EChartsMode(%d)", int(m))
	}
	return eChartsModeNames[m]
}

// ParseEChartsMode parses "inline", "local" or "remote".
func ParseEChartsMode(s string) (EChartsMode, error) {
	for i, name := range eChartsModeNames {
		if strings.EqualFold(s, name) {
			return EChartsMode(i), nil
		}
	}
	return 0, fmt.Errorf("%w: echarts mode %q, want inline, local or remote", ErrOption, s)
}

// Options are the settings of Write. The zero value is ready to use.
type Options struct {
	// ECharts chooses how index.html loads ECharts. Default EChartsInline.
	ECharts EChartsMode
	// EChartsFile is the echarts.min.js used by EChartsLocal and
	// EChartsInline. Default: the build embedded in this package (ECharts
	// EChartsVersion).
	EChartsFile string
	// Static lists the formats of the static figures: "svg", "png", "pdf".
	// Default (nil): all three. An empty non-nil slice writes none.
	Static []string
	// WidthIn and HeightIn are the size of a static figure in inches, from
	// 2 to 20. Defaults 6 and 4.
	WidthIn, HeightIn float64
	// DPI is the resolution of PNG figures in dots per inch, from 36 to
	// 600. Default 300.
	DPI float64
}

// Defaults and limits of Options. Below the minimum size the axes and the
// heatmap's colour bar leave no room for data; the maxima bound a PNG to
// 12000×12000 pixels.
const (
	DefaultWidthIn  = 6.0
	DefaultHeightIn = 4.0
	DefaultDPI      = 300.0
	MinSizeIn       = 2.0
	MaxSizeIn       = 20.0
	MinDPI          = 36.0
	MaxDPI          = 600.0
)

// withDefaults returns o with defaults filled in, or an error naming the
// first field out of range.
func (o Options) withDefaults() (Options, error) {
	if o.ECharts < EChartsInline || o.ECharts > EChartsRemote {
		return o, fmt.Errorf("%w: ECharts = %d, want EChartsInline, EChartsLocal or EChartsRemote", ErrOption, int(o.ECharts))
	}
	if o.Static == nil {
		o.Static = []string{"svg", "png", "pdf"}
	}
	for _, f := range o.Static {
		if _, ok := staticFormats[f]; !ok {
			return o, fmt.Errorf("%w: Static format %q, want svg, png or pdf", ErrFormat, f)
		}
	}
	dims := []struct {
		name          string
		v             *float64
		def, min, max float64
	}{
		{"WidthIn", &o.WidthIn, DefaultWidthIn, MinSizeIn, MaxSizeIn},
		{"HeightIn", &o.HeightIn, DefaultHeightIn, MinSizeIn, MaxSizeIn},
		{"DPI", &o.DPI, DefaultDPI, MinDPI, MaxDPI},
	}
	for _, d := range dims {
		if *d.v == 0 {
			*d.v = d.def
		}
		if !(*d.v >= d.min && *d.v <= d.max) {
			return o, fmt.Errorf("%w: %s = %v, want %v to %v (0 for the default %v)", ErrOption, d.name, *d.v, d.min, d.max, d.def)
		}
	}
	return o, nil
}

// Write writes the report for p into dir, creating it if needed: index.html,
// the static figures under figures/ and the data files under data/ (see the
// package documentation). Existing files of the same names are replaced.
func Write(dir string, p Page, o Options) error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	if err := p.validate(); err != nil {
		return err
	}
	// Read ECharts before writing anything, so a missing file leaves no
	// half-written report.
	var js []byte
	if o.ECharts != EChartsRemote && p.hasCharts() {
		if js, err = loadECharts(o); err != nil {
			return err
		}
	}
	for _, sub := range []string{"figures", "data"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	size := staticSize{widthIn: o.WidthIn, heightIn: o.HeightIn, dpi: o.DPI}
	for _, s := range p.Sections {
		for _, f := range s.Figures {
			for _, format := range o.Static {
				if err := writeFigure(filepath.Join(dir, "figures", f.ID+"."+format), format, f, size); err != nil {
					return err
				}
			}
			if err := writeFigureData(filepath.Join(dir, "data", f.ID), f); err != nil {
				return err
			}
		}
		for _, h := range s.Heatmaps {
			for _, format := range o.Static {
				if err := writeHeatmap(filepath.Join(dir, "figures", h.ID+"."+format), format, h, size); err != nil {
					return err
				}
			}
			if err := writeHeatmapData(filepath.Join(dir, "data", h.ID), h); err != nil {
				return err
			}
		}
		for _, t := range s.Tables {
			if err := writeTableData(filepath.Join(dir, "data", t.ID), t); err != nil {
				return err
			}
		}
	}
	return writeHTML(dir, p, o, js)
}

func (p Page) hasCharts() bool {
	for _, s := range p.Sections {
		if len(s.Figures)+len(s.Heatmaps) > 0 {
			return true
		}
	}
	return false
}

// validate checks IDs and data shapes of the whole page.
func (p Page) validate() error {
	seen := make(map[string]string)
	useID := func(id, where string) error {
		if err := checkID(id, where); err != nil {
			return err
		}
		if prev, ok := seen[id]; ok {
			return fmt.Errorf("%w: %s.ID = %q is already used by %s", ErrID, where, id, prev)
		}
		seen[id] = where
		return nil
	}
	for i, s := range p.Sections {
		for j, f := range s.Figures {
			where := fmt.Sprintf("Sections[%d].Figures[%d]", i, j)
			if err := useID(f.ID, where); err != nil {
				return err
			}
			if err := f.checkShape(where); err != nil {
				return err
			}
		}
		for j, h := range s.Heatmaps {
			where := fmt.Sprintf("Sections[%d].Heatmaps[%d]", i, j)
			if err := useID(h.ID, where); err != nil {
				return err
			}
			if err := h.checkShape(where); err != nil {
				return err
			}
		}
		for j, t := range s.Tables {
			where := fmt.Sprintf("Sections[%d].Tables[%d]", i, j)
			if err := useID(t.ID, where); err != nil {
				return err
			}
			if err := t.checkShape(where); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkID accepts IDs that are safe as file names on every platform and as
// parts of HTML ids and JavaScript identifiers.
func checkID(id, where string) error {
	if id == "" {
		return fmt.Errorf("%w: %s.ID is empty, want ASCII letters, digits, '-' or '_'", ErrID, where)
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
		if !ok {
			return fmt.Errorf("%w: %s.ID = %q contains %q, want ASCII letters, digits, '-' or '_'", ErrID, where, id, r)
		}
	}
	return nil
}

func (f Figure) checkShape(where string) error {
	for k, s := range f.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("%w: %s.Series[%d] (%q): len(X) = %d, len(Y) = %d, want equal", ErrShape, where, k, s.Name, len(s.X), len(s.Y))
		}
	}
	return nil
}

func (h Heatmap) checkShape(where string) error {
	if len(h.Z) != len(h.Y) {
		return fmt.Errorf("%w: %s: len(Z) = %d rows, want len(Y) = %d", ErrShape, where, len(h.Z), len(h.Y))
	}
	for iy, row := range h.Z {
		if len(row) != len(h.X) {
			return fmt.Errorf("%w: %s: len(Z[%d]) = %d, want len(X) = %d", ErrShape, where, iy, len(row), len(h.X))
		}
	}
	return nil
}

func (t Table) checkShape(where string) error {
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return fmt.Errorf("%w: %s: len(Rows[%d]) = %d, want len(Columns) = %d", ErrShape, where, i, len(row), len(t.Columns))
		}
	}
	return nil
}
