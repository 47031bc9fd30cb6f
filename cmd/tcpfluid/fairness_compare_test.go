package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/response"
)

// fairness --compare-ns2 sets the stored ns-2 run beside each result of the same
// experiment, in the JSON and under the table, with its verdict and each flow's loss
// events and timeouts over ns-2's seeds (reno's rtt run: 33.5, 28.8 and 24.5, none of them
// timeouts); an algorithm without a stored run is a note, not an error.
func TestCLIFairnessCompareNS2(t *testing.T) {
	args := []string{"fairness", "--mode", "rtt", "--algo", "reno,scalable", "--header", "50B", "--sack", "--compare-ns2"}
	rep := fairnessJSON(t, args...)
	ref := rep.Results[0].Reference
	if ref == nil || ref.Source != "testdata/reference/ns2/fairness-rtt-reno.json" || ref.Jain.N != 10 || len(ref.ShareDiffs) != 3 ||
		ref.Verdict == "" || ref.Tolerance != 0.05 || len(ref.LossEvents) != 3 || math.Abs(ref.LossEvents[0].Mean-33.5) > 1e-9 || ref.Timeouts[2].Mean != 0 {
		t.Fatalf("reno's reference %+v", ref)
	}
	if rep.Results[1].Reference != nil || len(rep.Notes) != 1 || !strings.HasPrefix(rep.Notes[0], "scalable: no stored ns-2 run of --mode rtt scalable") {
		t.Errorf("scalable: reference %+v, notes %q", rep.Results[1].Reference, rep.Notes)
	}
	if x := rep.Results[0].Experiment; x.HeaderBytes != 50 || !x.SACK || x.BottleneckBufferPkts != 857 {
		t.Errorf("experiment %+v", x)
	}
	out, code, _ := runStatus(t, append(args, "--format", "table")...)
	if code != 0 || !strings.Contains(out, "fairness-rtt-reno.json") || !strings.Contains(out, ref.Verdict+" (±0.05)") ||
		!strings.Contains(out, "33.5/0 / 28.8/0 / 24.5/0") ||
		!strings.Contains(out, "note: scalable: no stored ns-2 run of --mode rtt scalable") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
}

// --jitter delays packets: the fluid engine has none and refuses it; --seeds runs every
// seed and reports them.
func TestCLIFairnessEngineFlags(t *testing.T) {
	if _, code, errOut := runStatus(t, "fairness", "--jitter", "1ms"); code != 2 || !strings.Contains(errOut, "--jitter 1ms: only --engine packet") {
		t.Errorf("--jitter with the fluid: exit %d, %q", code, errOut)
	}
	rep := fairnessJSON(t, "fairness", "--seeds", "2", "--p", "1e-4", "--duration", "100s")
	if len(rep.Seeds) != 2 || rep.Results[0].OverSeeds == nil || rep.Results[0].OverSeeds.Jain.N != 2 {
		t.Errorf("--seeds 2: seeds %v, over seeds %+v", rep.Seeds, rep.Results[0].OverSeeds)
	}
}

// The experiment is the user's to state in every mode: packets, initial and receiver windows, a buffer
// in packets, staggered starts and the rtt mode's bottleneck delay, all of which the JSON's
// experiment and the table's experiment line report back.
func TestCLIFairnessExperimentFlags(t *testing.T) {
	args := []string{"fairness", "--mode", "rtt", "--rtts", "40ms,80ms", "--bottleneck-delay", "15ms", "--start-gap", "2s",
		"--buffer", "300pkts", "--mss", "1000B", "--rwnd", "256KiB", "--initial-cwnd", "4", "--duration", "60s"}
	rep := fairnessJSON(t, args...)
	x := rep.Results[0].Experiment
	if x.BottleneckBufferPkts != 300 || x.BottleneckDelayS != 0.015 || x.MSSBytes != 1000 || x.RwndPkts != 262.144 || x.InitialCwndPkts != 4 ||
		len(x.Flows) != 2 || x.Flows[1].StartS != 2 || math.Abs(x.Flows[1].AccessDelayS-0.025) > 1e-12 {
		t.Errorf("experiment %+v", x)
	}
	out, err := runCLI(t, append(args, "--format", "table")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"experiment: 1000 B payload + 0 B header a packet, initial window 4 packets, receiver window 262.144 packets; bottleneck 100 Mb/s 15 ms, buffer 300 packets",
		"1 at 2 s, access 25 ms, RTT 80 ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// fairnessJSON runs the fairness command args with --format json and decodes its report.
func fairnessJSON(t *testing.T, args ...string) response.FairnessReport {
	t.Helper()
	out, err := runCLI(t, append(args, "--format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	var rep response.FairnessReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}
