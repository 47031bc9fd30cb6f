package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/reference"
)

func TestCLIReferenceList(t *testing.T) {
	out, err := runCLI(t, "reference", "--list", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []reference.ModuleRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	by := map[string]reference.ModuleRow{}
	for _, r := range rows {
		by[r.Algorithm] = r
	}
	if r := by["compound"]; r.NS2 == nil || r.NS3 != nil || r.NS3Lacks == "" {
		t.Errorf("compound: %+v", r)
	}
	if r := by["cubic"]; r.NS2 == nil || r.NS2.Name != "cubic" || r.NS3 == nil || r.NS3.Name != "TcpCubic" || !r.Fluid {
		t.Errorf("cubic: %+v", r)
	}
}

func TestCLIReferenceEmit(t *testing.T) {
	dir := t.TempDir()
	out, err := runCLI(t, "reference", "--experiment", "fairness", "--mode", "rtt", "--algo", "reno,compound", "--seeds", "2", "--emit", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"fairness-rtt-reno-seed1/tcpfluid-reference.tcl", "fairness-rtt-reno-seed2/run.sh",
		"fairness-rtt-compound-seed1/tcpfluid-reference.tcl",
	} {
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Errorf("%s not written: %v\n%s", want, err, out)
		}
	}
	// ns-3 has no Compound: said, not written.
	if !strings.Contains(out, "skipped ns3 for fairness-rtt-compound") {
		t.Errorf("no note about ns-3's missing compound:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "fairness-rtt-compound-seed1", "run.sh")); err == nil {
		t.Error("an ns-3 run.sh for compound")
	}
}

// The friendliness mode's competitors are --against's: BBR against one CUBIC flow is an
// experiment of its own name, with both modules in the ns-3 program.
func TestCLIReferenceAgainst(t *testing.T) {
	dir := t.TempDir()
	out, err := runCLI(t, "reference", "--experiment", "fairness", "--mode", "friendliness", "--algo", "bbr", "--against", "cubic:1", "--sim", "ns3", "--emit", dir)
	if err != nil {
		t.Fatal(err)
	}
	run, err := os.ReadFile(filepath.Join(dir, "fairness-friendliness-bbr-vs-cubic1", "run.sh"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(run), " --algos=TcpBbr,TcpCubic ") || !strings.Contains(string(run), " --buffer=2055 ") ||
		!strings.Contains(string(run), " --initCwnd=1 ") {
		t.Errorf("the ns-3 run is not TcpBbr against one TcpCubic over a 1-BDP buffer from tcpfluid's first window:\n%s", run)
	}
	// --buffer deepens the bottleneck's buffer: ten BDPs, in the experiment's name.
	out, err = runCLI(t, "reference", "--experiment", "fairness", "--mode", "friendliness", "--algo", "bbr", "--against", "cubic:1", "--buffer", "10bdp", "--sim", "ns3", "--emit", dir)
	if err != nil {
		t.Fatal(err)
	}
	run, err = os.ReadFile(filepath.Join(dir, "fairness-friendliness-bbr-vs-cubic1-buffer10bdp", "run.sh"))
	if err != nil || !strings.Contains(string(run), " --buffer=20548 ") {
		t.Errorf("10 BDP: %v\n%s\n%s", err, run, out)
	}
	// --initial-cwnd starts every sender there, ns-3's own default (10) included.
	dir = t.TempDir()
	if out, err = runCLI(t, "reference", "--experiment", "fairness", "--mode", "friendliness", "--algo", "bbr", "--against", "cubic:1", "--initial-cwnd", "10", "--sim", "ns3", "--emit", dir); err != nil {
		t.Fatal(err)
	}
	run, err = os.ReadFile(filepath.Join(dir, "fairness-friendliness-bbr-vs-cubic1", "run.sh"))
	if err != nil || !strings.Contains(string(run), " --initCwnd=10 ") {
		t.Errorf("--initial-cwnd 10: %v\n%s\n%s", err, run, out)
	}
}

func TestCLIReferenceErrors(t *testing.T) {
	for _, args := range [][]string{
		{"reference", "--experiment", "fairness", "--against", "cubic:1"},
		{"reference", "--experiment", "response", "--buffer", "2bdp"},
		{"reference", "--experiment", "fairness", "--buffer", "0bdp"},
		{"reference", "--experiment", "fairness", "--mode", "friendliness", "--against", "quic:1"},
		{"reference", "--experiment", "fairness", "--mode", "friendliness", "--against", "cubic:0"},
		{"reference", "--sim", "ns4"},
		{"reference", "--experiment", "bogus"},
		{"reference", "--p", "2"},
		{"reference", "--seeds", "x"},
		{"reference", "--tcpfluid-params", "bsd"},
		{"reference", "--ca-param", "cubic.beta"},
		{"reference", "--engines", "quantum"},
		{"reference", "--experiment", "fairness", "--initial-cwnd", "0"},
		{"reference", "--experiment", "fairness", "--initial-cwnd", "2.5"},
	} {
		if _, err := runCLI(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	// A missing simulator is one line and not a usage error (exit 1).
	t.Setenv("TCPFLUID_NS", "/nonexistent/ns")
	_, err := runCLI(t, "reference", "--sim", "ns2", "--algo", "reno", "--p", "1e-2", "--engines", "")
	if !errors.Is(err, reference.ErrNoSimulator) || errors.Is(err, errUsage) || strings.Contains(err.Error(), "\n") {
		t.Errorf("missing ns-2: %v", err)
	}
}

// --sim none runs tcpfluid's engines alone: the same rows without a simulator.
func TestCLIReferenceTcpfluidOnly(t *testing.T) {
	out, err := runCLI(t, "reference", "--sim", "none", "--algo", "reno,scalable", "--p", "1e-3", "--engines", "fluid", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rep reference.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 2 || rep.Rows[0].Fluid == nil || !(rep.Rows[0].Fluid.MeanCwndPkts > 30) {
		t.Fatalf("rows %+v", rep.Rows)
	}
	if p := rep.Rows[1].Fluid.Params; p["legacy_window"] != 50 || p["a"] != 0.02 {
		t.Errorf("scalable ran with %v, want the linux set", p)
	}
}

// The scenario experiment runs a one-link built-in in tcpfluid's engines (no simulator
// here: --sim none), metric by metric; ns-2, other experiments' flags and scenarios of
// several links are usage errors naming what is wrong.
func TestCLIReferenceScenario(t *testing.T) {
	out, err := runCLI(t, "reference", "--experiment", "scenario", "--builtin", "modern-dctcp-2", "--sim", "none", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rep reference.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Kind != reference.KindScenario || rep.TcpfluidParams != reference.SetNS3 || len(rep.Rows) != 1 {
		t.Fatalf("report %+v", rep)
	}
	seen := map[string]bool{}
	for _, m := range rep.Rows[0].Metrics {
		seen[m.Metric] = true
		if _, ok := m.Values["fluid"]; !ok {
			t.Errorf("%s: no fluid value", m.Metric)
		}
	}
	for _, want := range []string{"mean_cwnd_pkts", "goodput_bps", "loss_events", "mean_queue_pkts", "queue_delay_s", "utilisation", "jain"} {
		if !seen[want] {
			t.Errorf("no %s metric in %v", want, seen)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--builtin", "modern-dctcp-2", "--sim", "ns2"}, "ns-2.35 has no"},
		{[]string{"--builtin", "parking-lot"}, "one link"},
		{[]string{"--builtin", "nope"}, "nope"},
		{[]string{}, "--builtin NAMES or --scenario FILE"},
		{[]string{"--builtin", "modern-dctcp-2", "--mode", "rtt"}, "--mode"},
	} {
		args := append([]string{"reference", "--experiment", "scenario", "--sim", "none"}, tc.args...)
		if tc.want == "ns-2.35 has no" {
			args = append([]string{"reference", "--experiment", "scenario"}, tc.args...)
		}
		_, err := runCLI(t, args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want a usage error naming %q", tc.args, err, tc.want)
		}
	}
	if _, err := runCLI(t, "reference", "--builtin", "modern-dctcp-2", "--sim", "none"); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--experiment scenario") {
		t.Errorf("--builtin without --experiment scenario: %v", err)
	}
	dir := t.TempDir()
	if _, err := runCLI(t, "reference", "--experiment", "scenario", "--builtin", "modern-bufferbloat-pie", "--emit", dir); err != nil {
		t.Fatal(err)
	}
	run, err := os.ReadFile(filepath.Join(dir, "scenario-modern-bufferbloat-pie", "run.sh"))
	if err != nil || !strings.Contains(string(run), "--queueDisc=pie") || !strings.Contains(string(run), "--pieTarget=0.015") {
		t.Errorf("run.sh %q (%v): want ns-3's PIE with its 15 ms target", run, err)
	}
}

// A response row compares the counted fluid at each simulator's realized loss rate with
// that simulator's window: fluid_at_loss/ns2 is that ratio less one.
func TestReferenceRelErrorsAtLoss(t *testing.T) {
	row := &reference.Row{Quantity: "mean_cwnd_pkts", P: 1e-3,
		NS2:         []*reference.Measurement{{Response: &reference.ResponseStats{MeanCwndPkts: 40}, SentPkts: 1e6, DropPkts: 950}},
		FluidAtLoss: map[string]*reference.EngineStats{"ns2": {MeanCwndPkts: 41, P: 9.5e-4}}}
	if got := relErrors(row)["fluid_at_loss/ns2"]; math.Abs(got-0.025) > 1e-12 {
		t.Errorf("fluid_at_loss/ns2 %v, want 41/40 − 1 = 0.025", got)
	}
	if _, ok := relErrors(row)["fluid_at_loss/ns3"]; ok {
		t.Error("fluid_at_loss/ns3 without an ns-3 run")
	}
}

// A reference run shows, on a terminal, which run it is in (a simulator's can take
// minutes): the bar goes to stderr and is cleared, stdout holds the report.
func TestReferenceProgress(t *testing.T) {
	forceProgress = true
	defer func() { forceProgress = false }()
	var out, errOut bytes.Buffer
	err := newApp(&out, &errOut).RunContext(context.Background(), []string{"tcpfluid", "reference", "--sim", "none",
		"--experiment", "converge", "--algo", "reno", "--bandwidth", "100Mbps", "--format", "json"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "tcpfluid converge-reno-1e+08bps") || !json.Valid(out.Bytes()) {
		t.Errorf("stderr %q, stdout valid JSON %v", errOut.String(), json.Valid(out.Bytes()))
	}
}
