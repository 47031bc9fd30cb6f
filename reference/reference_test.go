package reference

import (
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares got with testdata/golden/name, or writes it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reference -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test ./reference -update rewrites it); got:\n%s", name, got)
	}
}

func mustResponse(t *testing.T, s ResponseSpec) *Experiment {
	t.Helper()
	e, err := Response(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The fixtures under testdata/ were made by the emitted programs from these experiments.
func fixtureResponse(t *testing.T, algo string) *Experiment {
	return mustResponse(t, ResponseSpec{Algorithm: algo, P: 1e-2, StartPkts: 12, WarmupLosses: 5, Losses: 12, Seed: 1})
}

func fixtureConverge(t *testing.T) *Experiment {
	e, err := Converge(ConvergeSpec{Algorithm: "cubic", BandwidthBps: 10e6, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func fixtureFairness(t *testing.T) *Experiment {
	e, err := Fairness(FairnessSpec{Mode: "rtt", Algorithm: "reno", DurationS: 30, Seed: 1, JitterS: 2 * 1500 * 8 / 100e6})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEmitNS2Golden(t *testing.T) {
	for name, e := range map[string]*Experiment{
		"ns2-response.tcl":     fixtureResponse(t, "reno"),
		"ns2-converge.tcl":     fixtureConverge(t),
		"ns2-fairness-rtt.tcl": fixtureFairness(t),
	} {
		s, err := EmitNS2(e)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, name, s)
	}
	// A set_ca_param reaches the script.
	e := mustResponse(t, ResponseSpec{Algorithm: "cubic", P: 1e-3, Params: map[string]map[string]int{"cubic": {"beta": 717}}})
	s, err := EmitNS2(e)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, "$tcp0 set_ca_param cubic beta 717") || !strings.Contains(s, `select_ca cubic`) {
		t.Errorf("cubic script lacks select_ca or set_ca_param:\n%s", s)
	}
}

func TestEmitNS3Golden(t *testing.T) {
	for name, e := range map[string]*Experiment{
		"ns3-response.args":     fixtureResponse(t, "cubic"),
		"ns3-converge.args":     fixtureConverge(t),
		"ns3-fairness-rtt.args": fixtureFairness(t),
	} {
		args, err := NS3Args(e)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, name, strings.Join(args, "\n")+"\n")
	}
	src := NS3Source()
	for _, want := range []string{"CongestionWindow", "CongState", "RateErrorModel", "TcpL4Protocol", "NthErrorModel", "Mtu"} {
		if !strings.Contains(src, want) {
			t.Errorf("the ns-3 program lacks %q", want)
		}
	}
	if strings.Contains(src, "{{") {
		t.Error("the ns-3 program has unrendered template actions")
	}
	if len(NS3SourceHash()) != 16 {
		t.Errorf("source hash %q", NS3SourceHash())
	}
}

func TestEmitWritesFiles(t *testing.T) {
	dir := t.TempDir()
	files, err := Emit(dir, fixtureResponse(t, "reno"), []string{NS2, NS3})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{NS2Script, NS3Program, "build.sh", "run.sh"} {
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Errorf("%s not written (%v); files %v", want, err, files)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "run.sh"))
	if !strings.Contains(string(b), "--algos=TcpLinuxReno") || !strings.Contains(string(b), "--lossP=0.01") {
		t.Errorf("run.sh: %s", b)
	}
}

func TestModules(t *testing.T) {
	if _, err := ModuleFor(NS3, "compound"); !errors.Is(err, ErrUnsupported) {
		t.Errorf("ns-3 compound: %v, want ErrUnsupported", err)
	}
	if _, err := NS3Args(fixtureResponse(t, "compound")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("ns-3 args for compound: %v, want ErrUnsupported", err)
	}
	for _, a := range []string{"reno", "highspeed", "scalable", "cubic", "bic", "htcp", "compound", "vegas"} {
		if _, err := ModuleFor(NS2, a); err != nil {
			t.Errorf("ns-2 %s: %v", a, err)
		}
	}
	if m, err := ModuleFor(NS3, "cubic"); err != nil || m.Name != "TcpCubic" {
		t.Errorf("ns-3 cubic: %v %v", m, err)
	}
	for _, sim := range []string{NS2, NS3} {
		for _, a := range []string{"lia", "olia", "vlia", "colo", "tahoe"} {
			if _, err := ModuleFor(sim, a); !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s %s: %v, want ErrUnsupported", sim, a, err)
			}
		}
	}
	rows := Modules(func(string) bool { return true })
	if len(rows) < 20 {
		t.Errorf("%d rows", len(rows))
	}
}

func TestMissingSimulator(t *testing.T) {
	r := &Runner{NS: "/nonexistent/ns", CXX: "/nonexistent/g++"}
	for _, sim := range []string{NS2, NS3} {
		_, err := r.Run(t.Context(), sim, fixtureResponse(t, "reno"))
		if !errors.Is(err, ErrNoSimulator) || !IsMissing(err) {
			t.Errorf("%s: %v, want ErrNoSimulator", sim, err)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: the message is more than one line: %q", sim, err)
		}
	}
}

func TestValidate(t *testing.T) {
	if _, err := Response(ResponseSpec{Algorithm: "reno", P: 1.5}); !errors.Is(err, ErrExperiment) {
		t.Errorf("p = 1.5: %v", err)
	}
	if _, err := Fairness(FairnessSpec{Mode: "bogus", Algorithm: "reno"}); !errors.Is(err, ErrExperiment) {
		t.Errorf("mode bogus: %v", err)
	}
	e := fixtureResponse(t, "reno")
	e.StopLosses = e.WarmupLosses
	if err := e.Validate(); !errors.Is(err, ErrExperiment) {
		t.Errorf("stop <= warm-up: %v", err)
	}
}

func TestFairnessTopology(t *testing.T) {
	// tcpfluid's seed 000 dumbbell: 2055-packet bottleneck buffer (1 BDP at 240 ms).
	e, err := Fairness(FairnessSpec{Algorithm: "reno"})
	if err != nil {
		t.Fatal(err)
	}
	if e.BufferPkts != 2055 || len(e.Flows) != 3 || e.Flows[2].StartS != 20 || math.Abs(e.RTTS(0)-0.24) > 1e-12 {
		t.Errorf("same mode: buffer %d, flows %d, start %v, rtt %v", e.BufferPkts, len(e.Flows), e.Flows[len(e.Flows)-1].StartS, e.RTTS(0))
	}
	r := fixtureFairness(t)
	for i, want := range []float64{0.05, 0.075, 0.1} {
		if math.Abs(r.RTTS(i)-want) > 1e-5 {
			t.Errorf("rtt mode flow %d: RTT %v, want %v", i, r.RTTS(i), want)
		}
	}
}

func open(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func measureJSON(t *testing.T, m *Measurement) string {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func TestParseNS2Response(t *testing.T) {
	e := fixtureResponse(t, "reno")
	run, err := ParseNS2(open(t, "ns2-response.stdout"), open(t, "ns2-response.tr"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Measure(e, run)
	if err != nil {
		t.Fatal(err)
	}
	r := m.Response
	if r == nil || r.LossEvents < 10 || !(r.MeanCwndPkts > 5 && r.MeanCwndPkts < 25) || m.Module != "reno" || m.Version != "2.35" {
		t.Errorf("ns-2 response: %+v %+v", m, r)
	}
	golden(t, "ns2-response.json", measureJSON(t, m))
}

func TestParseNS3Response(t *testing.T) {
	e := fixtureResponse(t, "cubic")
	run, err := ParseNS3(open(t, "ns3-response.stdout"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Measure(e, run)
	if err != nil {
		t.Fatal(err)
	}
	if m.Response == nil || m.Response.LossEvents < 10 || m.Module != "ns3::TcpCubic" || m.Recovery != "ns3::TcpPrrRecovery" {
		t.Errorf("ns-3 response: %+v", m)
	}
	golden(t, "ns3-response.json", measureJSON(t, m))
	if _, err := ParseNS3(strings.NewReader("C flows 1\nL 0 1 2 3 4 R 5 6\n")); !errors.Is(err, ErrRun) {
		t.Errorf("truncated output: %v, want ErrRun", err)
	}
}

func TestParseNS2Converge(t *testing.T) {
	e := fixtureConverge(t)
	run, err := ParseNS2(open(t, "ns2-converge.stdout"), open(t, "ns2-converge.tr"), e.PipePkts(NS2))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Measure(e, run)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Converge
	if c == nil || c.RecoveryS == nil || !(c.MinAfterPkts < c.BDPPkts) || !(c.CwndAtLossPkts >= c.BDPPkts) || m.DropPkts != 1 {
		t.Errorf("ns-2 converge: %+v %+v", m, c)
	}
	golden(t, "ns2-converge.json", measureJSON(t, m))
}

func TestParseNS2Fairness(t *testing.T) {
	e := fixtureFairness(t)
	run, err := ParseNS2(open(t, "ns2-fairness-rtt.stdout"), open(t, "ns2-fairness-rtt.tr"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Measure(e, run)
	if err != nil {
		t.Fatal(err)
	}
	f := m.Fairness
	if f == nil || len(f.Shares) != 3 || !(f.Jain > 0.33 && f.Jain <= 1) {
		t.Fatalf("ns-2 fairness: %+v", f)
	}
	golden(t, "ns2-fairness-rtt.json", measureJSON(t, m))
	s := SummarizeFairness([]*Measurement{m, m})
	if s.Jain.N != 2 || s.Jain.SD != 0 || s.Jain.Mean != f.Jain || len(s.Shares) != 3 {
		t.Errorf("summary %+v", s)
	}
}

func TestJain(t *testing.T) {
	if j := Jain([]float64{1, 1, 1}); j != 1 {
		t.Errorf("equal shares: %v", j)
	}
	if j := Jain([]float64{1, 0, 0, 0}); j != 0.25 {
		t.Errorf("one of four: %v", j)
	}
}
