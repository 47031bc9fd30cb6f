package reference

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/response"
)

// TestVariantsAgainstSet runs tcpfluid's fluid engine in its hybrid-recovery form, which
// counts packets and recovers as the simulators' senders do, with each implementation
// variant at the response points of the stored reference set, at the loss rate the
// simulator's runs realized (PooledLossRate), and requires its mean window within the
// stored runs' 95% CI plus the fluid's own (per loss cycle): the two estimates' CIs, never
// widened. This is the strict check; TestVariantsAgainstSimulators (package model_test) holds
// every point to issue 13's bound. Points outside the CIs' sum today, within that bound,
// are left out here and listed in docs/simulators.md: against ns-2's three seeds
// highspeed@linux at 1e-2 (+4.2% against a sum of 3.4%), scalable@linux at 1e-2 (+7.0%:
// the counted form slow-starts back after a min_cwnd recovery a round trip early where
// ns-2's and the packet engine's ACKs come in bursts; the packet engine is +1.5%),
// cubic@linux at 1e-2 and 1e-3 (−4.2%, −4.1%), bic@linux at 1e-3 (−4.4%), vegas@linux at
// 1e-3 (−3.5%); against ns-3, bic@ns3 at 1e-2 (−16.5%: the packet engine is +6% of ns-3,
// the counted form −16% of the packet engine over the same losses, a gap of the fluid's BIC
// under PRR at windows near 20).
func TestVariantsAgainstSet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 34 fluid response points (about 8 s)")
	}
	for _, c := range []struct {
		algo, set string
		p         float64
	}{
		{"reno", SetLinux, 1e-2},
		{"reno", SetLinux, 1e-3},
		{"reno", SetLinux, 1e-4},
		{"reno", SetLinux, 1e-5},
		{"highspeed", SetLinux, 1e-3},
		{"highspeed", SetLinux, 1e-4},
		{"scalable", SetLinux, 1e-3},
		{"scalable", SetLinux, 1e-4},
		{"cubic", SetLinux, 1e-4},
		{"bic", SetLinux, 1e-2},
		{"bic", SetLinux, 1e-4},
		{"htcp", SetLinux, 1e-2},
		{"htcp", SetLinux, 1e-3},
		{"htcp", SetLinux, 1e-4},
		{"compound", SetLinux, 1e-2},
		{"compound", SetLinux, 1e-3},
		{"compound", SetLinux, 1e-4},
		{"vegas", SetLinux, 1e-2},
		{"vegas", SetLinux, 1e-4},
		{"reno", SetNS3, 1e-2},
		{"reno", SetNS3, 1e-3},
		{"newreno", SetNS3, 1e-2},
		{"newreno", SetNS3, 1e-3},
		{"highspeed", SetNS3, 1e-2},
		{"highspeed", SetNS3, 1e-3},
		{"scalable", SetNS3, 1e-2},
		{"scalable", SetNS3, 1e-3},
		{"cubic", SetNS3, 1e-2},
		{"cubic", SetNS3, 1e-3},
		{"bic", SetNS3, 1e-3},
		{"htcp", SetNS3, 1e-2},
		{"htcp", SetNS3, 1e-3},
		{"vegas", SetNS3, 1e-2},
		{"vegas", SetNS3, 1e-3},
	} {
		sim := NS2
		if c.set == SetNS3 {
			sim = NS3
		}
		algo := TcpfluidAlgorithm(c.set, c.algo)
		t.Run(fmt.Sprintf("%s/%g", algo, c.p), func(t *testing.T) {
			if algo == c.algo {
				t.Fatalf("%s declares no %s variant", c.algo, c.set)
			}
			ref := storedResponse(t, sim, c.algo, c.p)
			at := ref.LossRate
			if !(at > 0) {
				t.Fatalf("stored %s run reports no loss rate", sim)
			}
			pt, err := response.MeasurePoint(context.Background(), algo, at, response.Settings{LossModel: "random", Form: fluid.FormHybridRecovery, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			got := &EngineStats{MeanCwndPkts: pt.MeanCwndPkts, CI95Pkts: pt.CI95Pkts}
			tol := ref.CI95Pkts + got.CI95Pkts
			if d := got.MeanCwndPkts - ref.MeanCwndPkts; !(math.Abs(d) <= tol) {
				t.Errorf("%s at p = %g (%s's %d runs realized %.4g): fluid %.2f ± %.2f packets, %s %.2f ± %.2f: %+.1f%%, beyond the CIs' sum %.2f",
					algo, c.p, sim, ref.Runs, at, got.MeanCwndPkts, got.CI95Pkts, sim, ref.MeanCwndPkts, ref.CI95Pkts, 100*d/ref.MeanCwndPkts, tol)
			}
			t.Logf("%s at p = %g (%s's %d runs realized %.4g): fluid %.2f ± %.2f, %s %.2f ± %.2f (%+.1f%%)", algo, c.p, sim, ref.Runs, at, got.MeanCwndPkts, got.CI95Pkts,
				sim, ref.MeanCwndPkts, ref.CI95Pkts, 100*(got.MeanCwndPkts/ref.MeanCwndPkts-1))
		})
	}
}

// storedResponse is a simulator's stored runs of a response point, summarised.
func storedResponse(t *testing.T, sim, name string, p float64) ResponseSummary {
	t.Helper()
	ms, err := StoredRuns(setDir, sim, name, p)
	if err != nil {
		t.Fatal(err)
	}
	return SummarizeResponse(ms)
}
