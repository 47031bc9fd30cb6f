//go:build simulators

package reference

// Re-runs two points of the reference set in the installed simulators and compares them
// with the set within the set's own 95% confidence interval:
//
//	go test -tags simulators -run TestReRun ./reference/
//
// It needs ns-2 (apt-get install ns2) and ns-3 with a C++ compiler (libns3-dev g++), and
// builds the ns-3 program afresh unless TCPFLUID_REFERENCE_CACHE names a directory.

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// f0 reads a stored response measurement's algorithm and loss rate from its experiment name.
func f0(t *testing.T, m *Measurement) (string, float64) {
	var algo string
	var p float64
	name := strings.TrimPrefix(m.Experiment, "response-")
	i := strings.LastIndex(name, "-p")
	if i < 0 {
		t.Fatalf("experiment %q", m.Experiment)
	}
	algo = name[:i]
	if _, err := fmt.Sscanf(name[i+2:], "%g", &p); err != nil {
		t.Fatalf("experiment %q: %v", m.Experiment, err)
	}
	return algo, p
}

func TestReRun(t *testing.T) {
	for _, c := range []struct {
		sim, file string
	}{
		{NS2, "ns2/response-reno-p1e-3.json"},
		{NS3, "ns3/response-reno-p1e-2.json"},
	} {
		t.Run(c.sim, func(t *testing.T) {
			files, err := LoadSet(filepath.Join(setDir, filepath.Dir(c.file)))
			if err != nil {
				t.Fatal(err)
			}
			var stored *Measurement
			for _, f := range files {
				if filepath.Base(f.Path) == filepath.Base(c.file) {
					ms := f.Report.Rows[0].NS2
					if c.sim == NS3 {
						ms = f.Report.Rows[0].NS3
					}
					stored = ms[0]
				}
			}
			if stored == nil || stored.Response == nil {
				t.Fatalf("%s is not in the reference set", c.file)
			}
			e := stored.Spec
			if e == nil {
				// Files made before measurements carried their spec: rebuild the experiment
				// as `tcpfluid reference` does (initial ssthresh at the fluid's mean window).
				set := SetLinux
				if c.sim == NS3 {
					set = SetNS3
				}
				algo, p := f0(t, stored)
				fl, err := FluidResponse(t.Context(), TcpfluidAlgorithm(set, algo), p, 0.1, 1460, nil, 1)
				if err != nil {
					t.Fatal(err)
				}
				losses := stored.Response.LossEvents
				if e, err = Response(ResponseSpec{Algorithm: algo, P: p, StartPkts: fl.MeanCwndPkts, Losses: losses, Seed: stored.Seed}); err != nil {
					t.Fatal(err)
				}
			}
			r := DefaultRunner()
			if r.CacheDir == "" {
				r.NoCache = true
			}
			m, err := r.Run(t.Context(), c.sim, e)
			if err != nil {
				t.Fatal(err)
			}
			got, want := m.Response.MeanCwndPkts, stored.Response.MeanCwndPkts
			ci := math.Hypot(m.Response.CI95Pkts, stored.Response.CI95Pkts)
			t.Logf("%s %s: mean cwnd %.4g ± %.2g packets (set: %.4g ± %.2g), %.3g s wall (set: %.3g s)", c.sim, e.Name,
				got, m.Response.CI95Pkts, want, stored.Response.CI95Pkts, m.WallS, stored.WallS)
			if math.Abs(got-want) > ci {
				t.Errorf("%s: mean cwnd %.4g, the set has %.4g: apart by more than the combined 95%% CI %.2g", e.Name, got, want, ci)
			}
		})
	}
}
