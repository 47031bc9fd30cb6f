package reference

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// scenarioGaps are the engine-metric pairs of the stored ns-3 scenario runs that are out of
// tolerance today, as "builtin engine metric subject"; docs/simulators.md says why (ns-3.37's
// TcpBbr collapses after a retransmission timeout on the shallow buffer and at 1% loss, where
// CUBIC then holds the queue; over 1 BDP ns-3's BBR, which paces at BtlBw without
// Linux's 1% margin, overflows the buffer 35 times in 60 s and tcpfluid's 25, and cuts
// CUBIC 27 times against 21–24 (the CUBIC flows' windows are 13% and 10% below ns-3's,
// within, the fluid's 20% below before its round trip counted the packets'
// transmissions: one run of a share that turns on the phase of CUBIC's start against
// BBR's gain cycle); over 10 BDPs the fluid's BBR takes 0.265 of the link
// and the packet engine's 0.138 where ns-3's takes 0.163 at the top of its own 0.101–0.163
// over CUBIC's five starts (on their mean, 0.221, 0.139 and 0.138: TestBBRCubicStartsNS3;
// the fluid CUBIC's slow start behind BBR's fresh queue, see docs/simulators.md); Jain's
// index of one deterministic run; the packet engine's
// FQ-CoDel queue). The test fails when a pair leaves tolerance and when one listed here
// comes back within it, so that the list is always the truth.
var scenarioGaps = []string{
	"modern-bufferbloat-fq_codel packet mean_queue_pkts bottleneck",
	"modern-bufferbloat-fq_codel packet queue_delay_s bottleneck",
	"modern-bbr-cubic-1bdp fluid loss_events bbr, flow 0",
	"modern-bbr-cubic-deep fluid goodput_bps bbr, flow 0",
	"modern-bbr-cubic-deep fluid jain all flows",
	"modern-bbr-cubic-deep fluid mean_cwnd_pkts bbr, flow 0",
	"modern-bbr-cubic-deep packet goodput_bps bbr, flow 0",
	"modern-bbr-cubic-1bdp packet loss_events bbr, flow 0",
	"modern-bbr-cubic-shallow fluid goodput_bps bbr, flow 0",
	"modern-bbr-cubic-shallow fluid goodput_bps cubic@ns3, flow 1",
	"modern-bbr-cubic-shallow fluid loss_events bbr, flow 0",
	"modern-bbr-cubic-shallow fluid loss_events cubic@ns3, flow 1",
	"modern-bbr-cubic-shallow fluid mean_cwnd_pkts bbr, flow 0",
	"modern-bbr-cubic-shallow fluid mean_cwnd_pkts cubic@ns3, flow 1",
	"modern-bbr-cubic-shallow fluid mean_queue_pkts bottleneck",
	"modern-bbr-cubic-shallow fluid queue_delay_s bottleneck",
	"modern-bbr-cubic-shallow fluid utilisation bottleneck",
	"modern-bbr-cubic-shallow packet goodput_bps bbr, flow 0",
	"modern-bbr-cubic-shallow packet goodput_bps cubic@ns3, flow 1",
	"modern-bbr-cubic-shallow packet loss_events bbr, flow 0",
	"modern-bbr-cubic-shallow packet loss_events cubic@ns3, flow 1",
	"modern-bbr-cubic-shallow packet mean_cwnd_pkts bbr, flow 0",
	"modern-bbr-cubic-shallow packet mean_cwnd_pkts cubic@ns3, flow 1",
	"modern-bbr-cubic-shallow packet mean_queue_pkts bottleneck",
	"modern-bbr-cubic-shallow packet queue_delay_s bottleneck",
	"modern-bbr-cubic-shallow packet utilisation bottleneck",
	"modern-bbr-random-loss fluid goodput_bps bbr, flow 0",
	"modern-bbr-random-loss fluid loss_events bbr, flow 0",
	"modern-bbr-random-loss fluid mean_cwnd_pkts bbr, flow 0",
	"modern-bbr-random-loss fluid mean_queue_pkts bottleneck",
	"modern-bbr-random-loss fluid queue_delay_s bottleneck",
	"modern-bbr-random-loss fluid utilisation bottleneck",
	"modern-bbr-random-loss packet goodput_bps bbr, flow 0",
	"modern-bbr-random-loss packet loss_events bbr, flow 0",
	"modern-bbr-random-loss packet mean_cwnd_pkts bbr, flow 0",
	"modern-bbr-random-loss packet mean_queue_pkts bottleneck",
	"modern-bbr-random-loss packet queue_delay_s bottleneck",
	"modern-bbr-random-loss packet utilisation bottleneck",
	"modern-bufferbloat-droptail fluid jain all flows",
	"modern-bufferbloat-pie fluid jain all flows",
	"modern-bufferbloat-pie packet jain all flows",
}

// The modern built-ins against ns-3.37 (scripts/reference
// stage ns3-scenario): tcpfluid's fluid and packet engines, with the ns3 constants, re-run here and judged metric by metric against the
// stored ns-3 runs with CompareScenario's tolerances.
func TestScenarioStoredNS3(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(setDir, NS3, "scenario-*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no stored scenario runs (%v)", err)
	}
	set, err := LoadSet(filepath.Join(setDir, NS3))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range set {
		if f.Report.Kind != KindScenario {
			continue
		}
		row := f.Report.Rows[0]
		name := strings.TrimPrefix(row.Experiment, "scenario-")
		if filepath.Base(f.Path) != row.Experiment+".json" {
			continue // the built-in with its flows moved (TestBBRCubicStartsNS3)
		}
		var ns3 []*ScenarioStats
		for _, m := range row.NS3 {
			ns3 = append(ns3, m.Scenario)
		}
		if len(ns3) == 0 || ns3[0] == nil {
			t.Fatalf("%s: no ns-3 measurement", f.Path)
		}
		sc, err := model.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		fl, pk, err := TcpfluidScenario(t.Context(), ScenarioWithParams(sc, f.Report.TcpfluidParams), 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range CompareScenario(fl.Scenario, pk.Scenario, ns3) {
			for _, engine := range []string{"fluid", "packet"} {
				if _, ran := m.Values[engine]; !ran {
					continue
				}
				key := fmt.Sprintf("%s %s %s %s", name, engine, m.Metric, m.Subject)
				t.Logf("%s: %.4g against ns-3's %.4g (%+.3f, %s)", key, m.Values[engine], m.Values["ns3"], m.Errors[engine+"/ns3"], m.Verdicts[engine])
				if m.Verdicts[engine] == "out" {
					out = append(out, key)
				}
			}
		}
	}
	assertGaps(t, "scenarioGaps", out, scenarioGaps)
}
