package main

import (
	"bytes"
	"encoding/csv"

	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	gojson "github.com/goccy/go-json"

	"github.com/urfave/cli/v2"
)

// Output formats. The default is table when stdout is a terminal and json otherwise, so
// that scripts and notebooks get JSON without asking. JSON and CSV carry every number at
// full precision (the shortest text that reads back to the same float64); tables round
// for reading. A figure that is undefined (a fit of one point, an RTT exponent of equal
// RTTs) is null in JSON, empty in CSV and "-" in tables: never NaN.
const (
	formatTable = "table"
	formatJSON  = "json"
	formatCSV   = "csv"
)

var formats = []string{formatTable, formatJSON, formatCSV}

func formatFlag() *cli.GenericFlag {
	f := enumFlag("format", "", formats, "output format")
	f.DefaultText = "table on a terminal, json otherwise"
	return f
}

func outputFormat(c *cli.Context) string {
	if f := enumOf(c, "format"); f != "" {
		return f
	}
	if isTerminal(c.App.Writer) {
		return formatTable
	}
	return formatJSON
}

// writeJSON writes v indented. A NaN or infinity that reached the output is a bug of the
// command (undefined figures are null): it is reported as one, and nothing is written.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := gojson.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		var unsupported *gojson.UnsupportedValueError
		if errors.As(err, &unsupported) {
			return fmt.Errorf("internal error: %s in the JSON output, where an undefined figure should be null (please report it with the command line)", unsupported.Str)
		}
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

// full writes v for CSV at full precision; NaN and infinities (undefined) are empty.
func full(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// fullPtr writes an optional value for CSV: empty when absent or undefined.
func fullPtr(p *float64) string {
	if p == nil {
		return ""
	}
	return full(*p)
}

// cell formats v for a table with verb, "-" when undefined.
func cell(verb string, v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf(verb, v)
}

// cellPtr formats an optional value for a table, "-" when absent or undefined.
func cellPtr(verb string, p *float64) string {
	if p == nil {
		return "-"
	}
	return cell(verb, *p)
}

// finite is p's value when defined, else nil (null in JSON).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// csvWriter writes CSV records; err is the first error.
type csvWriter struct{ w *csv.Writer }

func newCSV(w io.Writer, header ...string) *csvWriter {
	cw := &csvWriter{w: csv.NewWriter(w)}
	cw.row(header...)
	return cw
}

func (c *csvWriter) row(cells ...string) { _ = c.w.Write(cells) }

func (c *csvWriter) flush() error {
	c.w.Flush()
	return c.w.Error()
}

// fixed3 formats v with three decimals, without the "-0.000" of tiny negative values, "-"
// when undefined.
func fixed3(v float64) string {
	s := cell("%.3f", v)
	if s == "-0.000" {
		return "0.000"
	}
	return s
}
