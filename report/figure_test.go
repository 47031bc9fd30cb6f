package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// responseLikeFigure is shaped like the study's response figure: n
// algorithms as markers, each with its power-law fit, and published
// references for every other one.
func responseLikeFigure(n int) Figure {
	f := Figure{ID: "response-like", Title: "Response functions", XLabel: "loss rate p", YLabel: "mean cwnd (packets)", LogX: true, LogY: true}
	for k := range n {
		name := fmt.Sprintf("algo%d", k)
		pts := Series{Name: name, Points: true}
		fit := Series{Name: name + " fit", Of: name, Key: "power-law fit"}
		ref := Series{Name: name + " ref.", Of: name, Reference: true, Key: "published reference"}
		c, d := 1.2*float64(k+1), 0.5+0.05*float64(k)
		for e := -7.0; e <= -2; e += 0.5 {
			p := math.Pow(10, e)
			w := c * math.Pow(p, -d)
			pts.X, pts.Y = append(pts.X, p), append(pts.Y, w*(1+0.02*math.Sin(e*float64(k+1))))
			fit.X, fit.Y = append(fit.X, p), append(fit.Y, w)
			ref.X, ref.Y = append(ref.X, p), append(ref.Y, w*1.03)
		}
		f.Series = append(f.Series, pts, fit)
		if k%2 == 0 {
			f.Series = append(f.Series, ref)
		}
	}
	return f
}

// timeSeriesFigure has n lines of 500 points and, when withRef, an
// independent dashed reference.
func timeSeriesFigure(n int, withRef bool) Figure {
	f := Figure{ID: "lines", Title: "Windows", XLabel: "time (s)", YLabel: "cwnd (packets)"}
	for k := range n {
		s := Series{Name: fmt.Sprintf("flow %d", k)}
		for i := range 500 {
			s.X, s.Y = append(s.X, float64(i)*0.2), append(s.Y, 100+10*float64(k)+20*math.Sin(float64(i)/(5+float64(k))))
		}
		f.Series = append(f.Series, s)
	}
	if withRef {
		f.Series = append(f.Series, Series{Name: "capacity", Reference: true, X: []float64{0, 100}, Y: []float64{300, 300}})
	}
	return f
}

// drawnLook is what the figure builder actually drew for one series: the
// colours of its line and markers, its marker shape and its dash pattern.
type drawnLook struct {
	colour        color.Color
	marker, dash  string
	hasLine, hasM bool
}

// drawnLooks reads the plotters that newFigurePlot made back into one look
// per series, matching them by their data.
func drawnLooks(t *testing.T, f Figure) []drawnLook {
	t.Helper()
	fp, err := newFigurePlot(f)
	if err != nil {
		t.Fatal(err)
	}
	looks := make([]drawnLook, len(f.Series))
	for i := range f.Series {
		looks[i] = drawnLook{marker: "none", dash: "none"}
	}
	// The builder records the series of each plotter it adds.
	for _, d := range fp.drawn {
		l := &looks[d.series]
		switch p := d.plotter.(type) {
		case *plotter.Line:
			l.hasLine, l.colour = true, p.LineStyle.Color
			l.dash = fmt.Sprint(p.LineStyle.Dashes)
		case *plotter.Scatter:
			l.hasM = true
			if l.colour == nil {
				l.colour = p.GlyphStyle.Color
			} else if p.GlyphStyle.Color != l.colour {
				t.Errorf("series %q: line and markers in different colours", f.Series[d.series].Name)
			}
			g := p.GlyphStyle.Shape.(markerGlyph)
			l.marker = fmt.Sprintf("%d/%v", g.shape, g.filled)
		}
	}
	return looks
}

// No two series of a figure share colour and marker: markers-only series and
// lines differ by colour or marker among themselves (up to 56 series). A fit
// or reference belongs to its series: a line without markers in its colour,
// solid or dashed, through (or near) its markers; no two such lines with the
// markers they belong to look alike.
func TestFigureSeriesLooksDistinct(t *testing.T) {
	figs := []Figure{
		responseLikeFigure(10), responseLikeFigure(25),
		timeSeriesFigure(3, true), timeSeriesFigure(8, false), timeSeriesFigure(20, true),
		samplePage().Sections[0].Figures[0],
	}
	for _, f := range figs {
		t.Run(fmt.Sprintf("%s-%d", f.ID, len(f.Series)), func(t *testing.T) {
			looks := drawnLooks(t, f)
			parentOf := func(i int) int {
				for j, p := range f.Series {
					if p.Name == f.Series[i].Of && p.Of == "" {
						return j
					}
				}
				return -1
			}
			seen := map[string]string{}
			pairs := map[string]string{}
			for i, l := range looks {
				s := f.Series[i]
				if !l.hasLine && !l.hasM {
					if len(s.X) > 0 {
						t.Errorf("series %q with %d points was not drawn", s.Name, len(s.X))
					}
					continue
				}
				r, g, b, _ := l.colour.RGBA()
				marker := l.marker
				if p := parentOf(i); s.Of != "" && p >= 0 {
					// It lies on its series' points, whose look tells it apart.
					pr, pg, pb, _ := looks[p].colour.RGBA()
					marker = fmt.Sprintf("of %02x%02x%02x %s", pr>>8, pg>>8, pb>>8, looks[p].marker)
				}
				key := fmt.Sprintf("%02x%02x%02x %s %s", r>>8, g>>8, b>>8, marker, l.dash)
				if prev, dup := seen[key]; dup {
					t.Errorf("series %q and %q share colour, marker and line (%s)", prev, s.Name, key)
				}
				seen[key] = s.Name
				if s.Of == "" {
					pair := fmt.Sprintf("%02x%02x%02x %s", r>>8, g>>8, b>>8, l.marker)
					if l.marker == "none" {
						pair += " " + l.dash
					}
					if prev, dup := pairs[pair]; dup {
						t.Errorf("series %q and %q share colour and marker (%s)", prev, s.Name, pair)
					}
					pairs[pair] = s.Name
					if !s.Points && !s.Reference && len(s.X) > 0 && !l.hasM {
						t.Errorf("line %q has no markers to tell it apart in greyscale", s.Name)
					}
					continue
				}
				// A fit or reference: its parent's colour, a line, no marker.
				parent := parentOf(i)
				if parent < 0 {
					t.Fatalf("series %q: no parent %q", s.Name, s.Of)
				}
				if pc := looks[parent].colour; pc != l.colour && !s.Reference {
					t.Errorf("series %q is %v, its series %q %v; want the same colour", s.Name, l.colour, s.Of, pc)
				}
				if s.Reference && l.colour != hexColour(keyColour) {
					t.Errorf("reference %q is %v, want dark grey over its series' fit", s.Name, l.colour)
				}
				if !l.hasLine || l.hasM {
					t.Errorf("series %q: line %v, markers %v; want a line without markers", s.Name, l.hasLine, l.hasM)
				}
				if dashed := l.dash != "[]"; dashed != s.Reference {
					t.Errorf("series %q: dashes %s; want solid for a fit, dashed for a reference", s.Name, l.dash)
				}
			}
		})
	}
}

// The interactive chart gives each series the same colour and marker as the
// static figure, so no two share colour and symbol there either, and a fit
// joins its series in the legend.
func TestChartSeriesLooksDistinct(t *testing.T) {
	for _, f := range []Figure{responseLikeFigure(10), timeSeriesFigure(12, true)} {
		styles := figureStyles(f)
		pts, _, _ := f.drawableSeries()
		seen := map[string]string{}
		legend := 0
		for i, s := range f.Series {
			m := echartsSeries(s, styles[i], s.Name, pts[i])
			key := fmt.Sprint(m["itemStyle"], m["symbol"], m["type"], m["lineStyle"])
			if p := styles[i].parent; p >= 0 {
				pm := echartsSeries(f.Series[p], styles[p], "", nil)
				key += " of " + fmt.Sprint(pm["itemStyle"], pm["symbol"])
			}
			if prev, dup := seen[key]; dup {
				t.Errorf("%s: series %q and %q look alike in the interactive chart (%s)", f.ID, prev, s.Name, key)
			}
			seen[key] = s.Name
			if s.Of == "" {
				legend++
			}
		}
		chart, _ := figureChart(f, "chart_1", "")
		opt := chart.JSON()
		lg := opt["legend"].([]map[string]any)[0]
		if lg["type"] != "plain" {
			t.Errorf("%s: legend type %v, want plain (no pages)", f.ID, lg["type"])
		}
		if names := lg["data"].([]string); len(names) != legend {
			t.Errorf("%s: legend lists %d series, want the %d without Of", f.ID, len(names), legend)
		}
		for i, sm := range opt["series"].([]map[string]any) {
			if s := f.Series[i]; s.Of != "" && sm["name"] != s.Of {
				t.Errorf("%s: %q is in legend group %v, want %q", f.ID, s.Name, sm["name"], s.Of)
			}
		}
	}
}

// A series with Of is drawn as a line through its points in its parent's
// colour, under the parent's markers, and the legend gets one entry per Key.
func TestFitsAreDrawn(t *testing.T) {
	f := responseLikeFigure(4)
	fp, err := newFigurePlot(f)
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int]int{}
	firstMarker := len(fp.drawn)
	for j, d := range fp.drawn {
		switch p := d.plotter.(type) {
		case *plotter.Line:
			lines[d.series] = len(p.XYs)
			if j > firstMarker {
				t.Errorf("line of %q drawn over markers", f.Series[d.series].Name)
			}
		case *plotter.Scatter:
			firstMarker = min(firstMarker, j)
		}
	}
	for i, s := range f.Series {
		if s.Of != "" && lines[i] != len(s.X) {
			t.Errorf("%q: a line of %d points, want %d", s.Name, lines[i], len(s.X))
		}
	}
	var labels []string
	for _, it := range fp.legend.items {
		labels = append(labels, it.label)
	}
	if got, want := strings.Join(labels, ","), "algo0,algo1,algo2,algo3,power-law fit,published reference"; got != want {
		t.Errorf("legend %s, want %s", got, want)
	}
}

// The legend sits where no data is: inside the data area with room around
// it, or outside the data area altogether.
func TestLegendClearOfData(t *testing.T) {
	jain := Figure{ID: "jain", XLabel: "time (s)", YLabel: "Jain's index", YMax: 1}
	for k, start := range []float64{0.6, 0.95, 0.97, 0.99} {
		s := Series{Name: []string{"reno", "cubic", "compound", "colo"}[k]}
		for i := range 30 {
			s.X = append(s.X, 33*float64(i+1))
			s.Y = append(s.Y, 1-(1-start)*math.Exp(-float64(i)/5))
		}
		jain.Series = append(jain.Series, s)
	}
	for _, f := range []Figure{jain, responseLikeFigure(10), timeSeriesFigure(3, false), timeSeriesFigure(12, true), fontTestFigure()} {
		fp, err := newFigurePlot(f)
		if err != nil {
			t.Fatal(err)
		}
		c := draw.New(vgimg.New(6*vg.Inch, 4*vg.Inch))
		pl := placeLegend(c, fp)
		sz := fp.legend.size(pl.cols)
		if !pl.inside {
			t.Logf("%s: legend outside the plot (side %v, %d columns)", f.ID, pl.side, pl.cols)
			continue
		}
		dc := fp.dataCanvas(c)
		box := vg.Rectangle{Min: vg.Point{X: pl.topLeft.X, Y: pl.topLeft.Y - sz.Y}, Max: vg.Point{X: pl.topLeft.X + sz.X, Y: pl.topLeft.Y}}
		if box.Min.X < dc.Min.X || box.Max.X > dc.Max.X || box.Min.Y < dc.Min.Y || box.Max.Y > dc.Max.Y {
			t.Errorf("%s: legend %v not inside the data area %v", f.ID, box, dc.Rectangle)
		}
		if room := clearance(dataSamples(fp.p, dc, fp.data, fp.lines), box, legendRoom); room < legendClear {
			t.Errorf("%s: legend %.1f pt from the data, want at least %.1f", f.ID, room.Points(), legendClear.Points())
		}
	}
}

func TestAxes(t *testing.T) {
	labels := func(a axisSpec) string {
		var l []string
		for _, tk := range a.ticks {
			if tk.Label != "" {
				l = append(l, tk.Label)
			}
		}
		return strings.Join(l, " ")
	}
	minors := func(a axisSpec) int {
		n := 0
		for _, tk := range a.ticks {
			if tk.Label == "" {
				n++
			}
		}
		return n
	}
	tests := []struct {
		name     string
		a        axisSpec
		min, max float64
		labels   string
		minors   int
	}{
		// The study's loss rates come out of 10^(k/2) a hair off the decades.
		{"log decades", logAxis(9.999999999999994e-08, 0.010000000000000014, math.NaN()), 1e-7, 1e-2,
			"10^{-7} 10^{-6} 10^{-5} 10^{-4} 10^{-3} 10^{-2}", 5 * 8},
		{"log 1-2-5 ends", logAxis(9.2, 7.5e5, math.NaN()), 5, 1e6, "10^{1} 10^{2} 10^{3} 10^{4} 10^{5} 10^{6}", 4 + 5*8},
		{"log one decade", logAxis(2, 8, math.NaN()), 1, 10, "10^{0} 10^{1}", 8},
		{"log many decades", logAxis(1e-30, 1e30, math.NaN()), 1e-30, 1e30,
			"10^{-30} 10^{-20} 10^{-10} 10^{0} 10^{10} 10^{20} 10^{30}", 60 - 6},
		{"Jain", linearAxis(0.53, 0.9999, 1, false), 0.5, 1, "0.5 0.6 0.7 0.8 0.9 1.0", 5 * 4},
		{"Jain near 1", linearAxis(0.95, 0.9999, 1, false), 0.94, 1, "0.94 0.95 0.96 0.97 0.98 0.99 1.00", 6 * 4},
		{"utilisation from near 0: not below 0", linearAxis(0.008, 0.98, 1, false), 0, 1, "0 0.2 0.4 0.6 0.8 1.0", 5 * 3},
		{"a negative value keeps its padding", linearAxis(-0.1, 0.98, 1, false), -0.2, 1, "-0.2 0 0.2 0.4 0.6 0.8 1.0", 6 * 3},
		{"window", linearAxis(1, 9057, math.NaN(), false), 0, 10000, "0 2000 4000 6000 8000 10000", 5 * 3},
		{"time, tight", linearAxis(0, 9, math.NaN(), true), 0, 9, "0 2 4 6 8", 4*3 + 1},
		{"time, rounded", linearAxis(0.2, 1000, math.NaN(), true), 0, 1000, "0 200 400 600 800 1000", 5 * 3},
		{"quarter steps", linearAxis(0, 1.7, math.NaN(), false), 0, 1.75, "0 0.25 0.50 0.75 1.00 1.25 1.50 1.75", 7 * 4},
	}
	for _, tt := range tests {
		if tt.a.min != tt.min || tt.a.max != tt.max {
			t.Errorf("%s: axis [%g, %g], want [%g, %g]", tt.name, tt.a.min, tt.a.max, tt.min, tt.max)
		}
		if got := labels(tt.a); got != tt.labels {
			t.Errorf("%s: labels %q, want %q", tt.name, got, tt.labels)
		}
		if got := minors(tt.a); got != tt.minors {
			t.Errorf("%s: %d minor ticks, want %d", tt.name, got, tt.minors)
		}
		for _, tk := range tt.a.ticks {
			if tk.Value < tt.a.min-1e-12*math.Abs(tt.a.min) || tk.Value > tt.a.max+1e-12*math.Abs(tt.a.max) {
				t.Errorf("%s: tick %g outside the axis", tt.name, tk.Value)
			}
		}
	}
}
