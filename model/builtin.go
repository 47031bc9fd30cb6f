package model

import (
	"fmt"
	"slices"
	"sort"
)

// builtins are the scenarios of the seed papers, built fresh on every call so callers may
// change their copy.
var builtins = map[string]func() *Scenario{
	"seed000-dumbbell": seed000Dumbbell,
	"seed003-dumbbell": seed003Dumbbell,
	"seed004-lfn":      seed004LFN,
}

// BuiltinNames lists the built-in scenarios in sorted order.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Builtin returns a fresh, validated copy of the named built-in scenario. Its Description
// says where it comes from and what had to be interpreted.
func Builtin(name string) (*Scenario, error) {
	build, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("%w: unknown builtin scenario %q, want one of %v", ErrScenario, name, BuiltinNames())
	}
	s := build()
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("builtin %s: %w", name, err)
	}
	return s, nil
}

// SetAlgorithm sets the algorithm of every TCP flow of its kind (the CLI's --algo): a
// multi-path algorithm that of the multi-path flows, any other that of the single-path
// flows; then it validates the scenario. Parameter overrides of a flow whose algorithm changes are dropped: they were
// names of the old algorithm.
func (s *Scenario) SetAlgorithm(name string) error {
	alg, err := New(name)
	if err != nil {
		return fmt.Errorf("%w: --algo: %w", ErrScenario, err)
	}
	// A multi-path algorithm replaces the algorithm of the multi-path flows and a
	// single-path one that of the single-path flows, so that --algo lia or --algo cubic
	// both make sense on a scenario that has both kinds.
	// With no flow of its kind it applies to every flow.
	multi := IsMultipath(alg)
	kind := func(f *Flow) bool { return (len(f.Paths) > 1) == multi }
	any := slices.ContainsFunc(s.Flows, func(f Flow) bool { return kind(&f) })
	for i := range s.Flows {
		if any && !kind(&s.Flows[i]) {
			continue
		}
		if s.Flows[i].Algorithm != name {
			s.Flows[i].Algorithm = name
			s.Flows[i].Params = nil
		}
	}
	return s.Validate()
}

// seed003Dumbbell is the ns-2 script of seed 003 (a comparison of Tahoe, Reno, NewReno and
// Vegas): n0, n1, n2 → n3 → n4.
func seed003Dumbbell() *Scenario {
	const (
		ns2DefaultQueuePkts = 50   // ns-2 Queue limit_ when the script sets none
		ns2PacketBytes      = 552  // $tcp0 set packetSize_ 552
		ns2WindowPkts       = 8000 // $tcp0 set window_ 8000
	)
	access := func(name string) Link {
		return Link{Name: name, CapacityBps: 1e6, DelayS: 0.002, BufferPkts: ns2DefaultQueuePkts}
	}
	return &Scenario{
		Name: "seed003-dumbbell",
		Description: "Seed 003's ns-2 script: n0, n1, n2 → n3 over 1 Mb/s 2 ms drop-tail links " +
			"(ns-2's default queue limit, 50 packets), n3 → n4 2.5 Mb/s 5 ms with queue-limit 20. " +
			"One FTP/TCP flow n0 → n4 from 1.0 s to 10.0 s (packetSize_ 552 bytes, window_ 8000 " +
			"packets, windowInit_ 1) and 1 Mb/s CBR of 1000-byte packets n1 → n4 from 4.01 s and " +
			"n2 → n4 from 5.01 s, both to 10.0 s; the script ends at 10.1 s. Interpretations: the " +
			"script's Agent/TCP is ns-2 Tahoe, the paper swaps in Reno, NewReno and Vegas, and this " +
			"builtin defaults to newreno (use --algo); the script's window_ 8000 packets (4.416 MB) " +
			"exceeds 65535 bytes, which ns-2 allows, so the flow has window scaling on; the prose " +
			"says 0.01 s and 10.01 s and \"552KB\", the script and Table 2 say 1.0 s, 10.0 s and 552 bytes. " +
			"ns-2's Agent/TCP family puts a 40-byte TCP/IP header on every segment (592 bytes on the " +
			"wire) and sends 40-byte ACKs, so the flow has header_bytes 40; ns-2's Agent/TCP/Vegas " +
			"sends bare 552-byte segments with α 1, β 3, which `tcpfluid validate --table3` applies " +
			"when it runs Vegas.",
		DurationS: 10.1,
		Links: []Link{
			access("n0-n3"),
			access("n1-n3"),
			access("n2-n3"),
			{Name: "n3-n4", CapacityBps: 2.5e6, DelayS: 0.005, BufferPkts: 20},
		},
		Paths: []Path{
			{Name: "n0-n4", Links: []string{"n0-n3", "n3-n4"}},
			{Name: "n1-n4", Links: []string{"n1-n3", "n3-n4"}},
			{Name: "n2-n4", Links: []string{"n2-n3", "n3-n4"}},
		},
		Flows: []Flow{{
			Name: "tcp0", Algorithm: "newreno", Path: "n0-n4", StartS: 1.0, StopS: 10.0,
			MSSBytes: ns2PacketBytes, RwndBytes: ns2WindowPkts * ns2PacketBytes, WindowScaling: true,
			InitialCwnd: 1, HeaderBytes: 40,
		}},
		CBR: []CBR{
			{Name: "cbr1", Path: "n1-n4", RateBps: 1e6, PacketBytes: 1000, StartS: 4.01, StopS: 10.0},
			{Name: "cbr2", Path: "n2-n4", RateBps: 1e6, PacketBytes: 1000, StartS: 5.01, StopS: 10.0},
		},
	}
}

// seed000Dumbbell is the COLO TCP paper's topology (seed 000): sender → R1 → R2 → receiver.
// The paper's "전송 지연" (link delay) of ns-2 links is one way, so the path's round trip is
// 2 × (10 + 100 + 10) ms = 240 ms.
func seed000Dumbbell() *Scenario {
	return &Scenario{
		Name: "seed000-dumbbell",
		Description: "Seed 000's (COLO TCP) dumbbell: sender → R1 200 Mb/s 10 ms, R1 → R2 100 Mb/s " +
			"100 ms, R2 → receiver 200 Mb/s 10 ms; the paper's ns-2 link delays are one way, so the " +
			"round trip is 240 ms. Buffers 1 BDP of each link (the bottleneck: 2055 packets of 1460 " +
			"bytes; the paper gives no buffer or MSS). One long-lived reno flow with window scaling, 100 s.",
		DurationS: 100,
		Links: []Link{
			{Name: "access-in", CapacityBps: 200e6, DelayS: 0.010, BufferBDP: 1},
			{Name: "bottleneck", CapacityBps: 100e6, DelayS: 0.100, BufferBDP: 1},
			{Name: "access-out", CapacityBps: 200e6, DelayS: 0.010, BufferBDP: 1},
		},
		Paths: []Path{{Name: "p0", Links: []string{"access-in", "bottleneck", "access-out"}}},
		Flows: []Flow{{
			Name: "f0", Algorithm: "reno", Path: "p0", MSSBytes: DefaultMSSBytes, WindowScaling: true,
		}},
	}
}

// seed004LFN is seed 004's OPNET window-scaling experiment: a 50,000,000-byte FTP transfer
// over a DS3 long fat network with a 50 ms round trip, with and without window scaling.
func seed004LFN() *Scenario {
	const transferBytes = 50e6
	return &Scenario{
		Name: "seed004-lfn",
		Description: "Seed 004's window-scaling experiment: two independent 45 Mb/s paths (DS3, " +
			"rounded from 44.736 Mb/s) with a 50 ms round trip (25 ms one way) and 1-BDP buffers " +
			"(193 packets). Flow no-scaling (rwnd 65535 bytes, capped at 65535·8/0.05 = 10.49 Mb/s) " +
			"on p0 and flow scaling (window scaling, rwnd 2^30 bytes) on p1 each send 50,000,000 " +
			"bytes with reno, 1460-byte packets; 60 s lets both finish.",
		DurationS: 60,
		Links: []Link{
			{Name: "l0", CapacityBps: 45e6, DelayS: 0.025, BufferBDP: 1},
			{Name: "l1", CapacityBps: 45e6, DelayS: 0.025, BufferBDP: 1},
		},
		Paths: []Path{
			{Name: "p0", Links: []string{"l0"}},
			{Name: "p1", Links: []string{"l1"}},
		},
		Flows: []Flow{
			{Name: "no-scaling", Algorithm: "reno", Path: "p0", SizeBytes: transferBytes,
				MSSBytes: DefaultMSSBytes, RwndBytes: DefaultRwndBytes},
			{Name: "scaling", Algorithm: "reno", Path: "p1", SizeBytes: transferBytes,
				MSSBytes: DefaultMSSBytes, WindowScaling: true},
		},
	}
}
