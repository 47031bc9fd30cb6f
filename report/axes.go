package report

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// axisSpec is the range and the ticks of one axis, computed once and used by
// both renderers so that the static figure and the interactive chart agree.
type axisSpec struct {
	log      bool
	min, max float64
	// step is the distance of labelled ticks on a linear axis; minor is the
	// number of intervals between two of them.
	step  float64
	minor int
	// decadeStep is the number of decades between labelled ticks on a
	// logarithmic axis.
	decadeStep int
	ticks      []plot.Tick
}

// Tick counts of a linear axis: the step is the finest of 1, 2, 2.5 and 5
// times a power of ten that leaves at most maxIntervals between labels.
const (
	maxIntervals = 7
	// maxLabelledDecades is the most decades labelled on a logarithmic
	// axis; a longer axis labels every second, fifth, ... decade.
	maxLabelledDecades = 8
	// maxMinorDecades is the most decades whose 2..9 multiples get minor
	// ticks.
	maxMinorDecades = 12
	// tightSlack is the share of its span by which a tight axis may grow
	// to end at a tick.
	tightSlack = 0.05
)

// linearAxis returns an axis over [lo, hi] with labelled ticks at a nice
// step. Its ends are ticks around the data, or, when tight, the ends of the
// data (an x axis of time ends where the run does) unless the tick beyond
// is within tightSlack of the span. fixedMax, when finite,
// is the axis' top whatever the data (the lower end then leaves a margin of
// 5% below lo). An empty range becomes [0, 1]; a single value v becomes the
// step around it.
func linearAxis(lo, hi, fixedMax float64, tight bool) axisSpec {
	fixed := finite(fixedMax)
	if fixed {
		if lo > hi { // no data
			lo, hi = fixedMax-1, fixedMax
		}
		hi = fixedMax
		if lo >= hi {
			lo = hi - math.Max(math.Abs(hi)*0.1, 1e-9)
		}
		if padded := lo - 0.05*(hi-lo); lo < 0 || padded >= 0 {
			lo = padded
		} else {
			lo = 0 // data that are never negative keep an axis that is not
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	if lo == hi {
		d := math.Max(math.Abs(lo)*0.1, 1)
		if lo >= 0 && lo-d < 0 {
			lo, hi = 0, hi+d
		} else {
			lo, hi = lo-d, hi+d
		}
	}
	// Keep the arithmetic finite near ±MaxFloat64.
	lo, hi = math.Max(lo, -1e300), math.Min(hi, 1e300)
	span := hi - lo
	mag := math.Pow(10, math.Floor(math.Log10(span/maxIntervals)))
	var step float64
	var minor int
	for _, m := range []struct {
		mult  float64
		minor int
	}{{1, 5}, {2, 4}, {2.5, 5}, {5, 5}, {10, 5}, {20, 4}} {
		step, minor = m.mult*mag, m.minor
		if math.Ceil(hi/step-1e-9)-math.Floor(lo/step+1e-9) <= maxIntervals {
			break
		}
	}
	a := axisSpec{step: step, minor: minor}
	a.min = math.Floor(lo/step+1e-9) * step
	a.max = math.Ceil(hi/step-1e-9) * step
	if tight {
		// Round an end out to a tick only when that adds little room.
		if lo-a.min > tightSlack*span {
			a.min = lo
		}
		if a.max-hi > tightSlack*span {
			a.max = hi
		}
	}
	if fixed {
		a.max = fixedMax
	}
	a.min, a.max = cleanFloat(a.min), cleanFloat(a.max)
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	if s := strconv.FormatFloat(step, 'f', -1, 64); strings.Contains(s, ".") {
		decimals = max(decimals, len(s)-strings.Index(s, ".")-1)
	}
	first := math.Ceil(a.min/step - 1e-9)
	for i := 0; ; i++ {
		v := cleanFloat((first + float64(i)) * step)
		if v > a.max+step*1e-9 {
			break
		}
		a.ticks = append(a.ticks, plot.Tick{Value: v, Label: linearLabel(v, step, decimals)})
		for j := 1; j < minor; j++ {
			if m := cleanFloat(v + float64(j)*step/float64(minor)); m < a.max-step*1e-9 {
				a.ticks = append(a.ticks, plot.Tick{Value: m})
			}
		}
	}
	// Minor ticks below the first label.
	for j := 1; j < minor && first*step > a.min; j++ {
		if m := cleanFloat((first - float64(j)/float64(minor)) * step); m > a.min+step*1e-9 {
			a.ticks = append(a.ticks, plot.Tick{Value: m})
		}
	}
	return a
}

// linearLabel writes a tick value with the decimals of the step, so that
// all labels of an axis have the same form (0.50, 0.75, 1.00); values of
// 10^5 and more, or steps below 10^-4, are written as 2e5 or 5e-5.
func linearLabel(v, step float64, decimals int) string {
	if v == 0 {
		return "0"
	}
	if math.Abs(v) >= 1e5 || step < 1e-4 {
		return shortNumber(v, tickDigits)
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// cleanFloat rounds away the binary noise of tick arithmetic (0.30000000000000004).
func cleanFloat(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if r == 0 {
		return 0 // no -0
	}
	return r
}

// logAxis returns a logarithmic axis around the positive range [lo, hi],
// with labels 10^k at decades and minor ticks at the multiples 2..9 between
// them. Its ends are the nearest 1, 2 or 5 times a power of ten outside the
// data, or whole decades (see span.decades) where that would leave fewer
// than two labelled decades. fixedMax, when positive and finite, is the
// axis' top.
func logAxis(lo, hi, fixedMax float64) axisSpec {
	if finite(fixedMax) && fixedMax > 0 {
		if lo > hi || lo >= fixedMax {
			lo = fixedMax / 10
		}
		hi = fixedMax
	}
	a := axisSpec{log: true}
	a.min, a.max = span{lo, hi}.decades()
	if lo <= hi && lo >= 1e-300 && hi <= 1e300 {
		nlo, nhi := niceLog(lo, false), niceLog(hi, true)
		first, _ := decimalExponent(nlo)
		if nlo != powerOfTen(first) {
			first++
		}
		last, _ := decimalExponent(nhi)
		if last > first {
			a.min, a.max = nlo, nhi
		}
	}
	if finite(fixedMax) && fixedMax > 0 {
		a.max = fixedMax
	}
	loExp, _ := decimalExponent(a.min)
	hiExp, _ := decimalExponent(a.max)
	n := hiExp - loExp
	a.decadeStep = 1
	for n/a.decadeStep > maxLabelledDecades {
		a.decadeStep = nextStep(a.decadeStep)
	}
	for e := loExp; e <= hiExp; e++ {
		v := powerOfTen(e)
		if v >= a.min*(1-1e-12) && v <= a.max*(1+1e-12) {
			t := plot.Tick{Value: v}
			if (e-loExp)%a.decadeStep == 0 {
				t.Label = decadeLabel(e)
			}
			a.ticks = append(a.ticks, t)
		}
		if n > maxMinorDecades || e == hiExp {
			continue
		}
		for m := 2; m <= 9; m++ {
			if mv := cleanFloat(float64(m) * v); mv > a.min*(1+1e-12) && mv < a.max*(1-1e-12) {
				a.ticks = append(a.ticks, plot.Tick{Value: mv})
			}
		}
	}
	return a
}

// niceLog rounds a positive v down (or up) to 1, 2 or 5 times a power of
// ten; values within a relative 1e-9 of one count as it.
func niceLog(v float64, up bool) float64 {
	e, _ := decimalExponent(v)
	dec := powerOfTen(e)
	m := v / dec
	steps := []float64{1, 2, 5, 10}
	if up {
		for _, s := range steps {
			if m <= s*(1+1e-9) {
				return cleanFloat(s * dec)
			}
		}
		return cleanFloat(10 * dec)
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if m >= steps[i]*(1-1e-9) {
			return cleanFloat(steps[i] * dec)
		}
	}
	return dec
}

// nextStep steps through 1, 2, 5, 10, 20, 50, ...
func nextStep(s int) int {
	for m := 1; m <= s; m *= 10 {
		switch s {
		case m:
			return 2 * m
		case 2 * m:
			return 5 * m
		case 5 * m:
			return 10 * m
		}
	}
	return 2 * s
}

// decadeLabel is 10^e in the form that powerText draws with a superscript.
func decadeLabel(e int) string { return "10^{" + strconv.Itoa(e) + "}" }

// fixedTicks hands precomputed ticks to gonum/plot.
type fixedTicks []plot.Tick

func (t fixedTicks) Ticks(min, max float64) []plot.Tick { return t }
