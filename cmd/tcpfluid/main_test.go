package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// runApp runs the app in-process as main does and returns stdout, stderr and the error.
func runApp(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = newApp(&out, &errOut).RunContext(context.Background(), append([]string{"tcpfluid"}, args...))
	return out.String(), errOut.String(), err
}

// runCLI runs the app in-process and returns stdout and the error.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := runApp(t, args...)
	return out, err
}

func TestCLIAlgosJSON(t *testing.T) {
	out, err := runCLI(t, "algos", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Algorithms []struct {
			Name   string
			Params []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	names := map[string]bool{}
	for _, a := range v.Algorithms {
		names[a.Name] = true
	}
	for _, want := range []string{"tahoe", "reno", "newreno", "vegas", "scalable", "highspeed", "cubic", "compound", "colo"} {
		if !names[want] {
			t.Errorf("algos lacks %s", want)
		}
	}
}

// run --format json follows the CLI contract's field names.
func TestCLIRunJSON(t *testing.T) {
	out, err := runCLI(t, "run", "--builtin", "seed004-lfn", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	flows := v["flows"].([]any)
	f0 := flows[0].(map[string]any)
	for _, k := range []string{"flow", "name", "algorithm", "path", "mean_throughput_bps", "mean_cwnd_pkts", "loss_events",
		"sent_pkts", "delivered_pkts", "dropped_pkts", "goodput_bps", "completion_time_s"} {
		if _, ok := f0[k]; !ok {
			t.Errorf("flow lacks %q", k)
		}
	}
	if got := f0["goodput_bps"].(float64); got < 0.98*65535*8/0.05 || got > 65535*8/0.05 {
		t.Errorf("no-scaling goodput %.4g bit/s, want just under the 10.49 Mb/s receiver-window cap", got)
	}
	l0 := v["links"].([]any)[0].(map[string]any)
	for _, k := range []string{"link", "mean_queue_pkts", "queue_sd_pkts", "utilisation", "dropped_pkts"} {
		if _, ok := l0[k]; !ok {
			t.Errorf("link lacks %q", k)
		}
	}
}

func TestCLIRunTraceCSV(t *testing.T) {
	out, err := runCLI(t, "run", "--builtin", "seed000-dumbbell", "--format", "csv", "--duration", "5s", "--sample", "1s")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "t_s,flow,subflow,link,cwnd_pkts,ssthresh_pkts,rate_bps,rtt_s,queue_pkts,delivered_pkts" {
		t.Errorf("header %q", lines[0])
	}
	// 6 sample times × (1 flow + 3 links)
	if len(lines) != 1+6*4 {
		t.Errorf("%d lines, want %d", len(lines), 1+6*4)
	}
}

func TestCLIBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--builtin", "seed000-dumbbell", "--algo", "nope"}, "nope"},
		{[]string{"run", "--builtin", "nope"}, "nope"},
		{[]string{"run"}, "--builtin"},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--engine", "ns3"}, "ns3"},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--duration", "-5s"}, "duration"},
		{[]string{"run", "--builtin", "seed000-dumbbell", "--engine", "packet", "--jitter", "soon"}, "jitter"},
		{[]string{"response", "--p-min", "2"}, "p-min"},
		{[]string{"converge", "--bandwidth", "fast"}, "fast"},
		{[]string{"fairness", "--mode", "odd"}, "odd"},
		{[]string{"frobnicate"}, "frobnicate"},
	} {
		_, err := runCLI(t, tc.args...)
		if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want a usage error naming %q", tc.args, err, tc.want)
		}
	}
}

func TestCLIResponseConvergeJSON(t *testing.T) {
	out, err := runCLI(t, "response", "--algo", "reno", "--points", "3", "--p-min", "1e-6", "--p-max", "1e-2", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		RTTS      float64 `json:"rtt_s"`
		LossModel string  `json:"loss_model"`
		Results   []struct {
			Algorithm string
			C, D, R2  float64
			Reference struct{ C, D float64 }
			Points    []struct {
				P            float64
				MeanCwndPkts float64 `json:"mean_cwnd_pkts"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.RTTS != 0.1 || rep.LossModel != "periodic" || len(rep.Results) != 1 || len(rep.Results[0].Points) != 3 {
		t.Fatalf("unexpected response JSON: %s", out)
	}
	if r := rep.Results[0]; r.C < 1.2 || r.C > 1.25 || r.Reference.C == 0 {
		t.Errorf("reno c = %v (reference %v), want sqrt(3/2)", r.C, r.Reference.C)
	}
	out, err = runCLI(t, "converge", "--algo", "newreno", "--bandwidth", "1Gbps", "--mss", "1000B", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var conv struct {
		Results []struct {
			FillTimeS     float64 `json:"fill_time_s"`
			RecoveryTimeS float64 `json:"recovery_time_s"`
			BDPPkts       float64 `json:"bdp_pkts"`
		}
	}
	if err := json.Unmarshal([]byte(out), &conv); err != nil {
		t.Fatal(err)
	}
	if r := conv.Results[0]; r.BDPPkts != 12500 || r.FillTimeS < 1249 || r.FillTimeS > 1251 || r.RecoveryTimeS < 624 || r.RecoveryTimeS > 626 {
		t.Errorf("newreno converge %+v, want BDP 12500, fill 1250 s, recovery 625 s", r)
	}
}

// --initial-ssthresh sets every flow's first slow-start threshold: seed001-mptcp's MPTCP
// subflows start at 400 packets (the testbed's cached ssthresh), 0 gives every flow a fresh
// slow start up to its receiver window (735,440 packets with window scaling), and a negative
// value is a usage error naming the flag.
func TestCLIRunInitialSsthresh(t *testing.T) {
	firstSsthresh := func(args ...string) []string {
		t.Helper()
		out, err := runCLI(t, append([]string{"run", "--builtin", "seed001-mptcp", "--duration", "1s", "--sample", "0.5s", "--format", "csv"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, line := range strings.Split(out, "\n")[1:] {
			col := strings.Split(line, ",")
			if len(col) > 5 && col[0] == "0" && col[1] != "-1" {
				v, err := strconv.ParseFloat(col[5], 64)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, strconv.FormatFloat(v, 'g', 8, 64)) // the CSV has every digit
			}
		}
		return got
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "400 400 735439.61"},
		{[]string{"--initial-ssthresh", "0"}, "735439.61 735439.61 735439.61"},
		{[]string{"--initial-ssthresh", "100"}, "100 100 100"},
	} {
		if got := strings.Join(firstSsthresh(c.args...), " "); got != c.want {
			t.Errorf("%v: ssthresh at 0 s of mptcp/0, mptcp/1, tcp = %s packets, want %s", c.args, got, c.want)
		}
	}
	_, err := runCLI(t, "run", "--builtin", "seed001-mptcp", "--initial-ssthresh", "-1")
	if err == nil || !strings.Contains(err.Error(), "--initial-ssthresh -1") {
		t.Errorf("--initial-ssthresh -1: error %v, want one naming the flag and its value", err)
	}
}

// --delayed-ack makes every receiver acknowledge every second packet in both engines: LIA,
// which counts ACKs, then grows half a packet per RTT in congestion avoidance instead of
// one; Reno, which counts packets acknowledged, does not notice. From 10 packets with no
// loss for 30 s of 0.1 s rounds the mean windows are 10 + 75 and 10 + 150 packets.
func TestCLIRunDelayedAck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ca.yaml")
	if err := os.WriteFile(file, []byte(`
duration: 30s
links: [{name: l, capacity: 10Gbps, delay: 50ms, buffer: 100000}]
paths: [{name: p, links: [l]}]
flows: [{name: f, algorithm: lia, path: p, window_scaling: true, initial_cwnd: 10, initial_ssthresh: 10}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	meanCwnd := func(algo string, args ...string) float64 {
		t.Helper()
		out, err := runCLI(t, append([]string{"run", "--scenario", file, "--algo", algo, "--format", "json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Flows []struct {
				MeanCwndPkts float64 `json:"mean_cwnd_pkts"`
			}
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		return v.Flows[0].MeanCwndPkts
	}
	for _, c := range []struct {
		algo     string
		with, wo float64 // mean cwnd with and without delayed ACKs, packets
	}{{"lia", 85, 160}, {"reno", 160, 160}} {
		with, wo := meanCwnd(c.algo, "--delayed-ack"), meanCwnd(c.algo)
		if math.Abs(with/c.with-1) > 1e-3 || math.Abs(wo/c.wo-1) > 1e-3 {
			t.Errorf("%s mean cwnd %.2f packets with --delayed-ack and %.2f without, want %g and %g", c.algo, with, wo, c.with, c.wo)
		}
	}
	if _, err := runCLI(t, "run", "--scenario", file, "--duration", "3s", "--engine", "packet", "--delayed-ack", "--format", "json"); err != nil {
		t.Fatal(err)
	}
}

// Parameters are set together and checked once: a valid COLO pair runs every time,
// whatever order the flags and maps give it in, in run and in sweep (a grid point is
// checked as a whole); a contradictory pair is a usage error naming both fields.
func TestCLIParamsCheckedTogether(t *testing.T) {
	for range 20 {
		if _, err := runCLI(t, "run", "--builtin", "seed000-dumbbell", "--algo", "colo", "--duration", "2s",
			"--param", "colo.alpha_min=10", "--param", "colo.alpha_max=20", "--format", "json"); err != nil {
			t.Fatalf("valid pair: %v", err)
		}
	}
	if _, err := runCLI(t, "sweep", "--algo", "colo", "--param", "colo.alpha_max=20", "--param", "colo.alpha_min=9,12",
		"--param", "duration=2", "--format", "csv"); err != nil {
		t.Errorf("sweep of valid pairs: %v", err)
	}
	for _, args := range [][]string{
		{"run", "--builtin", "seed000-dumbbell", "--algo", "colo", "--param", "colo.alpha_min=20", "--param", "colo.alpha_max=10"},
		{"sweep", "--algo", "colo", "--param", "colo.alpha_max=10", "--param", "colo.alpha_min=9,12", "--format", "csv"},
	} {
		_, err := runCLI(t, args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "alpha_min = ") || !strings.Contains(err.Error(), "alpha_max = 10") {
			t.Errorf("%v: error %v, want a usage error naming alpha_min and alpha_max", args, err)
		}
	}
}
