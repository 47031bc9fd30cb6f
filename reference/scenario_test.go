package reference

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

func builtinScenario(t *testing.T, name string) *model.Scenario {
	t.Helper()
	sc, err := model.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	return sc
}

// Each one-link built-in maps to ns-3's queue disc with its constants, at the rate that
// carries tcpfluid's packets per second under ns-3's 54 header bytes.
func TestScenarioOfQueueDiscs(t *testing.T) {
	for _, c := range []struct {
		builtin string
		want    []string
	}{
		{"modern-dctcp-2", []string{"--queueDisc=red-step", "--markK=65", "--receiverAlgo=TcpDctcp", "--algos=TcpDctcp,TcpDctcp"}},
		{"modern-bufferbloat-codel", []string{"--queueDisc=codel", "--codelTarget=0.005", "--codelInterval=0.1", "--discEcn=false"}},
		{"modern-bufferbloat-pie", []string{"--queueDisc=pie", "--pieTarget=0.015", "--pieTupdate=0.015", "--pieA=0.125", "--pieB=1.25", "--pieMaxBurst=0.15"}},
		{"modern-bufferbloat-droptail", []string{"--queueDisc=fifo", "--buffer=343"}},
		{"modern-bbr-random-loss", []string{"--lossP=0.01", "--algos=TcpBbr"}},
	} {
		sc := builtinScenario(t, c.builtin)
		e, err := ScenarioOf(sc)
		if err != nil {
			t.Fatalf("%s: %v", c.builtin, err)
		}
		if want := sc.Links[0].CapacityBps * (1460 + 54) / 1460; math.Abs(e.BandwidthBps-want) > 1e-6*want {
			t.Errorf("%s: ns-3 bottleneck %v bit/s, want %v", c.builtin, e.BandwidthBps, want)
		}
		if rtt := e.RTTS(0); math.Abs(rtt-2*sc.Links[0].DelayS) > 1e-12 {
			t.Errorf("%s: ns-3 round trip %v s, the scenario's %v s", c.builtin, rtt, 2*sc.Links[0].DelayS)
		}
		args, err := NS3Args(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range append(c.want, "--queueStats=true") {
			if !slices.Contains(args, w) {
				t.Errorf("%s: ns-3 arguments lack %s: %v", c.builtin, w, args)
			}
		}
		if _, err := EmitNS2(e); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: ns-2 script: %v, want ErrUnsupported", c.builtin, err)
		}
	}
}

// Scenarios ns-3 cannot be given as they are are refused, naming what stands in the way.
func TestScenarioOfRefuses(t *testing.T) {
	for _, c := range []struct {
		builtin, want string
		change        func(*model.Scenario)
	}{
		{"parking-lot", "links", nil},
		{"modern-dctcp-2", "delayed ACKs", func(sc *model.Scenario) { sc.Flows[1].DelayedAck = true }},
		{"modern-dctcp-2", "initial_cwnd", func(sc *model.Scenario) { sc.Flows[1].InitialCwnd = 2 }},
		{"modern-bufferbloat-droptail", "RED", func(sc *model.Scenario) { sc.Links[0].Queue = model.QueueRED }},
		{"modern-bufferbloat-droptail", "periodic", func(sc *model.Scenario) { sc.Links[0].Loss, sc.Links[0].LossP = model.LossPeriodic, 0.01 }},
	} {
		sc := builtinScenario(t, c.builtin)
		if c.change != nil {
			c.change(sc)
		}
		_, err := ScenarioOf(sc)
		if !errors.Is(err, ErrExperiment) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an ErrExperiment naming %q", c.builtin, err, c.want)
		}
	}
}

// The F and Q records become each flow's ECN reductions and the bottleneck's queue.
func TestParseNS3ScenarioRecords(t *testing.T) {
	out := "C ns3_version ns-3.37\nC algo 0 ns3::TcpDctcp\nE 0 2.000000000 100.0 2000.000 2100 0 1 0\nM 0 -1\nF 0 7\n" +
		"Q 2.000000000 120.5 2050 0.25 2049 3 40\n"
	run, err := ParseNS3(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if run.Flows[0].ECNReductions != 7 || run.Queue == nil || run.Queue.QueueTimePktS != 120.5 || run.Queue.Marks != 40 {
		t.Fatalf("flow %+v, queue %+v", run.Flows[0], run.Queue)
	}
	e := &Experiment{Kind: KindScenario, BandwidthBps: 12112000, MSSBytes: 1460, HeaderBytes: 54, Flows: []Flow{{Algorithm: "dctcp"}}}
	st, err := scenarioStats(e, run)
	if err != nil {
		t.Fatal(err)
	}
	// 12.112 Mb/s of 1514-byte packets is 1000 packets/s.
	want := ScenarioStats{MeanQueuePkts: 60.25, QueueDelayS: 0.06025, MeanSojournS: 0.25 / 2049, Utilisation: 1.025, DroppedPkts: 3, MarkedPkts: 40, Jain: 1}
	got := *st
	got.Flows = nil
	for _, d := range []struct {
		name      string
		got, want float64
	}{{"queue", got.MeanQueuePkts, want.MeanQueuePkts}, {"delay", got.QueueDelayS, want.QueueDelayS}, {"sojourn", got.MeanSojournS, want.MeanSojournS},
		{"utilisation", got.Utilisation, want.Utilisation}, {"drops", got.DroppedPkts, want.DroppedPkts}, {"marks", got.MarkedPkts, want.MarkedPkts}} {
		if math.Abs(d.got-d.want) > 1e-9 {
			t.Errorf("%s %v, want %v", d.name, d.got, d.want)
		}
	}
	if f := st.Flows[0]; f.MeanCwndPkts != 50 || f.GoodputBps != 2000*1460*8/2.0 || f.LossEvents != 1 || f.ECNReductions != 7 {
		t.Errorf("flow %+v", f)
	}
}

// Verdicts: relative errors for quantities, absolute ones for fractions and indices, and
// a count of zero against zero is no error.
func TestCompareScenarioVerdicts(t *testing.T) {
	stats := func(cwnd, queue, util float64, losses int) *ScenarioStats {
		return &ScenarioStats{Flows: []ScenarioFlowStats{{Algorithm: "cubic", MeanCwndPkts: cwnd, GoodputBps: 1e6, LossEvents: losses}},
			MeanQueuePkts: queue, QueueDelayS: queue / 1000, Utilisation: util}
	}
	ms := CompareScenario(stats(11.6, 10, 0.97, 0), stats(10, 12, 0.90, 0), []*ScenarioStats{stats(10, 10, 0.95, 0)})
	want := map[string][2]string{ // metric: fluid, packet verdicts
		"mean_cwnd_pkts": {"out", "ok"}, "goodput_bps": {"ok", "ok"}, "loss_events": {"ok", "ok"},
		"mean_queue_pkts": {"ok", "out"}, "queue_delay_s": {"ok", "out"}, "utilisation": {"ok", "out"},
	}
	for _, m := range ms {
		w, ok := want[m.Metric]
		if !ok {
			t.Errorf("unexpected metric %s", m.Metric)
			continue
		}
		if m.Verdicts["fluid"] != w[0] || m.Verdicts["packet"] != w[1] {
			t.Errorf("%s: verdicts %v (errors %v), want fluid %s, packet %s", m.Metric, m.Verdicts, m.Errors, w[0], w[1])
		}
		delete(want, m.Metric)
	}
	if len(want) > 0 {
		t.Errorf("metrics missing: %v", want)
	}
}
