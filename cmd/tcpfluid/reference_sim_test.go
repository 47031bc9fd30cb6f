//go:build simulators

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/tcpfluid/tcpfluid/reference"
)

// Beside ns-3 alone, tcpfluid runs with ns-3's constants unless told otherwise: like with
// like. (Needs ns-3: go test -tags simulators.)
func TestReferenceNS3AloneRunsNS3Constants(t *testing.T) {
	var out, errOut bytes.Buffer
	err := newApp(&out, &errOut).RunContext(context.Background(), []string{"tcpfluid", "reference", "--sim", "ns3",
		"--experiment", "converge", "--algo", "scalable", "--bandwidth", "100Mbps", "--format", "json"})
	if err != nil {
		t.Fatalf("%v: %s", err, errOut.String())
	}
	var rep reference.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.TcpfluidParams != reference.SetNS3 || len(rep.Rows) != 1 || len(rep.Rows[0].NS3) != 1 || rep.Rows[0].FluidRecovery == nil {
		t.Fatalf("tcpfluid constants %q, rows %+v", rep.TcpfluidParams, rep.Rows)
	}
	// scalable@ns3 recovers within 5% of ns-3 (TestConvergeFromStoredLoss's target).
	if r := rep.Rows[0].RelErr["fluid_recovery/ns3"]; !(r > -0.05 && r < 0.05) {
		t.Errorf("scalable@ns3's recovery %+.1f%% from ns-3's", 100*r)
	}
}
