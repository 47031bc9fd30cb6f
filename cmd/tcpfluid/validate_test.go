package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/seeds"
	"github.com/tcpfluid/tcpfluid/validate"
)

// validateJSON runs validate with --format json and decodes what it printed.
func validateJSON(t *testing.T, args ...string) (map[string]any, error) {
	t.Helper()
	out, err := runCLI(t, append([]string{"validate", "--format", "json"}, args...)...)
	var v map[string]any
	if jerr := json.Unmarshal([]byte(out), &v); jerr != nil {
		t.Fatalf("%v (run error %v) in %q", jerr, err, out)
	}
	return v, err
}

// A response point within tolerance: docs/cli.md's JSON shape and no error (exit code 0).
func TestCLIValidatePoint(t *testing.T) {
	v, err := validateJSON(t, "--algo", "newreno", "--loss-model", "periodic", "--p", "1e-3", "--rtt", "100ms")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"point", "form", "seed", "metrics", "ok"} {
		if _, ok := v[k]; !ok {
			t.Errorf("no %q in %v", k, v)
		}
	}
	if v["ok"] != true {
		t.Errorf("ok = %v, want true", v["ok"])
	}
	for _, m := range v["metrics"].([]any) {
		for _, k := range []string{"metric", "fluid", "packet", "error_kind", "error", "tolerance", "tolerance_reason", "judged", "ok"} {
			if _, ok := m.(map[string]any)[k]; !ok {
				t.Errorf("metric lacks %q: %v", k, m)
			}
		}
	}
}

// Out of tolerance: the JSON is printed first, then the error, which is not a usage error,
// so main exits with code 1. Tahoe under random loss at p = 1e-2 times out where the fluid
// law does not, 12.5% ± 1.4% apart: a point that fails.
func TestCLIValidateExitCode1(t *testing.T) {
	v, err := validateJSON(t, "--algo", "tahoe", "--loss-model", "random", "--p", "1e-2")
	if !errors.Is(err, validate.ErrOutOfTolerance) || errors.Is(err, errUsage) {
		t.Fatalf("error %v, want validate.ErrOutOfTolerance (exit code 1)", err)
	}
	if v["ok"] != false {
		t.Errorf("ok = %v, want false", v["ok"])
	}
	if !strings.Contains(err.Error(), "mean_cwnd_pkts") {
		t.Errorf("error %q does not name the failing metric", err)
	}
	out, err := runCLI(t, "validate", "--format", "table", "--algo", "tahoe", "--loss-model", "random", "--p", "1e-2")
	if !errors.Is(err, validate.ErrOutOfTolerance) || !strings.Contains(out, "FAIL") {
		t.Errorf("table run: error %v, output %q: want the table with FAIL, then the error", err, out)
	}
}

// A scenario: the JSON names it, has per-flow and per-link metrics, and the error agrees
// with ok.
func TestCLIValidateScenario(t *testing.T) {
	v, err := validateJSON(t, "--builtin", "seed003-dumbbell", "--algo", "newreno")
	if v["scenario"] != "seed003-dumbbell" {
		t.Errorf("scenario %v", v["scenario"])
	}
	if (err == nil) != (v["ok"] == true) || (err != nil && !errors.Is(err, validate.ErrOutOfTolerance)) {
		t.Errorf("ok %v with error %v", v["ok"], err)
	}
	seen := map[string]bool{}
	for _, m := range v["metrics"].([]any) {
		seen[m.(map[string]any)["metric"].(string)] = true
	}
	for _, k := range []string{"mean_cwnd_pkts", "mean_throughput_bps", "loss_events", "mean_queue_pkts", "utilisation"} {
		if !seen[k] {
			t.Errorf("no %s metric", k)
		}
	}
}

// --seeds N judges the means over N seeds: the JSON names the seeds, each judged metric
// but a sign check carries the interval of its per-seed error, and the table says what it
// shows.
func TestCLIValidateSeeds(t *testing.T) {
	v, _ := validateJSON(t, "--builtin", "parking-lot", "--duration", "20s", "--seeds", "2", "--seed", "3")
	if s, ok := v["seeds"].([]any); !ok || len(s) != 2 || s[0] != 3.0 || s[1] != 4.0 {
		t.Errorf("seeds %v, want [3 4]", v["seeds"])
	}
	for _, m := range v["metrics"].([]any) {
		m := m.(map[string]any)
		if _, ok := m["ci95"]; ok != (m["judged"] == true && m["error_kind"] != "sign") {
			t.Errorf("%s %v: ci95 %v, want one exactly for a judged metric but a sign check", m["metric"], m["link"], m["ci95"])
		}
	}
	out, _ := runCLI(t, "validate", "--builtin", "parking-lot", "--duration", "20s", "--seeds", "2", "--format", "table")
	if !strings.Contains(out, "means over seeds 1–2") || !strings.Contains(out, "over the 2 seeds the packet sender timed out") {
		t.Errorf("table does not say it shows means over seeds 1–2:\n%s", out)
	}
}

// header_bytes in a scenario file reaches both engines: the link carries MSS + 40 bytes per
// packet, so neither delivers more than capacity × 1460/1500 of goodput.
func TestCLIValidateHeaderBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.yaml")
	yaml := `name: header
duration: 20s
links: [{name: l, capacity: 10Mbps, delay: 20ms, buffer: 1bdp}]
paths: [{name: p, links: [l]}]
flows: [{name: f, algorithm: newreno, path: p, mss: 1460B, header_bytes: 40B}]
`
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	v, _ := validateJSON(t, "--scenario", path)
	for _, m := range v["metrics"].([]any) {
		m := m.(map[string]any)
		if m["metric"] != "mean_throughput_bps" {
			continue
		}
		for _, e := range []string{"fluid", "packet"} {
			if got, max := m[e].(float64), 10e6*1460/1500; got > max*(1+1e-9) || got < 0.8*max {
				t.Errorf("%s throughput %.6g bit/s, want at most %.6g (headers on the wire) and near it", e, got, max)
			}
		}
	}
}

// Seed 003's Table 3 from the CLI: the paper's numbers beside both engines, judged.
func TestCLIValidateTable3(t *testing.T) {
	out, err := runCLI(t, "validate", "--table3", "--format", "table")
	if err != nil && !errors.Is(err, validate.ErrOutOfTolerance) {
		t.Fatal(err)
	}
	for _, want := range []string{"tahoe", "reno", "newreno", "vegas", "649.64", "637.38", "659.95", "723.24", "1475", "vegas > newreno > tahoe > reno", "newreno > tahoe  6 of 20", "not judged"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	// The verdict is honest: exit 1 exactly when an engine misses the table (seeds.Gaps).
	v, err := validateJSON(t, "--table3", "--builtin", "seed003-dumbbell")
	if (err == nil) != (v["ok"] == true) || len(v["rows"].([]any)) != 4 {
		t.Errorf("json: error %v, ok %v, %d rows", err, v["ok"], len(v["rows"].([]any)))
	}
}

func TestCLIValidateUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--p", "1e-3"},
		{"--algo", "reno"},
		{"--algo", "reno", "--p", "2"},
		{"--algo", "reno", "--p", "x"},
		{"--algo", "reno", "--p", "1e-3", "--loss-model", "droptail"},
		{"--algo", "nosuch", "--p", "1e-3"},
		{"--algo", "reno", "--p", "1e-3", "--builtin", "seed000-dumbbell"},
		{"--table3", "--builtin", "seed000-dumbbell"},
		{"--table3", "--algo", "reno"},
		{"--builtin", "nosuch"},
		{"--builtin", "seed003-dumbbell", "--rtt", "50ms"}, // a point's flag with a scenario
		{"--builtin", "seed003-dumbbell", "--format", "xml"},
		{"--builtin", "seed003-dumbbell", "--seeds", "0"},
		{"--builtin", "seed003-dumbbell", "--seeds", "2", "--seed", "18446744073709551615"},
		{"--table3", "--seeds", "2"},
		{"--algo", "reno", "--p", "1e-3", "--seeds", "2"},
	} {
		_, err := runCLI(t, append([]string{"validate"}, args...)...)
		if !errors.Is(err, errUsage) {
			t.Errorf("validate %v: error %v, want a usage error (exit code 2)", args, err)
		}
	}
}

// validate --all's Table 3 line names a judged pair out of the table's order as its
// failure, also when every cell is within tolerance, and counts a pair ns-2 leaves to the
// CBR phase as not judged in either order.
func TestTable3LineNamesRanking(t *testing.T) {
	row := seeds.Table3Row{Algorithm: "reno",
		Table: seeds.Table3Numbers{DeliveredPkts: 1000, GoodputBps: 1e6},
		Fluid: seeds.Table3Numbers{DeliveredPkts: 1010, GoodputBps: 1.05e6}, Packet: seeds.Table3Numbers{DeliveredPkts: 990, GoodputBps: 0.98e6}}
	undecided := seeds.Table3Order{Higher: "newreno", Lower: "tahoe", Judged: false, FluidOK: false, PacketOK: true}
	for _, c := range []struct {
		fluidOK bool
		want    string
		failed  int
	}{{true, "reno, fluid vs table", 0}, {false, "reno, fluid vs table; fluid ranks reno above tahoe", 1}} {
		decided := seeds.Table3Order{Higher: "tahoe", Lower: "reno", Judged: true, FluidOK: c.fluidOK, PacketOK: true}
		l := table3Line(&seeds.Table3Report{Rows: []seeds.Table3Row{row}, Orders: []seeds.Table3Order{decided, undecided},
			FluidRankingOK: c.fluidOK, PacketRankingOK: true, OK: c.fluidOK})
		if l.Subject != c.want || l.OK != c.fluidOK || l.Failed != c.failed || l.NotJudged != 2 || l.Passed != 6-c.failed {
			t.Errorf("fluid order ok %v: subject %q, ok %v, %d ok, %d out, %d not judged; want %q, %d out, 2 not judged",
				c.fluidOK, l.Subject, l.OK, l.Passed, l.Failed, l.NotJudged, c.want, c.failed)
		}
	}
}
