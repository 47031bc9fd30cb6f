package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runStatus runs the app in-process as main does and returns stdout, the exit code and
// the line main prints for the error.
func runStatus(t *testing.T, args ...string) (string, int, string) {
	t.Helper()
	out, errOut, err := runApp(t, args...)
	code, line := exitStatus(err)
	if errOut != "" {
		t.Errorf("%v: stderr %q, want nothing off a terminal (main prints the error)", args, errOut)
	}
	return out, code, line
}

// Every usage error exits 2 with one line that names what was wrong and what is allowed,
// before any work starts: unknown flags (with the nearest one) and commands, values that
// do not parse or are out of range (zero, negative, bare numbers where a unit is
// expected), options the run would ignore, --param targets no flow runs, extra arguments,
// and work beyond a bound. Each of issue 19's reproducers is here.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string // substrings of the line
	}{
		// unknown flags and commands: one line and a hint, not the help
		{[]string{"run", "--bogus"}, []string{"run: unknown flag --bogus", "see tcpfluid run --help"}},
		{[]string{"run", "--buildin", "x"}, []string{"unknown flag --buildin; did you mean --builtin?"}},
		{[]string{"--bogus"}, []string{"unknown flag --bogus", "see tcpfluid --help"}},
		{[]string{"frobnicate"}, []string{`unknown command "frobnicate"`}},
		{[]string{"respons"}, []string{`unknown command "respons"; did you mean response?`}},
		{[]string{"scenario", "frob"}, []string{`unknown command "frob" for tcpfluid scenario; want show or list`}},
		{[]string{"help", "frob"}, []string{"frob"}},
		{[]string{"sweep", "merge", "a.json", "--format", "csv"}, []string{"flag --format after the files"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "extra"}, []string{`run: unexpected argument "extra"`}},
		{[]string{"response", "--algo", "reno", "cubic"}, []string{`unexpected argument "cubic"`, "comma-separated"}},
		{[]string{"sweep", "buffer=1"}, []string{`unexpected argument "buffer=1"`, "a command: merge"}},
		{[]string{"run", "--format"}, []string{"--format needs a value"}},
		{[]string{"run", "--sack=maybe"}, []string{"--sack=maybe: a switch is true or false"}},
		// values that do not parse, or are out of range: the flag, the value, the range
		{[]string{"response", "--points", "abc"}, []string{"--points abc: want a whole number from 1 to 1000"}},
		{[]string{"response", "--points", "0"}, []string{"--points 0: want a whole number from 1 to 1000"}},
		{[]string{"response", "--points", "2.5"}, []string{"--points 2.5: want a whole number"}},
		{[]string{"response", "--seed", "-1"}, []string{"--seed -1: want a whole number from 0 to 18446744073709551615"}},
		{[]string{"response", "--warmup-losses", "0"}, []string{"--warmup-losses 0: want a whole number from 1 to 1000000"}},
		{[]string{"response", "--workers", "0"}, []string{"--workers 0: want a whole number from 1 to 4096"}},
		{[]string{"response", "--rtt", "100"}, []string{"--rtt 100: no unit; want one of ns, us, ms, s, min, h"}},
		{[]string{"response", "--rtt", "0"}, []string{"--rtt 0: want a duration from 1 us to 3600 s"}},
		{[]string{"response", "--rtt", "-5ms"}, []string{"--rtt -5ms: want a duration from 1 us"}},
		{[]string{"response", "--rtt", "1e-300s"}, []string{"--rtt 1e-300s: want a duration from 1 us to 3600 s"}},
		{[]string{"response", "--rtt", "NaN"}, []string{"--rtt NaN: no number"}},
		{[]string{"response", "--rtt", "3 days"}, []string{`--rtt "3 days": unknown unit "days"`}},
		{[]string{"response", "--mss", "0"}, []string{"--mss 0: want a size >= 1 B"}},
		{[]string{"response", "--mss", "1460"}, []string{"--mss 1460: no unit", "KiB"}},
		{[]string{"response", "--p-min", "0"}, []string{"--p-min 0: want a number in [1e-12, 1)"}},
		{[]string{"response", "--p-min", "1e-300"}, []string{"--p-min 1e-300: want a number in [1e-12, 1)"}},
		{[]string{"response", "--p-min", "2"}, []string{"--p-min 2: want a number in [1e-12, 1)"}},
		{[]string{"response", "--p-min", "1e-3", "--p-max", "1e-4"}, []string{"--p-min 0.001 above --p-max 0.0001"}},
		{[]string{"response", "--loss-model", "bursty"}, []string{"--loss-model bursty: want periodic or random"}},
		{[]string{"response", "--format", "xml"}, []string{"--format xml: want one of table, json, csv"}},
		{[]string{"response", "--algo", "nope"}, []string{`--algo nope: unknown algorithm "nope"; want one of`}},
		{[]string{"response", "--algo", "cubic@foo"}, []string{`--algo cubic@foo: cubic has no variant "foo"; want cubic@linux or cubic@ns3`}},
		{[]string{"response", "--algo", "colo@linux"}, []string{`--algo colo@linux: colo has no variants (got "colo@linux"); want colo`}},
		{[]string{"response", "--algo", "reno,reno"}, []string{"--algo reno,reno: reno twice"}},
		{[]string{"response", "--warmup-losses", "1000000"}, []string{"response: about", "loss cycles", "beyond --max-cycles 10000000"}},
		{[]string{"converge", "--bandwidth", "1kbps"}, []string{"--bandwidth 1 kb/s", "bandwidth-delay product of 0.0125 packets, want at least 1"}},
		{[]string{"converge", "--bandwidth", "fast"}, []string{`--bandwidth fast: "fast": no number`}},
		{[]string{"converge", "--bandwidth", "1e9"}, []string{`--bandwidth 1e9: "1e9": no unit`, "Mbps"}},
		{[]string{"converge", "--mss", "0B"}, []string{`--mss 0B: "0B": want a size >= 1 B`}},
		{[]string{"fairness", "--mode", "odd"}, []string{"--mode odd: want one of same, rtt, friendliness"}},
		{[]string{"fairness", "--flows", "0"}, []string{"--flows 0: want a whole number from 1 to 10000"}},
		{[]string{"fairness", "--buffer", "0pkts"}, []string{"--buffer 0pkts: want a finite buffer > 0"}},
		{[]string{"fairness", "--buffer", "20"}, []string{"--buffer 20: want packets or bandwidth-delay products with the unit, such as 500pkts or 1bdp"}},
		{[]string{"fairness", "--mode", "rtt", "--access-delay", "5ms"}, []string{"--access-delay 5ms: the rtt mode makes each access delay up"}},
		{[]string{"fairness", "--mode", "rtt", "--bottleneck-delay", "30ms"}, []string{"--bottleneck-delay 30ms: want at most half the smallest of --rtts (50 ms)"}},
		{[]string{"fairness", "--mode", "friendliness", "--start-gap", "300s"}, []string{"5 flows with --start-gap 300 s: the last would start at 1200 s, not before --duration 1000 s"}},
		{[]string{"fairness", "--window", "0"}, []string{"--window 0: want a duration > 0"}},
		{[]string{"fairness", "-p", "-1"}, []string{"-p -1: want a number in [0, 1)"}},
		{[]string{"fairness", "--duration", "100s", "--window", "60s"}, []string{"--window 60s: want at most half the measured 50 s"}},
		{[]string{"fairness", "--measure-from", "2000s"}, []string{"--measure-from 2000s: want a time before --duration 1000 s"}},
		{[]string{"fairness", "--mode", "rtt", "--flows", "4"}, []string{"--flows 4: only --mode same uses it (this is --mode rtt)"}},
		{[]string{"fairness", "--mode", "friendliness", "--against", "reno:x"}, []string{"--against reno:x: want ALGO:COUNT"}},
		{[]string{"fairness", "--param", "colo.gamma=2"}, []string{"--param colo.gamma=2: no flow runs colo (the algorithms here: reno)"}},
		{[]string{"fairness", "--window", "1ns"}, []string{"fairness: about", "trace rows", "beyond --max-samples 2000000"}},
		{[]string{"fairness", "--duration", "1e7s"}, []string{"fairness: about", "round trips", "beyond --max-rounds 10000000"}},
		// run: scenario, parameters and engine options
		{[]string{"run"}, []string{"need --scenario FILE or --builtin NAME"}},
		{[]string{"run", "--builtin", "nope"}, []string{"--builtin nope: want one of modern-bbr-cubic-1bdp,"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--scenario", "x.yaml"}, []string{"give --scenario or --builtin, not both"}},
		{[]string{"run", "--scenario", filepath.Join(dir, "none.yaml")}, []string{"--scenario", "none.yaml", "no such file"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--algo", "nope"}, []string{`--algo nope: unknown algorithm "nope"`}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--engine", "ns3"}, []string{"--engine ns3: want fluid or packet"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--duration", "-5s"}, []string{"--duration -5s: want a duration > 0"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--duration", "30"}, []string{"--duration 30: no unit"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--param", "foo.c=1"}, []string{`--param foo.c=1: unknown algorithm "foo"`}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--param", "cubic.c=100"}, []string{"--param cubic.c=100: cubic.c = 100 is outside [0.01, 10]"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--param", "colo.gama=2"}, []string{`--param colo.gama=2: colo has no parameter "gama"; want one of gamma,`}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--param", "colo.gamma=2"}, []string{"--param colo.gamma=2: no flow of scenario seed000-dumbbell runs colo (its flows run reno"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--param", "cubic@bar.beta=0.7"}, []string{`--param cubic@bar.beta=0.7: cubic has no variant "bar"`}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--param", "reno"}, []string{"--param reno: want algo.name=value"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--param", "reno.x=1"}, []string{"--param reno.x=1: reno has no parameters"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--jitter", "1ms"}, []string{"--jitter 1ms: only --engine packet and the fluid's --form hybrid-recovery count a jittered sender's packets (this is the hybrid form)"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--form", "meanfield", "--jitter", "1ms"}, []string{"(this is the meanfield form)"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--engine", "packet", "--jitter", "-1ms"}, []string{"--jitter -1ms: want a duration >= 0"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--engine", "packet", "--form", "meanfield"}, []string{"--form meanfield: the packet engine has no forms"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--fold-delay", "0.7"}, []string{"--fold-delay 0.7: want a number from 0 to 0.5"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--fold-delay", "2%"}, []string{"--fold-delay 2%"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--engine", "packet", "--fold-delay", "0.02"}, []string{"--fold-delay 0.02: the packet engine runs every flow"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--engine", "packet", "--reactions", "exact"}, []string{"--reactions exact: the packet engine reacts at each ACK"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--reactions", "some"}, []string{"--reactions some"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--sample", "1s", "--format", "json"}, []string{"--sample 1s: the interval of the time series, which only --trace FILE and --format csv write"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--initial-ssthresh", "-1"}, []string{"--initial-ssthresh -1: want a number of packets >= 0"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--sample", "1ns", "--format", "csv"}, []string{"run: about 4e+11 trace rows (100 s / 1 ns sampling, 4 rows a sample), beyond --max-samples 2000000"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--trace", filepath.Join(dir, "t.csv"), "--sample", "1us"}, []string{"run: about 4e+08 trace rows", "--max-samples"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--duration", "1e9s"}, []string{"run: about 4.17e+09 round trips of the fluid engine (1 flow over 1e+09 s), beyond --max-rounds 10000000"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--engine", "packet", "--duration", "1e6s"}, []string{"run: about", "packet transmissions", "beyond --max-packets 200000000"}},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--trace", filepath.Join(dir, "no", "such", "t.csv")}, []string{"--trace", "no such file or directory"}},
		// validate
		{[]string{"validate"}, []string{"need a scenario"}},
		{[]string{"validate", "--algo", "reno"}, []string{"--algo: a response point needs -p"}},
		{[]string{"validate", "--algo", "reno", "-p", "1e-9"}, []string{"validate: about 4.1e+10 packets of the packet engine (41 loss events at p = 1e-09), beyond --max-packets 200000000"}},
		{[]string{"validate", "--algo", "reno", "-p", "1e-4", "--losses", "1000000"}, []string{"validate: about 1e+10 packets", "--max-packets"}},
		{[]string{"validate", "--algo", "reno", "-p", "0"}, []string{"-p 0: want a number in (0, 1)"}},
		{[]string{"validate", "--algo", "reno", "-p", "1e-3", "--param", "cubic.beta=0.7"}, []string{"--param cubic.beta=0.7: no flow runs cubic"}},
		{[]string{"validate", "--builtin", "seed003-dumbbell", "--rtt", "50ms"}, []string{"--rtt is a response point's"}},
		{[]string{"validate", "--algo", "reno", "-p", "1e-3", "--duration", "5s"}, []string{"--duration is a scenario's"}},
		{[]string{"validate", "--all", "--algo", "reno"}, []string{"--all runs every built-in as it is: drop --algo"}},
		{[]string{"validate", "--builtin", "seed000-dumbbell", "--duration", "1e9s"}, []string{"validate: about", "beyond --max-rounds"}},
		// sweep, stability, the study, completion
		{[]string{"sweep", "--param", "colo.gamma=1"}, []string{"no flow of scenario seed000-dumbbell runs colo"}},
		{[]string{"sweep", "--jitter", "1ms"}, []string{"--jitter 1ms: only the packet engine"}},
		{[]string{"sweep", "--shards", "0"}, []string{"--shards 0: want a whole number from 1"}},
		{[]string{"sweep", "--param", "duration=1e7"}, []string{"sweep: about", "for the costliest point", "beyond --max-rounds"}},
		{[]string{"stability", "--rtt", "200"}, []string{"--rtt 200: no unit; want one of ns, us"}},
		{[]string{"stability", "--rtt", "10ms:1:5"}, []string{"--rtt 10ms:1:5: max: no unit"}},
		{[]string{"stability", "--bandwidth", "15"}, []string{"--bandwidth 15: no unit"}},
		{[]string{"stability", "--queue", "fifo"}, []string{"--queue fifo: want red or droptail"}},
		{[]string{"stability", "--perturb", "0.1"}, []string{"--perturb 0.1: perturbs the start of --simulate, which is not given"}},
		{[]string{"stability", "--queue", "droptail", "--red-min", "10"}, []string{"--red-min 10: only with --queue red"}},
		{[]string{"stability", "--simulate", "1e9s"}, []string{"stability: about", "beyond --max-rounds"}},
		{[]string{"--static", "gif"}, []string{`--static gif: "gif" is not a figure format`}},
		{[]string{"--echarts", "cdn"}, []string{"--echarts cdn: want inline, local or remote"}},
		{[]string{"--format", "yaml"}, []string{"--format yaml: want one of table, json, csv"}},
		{[]string{"--echarts-file", filepath.Join(dir, "none.js")}, []string{"--echarts-file", "none.js", "no such file"}},
		{[]string{"completion", "tcsh"}, []string{`completion "tcsh": want bash, zsh or fish`}},
		{[]string{"scenario", "show"}, []string{"scenario show: want one built-in scenario NAME"}},
		{[]string{"scenario", "show", "nope"}, []string{"scenario show nope: want one of modern-bbr-cubic-1bdp"}},
		{[]string{"algos", "--format", "xml"}, []string{"--format xml"}},
	} {
		start := time.Now()
		out, code, line := runStatus(t, tc.args...)
		if code != exitUsage || strings.Contains(line, "\n") || !strings.HasPrefix(line, "tcpfluid: usage: ") {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line \"tcpfluid: usage: ...\"", tc.args, code, line)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(line, w) {
				t.Errorf("%v: %q lacks %q", tc.args, line, w)
			}
		}
		if out != "" {
			t.Errorf("%v: printed %q before refusing", tc.args, out)
		}
		if d := time.Since(start); d > 5*time.Second { // work would take minutes; a loaded machine may take a while to refuse
			t.Errorf("%v: refused after %v, want before any work", tc.args, d)
		}
	}
}

// Undefined figures are null in JSON, empty in CSV and "-" in tables, never NaN: the RTT
// exponent of equal RTTs (issue 19: "json: unsupported value: NaN", exit 1) and the fit of
// a single loss rate.
func TestUndefinedIsNull(t *testing.T) {
	fair := []string{"fairness", "--mode", "rtt", "--rtts", "50ms,50ms", "--duration", "100s"}
	out, code, line := runStatus(t, append(fair, "--format", "json")...)
	if code != 0 {
		t.Fatalf("json: exit %d %s", code, line)
	}
	var v struct {
		Results []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if e, ok := v.Results[0]["rtt_unfairness_exponent"]; !ok || e != nil {
		t.Errorf("rtt_unfairness_exponent %v (present %v), want null", e, ok)
	}
	if j, _ := v.Results[0]["jain"].(float64); !(j > 0.9) {
		t.Errorf("jain %v, want two equal flows' index near 1", v.Results[0]["jain"])
	}
	out, code, _ = runStatus(t, append(fair, "--format", "csv")...)
	if code != 0 || strings.Contains(strings.ToLower(out), "nan") || !strings.Contains(out, ",,") {
		t.Errorf("csv: exit %d, want empty cells and no NaN:\n%s", code, out)
	}
	out, code, _ = runStatus(t, append(fair, "--format", "table")...)
	if code != 0 || strings.Contains(out, "NaN") || !strings.Contains(out, "RTT exponent -") {
		t.Errorf("table: exit %d, want \"RTT exponent -\":\n%s", code, out)
	}
	resp := []string{"response", "--algo", "reno", "--points", "1", "--p-min", "1e-3", "--p-max", "1e-3"}
	out, code, _ = runStatus(t, append(resp, "--format", "json")...)
	if code != 0 || !strings.Contains(out, `"c": null`) || !strings.Contains(out, `"fit_points": 1`) {
		t.Errorf("one-point fit JSON: exit %d, want c null:\n%s", code, out)
	}
	out, _, _ = runStatus(t, append(resp, "--format", "csv")...)
	if rows := strings.Split(strings.TrimSpace(out), "\n"); len(rows) != 2 || strings.Split(rows[1], ",")[8] != "" {
		t.Errorf("one-point fit CSV: want an empty fit_c:\n%s", out)
	}
	out, _, _ = runStatus(t, append(resp, "--format", "table")...)
	if fields := strings.Fields(strings.Split(out, "\n")[2]); fields[1] != "-" || strings.Contains(out, "NaN") {
		t.Errorf("one-point fit table: want c -:\n%s", out)
	}
}

// CSV carries every digit: each number reads back to the float64 the JSON holds (issue
// 15: response, fairness and converge had 6 significant digits).
func TestCSVFullPrecision(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		jsonValue func(map[string]any) float64
		column    string
	}{
		{[]string{"response", "--algo", "cubic", "--points", "2", "--p-min", "1e-4", "--p-max", "1e-3"},
			func(v map[string]any) float64 {
				return v["results"].([]any)[0].(map[string]any)["points"].([]any)[0].(map[string]any)["mean_cwnd_pkts"].(float64)
			}, "mean_cwnd_pkts"},
		{[]string{"converge", "--algo", "cubic", "--bandwidth", "1Gbps", "--mss", "1500B"},
			func(v map[string]any) float64 {
				return v["results"].([]any)[0].(map[string]any)["fill_time_s"].(float64)
			}, "fill_time_s"},
		{[]string{"fairness", "--duration", "100s"},
			func(v map[string]any) float64 {
				return v["results"].([]any)[0].(map[string]any)["shares"].([]any)[0].(map[string]any)["throughput_bps"].(float64)
			}, "throughput_bps"},
	} {
		js, code, line := runStatus(t, append(tc.args, "--format", "json")...)
		if code != 0 {
			t.Fatalf("%v: %s", tc.args, line)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(js), &v); err != nil {
			t.Fatal(err)
		}
		want := tc.jsonValue(v)
		csv, _, _ := runStatus(t, append(tc.args, "--format", "csv")...)
		rows := strings.Split(strings.TrimSpace(csv), "\n")
		col := slices.Index(strings.Split(rows[0], ","), tc.column)
		got, err := strconv.ParseFloat(strings.Split(rows[1], ",")[col], 64)
		if err != nil || got != want {
			t.Errorf("%v: CSV %s = %v (%v), JSON %v: want the same float64", tc.args, tc.column, got, err, want)
		}
	}
}

// Every command that prints results takes --format table, json and csv: json parses, csv
// has a header and rows, table is neither.
func TestEveryFormat(t *testing.T) {
	for _, args := range [][]string{
		{"algos"},
		{"scenario", "list"},
		{"run", "--builtin", "seed004-lfn", "--duration", "2s"},
		{"response", "--algo", "reno", "--points", "2", "--p-min", "1e-3", "--p-max", "1e-2"},
		{"converge", "--algo", "reno", "--bandwidth", "10Mbps", "--mss", "1000B"},
		{"fairness", "--duration", "30s"},
		{"sweep", "--duration", "2s", "--param", "buffer=0.5,1", "--metric", "throughput_bps"},
		{"validate", "--algo", "reno", "-p", "1e-2"},
		{"stability"},
	} {
		for _, format := range formats {
			out, code, line := runStatus(t, append(args, "--format", format)...)
			if code != 0 && code != exitFailed { // validate may judge a metric out of tolerance
				t.Errorf("%v --format %s: exit %d %s", args, format, code, line)
				continue
			}
			switch format {
			case formatJSON:
				if !json.Valid([]byte(out)) {
					t.Errorf("%v --format json: not JSON:\n%s", args, out)
				}
			case formatCSV:
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if len(lines) < 2 || json.Valid([]byte(out)) || !strings.Contains(out, ",") {
					t.Errorf("%v --format csv: not CSV:\n%s", args, out)
				}
			default:
				if json.Valid([]byte(out)) || out == "" {
					t.Errorf("%v --format table: not a table:\n%s", args, out)
				}
			}
			if strings.Contains(out, "NaN") {
				t.Errorf("%v --format %s: NaN in\n%s", args, format, out)
			}
		}
	}
}

// The bounds refuse work beyond them and let it through when raised: the same run is
// refused at --max-rounds 1000 and runs at 5000; the trace bound is exact.
func TestWorkBounds(t *testing.T) {
	run := []string{"run", "--builtin", "seed000-dumbbell", "--duration", "300s", "--format", "json"}
	if _, code, line := runStatus(t, append(run, "--max-rounds", "1000")...); code != exitUsage || !strings.Contains(line, "about 1.25e+03 round trips") {
		t.Errorf("--max-rounds 1000: exit %d %s", code, line)
	}
	if _, code, line := runStatus(t, append(run, "--max-rounds", "5000")...); code != 0 {
		t.Errorf("--max-rounds 5000: exit %d %s", code, line)
	}
	// 10 s sampled every 1 s: 11 sample times × (1 flow + 3 links) = 44 rows.
	trace := []string{"run", "--builtin", "seed000-dumbbell", "--duration", "10s", "--sample", "1s", "--format", "csv"}
	if _, code, line := runStatus(t, append(trace, "--max-samples", "43")...); code != exitUsage || !strings.Contains(line, "about 44 trace rows") {
		t.Errorf("--max-samples 43: exit %d %s", code, line)
	}
	out, code, line := runStatus(t, append(trace, "--max-samples", "44")...)
	if code != 0 || strings.Count(out, "\n") != 45 {
		t.Errorf("--max-samples 44: exit %d %s, %d lines", code, line, strings.Count(out, "\n"))
	}
	if _, code, line := runStatus(t, "validate", "--algo", "reno", "-p", "1e-3", "--max-packets", "40000"); code != exitUsage || !strings.Contains(line, "about 4.1e+04 packets") {
		t.Errorf("validate --max-packets 40000: exit %d %s", code, line)
	}
	// A trace file that could not be written is refused before the run, and a failed run
	// leaves no file behind.
	path := filepath.Join(t.TempDir(), "trace.csv")
	if _, code, _ := runStatus(t, "run", "--builtin", "seed000-dumbbell", "--duration", "5s", "--trace", path, "--format", "json"); code != 0 {
		t.Errorf("--trace: exit %d", code)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(b), "t_s,flow") {
		t.Errorf("--trace file: %v %.40q", err, b)
	}
}

// Ctrl-C (a cancelled context) ends the default study in its first phase, and exit
// status 130 follows from an interrupted run.
func TestInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	var out bytes.Buffer
	start := time.Now()
	err := newApp(&out, &out).RunContext(ctx, []string{"tcpfluid", "--out", t.TempDir(), "--static", "", "--echarts", "remote"})
	if !errors.Is(err, context.Canceled) || time.Since(start) > 20*time.Second {
		t.Errorf("study after Ctrl-C: %v after %v, want context.Canceled at once", err, time.Since(start))
	}
	if code, line := exitStatus(fmt.Errorf("%w (%w)", errInterrupted, err)); code != exitInterrupted || line != "tcpfluid: interrupted" {
		t.Errorf("exit %d %q, want 130", code, line)
	}
}

// Progress goes to stderr on a terminal only, and is cleared: stdout holds the results.
func TestProgressOnStderr(t *testing.T) {
	forceProgress = true
	defer func() { forceProgress = false }()
	var out, errOut bytes.Buffer
	err := newApp(&out, &errOut).RunContext(context.Background(), []string{"tcpfluid", "run", "--builtin", "seed004-lfn", "--format", "json"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "run seed004-lfn (fluid)") || !json.Valid(out.Bytes()) {
		t.Errorf("stderr %q, stdout valid JSON %v", errOut.String(), json.Valid(out.Bytes()))
	}
}

// Shell completion: the scripts load the program's own completions, which list the
// commands and a command's flags; the man page documents every command.
func TestCompletionAndMan(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		out, code, line := runStatus(t, "completion", sh)
		if code != 0 || !strings.Contains(out, "tcpfluid") {
			t.Errorf("completion %s: exit %d %s\n%s", sh, code, line, out)
		}
	}
	// urfave/cli reads the word being completed from os.Args.
	complete := func(args ...string) string {
		saved := os.Args
		defer func() { os.Args = saved }()
		os.Args = append(append([]string{"tcpfluid"}, args...), "--generate-bash-completion")
		out, _, _ := runStatus(t, append(args, "--generate-bash-completion")...)
		return out
	}
	out := complete()
	for _, cmd := range []string{"run", "response", "sweep", "validate", "completion"} {
		if !strings.Contains(out, cmd+"\n") {
			t.Errorf("completion of commands lacks %s:\n%s", cmd, out)
		}
	}
	if out = complete("response", "--p"); !strings.Contains(out, "--p-min\n") || strings.Contains(out, "--rtt") {
		t.Errorf("completion of response --p: want --p-min and not --rtt:\n%s", out)
	}
	man, code, _ := runStatus(t, "man")
	if code != 0 || !strings.HasPrefix(man, ".nh") && !strings.Contains(man, ".TH") {
		t.Fatalf("man: exit %d\n%.200s", code, man)
	}
	for _, cmd := range commands() {
		if !cmd.Hidden && !strings.Contains(man, cmd.Name) {
			t.Errorf("man page lacks %s", cmd.Name)
		}
	}
	// docs/tcpfluid.1 is this page (go generate ./cmd/tcpfluid writes it).
	file, err := os.ReadFile(filepath.Join("..", "..", "docs", "tcpfluid.1"))
	if err != nil || string(file) != man {
		t.Errorf("docs/tcpfluid.1 is not the current man page (%v): run go generate ./cmd/tcpfluid", err)
	}
}

// tcpfluid flags tells bindings what each flag reads and the unit a plain number in base
// units takes: --rtt 0.05 is refused, --rtt 0.05s is not.
func TestFlagsForBindings(t *testing.T) {
	out, code, _ := runStatus(t, "flags")
	var v map[string]map[string]flagInfo
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
		t.Fatalf("flags: exit %d, %v", code, err)
	}
	for _, tc := range []struct{ cmd, flag, unit string }{
		{"response", "rtt", "s"}, {"converge", "bandwidth", "bps"}, {"response", "mss", "B"}, {"fairness", "buffer", "bdp"},
		{"stability", "buffer", ""}, {"response", "p-min", ""}, {"run", "sample", "s"}, {"sweep merge", "format", ""},
	} {
		if got, ok := v[tc.cmd][tc.flag]; !ok || got.BaseUnit != tc.unit {
			t.Errorf("%s --%s: %+v (present %v), want base unit %q", tc.cmd, tc.flag, got, ok, tc.unit)
		}
	}
	if _, code, _ := runStatus(t, "response", "--algo", "reno", "--points", "1", "--p-min", "1e-2", "--p-max", "1e-2", "--rtt", "0.05s"); code != 0 {
		t.Errorf("--rtt 0.05s: exit %d", code)
	}
}
