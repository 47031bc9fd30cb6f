package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/response"
)

// converge --loss-window starts the recovery from a window above the BDP, as ns-2's first
// loss (CUBIC: 8654 packets of a BDP of 8333): Linux's CUBIC (β 819/1024, C 410/1024) is
// back at the BDP K − ∛((W_max − BDP)/C) after the loss, plus the recovery round trip of
// --form hybrid-recovery. Outside (0, 2] BDPs the flag is refused.
func TestCLIConvergeLossWindow(t *testing.T) {
	out, err := runCLI(t, "converge", "--algo", "cubic@linux", "--bandwidth", "1Gbps", "--mss", "1500B", "--loss-window", "1.03848bdp",
		"--form", "hybrid-recovery", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rep response.ConvergeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	const bdp, beta, c = 1e9 * 0.1 / (8 * 1500), 819.0 / 1024, 410.0 / 1024
	w := 1.03848 * bdp
	want := math.Cbrt(w*(1-beta)/c) - math.Cbrt((w-bdp)/c) + 0.1
	if rep.Form != "hybrid-recovery" || math.Abs(r.LossWindowPkts-w) > 1e-6 || r.RecoveryTimeS == nil || math.Abs(*r.RecoveryTimeS/want-1) > 0.02 {
		t.Errorf("form %s, loss at %v packets, recovery %v s; want hybrid-recovery, %v, %.4g s ±2%%", rep.Form, r.LossWindowPkts, r.RecoveryTimeS, w, want)
	}
	if r.RecoveryClosedFormS != nil {
		t.Errorf("recovery closed form %v for a loss above the BDP", *r.RecoveryClosedFormS)
	}
	if _, code, line := runStatus(t, "converge", "--loss-window", "3bdp"); code != 2 || !strings.Contains(line, "--loss-window 3bdp") {
		t.Errorf("--loss-window 3bdp: exit %d, %q", code, line)
	}
}
