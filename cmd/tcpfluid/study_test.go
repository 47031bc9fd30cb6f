package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The default study writes the report directory, and its data are the commands' own JSON:
// the numbers in the report equal the CLI's for the same inputs.
func TestStudyReportEqualsCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("the default study takes a few seconds")
	}
	dir := t.TempDir()
	out, err := runCLI(t, "--out", dir, "--echarts", "remote", "--static", "svg", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tcpfluid default study", "fluid vs packet", "seed 003", "report: "} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	for _, f := range []string{"index.html", "figures/response.svg", "data/response-fits.csv", "data/response-fits.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	for file, args := range map[string][]string{
		"response.json": {"response", "--format", "json"},
		"converge.json": {"converge", "--algo", strings.Join(studyAlgorithms(), ","), "--format", "json"},
		"fairness-same.json": {"fairness", "--mode", "same", "--algo", "reno,cubic,compound,colo", "--start-gap", "10s",
			"--format", "json"},
	} {
		cli, err := runCLI(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		report, err := os.ReadFile(filepath.Join(dir, "data", file))
		if err != nil {
			t.Fatal(err)
		}
		if string(report) != cli {
			t.Errorf("data/%s differs from `tcpfluid %s`", file, strings.Join(args, " "))
		}
	}
}
