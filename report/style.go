package report

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The look of a series is shared by the static figure and the interactive
// chart: a colour from seriesColours, a marker from markers and a line dash
// from dashes. figureStyles gives every series of a figure its own
// combination.

// seriesColours is the Okabe–Ito palette, distinguishable with the common
// colour-vision deficiencies, less its yellow, which is too faint on white
// for markers and thin lines; both renderers use it so a series has the same
// colour on the page and in the paper figure.
var seriesColours = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}

// keyColour draws the legend entries that stand for a kind of line (a fit, a
// reference) rather than for one series, and the published references of
// series: dark dashes on top of the fit in the series' colour, so that where
// the two agree both stay visible.
const keyColour = "#333333"

// referenceColour is the colour index of a reference that belongs to a series.
const referenceColour = -1

// markerKind is a marker shape that both renderers draw alike; filled and
// hollow shapes alternate so that neighbours in the order differ most.
type markerKind int

const noMarker markerKind = -1

// markers lists the shapes by markerKind, with the names ECharts gives them.
var markers = []struct {
	echarts string
	shape   shape
	filled  bool
}{
	{"circle", shapeCircle, true},
	{"emptyRect", shapeSquare, false},
	{"triangle", shapeTriangle, true},
	{"emptyDiamond", shapeDiamond, false},
	{"emptyCircle", shapeCircle, false},
	{"rect", shapeSquare, true},
	{"emptyTriangle", shapeTriangle, false},
	{"diamond", shapeDiamond, true},
}

// dashKind is a line pattern; noLine marks a markers-only series.
type dashKind int

const (
	solidLine dashKind = iota
	dashedLine
	dottedLine
	dashDotLine
	longDashLine
	dashDotDotLine
	shortDashLine
	longShortLine
	noLine dashKind = -1
)

// dashes are the patterns of the dash kinds in points, for gonum/plot and
// ECharts (whose lineStyle.type takes the same array in pixels).
var dashes = [][]float64{nil, {6, 3}, {1.5, 2.5}, {7, 2.5, 1.5, 2.5}, {12, 4}, {7, 2, 1.5, 2, 1.5, 2}, {3, 2}, {12, 3, 4, 3}}

// The lines of a series with Of: a fit is solid and a reference dashed; a
// second, third, ... fit or reference of the same series takes the next
// pattern.
var (
	fitDashes = []dashKind{solidLine, dottedLine, longDashLine, shortDashLine}
	refDashes = []dashKind{dashedLine, dashDotLine, dashDotDotLine, longShortLine}
)

// seriesStyle is the look of one series.
type seriesStyle struct {
	colour int // index into seriesColours, or referenceColour
	marker markerKind
	dash   dashKind
	// parent is the index of the series this one belongs to (Series.Of),
	// or -1.
	parent int
}

// figureStyles gives each series of f its look. Series without Of count as
// k = 0, 1, 2, ...: series k has colour k mod 7 and marker k mod 8, so no two
// share both for the first 56 (7 and 8 are coprime); markers-only series have
// no line, lines from the eighth on (k ≥ 7) also change their dash, and a
// Reference is dashed. A series with Of takes its parent's colour (dark grey
// for a Reference, see keyColour), no marker and a solid
// line (dotted for a second one), or a dashed one (dash-dot for a second) for
// a Reference.
func figureStyles(f Figure) []seriesStyle {
	styles := make([]seriesStyle, len(f.Series))
	byName := make(map[string]int)
	for i, s := range f.Series {
		if _, dup := byName[s.Name]; !dup && s.Of == "" {
			byName[s.Name] = i
		}
	}
	k := 0
	for i, s := range f.Series {
		if p, ok := byName[s.Of]; ok && s.Of != "" && p != i {
			continue
		}
		st := seriesStyle{colour: k % len(seriesColours), marker: markerKind(k % len(markers)), parent: -1}
		round := k / len(seriesColours)
		switch {
		case s.Points:
			st.dash = noLine
		case s.Reference:
			st.dash = refDashes[round%len(refDashes)]
			st.marker = noMarker
		default:
			st.dash = dashKind(round % len(dashes))
		}
		styles[i] = st
		k++
	}
	children := make(map[[2]int]int) // (parent, reference?) → count so far
	for i, s := range f.Series {
		p, ok := byName[s.Of]
		if !ok || s.Of == "" || p == i {
			continue
		}
		ref := 0
		kinds := fitDashes
		if s.Reference {
			ref, kinds = 1, refDashes
		}
		n := children[[2]int{p, ref}]
		children[[2]int{p, ref}]++
		st := seriesStyle{colour: styles[p].colour, marker: noMarker, dash: kinds[n%len(kinds)], parent: p}
		if s.Reference {
			st.colour = referenceColour
		}
		styles[i] = st
	}
	return styles
}

// Line widths and marker size of the static figures, in points.
const (
	lineWidthPt     = 1.4
	fitLineWidthPt  = 1.1
	refLineWidthPt  = 0.9
	markerRadiusPt  = 2.6
	markerStrokePt  = 0.9
	thumbnailPoints = 22
)

// hex is the colour of st as #rrggbb.
func (st seriesStyle) hex() string {
	if st.colour == referenceColour {
		return keyColour
	}
	return seriesColours[st.colour]
}

func (st seriesStyle) colourRGBA() color.RGBA { return hexColour(st.hex()) }

// lineStyle is the gonum line style of st.
func (st seriesStyle) lineStyle() draw.LineStyle {
	w := lineWidthPt
	switch {
	case st.colour == referenceColour:
		w = refLineWidthPt
	case st.parent >= 0:
		w = fitLineWidthPt
	}
	ls := draw.LineStyle{Color: st.colourRGBA(), Width: vg.Points(w)}
	if st.dash > solidLine {
		for _, d := range dashes[st.dash] {
			ls.Dashes = append(ls.Dashes, vg.Points(d))
		}
	}
	return ls
}

// glyphStyle is the gonum glyph style of st's marker.
func (st seriesStyle) glyphStyle() draw.GlyphStyle {
	m := markers[st.marker]
	return draw.GlyphStyle{Color: st.colourRGBA(), Radius: vg.Points(markerRadiusPt), Shape: markerGlyph{shape: m.shape, filled: m.filled}}
}

// shape is the outline of a marker.
type shape int

const (
	shapeCircle shape = iota
	shapeSquare
	shapeTriangle
	shapeDiamond
)

// markerGlyph draws a marker filled, or as a hollow outline through which
// markers of other series at the same point stay visible.
type markerGlyph struct {
	shape  shape
	filled bool
}

func (g markerGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	switch g.shape {
	case shapeCircle:
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*3.141592653589793)
	case shapeSquare:
		s := r * 0.85
		p.Move(vg.Point{X: pt.X - s, Y: pt.Y - s})
		p.Line(vg.Point{X: pt.X + s, Y: pt.Y - s})
		p.Line(vg.Point{X: pt.X + s, Y: pt.Y + s})
		p.Line(vg.Point{X: pt.X - s, Y: pt.Y + s})
	case shapeTriangle:
		h := r * 1.15
		p.Move(vg.Point{X: pt.X, Y: pt.Y + h})
		p.Line(vg.Point{X: pt.X + h*0.866, Y: pt.Y - h*0.5})
		p.Line(vg.Point{X: pt.X - h*0.866, Y: pt.Y - h*0.5})
	case shapeDiamond:
		h := r * 1.2
		p.Move(vg.Point{X: pt.X, Y: pt.Y + h})
		p.Line(vg.Point{X: pt.X + h*0.75, Y: pt.Y})
		p.Line(vg.Point{X: pt.X, Y: pt.Y - h})
		p.Line(vg.Point{X: pt.X - h*0.75, Y: pt.Y})
	}
	p.Close()
	if g.filled {
		c.SetColor(sty.Color)
		c.Fill(p)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(markerStrokePt)})
	c.Stroke(p)
}
