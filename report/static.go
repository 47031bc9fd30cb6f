package report

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

var staticFormats = map[string]struct{}{"svg": {}, "png": {}, "pdf": {}}

// nanCellColour fills heatmap cells without a finite value.
var nanCellColour = color.RGBA{R: 0xdd, G: 0xdd, B: 0xdd, A: 0xff}

// heatmapColourStops is the number of colours sampled from the heatmap
// colour map.
const heatmapColourStops = 256

// maxCategoryLabels bounds the tick labels on a heatmap axis so they do not
// overlap.
const maxCategoryLabels = 8

// tickDigits is the number of significant digits of a tick label.
const tickDigits = 6

type staticSize struct{ widthIn, heightIn, dpi float64 }

var defaultSize = staticSize{widthIn: DefaultWidthIn, heightIn: DefaultHeightIn, dpi: DefaultDPI}

// WriteFigure writes f as one static figure at the default size (6×4 in,
// PNG at 300 dpi); the format follows the extension of path: .svg, .png or
// .pdf.
func WriteFigure(path string, f Figure) error {
	format, err := formatOf(path)
	if err != nil {
		return err
	}
	if err := f.checkShape("Figure"); err != nil {
		return err
	}
	return writeFigure(path, format, f, defaultSize)
}

// WriteHeatmap writes h as one static figure, as WriteFigure does.
func WriteHeatmap(path string, h Heatmap) error {
	format, err := formatOf(path)
	if err != nil {
		return err
	}
	if err := h.checkShape("Heatmap"); err != nil {
		return err
	}
	return writeHeatmap(path, format, h, defaultSize)
}

func formatOf(path string) (string, error) {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if _, ok := staticFormats[format]; !ok {
		return "", fmt.Errorf("%w: extension of %q, want .svg, .png or .pdf", ErrFormat, path)
	}
	return format, nil
}

func writeFigure(path, format string, f Figure, size staticSize) error {
	fp, err := newFigurePlot(f)
	if err != nil {
		return err
	}
	return saveDrawing(path, format, size, fp.draw)
}

func writeHeatmap(path, format string, h Heatmap, size staticSize) error {
	main, bar := heatmapPlots(h)
	return saveDrawing(path, format, size, func(c draw.Canvas) {
		// The colour bar takes a strip on the right, aligned with the
		// heatmap's data area.
		const barStrip = 1.2 * vg.Inch
		left := draw.Crop(c, 0, -barStrip, 0, 0)
		main.Draw(left)
		data := main.DataCanvas(left)
		strip := draw.Crop(c, c.Max.X-c.Min.X-barStrip+0.15*vg.Inch, -0.1*vg.Inch, data.Min.Y-c.Min.Y, data.Max.Y-c.Max.Y)
		// The bar's axis pads its data area for the tick labels at its
		// ends; grow the strip by that padding so the bar spans exactly the
		// heatmap's height.
		barData := bar.DataCanvas(strip)
		bar.Draw(draw.Crop(strip, 0, 0, strip.Min.Y-barData.Min.Y, strip.Max.Y-barData.Max.Y))
	})
}

// saveDrawing draws onto a canvas of the given format and size and writes it
// to path.
func saveDrawing(path, format string, size staticSize, drawOn func(draw.Canvas)) error {
	w, h := vg.Length(size.widthIn)*vg.Inch, vg.Length(size.heightIn)*vg.Inch
	var cw vg.CanvasWriterTo
	switch format {
	case "svg":
		cw = vgsvg.New(w, h)
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(int(math.Round(size.dpi))))}
	case "pdf":
		cw = vgpdf.New(w, h)
	default:
		return fmt.Errorf("%w: %q, want svg, png or pdf", ErrFormat, format)
	}
	var target vg.Canvas = cw
	if format != "png" {
		// Vector formats get text as glyph outlines: no font to find or embed.
		target = &outlinedText{Canvas: cw}
	}
	drawOn(draw.NewCanvas(target, w, h))
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := cw.WriteTo(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// span is the range of the values drawn on one axis.
type span struct{ lo, hi float64 }

func newSpan() span { return span{lo: math.Inf(1), hi: math.Inf(-1)} }

func (s *span) include(v float64) { s.lo, s.hi = math.Min(s.lo, v), math.Max(s.hi, v) }

// decades widens a positive range to whole decades, so a logarithmic axis
// always shows labelled ticks at both ends; an empty range becomes [1, 10].
// The decades stay within 1e-323..1e308, where powers of ten are finite and
// positive.
func (s span) decades() (lo, hi float64) {
	if s.lo > s.hi {
		return 1, 10
	}
	loExp, _ := decimalExponent(s.lo)
	hiExp, exact := decimalExponent(s.hi)
	if !exact {
		hiExp++
	}
	loExp, hiExp = max(loExp, minDecade), min(hiExp, maxDecade)
	if loExp >= hiExp {
		if hiExp < maxDecade {
			hiExp = loExp + 1
		} else {
			loExp = hiExp - 1
		}
	}
	return powerOfTen(loExp), powerOfTen(hiExp)
}

// minDecade and maxDecade are the exponents of the smallest and largest
// powers of ten that are positive finite float64 values.
const (
	minDecade = -323
	maxDecade = 308
)

// decimalExponent returns floor(log10(v)) for a positive finite v, and
// whether v is a power of ten. Values within a relative 1e-9 of a power of
// ten count as that power, so that a grid computed as 10^(k/2) (which gives
// 9.999999999999994e-08 for 1e-7) does not widen its axis by a decade. It
// reads the exponent from the decimal form, which math.Log10 gets wrong for
// subnormal numbers.
func decimalExponent(v float64) (exp int, powerOfTen bool) {
	if v >= 1e-300 && v <= 1e300 { // round to 10 significant digits first
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'e', 9, 64), 64)
	}
	mant, e, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	exp, _ = strconv.Atoi(e)
	return exp, mant == "1"
}

// powerOfTen returns the float64 nearest to 10^exp; math.Pow is off by a few
// ulps for large exponents.
func powerOfTen(exp int) float64 {
	v, _ := strconv.ParseFloat("1e"+strconv.Itoa(exp), 64)
	return v
}

// heatmapPlots returns the heatmap and its colour bar as two plots.
func heatmapPlots(h Heatmap) (main, bar *plot.Plot) {
	lo, hi := colourRange(h.Z)
	cm := moreland.Kindlmann()
	cm.SetMin(lo)
	cm.SetMax(hi)

	main = plot.New()
	main.Title.Text = h.Title
	main.X.Label.Text = h.XLabel
	main.Y.Label.Text = h.YLabel
	main.X.Padding, main.Y.Padding = 0, 0
	main.X.Tick.Marker = categoryTicks(h.X)
	main.Y.Tick.Marker = categoryTicks(h.Y)
	if len(h.X) > 0 && len(h.Y) > 0 {
		pal := cm.Palette(heatmapColourStops)
		hm := plotter.NewHeatMap(heatGrid(h.Z), pal)
		hm.Min, hm.Max = lo, hi
		hm.Underflow, hm.Overflow = pal.Colors()[0], pal.Colors()[heatmapColourStops-1]
		hm.NaN = nanCellColour
		main.Add(hm)
	} else {
		main.X.Min, main.X.Max = -0.5, 0.5
		main.Y.Min, main.Y.Max = -0.5, 0.5
	}

	bar = plot.New()
	bar.HideX()
	bar.X.Padding, bar.Y.Padding = 0, 0
	bar.Y.Label.Text = h.ZLabel
	bar.Y.Tick.Marker = readableTicks{plot.DefaultTicks{}}
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	return main, bar
}

// heatGrid lays Z[iy][ix] out on unit cells at (ix, iy); non-finite values
// become NaN, which the heatmap draws in its NaN colour.
type heatGrid [][]float64

func (g heatGrid) Dims() (c, r int) { return len(g[0]), len(g) }
func (g heatGrid) X(c int) float64  { return float64(c) }
func (g heatGrid) Y(r int) float64  { return float64(r) }
func (g heatGrid) Z(c, r int) float64 {
	if v := g[r][c]; finite(v) {
		return v
	}
	return math.NaN()
}

// categoryTicks labels cell i of a heatmap axis with vs[i], thinned to at most
// maxCategoryLabels labels.
func categoryTicks(vs []float64) plot.ConstantTicks {
	step := (len(vs) + maxCategoryLabels - 1) / maxCategoryLabels
	ticks := make(plot.ConstantTicks, 0, len(vs))
	for i, v := range vs {
		t := plot.Tick{Value: float64(i)}
		if i%step == 0 {
			t.Label = categoryLabel(v)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// categoryLabel formats a heatmap grid value for an axis label.
func categoryLabel(v float64) string { return shortNumber(v, 4) }

// shortNumber rounds v to sig significant digits and writes it plainly
// between 1e-3 and 1e5, and as 1.5e6 or 1e-5 outside, as the interactive
// charts' axisLabelFormatter does.
func shortNumber(v float64, sig int) string {
	if !finite(v) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', sig-1, 64), 64)
	if !finite(r) { // rounding up overflowed
		r = v
	}
	if a := math.Abs(r); a == 0 || a >= 1e-3 && a < 1e5 {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(r, 'e', -1, 64), "e")
	e, _ := strconv.Atoi(exp)
	return mant + "e" + strconv.Itoa(e)
}

// readableTicks relabels the ticks of a gonum Ticker with shortNumber: the
// labels of LogTicks accumulate rounding error (9.999999999999999e-06), and
// DefaultTicks writes 6000000 where 6e6 reads better.
type readableTicks struct{ plot.Ticker }

func (t readableTicks) Ticks(min, max float64) []plot.Tick {
	ticks := t.Ticker.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = shortNumber(ticks[i].Value, tickDigits)
		}
	}
	return ticks
}

func hexColour(s string) color.RGBA {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	if err != nil {
		panic("report: bad palette colour " + s)
	}
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}
