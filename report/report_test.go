package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// writeSample writes samplePage into a fresh directory and returns it.
func writeSample(t *testing.T, o Options) string {
	t.Helper()
	dir := t.TempDir()
	if err := Write(dir, samplePage(), o); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return dir
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWriteIndexHTML(t *testing.T) {
	// Remote, so that the page holds only its own script, not ECharts' source.
	dir := writeSample(t, Options{ECharts: EChartsRemote})
	html := string(readFile(t, filepath.Join(dir, "index.html")))

	divs := regexp.MustCompile(`<div class="item" id="(chart_\d+)"`).FindAllStringSubmatch(html, -1)
	if len(divs) != len(sampleDrawnPoints) {
		t.Errorf("index.html has %d chart divs, want %d (one per figure and heatmap)", len(divs), len(sampleDrawnPoints))
	}
	for id := range sampleDrawnPoints {
		if !strings.Contains(html, `<figure class="chart" id="`+id+`"`) {
			t.Errorf("index.html has no figure element for %q", id)
		}
	}
	for _, d := range divs {
		if !strings.Contains(html, "echarts.init(document.getElementById('"+d[1]+"')") {
			t.Errorf("chart div %s is never initialised", d[1])
		}
	}
	for _, want := range []string{
		"<title>Sample &lt;report&gt;</title>",
		"<p>Second paragraph &amp; more.</p>",
		"Periodic loss. 3 point(s) not drawn: 2 not positive on a logarithmic axis, 1 not finite.",
		"2 point(s) not drawn: 2 not positive on a logarithmic axis.",
		"<th>fill_time_s</th>",
		`<td>cubic &lt;fast&gt;</td><td class="num">12.5</td>`,
		`<a href="figures/response.svg">`, `<a href="data/sweep.json">`, `<a href="data/fill.csv">`,
		`"type":"log"`, `"type":[6,3]`, `"type":"scatter"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	// ECharts cannot parse NaN or Infinity in an option; JSON cannot carry them.
	for _, bad := range []string{"NaN", "Infinity", "+Inf"} {
		if strings.Contains(html, bad) {
			t.Errorf("index.html contains %s", bad)
		}
	}
}

// pixelCount counts the pixels of img equal to c.
func pixelCount(img image.Image, c color.Color) int {
	r0, g0, b0, _ := c.RGBA()
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 == r0>>8 && g>>8 == g0>>8 && b>>8 == b0>>8 {
				n++
			}
		}
	}
	return n
}

func TestWriteStaticFigures(t *testing.T) {
	dir := writeSample(t, Options{Static: []string{"svg", "png", "pdf"}})
	reno, mathis := hexColour(seriesColours[0]), hexColour(seriesColours[1])
	// Each colour must cover at least min pixels: the markers of three
	// points, the length of a line or a sixth of a heatmap. Anti-aliasing
	// alone leaves a few dozen exact matches at most.
	type mark struct {
		c   color.Color
		min int
	}
	tests := []struct {
		id    string
		marks []mark
	}{
		{"response", []mark{{reno, 100}, {mathis, 1000}}},
		{"nothing", nil},
		{"cwnd", []mark{{reno, 10000}}},
		{"sweep", []mark{{nanCellColour, 1800 * 1200 / 20}}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			svg := readFile(t, filepath.Join(dir, "figures", tt.id+".svg"))
			var root struct{ XMLName xml.Name }
			if err := xml.Unmarshal(svg, &root); err != nil || root.XMLName.Local != "svg" {
				t.Errorf("%s.svg: root element %q, error %v; want a valid <svg> document", tt.id, root.XMLName.Local, err)
			}

			img, err := png.Decode(bytes.NewReader(readFile(t, filepath.Join(dir, "figures", tt.id+".png"))))
			if err != nil {
				t.Fatalf("%s.png: %v", tt.id, err)
			}
			wantW, wantH := int(DefaultWidthIn*DefaultDPI), int(DefaultHeightIn*DefaultDPI)
			if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
				t.Errorf("%s.png is %dx%d pixels, want %dx%d (6x4 in at 300 dpi)", tt.id, b.Dx(), b.Dy(), wantW, wantH)
			}
			total := wantW * wantH
			// Axes, ticks and labels alone cover well over 0.5% of the image.
			if white := pixelCount(img, color.White); total-white < total/200 {
				t.Errorf("%s.png is blank: %d of %d pixels are not white", tt.id, total-white, total)
			}
			for _, m := range tt.marks {
				if n := pixelCount(img, m.c); n < m.min {
					t.Errorf("%s.png has %d pixels of colour %v, want at least %d", tt.id, n, m.c, m.min)
				}
			}

			pdf := readFile(t, filepath.Join(dir, "figures", tt.id+".pdf"))
			if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
				t.Errorf("%s.pdf does not start with %%PDF-", tt.id)
			}
		})
	}
	// The reference series is dashed in the SVG too.
	if svg := readFile(t, filepath.Join(dir, "figures", "response.svg")); !bytes.Contains(svg, []byte("stroke-dasharray")) {
		t.Error("response.svg has no dashed stroke for the reference series")
	}
}

func TestNoStaticFigures(t *testing.T) {
	dir := writeSample(t, Options{Static: []string{}})
	entries, err := os.ReadDir(filepath.Join(dir, "figures"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("Static = []string{} wrote %d figure files, want 0", len(entries))
	}
	html := string(readFile(t, filepath.Join(dir, "index.html")))
	if strings.Contains(html, "figures/") {
		t.Error("index.html links static figures that were not written")
	}
}

// nullableFloats converts JSON numbers or nulls back to float64, null as NaN.
func nullableFloats(ps []*float64) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = math.NaN()
		if p != nil {
			out[i] = *p
		}
	}
	return out
}

// sameData reports whether got equals want, with every non-finite value of
// want read back as NaN.
func sameData(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		if finite(want[i]) != !math.IsNaN(got[i]) || finite(want[i]) && got[i] != want[i] {
			return false
		}
	}
	return true
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(readFile(t, path))).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func parseCSVFloat(t *testing.T, s string) float64 {
	t.Helper()
	if s == "" {
		return math.NaN()
	}
	var v float64
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("CSV field %q is not a number: %v", s, err)
	}
	return v
}

func TestDataRoundTrip(t *testing.T) {
	dir := writeSample(t, Options{Static: []string{}})
	page := samplePage()

	for _, name := range []string{"response", "nothing", "cwnd", "sweep", "fill"} {
		for _, ext := range []string{".csv", ".json"} {
			b := readFile(t, filepath.Join(dir, "data", name+ext))
			if bytes.Contains(b, []byte("NaN")) || bytes.Contains(b, []byte("Inf")) {
				t.Errorf("data/%s%s contains NaN or Inf", name, ext)
			}
		}
	}

	t.Run("figure", func(t *testing.T) {
		fig := page.Sections[0].Figures[0]
		var got struct {
			ID, Title, Note string
			XLabel          string   `json:"x_label"`
			LogX            bool     `json:"log_x"`
			LogY            bool     `json:"log_y"`
			NotDrawn        notDrawn `json:"not_drawn"`
			Series          []struct {
				Name      string
				Reference bool
				Points    bool
				X, Y      []*float64
			}
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "data", "response.json")), &got); err != nil {
			t.Fatal(err)
		}
		if got.ID != fig.ID || got.Title != fig.Title || got.XLabel != fig.XLabel || !got.LogX || !got.LogY {
			t.Errorf("response.json header = %+v", got)
		}
		if want := (notDrawn{NonFinite: 1, NonPositiveOnLog: 2}); got.NotDrawn != want {
			t.Errorf("not_drawn = %+v, want %+v", got.NotDrawn, want)
		}
		if !strings.HasPrefix(got.Note, fig.Note) || !strings.Contains(got.Note, "3 point(s) not drawn") {
			t.Errorf("note = %q, want the figure's note and the count not drawn", got.Note)
		}
		if len(got.Series) != len(fig.Series) {
			t.Fatalf("%d series, want %d", len(got.Series), len(fig.Series))
		}
		for i, s := range fig.Series {
			g := got.Series[i]
			if g.Name != s.Name || g.Reference != s.Reference || g.Points != s.Points ||
				!sameData(nullableFloats(g.X), s.X) || !sameData(nullableFloats(g.Y), s.Y) {
				t.Errorf("series %d read back as %+v, want %+v", i, g, s)
			}
		}

		rows := readCSV(t, filepath.Join(dir, "data", "response.csv"))
		if strings.Join(rows[0], ",") != "series,x,y" {
			t.Errorf("CSV header %v, want series,x,y", rows[0])
		}
		var xs, ys []float64
		for _, r := range rows[1:] {
			if r[0] == fig.Series[0].Name {
				xs = append(xs, parseCSVFloat(t, r[1]))
				ys = append(ys, parseCSVFloat(t, r[2]))
			}
		}
		if !sameData(xs, fig.Series[0].X) || !sameData(ys, fig.Series[0].Y) {
			t.Errorf("CSV series %q = %v, %v; want %v, %v", fig.Series[0].Name, xs, ys, fig.Series[0].X, fig.Series[0].Y)
		}
		if want := 1 + len(fig.Series[0].X) + len(fig.Series[1].X); len(rows) != want {
			t.Errorf("CSV has %d rows, want %d", len(rows), want)
		}
	})

	t.Run("heatmap", func(t *testing.T) {
		h := page.Sections[1].Heatmaps[0]
		var got struct {
			ZLabel string `json:"z_label"`
			X, Y   []*float64
			Z      [][]*float64
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "data", "sweep.json")), &got); err != nil {
			t.Fatal(err)
		}
		if got.ZLabel != h.ZLabel || !sameData(nullableFloats(got.X), h.X) || !sameData(nullableFloats(got.Y), h.Y) || len(got.Z) != len(h.Z) {
			t.Fatalf("sweep.json = %+v", got)
		}
		for iy := range h.Z {
			if !sameData(nullableFloats(got.Z[iy]), h.Z[iy]) {
				t.Errorf("z[%d] = %v, want %v", iy, nullableFloats(got.Z[iy]), h.Z[iy])
			}
		}
		rows := readCSV(t, filepath.Join(dir, "data", "sweep.csv"))
		if len(rows) != 1+len(h.X)*len(h.Y) {
			t.Fatalf("CSV has %d rows, want %d", len(rows), 1+len(h.X)*len(h.Y))
		}
		for iy := range h.Y {
			for ix := range h.X {
				r := rows[1+iy*len(h.X)+ix]
				got := []float64{parseCSVFloat(t, r[0]), parseCSVFloat(t, r[1]), parseCSVFloat(t, r[2])}
				if want := []float64{h.X[ix], h.Y[iy], h.Z[iy][ix]}; !sameData(got, want) {
					t.Errorf("CSV row for (%d,%d) = %v, want %v", ix, iy, got, want)
				}
			}
		}
	})

	t.Run("table", func(t *testing.T) {
		tab := page.Sections[1].Tables[0]
		var got Table
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "data", "fill.json")), &got); err != nil {
			t.Fatal(err)
		}
		if got.ID != tab.ID || got.Title != tab.Title || got.Note != tab.Note ||
			strings.Join(got.Columns, "|") != strings.Join(tab.Columns, "|") || len(got.Rows) != len(tab.Rows) {
			t.Errorf("fill.json = %+v, want %+v", got, tab)
		}
		rows := readCSV(t, filepath.Join(dir, "data", "fill.csv"))
		want := append([][]string{tab.Columns}, tab.Rows...)
		if len(rows) != len(want) {
			t.Fatalf("CSV has %d rows, want %d", len(rows), len(want))
		}
		for i := range want {
			if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
				t.Errorf("CSV row %d = %v, want %v", i, rows[i], want[i])
			}
			if i > 0 && strings.Join(got.Rows[i-1], "|") != strings.Join(want[i], "|") {
				t.Errorf("JSON row %d = %v, want %v", i-1, got.Rows[i-1], want[i])
			}
		}
	})
}

func TestDrawable(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name       string
		x, y       []float64
		logX, logY bool
		want       [][2]float64
		nd         notDrawn
	}{
		{"linear keeps zero and negative", []float64{0, -1, 2}, []float64{-3, 0, 4}, false, false,
			[][2]float64{{0, -3}, {-1, 0}, {2, 4}}, notDrawn{}},
		{"linear drops NaN and Inf", []float64{nan, 1, 2, -inf}, []float64{1, inf, 3, 4}, false, false,
			[][2]float64{{2, 3}}, notDrawn{NonFinite: 3}},
		{"log x drops x <= 0 only", []float64{0, -1e-9, 1e-6}, []float64{0, -5, 7}, true, false,
			[][2]float64{{1e-6, 7}}, notDrawn{NonPositiveOnLog: 2}},
		{"log y drops y <= 0 only", []float64{0, -2, 3}, []float64{1, 0, -1}, false, true,
			[][2]float64{{0, 1}}, notDrawn{NonPositiveOnLog: 2}},
		{"log-log counts NaN as non-finite", []float64{0, nan, 1e-3}, []float64{nan, 0, 1e3}, true, true,
			[][2]float64{{1e-3, 1e3}}, notDrawn{NonFinite: 2}},
		{"beyond 1e300 is not drawn", []float64{1e300, -1e301, 1}, []float64{-1e300, 0, math.MaxFloat64}, false, false,
			[][2]float64{{1e300, -1e300}}, notDrawn{Huge: 2}},
		{"smallest positive double is kept", []float64{math.SmallestNonzeroFloat64}, []float64{1e300}, true, true,
			[][2]float64{{math.SmallestNonzeroFloat64, 1e300}}, notDrawn{}},
		{"empty", nil, nil, true, true, [][2]float64{}, notDrawn{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, nd := drawable(Series{X: tt.x, Y: tt.y}, tt.logX, tt.logY)
			if nd != tt.nd {
				t.Errorf("not drawn = %+v, want %+v", nd, tt.nd)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("drawable = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("point %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestDegenerateFigures writes figures and heatmaps that have broken naive
// renderers: nothing to draw, a single point on log axes below 1 (gonum
// widens a zero-width range by ±1, which would cross zero), constant and
// all-NaN heatmaps, and empty grids.
func TestDegenerateFigures(t *testing.T) {
	nan := math.NaN()
	figures := []Figure{
		{ID: "no-series", LogX: true, LogY: true},
		{ID: "empty-series", Series: []Series{{Name: "a"}, {Name: "b", Points: true}}},
		{ID: "all-dropped", LogX: true, LogY: true, Series: []Series{{Name: "z", X: []float64{0, nan, -1}, Y: []float64{1, 1, 1}}}},
		{ID: "one-point-below-1", LogX: true, LogY: true, Series: []Series{{Name: "p", X: []float64{1e-6}, Y: []float64{0.5}}}},
		{ID: "one-point-decade", LogX: true, LogY: true, Series: []Series{{Name: "p", X: []float64{10}, Y: []float64{100}, Reference: true}}},
		{ID: "unnamed", Series: []Series{{X: []float64{1, 2}, Y: []float64{3, 4}}}},
	}
	heatmaps := []Heatmap{
		{ID: "constant", X: []float64{1, 2}, Y: []float64{1}, Z: [][]float64{{5, 5}}},
		{ID: "constant-zero", X: []float64{1}, Y: []float64{1}, Z: [][]float64{{0}}},
		{ID: "all-nan", X: []float64{1, 2}, Y: []float64{3, 4}, Z: [][]float64{{nan, nan}, {math.Inf(1), nan}}},
		{ID: "no-columns", Y: []float64{1, 2}, Z: [][]float64{{}, {}}},
		{ID: "no-grid"},
	}
	dir := t.TempDir()
	for _, f := range figures {
		for _, ext := range []string{".svg", ".png", ".pdf"} {
			path := filepath.Join(dir, f.ID+ext)
			if err := WriteFigure(path, f); err != nil {
				t.Errorf("WriteFigure(%s): %v", f.ID+ext, err)
			} else if st, err := os.Stat(path); err != nil || st.Size() == 0 {
				t.Errorf("WriteFigure(%s) wrote an empty file", f.ID+ext)
			}
		}
	}
	for _, h := range heatmaps {
		for _, ext := range []string{".svg", ".png", ".pdf"} {
			path := filepath.Join(dir, h.ID+ext)
			if err := WriteHeatmap(path, h); err != nil {
				t.Errorf("WriteHeatmap(%s): %v", h.ID+ext, err)
			} else if st, err := os.Stat(path); err != nil || st.Size() == 0 {
				t.Errorf("WriteHeatmap(%s) wrote an empty file", h.ID+ext)
			}
		}
	}
	page := Page{Title: "degenerate", Sections: []Section{{Figures: figures, Heatmaps: heatmaps, Tables: []Table{{ID: "empty-table"}}}}}
	if err := Write(filepath.Join(dir, "page"), page, Options{Static: []string{"png"}}); err != nil {
		t.Errorf("Write: %v", err)
	}
	small := Options{Static: []string{"png", "svg"}, WidthIn: MinSizeIn, HeightIn: MinSizeIn, DPI: MinDPI}
	if err := Write(filepath.Join(dir, "small"), samplePage(), small); err != nil {
		t.Errorf("Write at the minimum size: %v", err)
	}
}

func TestDecades(t *testing.T) {
	tests := []struct {
		lo, hi         float64
		wantLo, wantHi float64
	}{
		{1e-6, 1e-2, 1e-6, 1e-2},
		{2e-6, 3e-2, 1e-6, 0.1},
		{0.5, 0.5, 0.1, 1},
		{100, 100, 100, 1000},
		{12.2, 1224, 10, 1e4},
		{math.SmallestNonzeroFloat64, math.MaxFloat64, 1e-323, 1e308},
		{math.MaxFloat64, math.MaxFloat64, 1e307, 1e308},
		{1e-300, 1e-300, 1e-300, 1e-299},
	}
	for _, tt := range tests {
		lo, hi := span{tt.lo, tt.hi}.decades()
		if math.Abs(lo/tt.wantLo-1) > 1e-12 || math.Abs(hi/tt.wantHi-1) > 1e-12 {
			t.Errorf("decades(%g, %g) = %g, %g; want %g, %g", tt.lo, tt.hi, lo, hi, tt.wantLo, tt.wantHi)
		}
	}
	if lo, hi := newSpan().decades(); lo != 1 || hi != 10 {
		t.Errorf("decades of an empty span = %g, %g; want 1, 10", lo, hi)
	}
}

func TestShortNumber(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{9.999999999999999e-06, "1e-5"}, // LogTicks' accumulated rounding error
		{1e-6, "1e-6"},
		{2.5e-7, "2.5e-7"},
		{0.001, "0.001"},
		{0.30000000000000004, "0.3"},
		{12.2, "12.2"},
		{99999, "99999"},
		{1e5, "1e5"},
		{1.5e6, "1.5e6"},
		{-6e6, "-6e6"},
		{-math.MaxFloat64, "-1.79769e308"},
		{0, "0"},
	}
	for _, tt := range tests {
		if got := shortNumber(tt.v, tickDigits); got != tt.want {
			t.Errorf("shortNumber(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	// Rounded to 4 digits, -MaxFloat64 would overflow to -Inf; it keeps its
	// full value instead.
	if got, want := shortNumber(-math.MaxFloat64, 4), "-1.7976931348623157e308"; got != want {
		t.Errorf("shortNumber(-MaxFloat64, 4) = %q, want %q", got, want)
	}
}

func TestHeatmapVisualMapRange(t *testing.T) {
	// go-echarts' own VisualMap would drop a max of 0 (omitempty) and round
	// to float32; the page must carry the exact range.
	tests := []struct {
		z        [][]float64
		min, max string
	}{
		{[][]float64{{-5, 0}}, `"min":-5`, `"max":0`},
		{[][]float64{{1.0000001, 1.0000002}}, `"min":1.0000001`, `"max":1.0000002`},
		{[][]float64{{1e6, math.NaN()}}, `"min":500000`, `"max":1500000`}, // constant: ±|v|/2
	}
	for _, tt := range tests {
		dir := t.TempDir()
		h := Heatmap{ID: "h", X: []float64{1, 2}, Y: []float64{1}, Z: tt.z}
		if err := Write(dir, Page{Sections: []Section{{Heatmaps: []Heatmap{h}}}}, Options{Static: []string{}}); err != nil {
			t.Fatal(err)
		}
		html := string(readFile(t, filepath.Join(dir, "index.html")))
		if !strings.Contains(html, tt.min) || !strings.Contains(html, tt.max) {
			t.Errorf("Z = %v: index.html lacks %s or %s", tt.z, tt.min, tt.max)
		}
	}
}

func TestEChartsModes(t *testing.T) {
	// A stand-in for echarts.min.js whose text would end an inline script
	// early if it were embedded unchanged.
	fake := filepath.Join(t.TempDir(), "echarts.min.js")
	fakeJS := `var echarts = {marker: "tcpfluid-fake", tag: "</script>"};`
	if err := os.WriteFile(fake, []byte(fakeJS), 0o644); err != nil {
		t.Fatal(err)
	}
	srcAttr := regexp.MustCompile(`<script src="([^"]*)"`)
	tests := []struct {
		mode       EChartsMode
		srcs       []string // script sources in index.html
		copied     bool     // echarts.min.js next to index.html
		inlineFake bool
	}{
		{EChartsRemote, []string{"https://go-echarts.github.io/go-echarts-assets/assets/echarts.min.js"}, false, false},
		{EChartsLocal, []string{"./echarts.min.js"}, true, false},
		{EChartsInline, nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			dir := writeSample(t, Options{ECharts: tt.mode, EChartsFile: fake, Static: []string{}})
			html := string(readFile(t, filepath.Join(dir, "index.html")))
			var srcs []string
			for _, m := range srcAttr.FindAllStringSubmatch(html, -1) {
				srcs = append(srcs, m[1])
			}
			if strings.Join(srcs, " ") != strings.Join(tt.srcs, " ") {
				t.Errorf("script sources %q, want %q", srcs, tt.srcs)
			}
			copied, err := os.ReadFile(filepath.Join(dir, "echarts.min.js"))
			if tt.copied != (err == nil) {
				t.Errorf("echarts.min.js next to index.html: present = %v, want %v", err == nil, tt.copied)
			}
			if tt.copied && string(copied) != fakeJS {
				t.Errorf("copied echarts.min.js differs from the source")
			}
			inlined := strings.Contains(html, `var echarts = {marker: "tcpfluid-fake", tag: "<\/script>"};`)
			if inlined != tt.inlineFake {
				t.Errorf("script embedded (with </script escaped): %v, want %v", inlined, tt.inlineFake)
			}
			if strings.Count(strings.ToLower(html), "</script") != strings.Count(strings.ToLower(html), "<script") {
				t.Errorf("unbalanced <script> tags in index.html")
			}
		})
	}
}

func TestEChartsFileMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.js")
	for _, mode := range []EChartsMode{EChartsLocal, EChartsInline} {
		dir := t.TempDir()
		err := Write(dir, samplePage(), Options{ECharts: mode, EChartsFile: missing, Static: []string{}})
		if !errors.Is(err, ErrNoECharts) {
			t.Errorf("%v with a missing EChartsFile: error %v, want ErrNoECharts", mode, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%v with a missing EChartsFile wrote %d entries, want none", mode, len(entries))
		}
	}
}

func TestFindECharts(t *testing.T) {
	mkfile := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("//"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	// module/go.mod with node_modules at the module root; work in a subdirectory.
	mkfile(filepath.Join(root, "module", "go.mod"))
	inModule := filepath.Join(root, "module", eChartsInNodeModules)
	mkfile(inModule)
	sub := filepath.Join(root, "module", "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// other/mod/go.mod with node_modules only above the module root.
	mkfile(filepath.Join(root, "other", "mod", "go.mod"))
	mkfile(filepath.Join(root, "other", eChartsInNodeModules))
	outside := filepath.Join(root, "other", "mod", "sub")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	envFile := filepath.Join(root, "env", "echarts.js")
	mkfile(envFile)

	tests := []struct {
		name, wd, env, want string
	}{
		{"module root from a subdirectory", sub, "", inModule},
		{"environment first", sub, envFile, envFile},
		{"not above the module root", outside, "", ""},
		{"environment naming nothing", sub, filepath.Join(root, "missing.js"), ""},
		{"environment naming a directory", sub, root, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.wd)
			t.Setenv(EChartsEnv, tt.env)
			got, err := FindECharts()
			if tt.want == "" {
				if !errors.Is(err, ErrNoECharts) {
					t.Errorf("FindECharts() = %q, %v; want ErrNoECharts", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("FindECharts() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestValidation(t *testing.T) {
	ok := Figure{ID: "f", Series: []Series{{X: []float64{1}, Y: []float64{2}}}}
	tests := []struct {
		name  string
		page  Page
		opts  Options
		err   error
		field string // must appear in the message
	}{
		{"empty ID", Page{Sections: []Section{{Figures: []Figure{{}}}}}, Options{}, ErrID, "Sections[0].Figures[0].ID"},
		{"path in ID", Page{Sections: []Section{{Tables: []Table{{ID: "../x"}}}}}, Options{}, ErrID, `"../x"`},
		{"duplicate ID", Page{Sections: []Section{{Figures: []Figure{ok}}, {Heatmaps: []Heatmap{{ID: "f"}}}}}, Options{}, ErrID, "Sections[1].Heatmaps[0]"},
		{"series lengths", Page{Sections: []Section{{Figures: []Figure{{ID: "f", Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1}}}}}}}}, Options{}, ErrShape, "len(X) = 2, len(Y) = 1"},
		{"heatmap rows", Page{Sections: []Section{{Heatmaps: []Heatmap{{ID: "h", X: []float64{1}, Y: []float64{1, 2}, Z: [][]float64{{1}}}}}}}, Options{}, ErrShape, "len(Z) = 1"},
		{"heatmap columns", Page{Sections: []Section{{Heatmaps: []Heatmap{{ID: "h", X: []float64{1}, Y: []float64{1}, Z: [][]float64{{1, 2}}}}}}}, Options{}, ErrShape, "len(Z[0]) = 2"},
		{"table row", Page{Sections: []Section{{Tables: []Table{{ID: "t", Columns: []string{"a"}, Rows: [][]string{{"1", "2"}}}}}}}, Options{}, ErrShape, "len(Rows[0]) = 2"},
		{"format", Page{}, Options{Static: []string{"gif"}}, ErrFormat, `"gif"`},
		{"mode", Page{}, Options{ECharts: 7}, ErrOption, "ECharts = 7"},
		{"width", Page{}, Options{WidthIn: -1}, ErrOption, "WidthIn = -1, want 2 to 20"},
		{"height", Page{}, Options{HeightIn: 1.9}, ErrOption, "HeightIn = 1.9"},
		{"dpi", Page{}, Options{DPI: math.Inf(1)}, ErrOption, "DPI = +Inf"},
		{"dpi NaN", Page{}, Options{DPI: math.NaN()}, ErrOption, "DPI = NaN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Write(t.TempDir(), tt.page, tt.opts)
			if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.field) {
				t.Errorf("Write: %v; want %v naming %s", err, tt.err, tt.field)
			}
		})
	}
	if err := WriteFigure(filepath.Join(t.TempDir(), "f.gif"), ok); !errors.Is(err, ErrFormat) {
		t.Errorf("WriteFigure(f.gif): %v, want ErrFormat", err)
	}
	if err := WriteHeatmap(filepath.Join(t.TempDir(), "h.svg"), Heatmap{X: []float64{1}, Y: []float64{1}}); !errors.Is(err, ErrShape) {
		t.Errorf("WriteHeatmap with a short Z: %v, want ErrShape", err)
	}
}

func TestParseEChartsMode(t *testing.T) {
	for _, m := range []EChartsMode{EChartsRemote, EChartsLocal, EChartsInline} {
		got, err := ParseEChartsMode(strings.ToUpper(m.String()))
		if err != nil || got != m {
			t.Errorf("ParseEChartsMode(%q) = %v, %v; want %v", strings.ToUpper(m.String()), got, err, m)
		}
	}
	if _, err := ParseEChartsMode("cdn"); !errors.Is(err, ErrOption) {
		t.Errorf("ParseEChartsMode(cdn): %v, want ErrOption", err)
	}
}
