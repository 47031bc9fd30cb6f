package report

import (
	"fmt"
	"math"
	"strings"
)

// notDrawn counts the points left out of a chart, by reason.
type notDrawn struct {
	NonFinite        int `json:"nonfinite"`
	Huge             int `json:"beyond_1e300"`
	NonPositiveOnLog int `json:"nonpositive_on_log_axis"`
}

// drawLimit bounds the magnitude of a drawn coordinate: the tick algorithms
// of both renderers overflow, and gonum's loops forever, when the span of an
// axis exceeds the largest float64.
const drawLimit = 1e300

func (n notDrawn) total() int { return n.NonFinite + n.Huge + n.NonPositiveOnLog }

func (n *notDrawn) add(m notDrawn) {
	n.NonFinite += m.NonFinite
	n.Huge += m.Huge
	n.NonPositiveOnLog += m.NonPositiveOnLog
}

// drawable returns the points of s that both renderers can place on the
// figure's axes, and counts the others.
func drawable(s Series, logX, logY bool) ([][2]float64, notDrawn) {
	pts := make([][2]float64, 0, len(s.X))
	var n notDrawn
	for i, x := range s.X {
		y := s.Y[i]
		switch {
		case !finite(x) || !finite(y):
			n.NonFinite++
		case math.Abs(x) > drawLimit || math.Abs(y) > drawLimit:
			n.Huge++
		case logX && x <= 0, logY && y <= 0:
			n.NonPositiveOnLog++
		default:
			pts = append(pts, [2]float64{x, y})
		}
	}
	return pts, n
}

// drawableSeries applies drawable to every series of f.
func (f Figure) drawableSeries() (pts [][][2]float64, per []notDrawn, all notDrawn) {
	pts = make([][][2]float64, len(f.Series))
	per = make([]notDrawn, len(f.Series))
	for i, s := range f.Series {
		pts[i], per[i] = drawable(s, f.LogX, f.LogY)
		all.add(per[i])
	}
	return pts, per, all
}

// noteWithDropped returns the figure's note followed by a sentence saying
// how many points were not drawn, if any.
func (f Figure) noteWithDropped(n notDrawn) string {
	if n.total() == 0 {
		return f.Note
	}
	var why []string
	if n.NonPositiveOnLog > 0 {
		why = append(why, fmt.Sprintf("%d not positive on a logarithmic axis", n.NonPositiveOnLog))
	}
	if n.NonFinite > 0 {
		why = append(why, fmt.Sprintf("%d not finite", n.NonFinite))
	}
	if n.Huge > 0 {
		why = append(why, fmt.Sprintf("%d beyond ±1e300", n.Huge))
	}
	msg := fmt.Sprintf("%d point(s) not drawn: %s.", n.total(), strings.Join(why, ", "))
	if f.Note == "" {
		return msg
	}
	return f.Note + " " + msg
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// finiteRange returns the smallest and largest finite values of z, and false
// when there are none.
func finiteRange(z [][]float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range z {
		for _, v := range row {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
				ok = true
			}
		}
	}
	return lo, hi, ok
}

// colourRange is the value range a heatmap's colours span. A constant field
// gets a symmetric range around its value so it maps to the middle colour;
// a field without finite values gets [0, 1]. The range stays within
// ±colourLimit so that its width is finite; cells beyond take the end
// colours.
func colourRange(z [][]float64) (lo, hi float64) {
	lo, hi, ok := finiteRange(z)
	if !ok {
		return 0, 1
	}
	lo = math.Max(math.Min(lo, colourLimit), -colourLimit)
	hi = math.Max(math.Min(hi, colourLimit), -colourLimit)
	if lo == hi {
		pad := math.Abs(lo) / 2
		if pad == 0 {
			pad = 0.5
		}
		lo, hi = lo-pad, hi+pad
	}
	return lo, hi
}

// colourLimit bounds a heatmap's colour range: hi−lo and the padding of a
// constant field stay finite.
const colourLimit = math.MaxFloat64 / 4

// nullable is a float64 that marshals to JSON null when it is not finite.
type nullable float64

func (v nullable) MarshalJSON() ([]byte, error) {
	if !finite(float64(v)) {
		return []byte("null"), nil
	}
	return []byte(formatFloat(float64(v))), nil
}

func nullables(xs []float64) []nullable {
	out := make([]nullable, len(xs))
	for i, x := range xs {
		out[i] = nullable(x)
	}
	return out
}
