package model_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

func TestBuiltinNames(t *testing.T) {
	got := model.BuiltinNames()
	if !sort.StringsAreSorted(got) {
		t.Errorf("BuiltinNames() = %v, not sorted", got)
	}
	for _, want := range []string{"seed000-colo-random-loss", "seed000-dumbbell", "seed000-slow-start", "seed002-mesh", "seed003-dumbbell", "seed004-lfn"} {
		if !slices.Contains(got, want) {
			t.Errorf("BuiltinNames() = %v, lacks %s", got, want)
		}
	}
	for _, name := range got {
		if _, err := model.Builtin(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// scnCheck is one number of a builtin scenario: its name, value and expected value.
type scnCheck struct {
	what      string
	got, want float64
}

// TestBuiltinNumbers checks each builtin's configuration against its seed. Values computed
// from other values (RTTs, BDPs, window caps) are checked to 1e-12 relative.
func TestBuiltinNumbers(t *testing.T) {
	tests := []struct {
		name   string
		algos  []string
		checks func(s *model.Scenario) []scnCheck
	}{
		{"seed003-dumbbell", []string{"newreno"}, func(s *model.Scenario) []scnCheck {
			bn := s.LinkIndex("n3-n4")
			f := s.Flows[0]
			return []scnCheck{
				{"duration s (script: finish at 10.1)", s.DurationS, 10.1},
				{"links", float64(len(s.Links)), 4},
				{"access capacity bit/s", s.Links[0].CapacityBps, 1e6},
				{"access delay s", s.Links[0].DelayS, 0.002},
				{"access buffer packets (ns-2 default)", s.Links[0].BufferPkts, 50},
				{"bottleneck capacity bit/s", s.Links[bn].CapacityBps, 2.5e6},
				{"bottleneck delay s", s.Links[bn].DelayS, 0.005},
				{"bottleneck buffer packets (queue-limit)", s.Links[bn].BufferPkts, 20},
				{"tcp path RTT s", s.PathRTTS(s.PathIndex(f.Path)), 2 * (0.002 + 0.005)},
				{"tcp MSS bytes (packetSize_)", f.MSSBytes, 552},
				{"tcp rwnd packets (window_)", s.FlowRwndPkts(0), 8000},
				{"tcp initial cwnd packets", f.InitialCwnd, 1},
				{"tcp start s", f.StartS, 1},
				{"tcp stop s", f.StopS, 10},
				{"tcp size bytes (FTP: unlimited)", f.SizeBytes, 0},
				{"cbr1 rate bit/s", s.CBR[0].RateBps, 1e6},
				{"cbr1 packet bytes", s.CBR[0].PacketBytes, 1000},
				{"cbr1 start s", s.CBR[0].StartS, 4.01},
				{"cbr1 stop s", s.CBR[0].StopS, 10},
				{"cbr2 rate bit/s", s.CBR[1].RateBps, 1e6},
				{"cbr2 start s", s.CBR[1].StartS, 5.01},
				{"cbr2 stop s", s.CBR[1].StopS, 10},
				{"cbr1 crosses the bottleneck", float64(s.PathLinks(s.PathIndex(s.CBR[0].Path))[1]), float64(bn)},
				{"cbr2 crosses the bottleneck", float64(s.PathLinks(s.PathIndex(s.CBR[1].Path))[1]), float64(bn)},
			}
		}},
		{"seed000-dumbbell", []string{"reno"}, func(s *model.Scenario) []scnCheck {
			bn := s.LinkIndex("bottleneck")
			return []scnCheck{
				{"duration s", s.DurationS, 100},
				{"path RTT s (one-way 10 + 100 + 10 ms)", s.PathRTTS(0), 0.24},
				{"bottleneck capacity bit/s", s.Links[bn].CapacityBps, 100e6},
				{"bottleneck buffer packets: ceil(100e6 × 0.24 / 11680) = ceil(2054.79)", s.Links[bn].BufferPkts, 2055},
				{"access capacity bit/s", s.Links[0].CapacityBps, 200e6},
				{"access buffer packets: ceil(200e6 × 0.24 / 11680) = ceil(4109.59)", s.Links[0].BufferPkts, 4110},
				{"MSS bytes", s.Flows[0].MSSBytes, 1460},
				{"rwnd bytes (scaling)", s.Flows[0].RwndBytes, 1 << 30},
				{"long-lived", s.Flows[0].SizeBytes, 0},
			}
		}},
		{"seed004-lfn", []string{"reno", "reno"}, func(s *model.Scenario) []scnCheck {
			rtt := s.PathRTTS(0)
			capBps := s.FlowRwndPkts(0) * s.Flows[0].MSSBytes * 8 / rtt
			return []scnCheck{
				{"duration s", s.DurationS, 60},
				{"paths", float64(len(s.Paths)), 2},
				{"independent paths share no link", float64(s.PathLinks(0)[0] + s.PathLinks(1)[0]), 1},
				{"capacity bit/s", s.Links[0].CapacityBps, 45e6},
				{"path 0 RTT s", rtt, 0.05},
				{"path 1 RTT s", s.PathRTTS(1), 0.05},
				{"buffer packets: ceil(45e6 × 0.05 / 11680) = ceil(192.64)", s.Links[0].BufferPkts, 193},
				{"no-scaling rwnd bytes", s.Flows[0].RwndBytes, 65535},
				{"no-scaling rwnd cap bit/s: 65535 × 8 / 0.05", capBps, 10485600},
				// 38.15 s at the cap: the 60 s run lets the slower transfer finish.
				{"no-scaling transfer time at the cap s", 50e6 * 8 / capBps, 50e6 * 8 / (65535 * 8 / 0.05)},
				{"scaling rwnd bytes", s.Flows[1].RwndBytes, 1 << 30},
				{"sizes bytes", s.Flows[0].SizeBytes + s.Flows[1].SizeBytes, 100e6},
				{"MSS bytes", s.Flows[0].MSSBytes, 1460},
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := model.Builtin(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != tt.name || s.Description == "" {
				t.Errorf("name %q, description %q", s.Name, s.Description)
			}
			var algos []string
			for _, f := range s.Flows {
				algos = append(algos, f.Algorithm)
			}
			if !reflect.DeepEqual(algos, tt.algos) {
				t.Errorf("algorithms %v, want %v", algos, tt.algos)
			}
			for _, c := range tt.checks(s) {
				if !scnRelClose(c.got, c.want, 1e-12) {
					t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
				}
			}
		})
	}
}

func TestBuiltinScaling(t *testing.T) {
	s, err := model.Builtin("seed004-lfn")
	if err != nil {
		t.Fatal(err)
	}
	if s.Flows[0].WindowScaling || !s.Flows[1].WindowScaling {
		t.Errorf("window scaling %v, %v; want false for no-scaling, true for scaling", s.Flows[0].WindowScaling, s.Flows[1].WindowScaling)
	}
	if s.Flows[0].Name != "no-scaling" || s.Flows[1].Name != "scaling" || s.Flows[0].Path != "p0" || s.Flows[1].Path != "p1" {
		t.Errorf("flows %+v", s.Flows)
	}
}

func TestBuiltinFreshCopy(t *testing.T) {
	a, err := model.Builtin("seed000-dumbbell")
	if err != nil {
		t.Fatal(err)
	}
	a.Links[1].CapacityBps = 1
	a.Paths[0].Links[0] = "changed"
	b, err := model.Builtin("seed000-dumbbell")
	if err != nil {
		t.Fatal(err)
	}
	if b.Links[1].CapacityBps != 100e6 || b.Paths[0].Links[0] != "access-in" {
		t.Errorf("a change to one copy reached the next: %+v", b)
	}
}

func TestBuiltinUnknown(t *testing.T) {
	_, err := model.Builtin("seed999")
	scnWantErr(t, err, `unknown builtin scenario "seed999"`, "seed003-dumbbell")
	if !errors.Is(err, model.ErrScenario) {
		t.Errorf("%v does not wrap ErrScenario", err)
	}
}

func TestSetAlgorithm(t *testing.T) {
	s, err := model.Builtin("seed004-lfn")
	if err != nil {
		t.Fatal(err)
	}
	s.Flows[1].Params = map[string]float64{"not-a-cubic-param": 1}
	if err := s.SetAlgorithm(scnParamAlgo); err != nil {
		t.Fatal(err)
	}
	for i, f := range s.Flows {
		if f.Algorithm != scnParamAlgo || f.Params != nil {
			t.Errorf("flow %d: algorithm %q, params %v; want %q, none", i, f.Algorithm, f.Params, scnParamAlgo)
		}
	}
	s.Flows[0].Params = map[string]float64{scnParam: 0.8}
	if err := s.SetAlgorithm(scnParamAlgo); err != nil || s.Flows[0].Params[scnParam] != 0.8 {
		t.Errorf("same algorithm: %v, params %v; want the params kept", err, s.Flows[0].Params)
	}
	err = s.SetAlgorithm("warp")
	scnWantErr(t, err, "--algo", `"warp"`)
	if !errors.Is(err, model.ErrUnknownAlgorithm) || !errors.Is(err, model.ErrScenario) {
		t.Errorf("%v does not wrap ErrUnknownAlgorithm and ErrScenario", err)
	}
	if s.Flows[0].Algorithm != scnParamAlgo {
		t.Errorf("a failed SetAlgorithm changed flow 0 to %q", s.Flows[0].Algorithm)
	}
}

func ExampleBuiltin() {
	s, err := model.Builtin("seed004-lfn")
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, f := range s.Flows {
		capBps := s.FlowRwndPkts(i) * f.MSSBytes * 8 / s.PathRTTS(s.PathIndex(f.Path))
		fmt.Printf("%s: rwnd %.0f bytes, window cap %s\n", f.Name, f.RwndBytes, model.FormatRate(capBps))
	}
	// Output:
	// no-scaling: rwnd 65535 bytes, window cap 10.49 Mb/s
	// scaling: rwnd 1073741824 bytes, window cap 171.8 Gb/s
}
