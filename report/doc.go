// Package report writes tcpfluid's output: an HTML page of interactive charts
// and tables, the same figures as static SVG/PNG/PDF files, and the data
// behind every figure and table as CSV and JSON.
//
// The package knows nothing of how the numbers are made. Callers describe what
// to show with plain values — Figure (x–y series on linear or logarithmic
// axes), Heatmap (a value over a two-parameter grid), Table (rows of strings) —
// group them into Sections of a Page, and call Write:
//
//	dir/index.html              interactive charts (go-echarts) and HTML tables
//	dir/figures/<ID>.svg, .png, .pdf  static figures (gonum/plot), one per Figure and Heatmap
//	dir/data/<ID>.csv, .json    the data of every Figure, Heatmap and Table
//	dir/echarts.min.js          only with EChartsLocal
//
// WriteFigure and WriteHeatmap write one static figure; the format follows the
// file extension (.svg, .png or .pdf).
//
// # Logarithmic axes and bad values
//
// Neither ECharts nor gonum/plot can place zero, negative, NaN or infinite
// values on a logarithmic axis, and a NaN breaks a line anywhere. Before
// drawing, a point is left out when a coordinate is not finite, is beyond
// ±1e300 (where axis arithmetic overflows), or is not positive on a
// logarithmic axis. The number left out, by reason, is appended to the
// figure's note on the page and recorded in its JSON data file under
// "not_drawn". A
// heatmap cell without a finite value is left empty (grey in static
// figures). The data files keep every point: a non-finite value is written
// as null in JSON and as an empty field in CSV, so no NaN or Inf is ever
// emitted. A figure without drawable points still renders, with empty axes.
//
// # Figures
//
// Both renderers draw a Figure alike: the same axis ranges and ticks, and the
// same look per series. Series without Series.Of take colours from the
// Okabe–Ito palette (less its yellow) and markers from eight shapes, so that
// no two share both (up to 56); long lines carry about ten markers, so they
// can be told apart in greyscale, and from the eighth series on lines change
// their dash too. A series with Of — a fit or a published reference for
// measured points — is a line in its series' colour, solid or dashed
// (Reference), listed once per Key in the static legend and toggled with its
// series in the interactive one. Logarithmic axes are labelled 10^k at
// decades only, with minor ticks at 2..9, and end at 1, 2 or 5 times a power
// of ten around the data; linear axes have labels at a step of 1, 2, 2.5 or
// 5 times a power of ten, the x axis ending where the data end. Figure.YMax
// fixes the top of the y axis (1 for Jain's index). The static legend goes
// into the corner or edge of the data area farthest from the data, in up to
// three columns, or beside or below the plot when no place is free; the
// interactive legend never pages. SVG and PDF figures draw text as glyph
// outlines, so they need no font where they are shown.
//
// # Data files
//
// A Figure's CSV has the header "series,x,y" and one row per point; its JSON
// holds the labels, axis kinds, note, "not_drawn" counts and, per series, the
// arrays "x" and "y". A Heatmap's CSV has the header "x,y,z" and one row per
// cell (y outer, x inner); its JSON holds "x", "y" and "z" with z[iy][ix]. A
// Table's CSV has the table's columns as header; its JSON holds "columns" and
// "rows".
//
// # Working offline
//
// By default (EChartsInline) the page embeds ECharts, so index.html alone
// works without a network. The ECharts build ships with this package
// (third_party/echarts/echarts.min.js, version EChartsVersion, Apache-2.0,
// with its LICENSE and NOTICE) and is compiled into every program that uses
// it, so a report needs neither npm, node_modules nor a checkout of the
// module. EChartsLocal copies the same file next to index.html instead, and
// EChartsRemote loads ECharts from go-echarts' asset host. Options.EChartsFile
// replaces the embedded build with another file; FindECharts finds one in
// $TCPFLUID_ECHARTS or node_modules for callers that want that.
//
// Every page ends with a short script that, once the page has loaded, marks
// each chart's <figure> with data-rendered="yes" or "no", data-series (the
// number of series ECharts holds) and data-points (the number of data points
// in them). Where ECharts could not be loaded (a remote page offline, a local
// page without its echarts.min.js), the chart's static SVG (else PNG) figure
// is shown in its place, with a line saying so, and data-fallback-shown
// records whether that image loaded; a <noscript> image does the same without
// JavaScript. The headless-browser tests read these attributes; a reader
// whose page stays blank can read them too.
package report
