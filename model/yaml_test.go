package model_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

const scnExampleFile = "../testdata/scenarios/example.yaml"

// The example users copy must load and mean what its comments say.
func TestLoadExampleFile(t *testing.T) {
	s, err := model.LoadScenarioFile(scnExampleFile)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "example-dumbbell" || s.DurationS != 30 || s.DropRule != model.DropSynchronized {
		t.Errorf("header: name %q, duration %v s, drop rule %q", s.Name, s.DurationS, s.DropRule)
	}
	wantLinks := []model.Link{
		// access: 1e9 × 0.05 / (8 × 1460) = 4280.8 → 4281 packets.
		{Name: "access", CapacityBps: 1e9, DelayS: 0.005, BufferBDP: 1, BufferPkts: 4281, Queue: model.QueueDropTail, Loss: model.LossNone},
		// bottleneck: the lossy path's 60 ms: 100e6 × 0.06 / 11680 = 513.7 → 514 packets.
		{Name: "bottleneck", CapacityBps: 100e6, DelayS: 0.02, BufferBDP: 1, BufferPkts: 514, Queue: model.QueueRED,
			RED: model.RED{MinThPkts: 50, MaxThPkts: 150, MaxP: 0.1, Weight: 0.002}, Loss: model.LossNone},
		{Name: "wireless", CapacityBps: 50e6, DelayS: 0.01, BufferPkts: 100, Queue: model.QueueDropTail, Loss: model.LossRandom, LossP: 1e-5},
	}
	if !reflect.DeepEqual(s.Links, wantLinks) {
		t.Errorf("links\n%+v\nwant\n%+v", s.Links, wantLinks)
	}
	if got := []float64{s.PathRTTS(0), s.PathRTTS(1)}; !scnRelClose(got[0], 0.05, 1e-12) || !scnRelClose(got[1], 0.06, 1e-12) {
		t.Errorf("path RTTs %v s, want [0.05 0.06]", got)
	}
	wantFlows := []model.Flow{
		{Name: "bulk", Algorithm: "reno", Path: "wired", MSSBytes: 1460, RwndBytes: 1 << 30, WindowScaling: true, InitialCwnd: 1},
		{Name: "transfer", Algorithm: "cubic", Params: map[string]float64{"c": 0.4, "beta": 0.7}, Path: "lossy", StartS: 1, SizeBytes: 50e6, MSSBytes: 1460, RwndBytes: 4e6, WindowScaling: true, InitialCwnd: 1},
	}
	if !reflect.DeepEqual(s.Flows, wantFlows) {
		t.Errorf("flows\n%+v\nwant\n%+v", s.Flows, wantFlows)
	}
	wantCBR := []model.CBR{{Name: "video", Path: "wired", RateBps: 10e6, PacketBytes: 1000, StartS: 5, StopS: 15}}
	if !reflect.DeepEqual(s.CBR, wantCBR) {
		t.Errorf("cbr %+v, want %+v", s.CBR, wantCBR)
	}
	wantEvents := []model.TimedEvent{
		{AtS: 10, Kind: model.EventLinkDown, Link: "wireless"},
		{AtS: 12, Kind: model.EventLinkUp, Link: "wireless", DelayS: 0.015},
	}
	if !reflect.DeepEqual(s.Events, wantEvents) {
		t.Errorf("events %+v, want %+v", s.Events, wantEvents)
	}
}

func TestLoadScenarioErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string
		is   error
	}{
		{"unknown key with its line", `
duration: 10s
links:
  - name: l0
    capacity: 100Mbps
    delay: 10ms
    bandwith: 100Mbps
`, []string{`line 7: unknown key "bandwith" in links[0]`, "known keys: name, capacity"}, nil},
		{"unknown top-level key", "duration: 1s\nflow: []\n", []string{`line 2: unknown key "flow" in the scenario`}, nil},
		{"unknown nested key", "links:\n  - loss: {model: random, rate: 1e-5}\n", []string{`line 2: unknown key "rate" in links[0].loss`}, nil},
		{"repeated key", "duration: 1s\nduration: 2s\n", []string{`line 2: repeated key "duration" in the scenario`}, nil},
		{"bad unit with its line", "duration: 10s\nlinks:\n  - capacity: 100 parsecs\n", []string{"line 3: links[0].capacity", `unknown unit "parsecs"`, "100Mbps"}, model.ErrUnit},
		{"validation error with its line", `duration: 10s
links:
  - name: l0
    capacity: -5Mbps
    delay: 10ms
    buffer: 20
paths: [{links: [l0]}]
`, []string{"line 4: links[0].capacity = -5e+06 bit/s, want > 0"}, nil},
		{"validation error on a missing field names its parent's line", `duration: 10s
links:
  - {capacity: 5Mbps, delay: 10ms}
paths: [{links: [l0]}]
`, []string{"line 3: links[0].buffer = 0 packets"}, nil},
		{"negative send jitter", "duration: 10s\nsend_jitter: -1ms\nlinks: [{capacity: 5Mbps, delay: 10ms, buffer: 20}]\npaths: [{links: [l0]}]\n",
			[]string{"line 2: send_jitter = -0.001 s, want >= 0"}, nil},
		{"loss p = 1", `duration: 10s
links:
  - {capacity: 5Mbps, delay: 10ms, buffer: 20,
     loss: {model: random, p: 1}}
paths: [{links: [l0]}]
`, []string{"line 4: links[0].loss.p = 1, want 0 < p < 1"}, nil},
		{"unknown algorithm", `duration: 10s
links: [{capacity: 5Mbps, delay: 10ms, buffer: 20}]
paths: [{links: [l0]}]
flows:
  - path: p0
    algorithm: warp
`, []string{`line 6: flows[0].algorithm = "warp"`}, model.ErrUnknownAlgorithm},
		{"flow on a missing path", `duration: 10s
links: [{capacity: 5Mbps, delay: 10ms, buffer: 20}]
paths: [{links: [l0]}]
flows: [{algorithm: cubic, path: p7}]
`, []string{`line 4: flows[0].path = "p7", want one of the paths [p0]`}, nil},
		{"zero-RTT path", `duration: 10s
links: [{capacity: 5Mbps, delay: 0ms, buffer: 20}]
paths:
  - links: [l0]
`, []string{"line 4: paths[0].links = [l0]", "want > 0 s"}, nil},
		{"rwnd above 65535 bytes without scaling", `duration: 10s
links: [{capacity: 5Mbps, delay: 10ms, buffer: 20}]
paths: [{links: [l0]}]
flows:
  - path: p0
    algorithm: cubic
    rwnd: 64KiB
`, []string{"line 7: flows[0].rwnd = 65536 bytes", "<= 65535 bytes without window_scaling"}, nil},
		{"rwnd_pkts resolved above 65535 bytes", `duration: 10s
links: [{capacity: 5Mbps, delay: 10ms, buffer: 20}]
paths: [{links: [l0]}]
flows:
  - path: p0
    algorithm: cubic
    rwnd_pkts: 8000
`, []string{"line 7: flows[0].rwnd = 1.168e+07 bytes"}, nil},
		{"rwnd and rwnd_pkts", `duration: 10s
flows:
  - rwnd: 64KB
    rwnd_pkts: 20
`, []string{"line 4: flows[0]: both rwnd and rwnd_pkts are set"}, nil},
		{"rwnd_pkts zero", "flows: [{rwnd_pkts: 0}]\n", []string{"line 1: flows[0].rwnd_pkts = 0 packets, want > 0"}, nil},
		{"param out of range", `duration: 10s
links: [{capacity: 5Mbps, delay: 10ms, buffer: 20}]
paths: [{links: [l0]}]
flows:
  - path: p0
    algorithm: cubic
    params:
      beta: 2
`, []string{"line 8: flows[0].params.beta = 2", "0.95"}, model.ErrParam},
		{"param not a number", "flows: [{params: {beta: fast}}]\n", []string{"line 1: flows[0].params.beta", `number "fast"`}, model.ErrUnit},
		{"window_scaling not a bool", "flows: [{window_scaling: maybe}]\n", []string{`line 1: flows[0].window_scaling: "maybe", want true or false`}, nil},
		{"list expected", "links: {capacity: 1Mbps}\n", []string{"line 1: links: got a mapping, want a list"}, nil},
		{"mapping expected", "links: [5]\n", []string{"line 1: links[0]: got a scalar, want a mapping of keys"}, nil},
		{"scalar expected", "duration: [1s]\n", []string{"line 1: duration: got a list, want a single value"}, nil},
		{"top level not a mapping", "- 1\n", []string{"line 1: the scenario: got a list"}, nil},
		{"empty", "", []string{"empty document"}, nil},
		{"two documents", "duration: 1s\n---\nduration: 2s\n", []string{"want one YAML document"}, nil},
		{"syntax error", "links: [\n", []string{"invalid scenario: yaml: line"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := model.LoadScenario(strings.NewReader(tt.yaml))
			scnWantErr(t, err, append([]string{"invalid scenario: "}, tt.want...)...)
			if s != nil {
				t.Errorf("got a scenario with the error")
			}
			if !errors.Is(err, model.ErrScenario) {
				t.Errorf("%v does not wrap ErrScenario", err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not wrap %v", err, tt.is)
			}
		})
	}
}

func TestLoadScenarioForms(t *testing.T) {
	s, err := model.LoadScenario(strings.NewReader(`
duration: 10.1
drop_rule: proportional
links:
  - &acc {name: a, capacity: 1mb, delay: 0.002, buffer: 50}
  - {<<: *acc, name: b}
`))
	if err == nil || !strings.Contains(err.Error(), `unknown key "<<"`) {
		t.Errorf("merge keys: got %v, want an unknown key error", err)
	}
	s, err = model.LoadScenario(strings.NewReader(`
duration: 10.1
drop_rule: proportional
links:
  - &acc {name: a, capacity: 1mb, delay: 0.002, buffer: 50}
paths: [{name: p, links: [a]}]
flows:
  - name: ns2
    algorithm: cubic
    params: {beta: 0.8}
    path: p
    mss: 552B
    rwnd_pkts: 8000          # ns-2 window_: 8000 × 552 = 4,416,000 bytes
    window_scaling: yes
    initial_cwnd: 2
    delayed_ack: true
    stop: 10
`))
	if err != nil {
		t.Fatal(err)
	}
	f := s.Flows[0]
	if f.RwndBytes != 8000*552 || f.MSSBytes != 552 || !f.WindowScaling || f.InitialCwnd != 2 || f.StopS != 10 || !f.DelayedAck ||
		!reflect.DeepEqual(f.Params, map[string]float64{"beta": 0.8}) {
		t.Errorf("flow %+v", f)
	}
	if s.Links[0].CapacityBps != 1e6 || s.DropRule != model.DropProportional || s.DurationS != 10.1 {
		t.Errorf("scenario %+v", s)
	}
}

func TestLoadScenarioFileName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny-net.yaml")
	body := "duration: 1s\nlinks: [{capacity: 1Mbps, delay: 1ms, buffer: 1bdp}]\npaths: [{links: [l0]}]\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := model.LoadScenarioFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// No flows: the buffer uses the default MSS, 1e6 × 0.002 / (8 × 1460) = 0.17 → 1 packet.
	if s.Name != "tiny-net" || s.Links[0].BufferPkts != 1 {
		t.Errorf("name %q, buffer %v packets; want tiny-net, 1", s.Name, s.Links[0].BufferPkts)
	}
	_, err = model.LoadScenarioFile(filepath.Join(t.TempDir(), "missing.yaml"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzLoadScenario(f *testing.F) {
	if b, err := os.ReadFile(scnExampleFile); err == nil {
		f.Add(string(b))
	}
	f.Add("duration: 10s\nlinks: [{capacity: 5Mbps, delay: 10ms, buffer: 1bdp, queue: red, red: {max_p: 0.5}}]\npaths: [{links: [l0]}]\n" +
		"flows: [{algorithm: cubic, path: p0, rwnd_pkts: 20, params: {beta: 0.8}}]\ncbr: [{path: p0, rate: 1mb}]\n" +
		"events: [{at: 5s, kind: link-down, link: l0}]\n")
	f.Add("a: &x [*x]\n")
	f.Add("links: &x [*x]\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := model.LoadScenario(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, model.ErrScenario) {
				t.Fatalf("error %v does not wrap ErrScenario", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("a loaded scenario does not validate again: %v", err)
		}
	})
}

func ExampleLoadScenario() {
	s, err := model.LoadScenario(strings.NewReader(`
name: lfn
duration: 60s
links: [{name: ds3, capacity: 45Mbps, delay: 25ms, buffer: 1bdp}]
paths: [{name: p0, links: [ds3]}]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.PathRTTS(0), "s RTT,", s.Links[0].BufferPkts, "packets of buffer")

	_, err = model.LoadScenario(strings.NewReader("duration: 60s\nlinks:\n  - bandwith: 45Mbps\n"))
	fmt.Println(err)
	// Output:
	// lfn 0.05 s RTT, 193 packets of buffer
	// invalid scenario: line 3: unknown key "bandwith" in links[0] (known keys: name, capacity, delay, buffer, queue, red, loss)
}

// Every built-in scenario written as YAML reads back as itself (validated both ways), in
// units where they read back exactly.
func TestScenarioYAMLRoundTrip(t *testing.T) {
	for _, name := range model.BuiltinNames() {
		want, err := model.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := model.WriteScenarioYAML(&buf, want); err != nil {
			t.Fatal(err)
		}
		got, err := model.LoadScenario(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v in\n%s", name, err, buf.String())
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back as\n%+v\nwant\n%+v\nfrom\n%s", name, got, want, buf.String())
		}
		if name == "parking-lot" && !strings.Contains(buf.String(), "send_jitter: 467.2us") {
			t.Errorf("%s: no %q, the shortest duration that reads back, in\n%s", name, "send_jitter: 467.2us", buf.String())
		}
		if name == "seed000-colo-gamma" {
			for _, line := range []string{"capacity: 100Mbps", "delay: 10ms", "buffer: 1bdp", "rwnd: 10.5MB", "mss: 1460B", "window_scaling: true", "duration: 10s"} {
				if !strings.Contains(buf.String(), line) {
					t.Errorf("%s: no %q in\n%s", name, line, buf.String())
				}
			}
		}
	}
	// A changed scenario round-trips too: RED, random loss, events, CBR, parameters.
	sc, _ := model.Builtin("seed003-dumbbell")
	sc.Flows[0].Algorithm, sc.Flows[0].Params = "cubic", map[string]float64{"beta": 0.5}
	sc.Flows[0].InitialSsthresh, sc.Flows[0].DelayedAck, sc.Flows[0].StartS = 40, true, 0.25
	sc.Links[0].Loss, sc.Links[0].LossP = model.LossRandom, 1.5e-5
	sc.Events = append(sc.Events, model.TimedEvent{AtS: 1.5, Kind: model.EventDelayChange, Link: sc.Links[0].Name, DelayS: 0.0123})
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	model.WriteScenarioYAML(&buf, sc)
	back, err := model.LoadScenario(&buf)
	if err != nil || !reflect.DeepEqual(back, sc) {
		t.Errorf("changed seed003-dumbbell: %v\n%+v\nwant\n%+v", err, back, sc)
	}
}
