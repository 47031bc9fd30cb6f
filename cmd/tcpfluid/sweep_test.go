package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// sweepArgs is a small sweep: 2 buffers × 3 random loss rates × 2 flow counts of 4 s of
// seed 000's dumbbell, 12 points.
var sweepArgs = []string{"sweep", "--duration", "4s", "--param", "buffer=0.5,1", "--param", "p=0,1e-4,3e-4",
	"--param", "flows=1:2:2", "--metric", "throughput_bps,loss_rate,jain,completion_time_s", "--seed", "3"}

func TestSweepMergedShardsEqualWhole(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"json", "csv"} {
		whole, stderr, err := runApp(t, append(sweepArgs, "--format", format, "--workers", "1")...)
		if err != nil {
			t.Fatal(err)
		}
		if stderr != "" {
			t.Errorf("stderr %q, want nothing when it is not a terminal", stderr)
		}
		rows := strings.Count(whole, `"point"`)
		if format == "csv" {
			rows = strings.Count(whole, "\n") - strings.Count(whole, "#") - 1 // less the spec, the notes and the header
		}
		if rows != 12 {
			t.Fatalf("%s output has not 12 rows:\n%s", format, whole)
		}
		files := []string{"merge", "--format", format}
		for k := 2; k >= 0; k-- { // merged in reverse order
			part, _, err := runApp(t, append(sweepArgs, "--format", format, "--workers", "2", "--shard", fmt.Sprintf("%d/3", k))...)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, fmt.Sprintf("shard%d.%s", k, format))
			if err := os.WriteFile(path, []byte(part), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, path)
		}
		merged, _, err := runApp(t, append([]string{"sweep"}, files...)...)
		if err != nil {
			t.Fatal(err)
		}
		if merged != whole {
			t.Errorf("%s: merged shards differ from the whole sweep:\n%s\nwant\n%s", format, merged, whole)
		}
		// A missing shard is an error naming the missing points.
		_, _, err = runApp(t, append([]string{"sweep"}, files[:len(files)-1]...)...)
		if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), "4 of 12 points missing, the first [0 3 6 9] (shards [0/3] are missing)") {
			t.Errorf("%s: merge without shard 0: %v, want exit 1 naming the missing shard", format, err)
		}
	}
}

func TestSweepShardFromEnv(t *testing.T) {
	for _, c := range []struct {
		name   string
		shard  string
		shards int
		env    map[string]string
		k, n   int
		err    string
	}{
		{"none", "", 0, nil, 0, 1, ""},
		{"flag", "2/5", 0, map[string]string{envSlurmTaskID: "1", envSlurmTaskCount: "3"}, 2, 5, ""},
		{"slurm count", "", 0, map[string]string{envSlurmTaskID: "2", envSlurmTaskCount: "4"}, 2, 4, ""},
		{"slurm min max", "", 0, map[string]string{envSlurmTaskID: "3", envSlurmTaskMin: "1", envSlurmTaskMax: "8"}, 2, 8, ""},
		{"slurm step", "", 0, map[string]string{envSlurmTaskID: "5", envSlurmTaskMin: "1", envSlurmTaskMax: "7", envSlurmTaskStep: "2"}, 2, 4, ""},
		{"slurm shards", "", 6, map[string]string{envSlurmTaskID: "5", envSlurmTaskCount: "4"}, 5, 6, ""},
		{"slurm off step", "", 0, map[string]string{envSlurmTaskID: "4", envSlurmTaskMin: "1", envSlurmTaskMax: "7", envSlurmTaskStep: "2"}, 0, 0, "not one of 4 evenly spaced tasks"},
		{"slurm no count", "", 0, map[string]string{envSlurmTaskID: "4"}, 0, 0, "give --shards N"},
		{"slurm bad", "", 0, map[string]string{envSlurmTaskID: "x"}, 0, 0, `$SLURM_ARRAY_TASK_ID = "x"`},
		{"k8s", "", 4, map[string]string{envJobCompletionIndex: "3"}, 3, 4, ""},
		{"k8s no shards", "", 0, map[string]string{envJobCompletionIndex: "3"}, 0, 0, "give --shards N (the Job's spec.completions)"},
		{"k8s index too big", "", 3, map[string]string{envJobCompletionIndex: "3"}, 0, 0, "want an index < 3"},
		{"slurm first", "", 0, map[string]string{envSlurmTaskID: "1", envSlurmTaskCount: "2", envJobCompletionIndex: "0"}, 1, 2, ""},
		{"both flags", "0/2", 2, nil, 0, 0, "give one of them"},
		{"bad flag", "2/2", 0, nil, 0, 0, `shard "2/2", want k/n`},
		{"shards alone", "", 3, nil, 0, 0, "--shards 3 without"},
	} {
		k, n, err := resolveShard(c.shard, c.shards, func(name string) string { return c.env[name] })
		if c.err != "" {
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want a usage error mentioning %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || k != c.k || n != c.n {
			t.Errorf("%s: shard %d/%d, %v; want %d/%d", c.name, k, n, err, c.k, c.n)
		}
	}
}

func TestSweepCLIErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--param", "bandwidth=1"}, `unknown sweep parameter "bandwidth"`},
		{[]string{"sweep", "--param", "rtt=10ms:5ms:3"}, "min 0.01 >= max 0.005"},
		{[]string{"sweep", "--metric", "thruput"}, `unknown sweep metric "thruput", want one of throughput_bps`},
		{[]string{"sweep", "--param", "colo.gamma=1"}, "no flow of scenario seed000-dumbbell runs colo"},
		{[]string{"sweep", "--shard", "3"}, `--shard: invalid analysis settings: shard "3"`},
		{[]string{"sweep", "--engine", "ns3"}, `--engine ns3: want fluid or packet`},
		{[]string{"sweep", "buffer=1"}, `unexpected argument "buffer=1"`},
		{[]string{"sweep", "merge"}, "no files"},
		{[]string{"sweep", "--replications", "0"}, "--replications 0"},
		{[]string{"sweep", "--jitter", "1ms"}, "only the packet engine jitters"},
		{[]string{"sweep", "--initial-ssthresh", "-1"}, "--initial-ssthresh -1"},
		{[]string{"sweep", "--metric", "share:nope"}, `has no flow "nope"`},
	} {
		_, _, err := runApp(t, c.args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want a usage error mentioning %q", c.args, err, c.want)
		}
	}
}

// Merge refuses, with exit 1 naming the file, parts of different sweeps (algorithm, seed,
// metrics, replications, engine options), of mixed formats, overlapping, or missing; and
// merges shards with replications into exactly the unsharded output, in CSV and in JSON.
func TestSweepMergeChecks(t *testing.T) {
	dir := t.TempDir()
	base := []string{"sweep", "--algo", "colo", "--duration", "3s", "--param", "p=0,1e-4,3e-4", "--seed", "5"}
	write := func(name string, extra ...string) string {
		t.Helper()
		args := append(append([]string{}, base...), extra...)
		if !slices.Contains(extra, "--metric") {
			args = append(args, "--metric", "throughput_bps,loss_events")
		}
		out, _, err := runApp(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, format := range []string{"csv", "json"} {
		f := []string{"--format", format}
		whole := write("whole."+format, append(f, "--replications", "3")...)
		s0 := write("s0."+format, append(f, "--replications", "3", "--shard", "0/2")...)
		s1 := write("s1."+format, append(f, "--replications", "3", "--shard", "1/2")...)
		merged, _, err := runApp(t, "sweep", "merge", "--format", format, s1, s0)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := os.ReadFile(whole); merged != string(want) {
			t.Errorf("%s: merged shards with replications differ from the whole sweep:\n%s\nwant\n%s", format, merged, want)
		}
		if !strings.Contains(merged, "throughput_bps_ci95") {
			t.Errorf("%s: no confidence intervals in\n%s", format, merged)
		}
		other := func(name string, extra ...string) string {
			return write(name+"."+format, append(append(f, "--shard", "1/2"), extra...)...)
		}
		for _, c := range []struct {
			part, want string
		}{
			{other("reno", "--replications", "3", "--algo", "reno"), "fingerprint"},
			{other("seed", "--replications", "3", "--seed", "6"), "seed 6, not 5"},
			{other("reps", "--replications", "4"), "4 replications, not 3"},
			{other("metrics", "--replications", "3", "--metric", "throughput_bps"), "metrics [throughput_bps], not [throughput_bps loss_events]"},
			{other("engine", "--replications", "3", "--engine", "packet", "--sack"), "engine packet, not fluid"},
			{s0, "point 0 is in both"},
		} {
			_, _, err := runApp(t, "sweep", "merge", "--format", format, s0, c.part)
			if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Base(s0)) {
				t.Errorf("%s: merge of %s: %v, want exit 1 naming the part and %q", format, filepath.Base(c.part), err, c.want)
			}
		}
	}
	_, _, err := runApp(t, "sweep", "merge", filepath.Join(dir, "s0.csv"), filepath.Join(dir, "s1.json"))
	if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), "format json, not csv") || !strings.Contains(err.Error(), "s1.json") {
		t.Errorf("CSV with JSON: %v, want exit 1 naming s1.json", err)
	}
	for _, path := range []string{"/nonexistent/shard.json", write("nonsweep.csv", "--format", "json")[:0] + filepath.Join(dir, "plain.csv")} {
		os.WriteFile(filepath.Join(dir, "plain.csv"), []byte("point,p,throughput_bps\n0,0,1\n"), 0o644)
		_, _, err := runApp(t, "sweep", "merge", path)
		if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), path) {
			t.Errorf("merge %s: %v, want exit 1 naming the file", path, err)
		}
	}
}

// sweep applies run's scenario options: --initial-ssthresh lets γ act, and --delayed-ack,
// --engine packet --sack --jitter reach the runs.
func TestSweepScenarioOptions(t *testing.T) {
	args := []string{"sweep", "--algo", "colo", "--param", "colo.gamma=0.5,3", "--duration", "8s", "--metric", "first_loss_drops_pkts", "--format", "json"}
	drops := func(extra ...string) []float64 {
		t.Helper()
		out, _, err := runApp(t, append(append([]string{}, args...), extra...)...)
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Rows []map[string]*float64 }
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		var d []float64
		for _, r := range v.Rows {
			d = append(d, *r["first_loss_drops_pkts"])
		}
		return d
	}
	if d := drops(); d[0] != d[1] {
		t.Errorf("without --initial-ssthresh γ moved the overshoot %v: the concave part cannot run", d)
	}
	if d := drops("--initial-ssthresh", "7192"); !(d[1] < d[0]) {
		t.Errorf("with --initial-ssthresh 7192, drops at γ 0.5 and 3 are %v, want fewer at 3", d)
	}
	// COLO grows per packet acknowledged, so delayed ACKs do not move it: the base scenario
	// (its fingerprint) shows the option arrived.
	fingerprint := func(extra ...string) string {
		out, _, err := runApp(t, append(append([]string{}, args...), extra...)...)
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Spec struct{ Fingerprint string } }
		json.Unmarshal([]byte(out), &v)
		return v.Spec.Fingerprint
	}
	if fingerprint("--delayed-ack") == fingerprint() {
		t.Errorf("--delayed-ack did not reach the base scenario")
	}
	if _, _, err := runApp(t, append(append([]string{}, args...), "--engine", "packet", "--sack", "--jitter", "1ms", "--duration", "4s")...); err != nil {
		t.Errorf("packet options: %v", err)
	}
}

func TestSweepAlgorithmParameterTable(t *testing.T) {
	out, _, err := runApp(t, "sweep", "--algo", "colo", "--param", "colo.beta_min=0.3,0.8", "--duration", "20s",
		"--metric", "loss_events", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "sweep of seed000-dumbbell, fluid engine, seed 1: 2 of 2 points") ||
		!strings.Contains(lines[1], "colo.beta_min") || !strings.Contains(lines[2], "0.3") || !strings.Contains(lines[3], "0.8") {
		t.Errorf("table:\n%s", out)
	}
}

func TestSweepChartFiles(t *testing.T) {
	for _, c := range []struct {
		args  []string
		files []string
	}{
		{[]string{"--param", "p=1e-5:1e-3:3:log"}, []string{"figures/lines-jain.svg", "data/lines-jain.csv"}},
		{[]string{"--param", "buffer=0.5,1", "--param", "rtt=50ms,100ms"}, []string{"figures/heatmap-jain.svg", "figures/lines-jain.svg", "data/heatmap-jain.csv"}},
	} {
		dir := t.TempDir()
		args := append([]string{"sweep", "--duration", "2s", "--metric", "jain,throughput_bps", "--format", "csv", "--out", dir}, c.args...)
		if _, _, err := runApp(t, args...); err != nil {
			t.Fatal(err)
		}
		for _, f := range append(c.files, "index.html", "data/sweep-rows.csv", "figures/lines-throughput_bps.svg") {
			if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
				t.Errorf("%v: %s missing or empty: %v", c.args, f, err)
			}
		}
	}
	if !geometric([]float64{1e-5, 1e-4, 1e-3}) || geometric([]float64{1, 2, 3}) || geometric([]float64{0, 1, 2}) {
		t.Errorf("geometric spacing misjudged")
	}
}

// On a terminal the sweep draws its progress on stderr with the progress library, a bar
// counting the runs, and clears it before the table: stdout holds the results only.
func TestSweepProgressBar(t *testing.T) {
	forceProgress = true
	defer func() { forceProgress = false }()
	out, stderr, err := runApp(t, "sweep", "--duration", "2s", "--param", "p=0,1e-4,3e-4", "--metric", "loss_events", "--format", "csv", "--workers", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stderr, "\r") || !strings.Contains(stderr, "sweep") || !strings.HasSuffix(stderr, "\r") {
		t.Errorf("stderr %q, want a bar drawn and cleared", stderr)
	}
	if strings.Contains(out, "\r") || !strings.HasPrefix(out, "# tcpfluid sweep") {
		t.Errorf("stdout holds more than the CSV:\n%s", out)
	}
	// The bar counts what the sweep reports.
	var buf bytes.Buffer
	app := newApp(&buf, &buf)
	app.Action = func(c *cli.Context) error {
		bar := startProgress(c, "sweep", 0)
		bar.set(1, 3)
		if got := bar.bar.GetMax(); got != 3 {
			t.Errorf("bar of %d, want 3", got)
		}
		bar.done()
		return nil
	}
	if err := app.Run([]string{"tcpfluid"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "1/3") {
		t.Errorf("bar drawn as %q, want 1/3", buf.String())
	}
}
