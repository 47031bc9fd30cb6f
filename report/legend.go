package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The legend of a static figure goes where it hides no data: into the place
// of the data area (corners first, then edges) with the most room between it
// and the drawn points and lines, in as few columns (up to three) as leave
// it legendRoom; failing any place at least legendClear from the data,
// beside the plot (when it is narrow) or under it.

// legendItem is one entry: a label and the thumbnails drawn before it.
type legendItem struct {
	label  string
	thumbs []plot.Thumbnailer
}

// Sizes of the legend box.
const (
	legendFontPt   = 9
	legendPad      = 3 * vg.Millimeter / 2 // inside the box
	legendColGap   = 3 * vg.Millimeter     // between columns
	legendRowGap   = vg.Length(1.5)        // between rows
	legendThumbGap = vg.Length(4)          // between thumbnail and label
	legendInset    = 2 * vg.Millimeter     // between box and frame
	legendClear    = vg.Length(5)          // data this close to the box counts as under it (a marker's radius and more)
	legendRoom     = 6 * vg.Millimeter     // room around the box beyond which places count alike
	maxInsideWidth = 0.6                   // of the data area: wider legends go outside
	maxSideWidth   = 0.3                   // of the figure: wider legends go under the plot
	maxColumns     = 3
)

var (
	legendFill   = color.White
	legendBorder = color.Gray{Y: 0xbb}
)

// legendBox lays out items in columns of equal row height, thumbnails
// left of their labels.
type legendBox struct {
	items []legendItem
}

func legendTextStyle() text.Style {
	return text.Style{
		Font:    font.From(plot.DefaultFont, legendFontPt),
		Handler: powerText{text.Plain{Fonts: font.DefaultCache}},
		Color:   color.Black,
	}
}

// rowHeight is the height of one entry: the tallest label's.
func (b legendBox) rowHeight() vg.Length {
	sty := legendTextStyle()
	var h vg.Length
	for _, it := range b.items {
		h = max(h, sty.Height(it.label))
	}
	return h
}

// columnWidths returns the widths of the columns (thumbnail, gap, label)
// when the items fill cols columns top to bottom, and the rows per column.
func (b legendBox) columnWidths(cols int) (widths []vg.Length, rows int) {
	sty := legendTextStyle()
	rows = (len(b.items) + cols - 1) / cols
	for start := 0; start < len(b.items); start += rows {
		var w vg.Length
		for _, it := range b.items[start:min(start+rows, len(b.items))] {
			w = max(w, sty.Width(it.label))
		}
		widths = append(widths, vg.Points(thumbnailPoints)+legendThumbGap+w)
	}
	return widths, rows
}

// size returns the width and height of the box with cols columns.
func (b legendBox) size(cols int) vg.Point {
	widths, rows := b.columnWidths(cols)
	var w vg.Length
	for i, cw := range widths {
		w += cw
		if i > 0 {
			w += legendColGap
		}
	}
	h := vg.Length(rows)*b.rowHeight() + vg.Length(rows-1)*legendRowGap
	return vg.Point{X: w + 2*legendPad, Y: h + 2*legendPad}
}

// draw draws the box with its top left corner at topLeft; framed boxes get a
// white backing and a thin border.
func (b legendBox) draw(c draw.Canvas, topLeft vg.Point, cols int, framed bool) {
	sz := b.size(cols)
	if framed {
		box := vg.Rectangle{Min: vg.Point{X: topLeft.X, Y: topLeft.Y - sz.Y}, Max: vg.Point{X: topLeft.X + sz.X, Y: topLeft.Y}}
		c.SetColor(legendFill)
		c.Fill(box.Path())
		c.SetLineStyle(draw.LineStyle{Color: legendBorder, Width: vg.Points(0.5)})
		c.Stroke(box.Path())
	}
	sty := legendTextStyle()
	sty.YAlign = text.YCenter
	widths, rows := b.columnWidths(cols)
	rh := b.rowHeight()
	x := topLeft.X + legendPad
	for i, it := range b.items {
		col, row := i/rows, i%rows
		if row == 0 && col > 0 {
			x += widths[col-1] + legendColGap
		}
		top := topLeft.Y - legendPad - vg.Length(row)*(rh+legendRowGap)
		thumb := c
		thumb.Rectangle = vg.Rectangle{Min: vg.Point{X: x, Y: top - rh}, Max: vg.Point{X: x + vg.Points(thumbnailPoints), Y: top}}
		for _, t := range it.thumbs {
			t.Thumbnail(&thumb)
		}
		c.FillText(sty, vg.Point{X: x + vg.Points(thumbnailPoints) + legendThumbGap, Y: top - rh/2}, it.label)
	}
}

// legendPlacement says where a legend goes.
type legendPlacement struct {
	inside bool
	// topLeft is the box's corner on the data canvas (inside).
	topLeft vg.Point
	cols    int
	// side: the legend takes a strip right of the plot; else under it.
	side bool
}

// insideAnchors are the places tried in the data area, in order of
// preference, as fractions (0 left/bottom, 1 right/top) of the free room:
// the corners, the middles of the edges, then places between.
var insideAnchors = [][2]float64{
	{1, 1}, {0, 1}, {1, 0}, {0, 0},
	{0.5, 1}, {0.5, 0}, {1, 0.5}, {0, 0.5},
	{1, 0.75}, {1, 0.25}, {0, 0.75}, {0, 0.25},
	{0.75, 1}, {0.25, 1}, {0.75, 0}, {0.25, 0}, {0.5, 0.5},
}

// placeLegend chooses where the legend of fp goes on canvas c, clear of the
// drawn data (lines are sampled along their segments).
func placeLegend(c draw.Canvas, fp *figurePlot) legendPlacement {
	b := fp.legend
	dc := fp.dataCanvas(c)
	samples := dataSamples(fp.p, dc, fp.data, fp.lines)
	area := vg.Rectangle{
		Min: vg.Point{X: dc.Min.X + legendInset, Y: dc.Min.Y + legendInset},
		Max: vg.Point{X: dc.Max.X - legendInset, Y: dc.Max.Y - legendInset},
	}
	// The first place with the most room around it, up to legendRoom: fewer
	// columns first, then the order of insideAnchors.
	best, bestRoom := legendPlacement{}, vg.Length(-1)
	for cols := 1; cols <= min(maxColumns, len(b.items)) && bestRoom < legendRoom; cols++ {
		sz := b.size(cols)
		if sz.X > maxInsideWidth*(dc.Max.X-dc.Min.X) || sz.Y > area.Max.Y-area.Min.Y {
			continue
		}
		free := vg.Point{X: area.Max.X - area.Min.X - sz.X, Y: area.Max.Y - area.Min.Y - sz.Y}
		for _, a := range insideAnchors {
			min := vg.Point{X: area.Min.X + vg.Length(a[0])*free.X, Y: area.Min.Y + vg.Length(a[1])*free.Y}
			box := vg.Rectangle{Min: min, Max: vg.Point{X: min.X + sz.X, Y: min.Y + sz.Y}}
			if room := clearance(samples, box, legendRoom); room >= legendClear && room > bestRoom {
				best, bestRoom = legendPlacement{inside: true, topLeft: vg.Point{X: box.Min.X, Y: box.Max.Y}, cols: cols}, room
			}
		}
	}
	if bestRoom >= 0 {
		return best
	}
	if sz := b.size(1); sz.X <= maxSideWidth*(c.Max.X-c.Min.X) && sz.Y <= c.Max.Y-c.Min.Y {
		return legendPlacement{side: true, cols: 1}
	}
	cols := 1
	for cols < len(b.items) && b.size(cols+1).X <= c.Max.X-c.Min.X {
		cols++
	}
	return legendPlacement{cols: cols}
}

// drawWithLegend draws fp on c with its legend placed as pl says.
func drawWithLegend(c draw.Canvas, fp *figurePlot, pl legendPlacement) {
	b := fp.legend
	sz := b.size(pl.cols)
	switch {
	case pl.inside:
		fp.drawPlot(c)
		b.draw(c, pl.topLeft, pl.cols, true)
	case pl.side:
		rest := draw.Crop(c, 0, -(sz.X + legendInset), 0, 0)
		fp.drawPlot(rest)
		b.draw(c, vg.Point{X: c.Max.X - sz.X, Y: fp.dataCanvas(rest).Max.Y}, pl.cols, false)
	default:
		fp.drawPlot(draw.Crop(c, 0, 0, sz.Y+legendInset, 0))
		left := c.Min.X + (c.Max.X-c.Min.X-sz.X)/2
		b.draw(c, vg.Point{X: left, Y: c.Min.Y + sz.Y}, pl.cols, false)
	}
}

// dataSamples returns the canvas positions of the drawn points and of
// points along the drawn lines at most 1 mm apart.
func dataSamples(p *plot.Plot, dc draw.Canvas, data []plotter.XYs, lines []bool) []vg.Point {
	trX, trY := p.Transforms(&dc)
	var out []vg.Point
	for i, xys := range data {
		var prev vg.Point
		for k, xy := range xys {
			pt := vg.Point{X: trX(xy.X), Y: trY(xy.Y)}
			if lines[i] && k > 0 {
				d := math.Hypot(float64(pt.X-prev.X), float64(pt.Y-prev.Y))
				n := min(int(d/float64(vg.Millimeter)), 400)
				for j := 1; j < n; j++ {
					f := vg.Length(j) / vg.Length(n)
					out = append(out, vg.Point{X: prev.X + f*(pt.X-prev.X), Y: prev.Y + f*(pt.Y-prev.Y)})
				}
			}
			out = append(out, pt)
			prev = pt
		}
	}
	return out
}

// clearance returns the distance from r to the nearest of pts, at most
// limit (and 0 for a point inside r).
func clearance(pts []vg.Point, r vg.Rectangle, limit vg.Length) vg.Length {
	d := limit
	for _, pt := range pts {
		dx := max(r.Min.X-pt.X, 0, pt.X-r.Max.X)
		dy := max(r.Min.Y-pt.Y, 0, pt.Y-r.Max.Y)
		d = min(d, vg.Length(math.Hypot(float64(dx), float64(dy))))
		if d == 0 {
			break
		}
	}
	return d
}
