package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
)

// Output formats. The default is table when stdout is a terminal and json otherwise, so
// that scripts and notebooks get JSON without asking.
const (
	formatTable = "table"
	formatJSON  = "json"
	formatCSV   = "csv"
)

func formatFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "format",
		Usage: "output format: table, json or csv (default: table on a terminal, json otherwise)",
	}
}

func outputFormat(c *cli.Context) (string, error) {
	f := c.String("format")
	switch f {
	case formatTable, formatJSON, formatCSV:
		return f, nil
	case "":
		if isTerminal(c.App.Writer) {
			return formatTable, nil
		}
		return formatJSON, nil
	}
	return "", fmt.Errorf("%w: --format %q: want table, json or csv", errUsage, f)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

// fixed3 formats v with three decimals, without the "-0.000" of tiny negative values.
func fixed3(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	if s == "-0.000" {
		return "0.000"
	}
	return s
}
