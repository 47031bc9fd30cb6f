package model

func init() {
	builtins["seed000-colo-random-loss"] = seed000RandomLoss
	builtins["seed000-slow-start"] = seed000SlowStart
	builtins["seed002-mesh"] = seed002Mesh
}

// dumbbellCopy adds one copy of seed 000's dumbbell (access 200 Mb/s 10 ms, bottleneck
// 100 Mb/s 100 ms with a buffer of bufferBDP, access 200 Mb/s 10 ms) carrying one flow of
// algo, so that several algorithms run side by side without sharing a queue.
func dumbbellCopy(s *Scenario, algo string, bufferBDP, lossP, rwndBytes float64) {
	in, mid, out := algo+"-access-in", algo+"-bottleneck", algo+"-access-out"
	s.Links = append(s.Links,
		Link{Name: in, CapacityBps: 200e6, DelayS: 0.010, BufferBDP: 1},
		Link{Name: mid, CapacityBps: 100e6, DelayS: 0.100, BufferBDP: bufferBDP},
		Link{Name: out, CapacityBps: 200e6, DelayS: 0.010, BufferBDP: 1},
	)
	if lossP > 0 {
		s.Links[len(s.Links)-2].Loss, s.Links[len(s.Links)-2].LossP = LossRandom, lossP
	}
	s.Paths = append(s.Paths, Path{Name: algo, Links: []string{in, mid, out}})
	s.Flows = append(s.Flows, Flow{Name: algo, Algorithm: algo, Path: algo, MSSBytes: DefaultMSSBytes,
		WindowScaling: true, RwndBytes: rwndBytes})
}

// seed000RandomLoss is seed 000's random-loss experiment: COLO, Reno, CUBIC and Compound,
// each alone on its own copy of the dumbbell with random loss 1e-5 on the bottleneck.
func seed000RandomLoss() *Scenario {
	s := &Scenario{
		Name: "seed000-colo-random-loss",
		Description: "Seed 000's random-loss experiment: COLO, Reno, CUBIC and Compound, each alone on " +
			"its own copy of the dumbbell (access 200 Mb/s 10 ms, bottleneck 100 Mb/s 100 ms, 1-BDP " +
			"buffers) with random loss 1e-5 per packet on the bottleneck, 300 s. The paper shows " +
			"cwnd and throughput over time; it gives no duration, buffer or MSS (1460 bytes here).",
		DurationS: 300,
	}
	for _, a := range []string{"colo", "reno", "cubic", "compound"} {
		dumbbellCopy(s, a, 1, 1e-5, 0)
	}
	return s
}

// seed000SlowStart is seed 000's slow-start experiment: COLO's two-part slow start against
// standard slow start, each alone on its own dumbbell. The slow-start threshold starts at
// the receiver window (MODELS.md, COLO eq. 1), here 3.5 BDP, so COLO's concave part
// begins at 1.75 BDP, once the queue is growing; the 1-BDP buffer overflows at 2 BDP, where
// standard slow start still doubles per RTT and COLO grows ×1.5 (RTT = 2·baseRTT).
func seed000SlowStart() *Scenario {
	const bdpBytes = 100e6 * 0.24 / 8
	s := &Scenario{
		Name: "seed000-slow-start",
		Description: "Seed 000's slow-start experiment: COLO against Reno's standard slow start, each " +
			"alone on its own copy of the dumbbell (1-BDP buffers), receiver window 3.5 BDP " +
			"(10.5 MB) so that COLO's concave slow start begins at 1.75 BDP; 30 s. Compare " +
			"dropped_pkts and the cwnd traces (--trace).",
		DurationS: 30,
	}
	for _, a := range []string{"colo", "reno"} {
		dumbbellCopy(s, a, 1, 0, 3.5*bdpBytes)
	}
	return s
}

// seed002Mesh is seed 002's wireless-mesh experiment as three independent copies of one
// path, so that Reno, NewReno and the route-change-aware proposal see the same events.
func seed002Mesh() *Scenario {
	s := &Scenario{
		Name: "seed002-mesh",
		Description: "Seed 002's mesh experiment: a 15 Mb/s, 10 ms path of 512-byte packets for 120 s; " +
			"the nodes start to move at 40 s (here: the delay grows to 15 ms at 40 s and 20 ms at 55 s, " +
			"with route breaks of 0.5 s at 50 s and 60 s), the client is disconnected from 70 s to " +
			"90 s and reconnects over a 10 ms route. Three copies of the path carry Reno, NewReno and " +
			"the proposal (NewReno with route_aware: it keeps its state through the outage and " +
			"resumes at min(window before, ssthresh)). Buffers are ns-2's default 50 packets; the " +
			"paper's IEEE 802.11 MAC is not modelled.",
		DurationS: 120,
	}
	for _, v := range []struct {
		name, algo string
		aware      bool
	}{{"reno", "reno", false}, {"newreno", "newreno", false}, {"route-aware", "newreno", true}} {
		link := v.name + "-mesh"
		s.Links = append(s.Links, Link{Name: link, CapacityBps: 15e6, DelayS: 0.010, BufferPkts: 50})
		s.Paths = append(s.Paths, Path{Name: v.name, Links: []string{link}})
		s.Flows = append(s.Flows, Flow{Name: v.name, Algorithm: v.algo, Path: v.name, MSSBytes: 512,
			WindowScaling: true, RouteAware: v.aware})
		for _, e := range []TimedEvent{
			{AtS: 40, Kind: EventDelayChange, DelayS: 0.015},
			{AtS: 50, Kind: EventLinkDown},
			{AtS: 50.5, Kind: EventLinkUp},
			{AtS: 55, Kind: EventDelayChange, DelayS: 0.020},
			{AtS: 60, Kind: EventLinkDown},
			{AtS: 60.5, Kind: EventLinkUp},
			{AtS: 70, Kind: EventLinkDown},
			{AtS: 90, Kind: EventLinkUp, DelayS: 0.010},
		} {
			e.Link = link
			s.Events = append(s.Events, e)
		}
	}
	return s
}
