package model_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// scnBase is a small valid scenario: one 100 Mb/s, 10 ms link, one path, one stub flow.
func scnBase() *model.Scenario {
	return &model.Scenario{
		DurationS: 10,
		Links:     []model.Link{{CapacityBps: 100e6, DelayS: 0.01, BufferPkts: 100}},
		Paths:     []model.Path{{Links: []string{"l0"}}},
		Flows:     []model.Flow{{Algorithm: scnAlgo, Path: "p0"}},
	}
}

func TestValidateErrors(t *testing.T) {
	lo, hi := scnParamRange(t)
	tests := []struct {
		name   string
		mutate func(s *model.Scenario)
		want   []string // field, value, allowed range
		is     error    // an extra wrapped cause, or nil
	}{
		{"zero duration", func(s *model.Scenario) { s.DurationS = 0 }, []string{"duration = 0 s", "want > 0"}, nil},
		{"NaN duration", func(s *model.Scenario) { s.DurationS = math.NaN() }, []string{"duration = NaN s"}, nil},
		{"drop rule", func(s *model.Scenario) { s.DropRule = "uniform" }, []string{`drop_rule = "uniform"`, `want "synchronized", "proportional" or "random"`}, nil},
		{"no links", func(s *model.Scenario) { s.Links = nil }, []string{"links = none", "at least one"}, nil},
		{"no paths", func(s *model.Scenario) { s.Paths = nil }, []string{"paths = none"}, nil},
		{"negative capacity", func(s *model.Scenario) { s.Links[0].CapacityBps = -100e6 }, []string{"links[0].capacity = -1e+08 bit/s", "want > 0"}, nil},
		{"infinite capacity", func(s *model.Scenario) { s.Links[0].CapacityBps = math.Inf(1) }, []string{"links[0].capacity = +Inf bit/s"}, nil},
		{"negative delay", func(s *model.Scenario) { s.Links[0].DelayS = -0.001 }, []string{"links[0].delay = -0.001 s", "want >= 0"}, nil},
		{"no buffer", func(s *model.Scenario) { s.Links[0].BufferPkts = 0 }, []string{"links[0].buffer = 0 packets", "want > 0 packets or > 0 bdp"}, nil},
		{"negative bdp", func(s *model.Scenario) { s.Links[0].BufferBDP = -1 }, []string{"links[0].buffer = -1 bdp", "want > 0"}, nil},
		{"duplicate link", func(s *model.Scenario) {
			s.Links = append(s.Links, s.Links[0])
			s.Links[0].Name, s.Links[1].Name = "a", "a"
			s.Paths[0].Links = []string{"a"}
		}, []string{`links[1].name = "a"`, "unique", "links[0]"}, nil},
		{"queue kind", func(s *model.Scenario) { s.Links[0].Queue = "fifo" }, []string{`links[0].queue = "fifo"`, `want "droptail" or "red"`}, nil},
		{"RED thresholds", func(s *model.Scenario) {
			s.Links[0].Queue = model.QueueRED
			s.Links[0].RED = model.RED{MinThPkts: 20, MaxThPkts: 10}
		}, []string{"links[0].red.max_thresh = 10 packets", "want > min_thresh (20 packets)"}, nil},
		{"RED max_p", func(s *model.Scenario) {
			s.Links[0].Queue = model.QueueRED
			s.Links[0].RED.MaxP = 1.5
		}, []string{"links[0].red.max_p = 1.5", "want 0 < max_p <= 1"}, nil},
		{"RED weight", func(s *model.Scenario) {
			s.Links[0].Queue = model.QueueRED
			s.Links[0].RED.Weight = -0.1
		}, []string{"links[0].red.q_weight = -0.1", "want 0 < q_weight <= 1"}, nil},
		{"RED on drop-tail", func(s *model.Scenario) { s.Links[0].RED.MaxP = 0.2 }, []string{"links[0].red", `unset unless queue is "red"`}, nil},
		{"loss p = 1", func(s *model.Scenario) { s.Links[0].Loss, s.Links[0].LossP = model.LossRandom, 1 }, []string{"links[0].loss.p = 1", "want 0 < p < 1"}, nil},
		{"loss p = -0.1", func(s *model.Scenario) { s.Links[0].Loss, s.Links[0].LossP = model.LossPeriodic, -0.1 }, []string{"links[0].loss.p = -0.1", "want 0 < p < 1"}, nil},
		{"loss p without model", func(s *model.Scenario) { s.Links[0].LossP = 1e-5 }, []string{"links[0].loss.p = 1e-05", `loss model "none"`, "want 0"}, nil},
		{"loss model", func(s *model.Scenario) { s.Links[0].Loss = "bursty" }, []string{`links[0].loss.model = "bursty"`, `"random"`}, nil},
		{"empty path", func(s *model.Scenario) { s.Paths[0].Links = nil }, []string{"paths[0].links = empty", "want at least one link"}, nil},
		{"path unknown link", func(s *model.Scenario) { s.Paths[0].Links = []string{"l0", "l9"} }, []string{`paths[0].links[1] = "l9"`, "want one of the links [l0]"}, nil},
		{"path repeats link", func(s *model.Scenario) { s.Paths[0].Links = []string{"l0", "l0"} }, []string{`paths[0].links[1] = "l0" again`}, nil},
		{"zero-RTT path", func(s *model.Scenario) { s.Links[0].DelayS = 0 }, []string{"paths[0].links = [l0]", "round-trip propagation delay of 0 s", "want > 0 s"}, nil},
		{"unknown algorithm", func(s *model.Scenario) { s.Flows[0].Algorithm = "warp" }, []string{`flows[0].algorithm = "warp"`, "want one of [", scnAlgo}, model.ErrUnknownAlgorithm},
		{"param out of range", func(s *model.Scenario) {
			s.Flows[0].Algorithm, s.Flows[0].Params = scnParamAlgo, map[string]float64{scnParam: 2}
		}, []string{"flows[0].params.beta = 2", fmt.Sprint(lo), fmt.Sprint(hi)}, model.ErrParam},
		{"unknown param", func(s *model.Scenario) {
			s.Flows[0].Algorithm, s.Flows[0].Params = scnParamAlgo, map[string]float64{"btea": 0.5}
		}, []string{"flows[0].params.btea = 0.5", scnParam}, model.ErrParam},
		{"missing path", func(s *model.Scenario) { s.Flows[0].Path = "nowhere" }, []string{`flows[0].path = "nowhere"`, "want one of the paths [p0]"}, nil},
		{"negative start", func(s *model.Scenario) { s.Flows[0].StartS = -1 }, []string{"flows[0].start = -1 s", "want 0 <= start < duration (10 s)"}, nil},
		{"start at the end", func(s *model.Scenario) { s.Flows[0].StartS = 10 }, []string{"flows[0].start = 10 s"}, nil},
		{"stop before start", func(s *model.Scenario) { s.Flows[0].StartS, s.Flows[0].StopS = 5, 4 }, []string{"flows[0].stop = 4 s", "start (5 s) < stop <= duration (10 s)"}, nil},
		{"stop after the end", func(s *model.Scenario) { s.Flows[0].StopS = 11 }, []string{"flows[0].stop = 11 s"}, nil},
		{"negative size", func(s *model.Scenario) { s.Flows[0].SizeBytes = -1 }, []string{"flows[0].size = -1 bytes", "want >= 0"}, nil},
		{"tiny mss", func(s *model.Scenario) { s.Flows[0].MSSBytes = 0.5 }, []string{"flows[0].mss = 0.5 bytes", "want >= 1"}, nil},
		{"rwnd above 65535 without scaling", func(s *model.Scenario) { s.Flows[0].RwndBytes = 70000 }, []string{"flows[0].rwnd = 70000 bytes", "rwnd <= 65535 bytes without window_scaling"}, nil},
		{"rwnd above 2^30 with scaling", func(s *model.Scenario) {
			s.Flows[0].WindowScaling, s.Flows[0].RwndBytes = true, 2e9
		}, []string{"flows[0].rwnd = 2e+09 bytes", "rwnd <= 1.073741824e+09 bytes with window_scaling"}, nil},
		{"rwnd below mss", func(s *model.Scenario) { s.Flows[0].RwndBytes = 1000 }, []string{"flows[0].rwnd = 1000 bytes", "want mss (1460 bytes) <= rwnd"}, nil},
		{"initial cwnd", func(s *model.Scenario) { s.Flows[0].InitialCwnd = 0.5 }, []string{"flows[0].initial_cwnd = 0.5 packets", "want >= 1"}, nil},
		{"duplicate flow", func(s *model.Scenario) {
			s.Flows = append(s.Flows, s.Flows[0])
			s.Flows[0].Name, s.Flows[1].Name = "x", "x"
		}, []string{`flows[1].name = "x"`, "unique among flows and cbr (flows[0] has it)"}, nil},
		{"cbr named as a flow", func(s *model.Scenario) {
			s.CBR = []model.CBR{{Name: "f0", Path: "p0", RateBps: 1e6}}
		}, []string{`cbr[0].name = "f0"`, "flows[0] has it"}, nil},
		{"cbr rate", func(s *model.Scenario) { s.CBR = []model.CBR{{Path: "p0"}} }, []string{"cbr[0].rate = 0 bit/s", "want > 0"}, nil},
		{"cbr path", func(s *model.Scenario) { s.CBR = []model.CBR{{Path: "p1", RateBps: 1e6}} }, []string{`cbr[0].path = "p1"`}, nil},
		{"cbr packet size", func(s *model.Scenario) { s.CBR = []model.CBR{{Path: "p0", RateBps: 1e6, PacketBytes: -1}} }, []string{"cbr[0].packet_size = -1 bytes"}, nil},
		{"cbr stop", func(s *model.Scenario) { s.CBR = []model.CBR{{Path: "p0", RateBps: 1e6, StartS: 2, StopS: 2}} }, []string{"cbr[0].stop = 2 s"}, nil},
		{"event after the end", func(s *model.Scenario) {
			s.Events = []model.TimedEvent{{AtS: 12, Kind: model.EventLinkDown, Link: "l0"}}
		}, []string{"events[0].at = 12 s", "want 0 <= at <= duration (10 s)"}, nil},
		{"event kind", func(s *model.Scenario) {
			s.Events = []model.TimedEvent{{AtS: 1, Kind: "link-flap", Link: "l0"}}
		}, []string{`events[0].kind = "link-flap"`, `"link-down"`}, nil},
		{"event link", func(s *model.Scenario) {
			s.Events = []model.TimedEvent{{AtS: 1, Kind: model.EventLinkUp, Link: "l3"}}
		}, []string{`events[0].link = "l3"`, "want one of the links [l0]"}, nil},
		{"event delay", func(s *model.Scenario) {
			s.Events = []model.TimedEvent{{AtS: 1, Kind: model.EventDelayChange, Link: "l0", DelayS: -1}}
		}, []string{"events[0].delay = -1 s", "want >= 0"}, nil},
		{"bdp buffer on an unused link", func(s *model.Scenario) {
			s.Links = append(s.Links, model.Link{CapacityBps: 1e6, DelayS: 0.01, BufferBDP: 1})
		}, []string{"links[1].buffer = 1 bdp on a link no path crosses"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scnBase()
			tt.mutate(s)
			err := s.Validate()
			scnWantErr(t, err, append([]string{"invalid scenario: "}, tt.want...)...)
			if !errors.Is(err, model.ErrScenario) {
				t.Errorf("%v does not wrap ErrScenario", err)
			}
			var fe *model.FieldError
			if !errors.As(err, &fe) {
				t.Errorf("%v is not a *FieldError", err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not wrap %v", err, tt.is)
			}
		})
	}
}

func TestValidateDefaults(t *testing.T) {
	s := scnBase()
	s.Links[0].Queue = model.QueueRED
	s.Flows = append(s.Flows, model.Flow{Algorithm: scnParamAlgo, Path: "p0", WindowScaling: true, Params: map[string]float64{scnParam: 0.8}})
	s.CBR = []model.CBR{{Path: "p0", RateBps: 1e6}}
	s.Events = []model.TimedEvent{
		{AtS: 5, Kind: model.EventLinkUp, Link: "l0"},
		{AtS: 2, Kind: model.EventLinkDown, Link: "l0"},
		{AtS: 5, Kind: model.EventDelayChange, Link: "l0", DelayS: 0.02},
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	want := &model.Scenario{
		DurationS: 10,
		DropRule:  model.DropSynchronized,
		Links: []model.Link{{
			Name: "l0", CapacityBps: 100e6, DelayS: 0.01, BufferPkts: 100, Queue: model.QueueRED,
			RED:  model.RED{MinThPkts: 5, MaxThPkts: 15, MaxP: 0.1, Weight: 0.002},
			Loss: model.LossNone,
		}},
		Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
		Flows: []model.Flow{
			{Name: "f0", Algorithm: scnAlgo, Path: "p0", MSSBytes: 1460, RwndBytes: 65535, InitialCwnd: 1},
			{Name: "f1", Algorithm: scnParamAlgo, Path: "p0", MSSBytes: 1460, RwndBytes: 1 << 30, WindowScaling: true,
				InitialCwnd: 1, Params: map[string]float64{scnParam: 0.8}},
		},
		CBR: []model.CBR{{Name: "c0", Path: "p0", RateBps: 1e6, PacketBytes: 1000}},
		Events: []model.TimedEvent{ // sorted by time, ties in input order
			{AtS: 2, Kind: model.EventLinkDown, Link: "l0"},
			{AtS: 5, Kind: model.EventLinkUp, Link: "l0"},
			{AtS: 5, Kind: model.EventDelayChange, Link: "l0", DelayS: 0.02},
		},
	}
	if !sameScenario(s, want) {
		t.Errorf("resolved\n%+v\nwant\n%+v", s, want)
	}
	again := *s
	if err := again.Validate(); err != nil || !sameScenario(&again, want) {
		t.Errorf("second Validate changed the scenario or failed: %v\n%+v", err, again)
	}
}

// BDP buffers: BufferBDP × C × (longest path RTT) / (8 × largest MSS on the link), rounded up.
func TestValidateBufferBDP(t *testing.T) {
	build := func(capacity, bdp float64) *model.Scenario {
		return &model.Scenario{
			DurationS: 10,
			Links: []model.Link{
				{Name: "shared", CapacityBps: capacity, DelayS: 0.01, BufferBDP: bdp},
				{Name: "short", CapacityBps: 1e9, DelayS: 0.02, BufferPkts: 10},
				{Name: "long", CapacityBps: 1e9, DelayS: 0.04, BufferPkts: 10},
				{Name: "idle", CapacityBps: 1e9, DelayS: 0.1, BufferPkts: 10},
			},
			Paths: []model.Path{
				{Name: "a", Links: []string{"shared", "short"}}, // RTT 60 ms
				{Name: "b", Links: []string{"shared", "long"}},  // RTT 100 ms
				{Name: "c", Links: []string{"idle"}},            // does not cross "shared"
			},
			Flows: []model.Flow{
				{Algorithm: scnAlgo, Path: "a", MSSBytes: 1500},
				{Algorithm: scnAlgo, Path: "b", MSSBytes: 1000},
				{Algorithm: scnAlgo, Path: "c", MSSBytes: 9000},
			},
		}
	}
	tests := []struct {
		capacity, bdp, wantPkts float64
	}{
		{10e6, 1, 84},   // 10e6 × 0.1 / 12000 = 83.33 → 84
		{10e6, 0.5, 42}, // 41.67 → 42
		{12e6, 1, 100},  // exactly 100
		{1e3, 1, 1},     // 0.0083 packets → at least one packet
	}
	for _, tt := range tests {
		s := build(tt.capacity, tt.bdp)
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		if got := s.Links[0].BufferPkts; got != tt.wantPkts {
			t.Errorf("C = %v bit/s, %v bdp: buffer %v packets, want %v", tt.capacity, tt.bdp, got, tt.wantPkts)
		}
	}
	// 2 × (0.1 + 0.2) s is 0.6000000000000001 in float64, so 1e6 × RTT / 12000 comes out
	// as 50.00000000000001 packets: float noise must not round it up to 51.
	s := &model.Scenario{
		DurationS: 10,
		Links: []model.Link{
			{CapacityBps: 1e6, DelayS: 0.1, BufferBDP: 1},
			{CapacityBps: 1e9, DelayS: 0.2, BufferPkts: 10},
		},
		Paths: []model.Path{{Links: []string{"l0", "l1"}}},
		Flows: []model.Flow{{Algorithm: scnAlgo, Path: "p0", MSSBytes: 1500}},
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := s.Links[0].BufferPkts; got != 50 {
		t.Errorf("1 bdp of 1 Mb/s × 0.6 s in 1500-byte packets: %v packets, want 50", got)
	}
}

func TestScenarioHelpers(t *testing.T) {
	s := &model.Scenario{
		DurationS: 10,
		Links: []model.Link{
			{Name: "a", CapacityBps: 200e6, DelayS: 0.01, BufferPkts: 10},
			{Name: "b", CapacityBps: 100e6, DelayS: 0.1, BufferPkts: 10},
		},
		Paths: []model.Path{{Name: "ab", Links: []string{"a", "b"}}, {Name: "ba", Links: []string{"b", "a"}}},
		Flows: []model.Flow{{Algorithm: scnAlgo, Path: "ba"}},
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := s.LinkIndex("b"); got != 1 {
		t.Errorf("LinkIndex(b) = %d, want 1", got)
	}
	if got := s.LinkIndex("z"); got != -1 {
		t.Errorf("LinkIndex(z) = %d, want -1", got)
	}
	if got := s.PathIndex("ba"); got != 1 {
		t.Errorf("PathIndex(ba) = %d, want 1", got)
	}
	if got := s.PathLinks(1); !reflect.DeepEqual(got, []int{1, 0}) {
		t.Errorf("PathLinks(1) = %v, want [1 0]", got)
	}
	if got := s.PathRTTS(0); !scnRelClose(got, 0.22, 1e-12) {
		t.Errorf("PathRTTS(0) = %v s, want 2 × (0.01 + 0.1) = 0.22", got)
	}
	if got := s.FlowRwndPkts(0); !scnRelClose(got, 65535.0/1460, 1e-12) {
		t.Errorf("FlowRwndPkts(0) = %v packets, want 65535/1460 = 44.886", got)
	}
	if got := s.CapacityPktsPerS(1, 1460); !scnRelClose(got, 100e6/(8*1460), 1e-12) {
		t.Errorf("CapacityPktsPerS = %v packets/s, want 8561.6", got)
	}
	// The narrower link (b, 100 Mb/s) times the round trip 0.22 s, in 1460-byte packets.
	if got := s.FlowPathBDPs(0); len(got) != 1 || !scnRelClose(got[0], 100e6*0.22/(8*1460), 1e-12) {
		t.Errorf("FlowPathBDPs(0) = %v packets, want [1883.6]", got)
	}
	s.Flows[0].Path = "nowhere"
	if got := s.FlowPathBDPs(0); len(got) != 1 || got[0] != 0 {
		t.Errorf("FlowPathBDPs of an unknown path = %v, want [0]", got)
	}
}

// sameScenario compares the scenarios' exported fields: what Validate resolves, without the
// name index it keeps.
func sameScenario(a, b *model.Scenario) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		if va.Type().Field(i).IsExported() && !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return false
		}
	}
	return true
}
