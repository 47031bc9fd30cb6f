package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// The interactive chart of a Figure draws each series in the look that
// figureStyles gives it in the static figure (colour, ECharts symbol, line
// dash) over the same axis ranges and ticks, with a legend that lists every
// series without Of and never pages.

// pointMarkerLimit is the number of points above which a line is drawn
// without markers, to keep long time series legible and fast.
const pointMarkerLimit = 100

// Legend layout of the interactive chart: up to inlineLegendWidth pixels of
// entries go in one row above the plot, more in a column right of it.
const (
	inlineLegendWidth = 640
	legendCharPx      = 7
	legendIconPx      = 40
)

// chartTooltip names the point's series (a fit or reference line carries its
// own name on every point) and gives its coordinates; the same quoting rule
// as axisLabelFormatter applies.
const chartTooltip = `function (p) { var v = p.value || []; var n = (p.data && p.data.name) || p.seriesName; var f = function (x) { return typeof x === 'number' ? String(Number(x.toPrecision(6))) : String(x); }; return echarts.format.encodeHTML(n) + '<br>' + f(v[0]) + ', ' + f(v[1]); }`

// lineChartVisitor replaces the axes, series, legend and grid that
// go-echarts would write with ones that carry what its option types lack
// (tick interval, minor ticks, log base, dash arrays, per-point names).
type lineChartVisitor struct {
	charts.BaseConfigurationVisitor
	x, y   map[string]any
	series []map[string]any
	legend map[string]any
	grid   map[string]any
}

func (v lineChartVisitor) Visit(chart map[string]any) {
	chart["xAxis"] = []map[string]any{v.x}
	chart["yAxis"] = []map[string]any{v.y}
	chart["series"] = v.series
	chart["legend"] = []map[string]any{v.legend}
	chart["grid"] = []map[string]any{v.grid}
}

// figureChart builds the interactive chart of f and returns it with the note
// to show under it.
func figureChart(f Figure, chartID, host string) (*charts.Line, string) {
	pts, _, all := f.drawableSeries()
	styles := figureStyles(f)
	xa, ya := figureAxes(f, pts)
	line := charts.NewLine()
	line.SetGlobalOptions(baseChartOptions(chartID, host, f.Title)...)
	line.SetGlobalOptions(charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: opts.FuncOpts(chartTooltip)}))

	v := lineChartVisitor{
		x: echartsAxis(xa, f.XLabel, 30),
		y: echartsAxis(ya, f.YLabel, 65),
	}
	var names []string
	for i, s := range f.Series {
		st := styles[i]
		name := s.Name
		if st.parent >= 0 {
			// Shown and hidden with the series it belongs to.
			name = f.Series[st.parent].Name
		} else if s.Name != "" {
			names = append(names, s.Name)
		}
		v.series = append(v.series, echartsSeries(s, st, name, pts[i]))
	}
	v.legend = map[string]any{"show": len(names) > 0, "type": "plain", "data": names, "top": 28}
	v.grid = map[string]any{"left": 90, "right": 40, "top": 70, "bottom": 60}
	width := 0
	widest := 0
	for _, n := range names {
		w := len([]rune(n))*legendCharPx + legendIconPx
		width += w
		widest = max(widest, w)
	}
	if width > inlineLegendWidth {
		v.legend = map[string]any{"show": true, "type": "plain", "data": names, "orient": "vertical", "right": 10, "top": 60}
		v.grid["right"] = widest + 30
		v.grid["top"] = 50
	}
	line.Accept(v)
	return line, f.noteWithDropped(all)
}

// echartsSeries is one series of the interactive chart, named name.
func echartsSeries(s Series, st seriesStyle, name string, pts [][2]float64) map[string]any {
	colour := st.hex()
	var data []any
	for _, pt := range pts {
		if st.parent >= 0 {
			data = append(data, map[string]any{"value": []float64{pt[0], pt[1]}, "name": s.Name})
		} else {
			data = append(data, []float64{pt[0], pt[1]})
		}
	}
	if data == nil {
		data = []any{}
	}
	m := map[string]any{
		"name": name, "type": "line", "data": data,
		"itemStyle": map[string]any{"color": colour},
		"symbol":    "none",
	}
	if st.marker != noMarker {
		m["symbol"] = markers[st.marker].echarts
	}
	if st.dash == noLine {
		m["type"] = "scatter"
		m["symbolSize"] = 8
		return m
	}
	width := 2.0
	switch {
	case st.colour == referenceColour:
		width = 1.2
	case st.parent >= 0:
		width = 1.5
	}
	ls := map[string]any{"color": colour, "width": width, "type": "solid"}
	if st.dash > solidLine {
		ls["type"] = dashes[st.dash]
	}
	m["lineStyle"] = ls
	m["symbolSize"] = 6
	m["showSymbol"] = st.marker != noMarker && len(pts) <= pointMarkerLimit
	if st.parent >= 0 {
		m["z"] = 1 // under the markers of measured points
		if st.colour == referenceColour {
			m["z"] = 2 // over the fit
		}
	}
	return m
}

// echartsAxis writes a as an ECharts axis named name.
func echartsAxis(a axisSpec, name string, nameGap int) map[string]any {
	m := map[string]any{
		"name": name, "nameLocation": "middle", "nameGap": nameGap,
		"min": a.min, "max": a.max,
		"axisLine":  map[string]any{"onZero": false},
		"splitLine": map[string]any{"show": true, "lineStyle": map[string]any{"color": "#e6e6e6"}},
	}
	if a.log {
		loExp, _ := decimalExponent(a.min)
		hiExp, _ := decimalExponent(a.max)
		m["type"] = "log"
		m["logBase"] = 10
		m["splitNumber"] = max(1, min(hiExp-loExp, 10))
		m["axisLabel"] = map[string]any{"formatter": opts.FuncOpts(decadeFormatter(loExp, a.decadeStep))}
		return m
	}
	m["type"] = "value"
	onTick := func(v float64) bool { r := v / a.step; return math.Abs(r-math.Round(r)) < 1e-6 }
	if onTick(a.min) {
		// ECharts counts a fixed interval from the axis' minimum.
		m["interval"] = a.step
		m["minorTick"] = map[string]any{"show": true, "splitNumber": a.minor}
	} else {
		m["splitNumber"] = max(1, int(math.Round((a.max-a.min)/a.step)))
		m["minorTick"] = map[string]any{"show": true}
	}
	// The labels' decimals: the most any labelled tick has (an axis from 0 labels its
	// first tick "0" and its others 0.2, 0.4, ...).
	decimals := 0
	for _, t := range a.ticks {
		if _, frac, ok := strings.Cut(t.Label, "."); ok && !strings.ContainsAny(t.Label, "e") {
			decimals = max(decimals, len(frac))
		}
	}
	m["axisLabel"] = map[string]any{
		"formatter":    opts.FuncOpts(linearFormatter(decimals, a.step < 1e-4)),
		"showMinLabel": onTick(a.min), "showMaxLabel": onTick(a.max),
	}
	return m
}

// linearFormatter writes tick values as linearLabel does.
func linearFormatter(decimals int, tinyStep bool) string {
	return fmt.Sprintf(`function (v) { var a = Math.abs(v); if (v === 0) { return '0'; } if (a >= 1e5 || %t) { return String(Number(v.toPrecision(6))).replace('e+', 'e'); } return v.toFixed(%d); }`, tinyStep, decimals)
}

// decadeFormatter labels every step-th decade from 10^loExp as 10 with a
// Unicode superscript exponent, and nothing else. Like axisLabelFormatter it
// holds no double quote or backslash.
func decadeFormatter(loExp, step int) string {
	return fmt.Sprintf(`function (v) { var e = Math.round(Math.log(v) / Math.LN10); if (Math.abs(v / Math.pow(10, e) - 1) > 1e-6 || ((e - %d) %% %d + %d) %% %d !== 0) { return ''; } var sup = {'-': '⁻', '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹'}; return '10' + String(e).split('').map(function (c) { return sup[c]; }).join(''); }`, loExp, step, step, step)
}
