package model

// Seed 000: COLO TCP (Lee & Chung 2014) — the dumbbell, random loss, slow start.

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
