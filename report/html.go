package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"gonum.org/v1/plot/palette/moreland"
)

// localAssetsHost makes go-echarts refer to its scripts relative to
// index.html instead of its remote asset host.
const localAssetsHost = "./"

// chartHeight is the height of every interactive chart; the width follows
// the page.
const chartHeight = "440px"

// heatmapLegendStops is the number of colours passed to ECharts' visualMap,
// sampled from the colour map of the static heatmaps.
const heatmapLegendStops = 9

// axisLabelFormatter shows very small and very large tick values in
// exponent form (1e-6 rather than 0.000001, 1.5e6 rather than 1500000), as
// shortNumber does for the static figures. It must not contain double
// quotes or backslashes: go-echarts embeds it in a JSON string.
const axisLabelFormatter = `function (v) { var a = Math.abs(v); var r = Number(v.toPrecision(6)); return (a !== 0 && (a < 1e-3 || a >= 1e5)) ? r.toExponential().replace('e+', 'e') : String(r); }`

// heatmapTooltip shows a cell's parameters (held in its name) and value;
// the same quoting rule applies.
const heatmapTooltip = `function (p) { return echarts.format.encodeHTML(p.name) + '<br>' + echarts.format.encodeHTML(p.seriesName) + ' = ' + p.value[2]; }`

// scriptClose matches the text that would end an inline <script> early.
var scriptClose = regexp.MustCompile(`(?i)</script`)

// blankLine separates paragraphs of plain text.
var blankLine = regexp.MustCompile(`\n\s*\n`)

type chartView struct {
	ID      string // the figure's ID, used as HTML anchor and file name
	ChartID string // the id of the ECharts container
	Title   string
	Element template.HTML
	Script  template.HTML
	Note    string
	Files   []string
	// Fallback is the static figure shown in place of the chart when
	// ECharts cannot draw it; empty when no SVG or PNG is written.
	Fallback string
}

type tableView struct {
	Table
	Files []string
}

type sectionView struct {
	Anchor string
	Title  string
	Text   []string
	Charts []chartView
	Tables []tableView
}

type pageView struct {
	Title    string
	Intro    []string
	Scripts  []template.HTML
	Sections []sectionView
}

// writeHTML writes dir/index.html and, with EChartsLocal, dir/echarts.min.js;
// js is the content of echarts.min.js for EChartsLocal and EChartsInline.
func writeHTML(dir string, p Page, o Options, js []byte) error {
	host := ""
	if o.ECharts != EChartsRemote {
		host = localAssetsHost
	}
	view := pageView{Title: p.Title, Intro: paragraphs(p.Intro)}
	var assets []string
	seenAsset := make(map[string]bool)
	addAssets := func(a opts.Assets) {
		for _, src := range a.JSAssets.Values {
			if !seenAsset[src] {
				seenAsset[src] = true
				assets = append(assets, src)
			}
		}
	}
	n := 0
	for i, s := range p.Sections {
		sv := sectionView{Anchor: fmt.Sprintf("section-%d", i+1), Title: s.Title, Text: paragraphs(s.Text)}
		for _, f := range s.Figures {
			n++
			chartID := "chart_" + strconv.Itoa(n)
			line, note := figureChart(f, chartID, host)
			snip := line.RenderSnippet()
			sv.Charts = append(sv.Charts, chartView{
				ID: f.ID, ChartID: chartID, Title: f.Title, Note: note, Files: staticFiles(f.ID, o.Static),
				Fallback: fallbackFigure(f.ID, o.Static),
				Element:  template.HTML(snip.Element), Script: template.HTML(snip.Script),
			})
			addAssets(line.GetAssets())
		}
		for _, h := range s.Heatmaps {
			n++
			chartID := "chart_" + strconv.Itoa(n)
			hm := heatmapChart(h, chartID, host)
			snip := hm.RenderSnippet()
			sv.Charts = append(sv.Charts, chartView{
				ID: h.ID, ChartID: chartID, Title: h.Title, Files: staticFiles(h.ID, o.Static),
				Fallback: fallbackFigure(h.ID, o.Static),
				Element:  template.HTML(snip.Element), Script: template.HTML(snip.Script),
			})
			addAssets(hm.GetAssets())
		}
		for _, t := range s.Tables {
			sv.Tables = append(sv.Tables, tableView{Table: t, Files: dataFiles(t.ID)})
		}
		view.Sections = append(view.Sections, sv)
	}
	if n > 0 {
		scripts, err := scriptTags(dir, assets, o, js)
		if err != nil {
			return err
		}
		view.Scripts = scripts
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, view); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), buf.Bytes(), 0o644)
}

// scriptTags returns the <script> elements that load ECharts as o asks,
// writing js next to index.html for EChartsLocal.
func scriptTags(dir string, assets []string, o Options, js []byte) ([]template.HTML, error) {
	switch o.ECharts {
	case EChartsInline:
		inlined := scriptClose.ReplaceAll(js, []byte(`<\/script`))
		return []template.HTML{template.HTML("<script>\n" + string(inlined) + "\n</script>")}, nil
	case EChartsLocal:
		if err := os.WriteFile(filepath.Join(dir, opts.EchartsJS), js, 0o644); err != nil {
			return nil, err
		}
	}
	tags := make([]template.HTML, len(assets))
	for i, a := range assets {
		tags[i] = template.HTML(`<script src="` + template.HTMLEscapeString(a) + `"></script>`)
	}
	return tags, nil
}

func staticFiles(id string, formats []string) []string {
	files := make([]string, 0, len(formats)+2)
	for _, f := range formats {
		files = append(files, "figures/"+id+"."+f)
	}
	return append(files, dataFiles(id)...)
}

// fallbackFigure returns the static figure that a browser can show in place
// of an interactive chart: the SVG, else the PNG, else "".
func fallbackFigure(id string, formats []string) string {
	for _, want := range []string{"svg", "png"} {
		for _, f := range formats {
			if f == want {
				return "figures/" + id + "." + f
			}
		}
	}
	return ""
}

func dataFiles(id string) []string { return []string{"data/" + id + ".csv", "data/" + id + ".json"} }

// baseChartOptions are the options shared by every chart.
func baseChartOptions(chartID, host, title string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: chartID, Width: "100%", Height: chartHeight, AssetsHost: host}),
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithAnimation(false),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Right: "2%", Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png"},
			Restore:     &opts.ToolBoxFeatureRestore{Show: opts.Bool(true)},
		}}),
	}
}

// visualMapVisitor writes the heatmap's visualMap itself: go-echarts'
// VisualMap stores min and max as float32 and drops them when zero.
type visualMapVisitor struct {
	charts.BaseConfigurationVisitor
	lo, hi  float64
	colours []string
}

func (v visualMapVisitor) VisitVisualMaps([]opts.VisualMap) interface{} {
	return []map[string]any{{
		"type": "continuous", "min": v.lo, "max": v.hi, "calculable": true,
		"orient": "vertical", "right": 10, "top": "middle",
		"inRange":   map[string]any{"color": v.colours},
		"formatter": opts.FuncOpts(axisLabelFormatter),
	}}
}

// heatmapChart builds the interactive chart of h on two category axes, so
// cells are equally sized whatever the spacing of X and Y.
func heatmapChart(h Heatmap, chartID, host string) *charts.HeatMap {
	lo, hi := colourRange(h.Z)
	cm := moreland.Kindlmann()
	cm.SetMin(lo)
	cm.SetMax(hi)
	colours := make([]string, heatmapLegendStops)
	for i := range colours {
		// Interpolating this way neither overflows nor leaves [lo, hi].
		f := float64(i) / float64(heatmapLegendStops-1)
		c, err := cm.At(math.Min(math.Max(lo*(1-f)+hi*f, lo), hi))
		if err != nil {
			panic(fmt.Sprintf("report: colour map at a value inside its range: %v", err))
		}
		r, g, b, _ := c.RGBA()
		colours[i] = fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
	}

	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(baseChartOptions(chartID, host, h.Title)...)
	hm.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: opts.FuncOpts(heatmapTooltip)}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Left: "90", Right: "110", Top: "60", Bottom: "60"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: h.XLabel, NameLocation: "middle", NameGap: 30, Data: categoryNames(h.X)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Name: h.YLabel, NameLocation: "middle", NameGap: 65, Data: categoryNames(h.Y), AxisLabel: &opts.AxisLabel{Show: opts.Bool(true)}}),
		charts.WithVisualMapOpts(opts.VisualMap{}),
	)
	hm.Accept(visualMapVisitor{lo: lo, hi: hi, colours: colours})
	data := make([]opts.HeatMapData, 0, len(h.X)*len(h.Y))
	for iy, row := range h.Z {
		for ix, z := range row {
			if !finite(z) {
				continue
			}
			name := fmt.Sprintf("%s = %s, %s = %s", h.XLabel, categoryLabel(h.X[ix]), h.YLabel, categoryLabel(h.Y[iy]))
			data = append(data, opts.HeatMapData{Name: name, Value: [3]float64{float64(ix), float64(iy), z}})
		}
	}
	hm.AddSeries(h.ZLabel, data)
	return hm
}

func categoryNames(vs []float64) []string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = categoryLabel(v)
	}
	return names
}

// paragraphs splits plain text at blank lines.
func paragraphs(text string) []string {
	var out []string
	for _, p := range blankLine.Split(strings.TrimSpace(text), -1) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// numeric reports whether a table cell holds a number, to right-align it.
func numeric(cell string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
	return err == nil
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{"numeric": numeric}).Parse(pageHTML))

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tcpfluid/report">
<title>{{.Title}}</title>
{{range .Scripts}}{{.}}
{{end -}}
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 1040px; margin: 0 auto; padding: 1em 1.5em 3em; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 2em; }
nav ol { padding-left: 1.4em; }
figure.chart { margin: 1.5em 0; }
figure.chart .container { width: 100%; }
figcaption { font-size: 0.9em; color: #555; }
figcaption .files a { margin-right: 0.8em; }
.chart-missing { background: #fff3cd; border: 1px solid #e0c36c; padding: 0.3em 0.6em; font-size: 0.9em; }
img.chart-static { display: block; width: 100%; max-width: 900px; height: auto; margin: 0 auto; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; }
</style>
</head>
<body>
{{if .Title}}<h1>{{.Title}}</h1>{{end}}
{{range .Intro}}<p>{{.}}</p>
{{end -}}
{{if gt (len .Sections) 1}}<nav><ol>{{range .Sections}}{{if .Title}}<li><a href="#{{.Anchor}}">{{.Title}}</a></li>{{end}}{{end}}</ol></nav>
{{end -}}
{{range .Sections}}
<section id="{{.Anchor}}">
{{if .Title}}<h2>{{.Title}}</h2>{{end}}
{{range .Text}}<p>{{.}}</p>
{{end -}}
{{range .Charts}}
<figure class="chart" id="{{.ID}}" data-chart="{{.ChartID}}"{{if .Fallback}} data-fallback="{{.Fallback}}" data-title="{{.Title}}"{{end}}>
{{.Element}}
{{if .Fallback}}<noscript><img class="chart-static" src="{{.Fallback}}" alt="{{.Title}}"></noscript>
{{end -}}
<figcaption>{{if .Note}}<p>{{.Note}}</p>{{end}}<p class="files">{{range .Files}}<a href="{{.}}">{{.}}</a>{{end}}</p></figcaption>
{{.Script}}
</figure>
{{end -}}
{{range .Tables}}
<div class="table-wrap" id="{{.ID}}">
<table>
{{if .Title}}<caption>{{.Title}}</caption>{{end}}
<thead><tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td{{if numeric .}} class="num"{{end}}>{{.}}</td>{{end}}</tr>
{{end -}}
</tbody>
</table>
{{if .Note}}<p class="note">{{.Note}}</p>{{end}}
<p class="files">{{range .Files}}<a href="{{.}}">{{.}}</a> {{end}}</p>
</div>
{{end -}}
</section>
{{end}}
<script>
// Record on each chart's <figure> whether ECharts rendered it, with how many
// series and data points. Where ECharts could not be loaded or failed, show
// the static figure in the chart's place.
window.addEventListener("load", function () {
  var loaded = typeof echarts !== "undefined";
  document.querySelectorAll("figure.chart").forEach(function (fig) {
    var el = document.getElementById(fig.getAttribute("data-chart"));
    var inst = loaded && el ? echarts.getInstanceByDom(el) : null;
    var series = inst ? (inst.getOption().series || []) : [];
    var points = 0;
    series.forEach(function (s) { points += (s.data || []).length; });
    fig.setAttribute("data-rendered", inst ? "yes" : "no");
    fig.setAttribute("data-series", String(series.length));
    fig.setAttribute("data-points", String(points));
    if (inst) {
      return;
    }
    var msg = document.createElement("p");
    msg.className = "chart-missing";
    var src = fig.getAttribute("data-fallback");
    if (el && el.parentNode) {
      el.parentNode.style.display = "none";
    }
    if (src) {
      msg.textContent = "ECharts could not be loaded, so this is the static figure; the interactive chart needs the report written with --echarts inline (the default) or local.";
      var img = document.createElement("img");
      img.className = "chart-static";
      img.src = src;
      img.alt = fig.getAttribute("data-title") || fig.id;
      img.addEventListener("load", function () { fig.setAttribute("data-fallback-shown", img.naturalWidth > 0 ? "yes" : "no"); });
      img.addEventListener("error", function () { fig.setAttribute("data-fallback-shown", "no"); });
      fig.insertBefore(img, fig.firstChild);
    } else {
      msg.textContent = "This chart was not drawn because ECharts could not be loaded, and no SVG or PNG figure was written; the data are linked below.";
    }
    fig.insertBefore(msg, fig.firstChild);
  });
});
</script>
</body>
</html>
`
