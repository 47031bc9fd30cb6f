package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// figurePlot is a Figure ready to draw with gonum/plot: the plot with its
// axes and series, the legend, and the drawn data for placing the legend.
type figurePlot struct {
	p *plot.Plot
	// xLabel and yLabel are drawn by figurePlot, not by gonum/plot, which
	// places a centred label of a logarithmic axis by the arithmetic mean
	// of its range and so pads the plot as if the label stuck out at its end.
	xLabel, yLabel string
	labelStyle     text.Style
	legend         legendBox
	data           []plotter.XYs
	lines          []bool
	styles         []seriesStyle
	// drawn lists the plotters added to p, in drawing order, with the index
	// of the series each draws.
	drawn []drawnPlotter
}

type drawnPlotter struct {
	series  int
	plotter plot.Plotter
}

// Every how many points a long line gets a marker: about markersPerLine
// markers, or one at each point up to allMarkersLimit points.
const (
	markersPerLine  = 10
	allMarkersLimit = 25
)

var gridColour = color.Gray{Y: 0xe0}

// figureAxes returns the x and y axes of f over its drawable points.
func figureAxes(f Figure, pts [][][2]float64) (x, y axisSpec) {
	xr, yr := newSpan(), newSpan()
	for _, ps := range pts {
		for _, pt := range ps {
			xr.include(pt[0])
			yr.include(pt[1])
		}
	}
	yMax := math.NaN()
	if f.YMax != 0 {
		yMax = f.YMax
	}
	if f.LogX {
		x = logAxis(xr.lo, xr.hi, math.NaN())
	} else {
		x = linearAxis(xr.lo, xr.hi, math.NaN(), true)
	}
	if f.LogY {
		y = logAxis(yr.lo, yr.hi, yMax)
	} else {
		y = linearAxis(yr.lo, yr.hi, yMax, false)
	}
	return x, y
}

// setAxis gives a gonum axis the range and ticks of a.
func setAxis(ax *plot.Axis, a axisSpec) {
	ax.Min, ax.Max = a.min, a.max
	ax.Tick.Marker = fixedTicks(a.ticks)
	if a.log {
		ax.Scale = plot.LogScale{}
		ax.Tick.Label.Handler = powerText{text.Plain{Fonts: font.DefaultCache}}
	}
}

// newFigurePlot builds the plot of f: lines first, then markers on top, each
// series in its figureStyles look; the legend lists the series without Of
// and one grey entry per Key.
func newFigurePlot(f Figure) (*figurePlot, error) {
	p := plot.New()
	p.Title.Text = f.Title
	p.BackgroundColor = nil // figurePlot.draw fills the whole figure
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = gridColour, gridColour
	grid.Vertical.Width, grid.Horizontal.Width = vg.Points(0.5), vg.Points(0.5)
	p.Add(grid)

	pts, _, _ := f.drawableSeries()
	xa, ya := figureAxes(f, pts)
	setAxis(&p.X, xa)
	setAxis(&p.Y, ya)

	fp := &figurePlot{p: p, styles: figureStyles(f), xLabel: f.XLabel, yLabel: f.YLabel, labelStyle: p.X.Label.TextStyle}
	var lineLayer, markerLayer []drawnPlotter
	items := make([]legendItem, 0, len(f.Series))
	keys := make(map[string]int) // Key and dash → index in keyItems
	var keyItems []legendItem
	independent := 0
	for _, st := range fp.styles {
		if st.parent < 0 {
			independent++
		}
	}
	k := 0
	for i, s := range f.Series {
		st := fp.styles[i]
		xys := make(plotter.XYs, len(pts[i]))
		for j, pt := range pts[i] {
			xys[j].X, xys[j].Y = pt[0], pt[1]
		}
		var thumbs []plot.Thumbnailer
		if st.dash != noLine && len(xys) > 0 {
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, fmt.Errorf("report: figure %q series %q: %w", f.ID, s.Name, err)
			}
			l.LineStyle = st.lineStyle()
			lineLayer = append(lineLayer, drawnPlotter{i, l})
			thumbs = append(thumbs, l)
		} else if st.dash != noLine {
			thumbs = append(thumbs, &plotter.Line{LineStyle: st.lineStyle()})
		}
		if st.marker != noMarker {
			marks := xys
			if st.dash != noLine && len(xys) > allMarkersLimit {
				marks = sparseMarkers(xys, xa, k, independent)
			}
			sc := &plotter.Scatter{XYs: marks, GlyphStyle: st.glyphStyle()}
			if len(marks) > 0 {
				markerLayer = append(markerLayer, drawnPlotter{i, sc})
			}
			thumbs = append(thumbs, sc)
		}
		if len(xys) > 0 {
			fp.data = append(fp.data, xys)
			fp.lines = append(fp.lines, st.dash != noLine)
		}
		switch {
		case st.parent < 0:
			k++
			if s.Name != "" && len(xys) > 0 {
				items = append(items, legendItem{label: s.Name, thumbs: thumbs})
			}
		case s.Key != "" && len(xys) > 0:
			id := fmt.Sprintf("%d\x00%s", st.dash, s.Key)
			if _, ok := keys[id]; !ok {
				ls := st.lineStyle()
				ls.Color, ls.Width = hexColour(keyColour), vg.Points(lineWidthPt)
				keys[id] = len(keyItems)
				keyItems = append(keyItems, legendItem{label: s.Key, thumbs: []plot.Thumbnailer{&plotter.Line{LineStyle: ls}}})
			}
		}
	}
	fp.drawn = append(fp.drawn, lineLayer...)
	// Filled markers first, so that hollow ones at the same point stay visible.
	for _, filled := range []bool{true, false} {
		for _, m := range markerLayer {
			if m.plotter.(*plotter.Scatter).GlyphStyle.Shape.(markerGlyph).filled == filled {
				fp.drawn = append(fp.drawn, m)
			}
		}
	}
	for _, d := range fp.drawn {
		p.Add(d.plotter)
	}
	fp.legend = legendBox{items: append(items, keyItems...)}
	return fp, nil
}

// sparseMarkers picks about markersPerLine points of a long line for its
// markers, evenly spaced along the x axis (in its scale), shifted by series
// so that the markers of lines lying on each other do not coincide.
func sparseMarkers(xys plotter.XYs, xa axisSpec, k, n int) plotter.XYs {
	norm := func(x float64) float64 {
		if xa.log {
			return (math.Log(x) - math.Log(xa.min)) / (math.Log(xa.max) - math.Log(xa.min))
		}
		return (x - xa.min) / (xa.max - xa.min)
	}
	off := 0.5
	if n > 1 {
		off = float64(k%n) / float64(n)
	}
	var out plotter.XYs
	next := off / markersPerLine
	for _, xy := range xys {
		if t := norm(xy.X); t >= next {
			out = append(out, xy)
			for next <= t {
				next += 1.0 / markersPerLine
			}
		}
	}
	return out
}

// draw draws the figure on c, with its legend where it hides no data.
func (fp *figurePlot) draw(c draw.Canvas) {
	// One white background for the whole figure, axis labels and legend
	// strips included (gonum/plot fills only the part it draws on).
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	if len(fp.legend.items) == 0 {
		fp.drawPlot(c)
		return
	}
	drawWithLegend(c, fp, placeLegend(c, fp))
}

// labelGap separates an axis label from the tick labels; edgeGap keeps
// the ink of the outermost tick labels off the figure's right and top edges
// (gonum/plot lays the labels out to touch them).
const (
	labelGap = vg.Length(4)
	edgeGap  = vg.Length(4)
)

// plotCanvas is the part of c left to gonum/plot once the axis labels have
// their strips at the left and bottom.
func (fp *figurePlot) plotCanvas(c draw.Canvas) draw.Canvas {
	var left, bottom vg.Length
	if fp.yLabel != "" {
		left = fp.labelStyle.Height(fp.yLabel) + labelGap
	}
	if fp.xLabel != "" {
		bottom = fp.labelStyle.Height(fp.xLabel) + labelGap
	}
	return draw.Crop(c, left, -edgeGap, bottom, -edgeGap)
}

// dataCanvas is the data area of the plot drawn on c.
func (fp *figurePlot) dataCanvas(c draw.Canvas) draw.Canvas {
	return fp.p.DataCanvas(fp.plotCanvas(c))
}

// drawPlot draws the plot and its axis labels, centred on the data area, on c.
func (fp *figurePlot) drawPlot(c draw.Canvas) {
	fp.p.Draw(fp.plotCanvas(c))
	dc := fp.dataCanvas(c)
	if fp.xLabel != "" {
		sty := fp.labelStyle
		sty.XAlign, sty.YAlign = text.XCenter, text.YBottom
		c.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: c.Min.Y + sty.FontExtents().Descent}, fp.xLabel)
	}
	if fp.yLabel != "" {
		sty := fp.labelStyle
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = text.XCenter, text.YTop
		c.FillText(sty, vg.Point{X: c.Min.X, Y: (dc.Min.Y + dc.Max.Y) / 2}, fp.yLabel)
	}
}
