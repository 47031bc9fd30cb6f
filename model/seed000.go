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
// the receiver window (docs/models.md, COLO eq. 1), here 3.5 BDP, so COLO's concave part
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

// Seed 000's parameter experiments: one built-in per COLO parameter, each on the dumbbell
// (access 200 Mb/s 10 ms, bottleneck 100 Mb/s 100 ms, access 200 Mb/s 10 ms; round trip
// 240 ms, BDP 2055 packets of 1460 bytes) and each the base of the sweep that shows the
// parameter's effect (package sweep's Experiments).

// seed000ColoGamma is COLO alone with ssthresh = the receiver window = 3.5 BDP, as the
// seed's slow start has it ("ssthresh = receiver buffer"): the exponential part ends at
// 1.75 BDP with 0.75 BDP already queued, and the concave part, W ← W·(1 + (baseRTT/RTT)^γ)
// per RTT, runs while the 1-BDP buffer fills to its overflow at 2 BDP and through the round
// trip the loss takes to be seen. That last round decides the slow start's loss burst.
func seed000ColoGamma() *Scenario {
	const bdpBytes = 100e6 * 0.24 / 8
	s := &Scenario{
		Name: "seed000-colo-gamma",
		Description: "COLO's γ on slow start (sweep colo.gamma=0.5:3:6): COLO alone on seed 000's dumbbell (1-BDP buffer, 2055 packets), " +
			"receiver window 3.5 BDP (10.5 MB, 7192 packets), which is its first ssthresh, as the seed's slow start has it; 10 s. " +
			"The exponential part ends at ssthresh/2 = 1.75 BDP with 0.75 BDP queued; the concave part grows by (baseRTT/RTT)^γ per " +
			"packet acknowledged while the queue fills to the overflow at 2 BDP and during the round trip the loss takes to be seen, " +
			"so a larger γ brakes harder and loses fewer packets: first_loss_drops_pkts falls as γ rises. The packet engine shows it " +
			"in full (3081 packets at γ 0.5 to 1253 at γ 3), the fluid engine less steeply (2745 to 1768); in both the brake is the " +
			"queue the sender's RTT samples report, the one its packets met, a round trip behind the queue of now. peak_queue_pkts is the buffer at every γ (each overflows), and time_to_90pct_s does not move (2.76 s fluid, " +
			"3.0 s packet): the link is filled before any queue forms, where (baseRTT/RTT)^γ = 1 for every γ.",
		DurationS: 10,
	}
	dumbbellCopy(s, "colo", 1, 0, 3.5*bdpBytes)
	return s
}

// seed000ColoAlpha is COLO alone under random loss 1e-5: α_max is its increase per RTT with
// an empty queue, falling to α_min as the queue reaches the one at the last overflow.
func seed000ColoAlpha() *Scenario {
	s := &Scenario{
		Name: "seed000-colo-alpha",
		Description: "COLO's α_max and α_min on recovery and queueing after random losses (sweep colo.alpha_max=2:32:4, or colo.alpha_min " +
			"up to alpha_max's 8): COLO alone on seed 000's dumbbell (1-BDP buffer) with random loss 1e-5 per packet on the bottleneck " +
			"(about 0.09 losses a second at 100 Mb/s), 300 s. A random loss with packets queued cuts the window to baseRTT/RTT of it, " +
			"which empties the queue and keeps the link busy; from there COLO adds α per RTT, α_max with the queue empty, falling to " +
			"α_min as the queue reaches the one at the last overflow. A larger α_max refills the buffer sooner after each loss: the mean " +
			"queue and the mean window rise with it (in the fluid engine 93 to 313 packets from α_max 2 to 32), while the throughput, " +
			"already 99% of the link's, does not move, and the loss rate stays at the random losses' 1e-5: the queue stays far below " +
			"the buffer, and no loss is an overflow. Random losses make each run one draw: sweep with --replications (8 by default).",
		DurationS: 300,
	}
	dumbbellCopy(s, "colo", 1, 1e-5, 0)
	return s
}

// seed000ColoBeta is one COLO flow against four Reno flows on one dumbbell: β =
// clip(baseRTT/RTT, β_min, 1) is the fraction of its window COLO keeps after a loss.
func seed000ColoBeta() *Scenario {
	// Two packet times of 1500 bytes at the 100 Mb/s bottleneck, as the duration its YAML
	// form reads back.
	jitterS, _ := ParseDuration("240us")
	s := &Scenario{
		Name: "seed000-colo-beta",
		Description: "COLO's β_min on friendliness and random-loss tolerance (sweep colo.beta_min=0.3:0.9:7 and p=0,1e-5): one COLO " +
			"and four Reno flows share seed 000's dumbbell (1-BDP buffer, synchronized drops), 300 s. After a loss COLO keeps " +
			"β = baseRTT/RTT of its window, at least β_min. Every overflow finds the buffer full, the RTT twice the base and " +
			"β = 0.5, so β_min up to 0.5 never binds and COLO's share is the same (0.42 in the fluid engine, against 0.2 each " +
			"when fair: α > 1 already takes more); above 0.5 COLO keeps β_min, more than Reno's half, at every overflow, and its " +
			"share rises (0.45, 0.49, 0.54, 0.59 at 0.6 … 0.9) while Jain's index falls. With random loss 1e-5 on the bottleneck (p=1e-5), most losses " +
			"come with a short queue, where β = baseRTT/RTT is above β_min anyway: the share moves less and only at the top of the " +
			"range, each run one draw of the losses (sweep with --replications). The packet engine's senders hold each packet up to " +
			"two packet times at the bottleneck (0.24 ms, ns-2's overhead_): without it which Reno flow's packets meet the full queue " +
			"is drop-tail phase, and COLO took 0.46 of the link at seed 1.",
		DurationS:   300,
		SendJitterS: jitterS,
		Links: []Link{
			{Name: "access-in", CapacityBps: 200e6, DelayS: 0.010, BufferBDP: 1},
			{Name: "bottleneck", CapacityBps: 100e6, DelayS: 0.100, BufferBDP: 1},
			{Name: "access-out", CapacityBps: 200e6, DelayS: 0.010, BufferBDP: 1},
		},
		Paths: []Path{{Name: "p0", Links: []string{"access-in", "bottleneck", "access-out"}}},
	}
	s.Flows = append(s.Flows, Flow{Name: "colo", Algorithm: "colo", Path: "p0", MSSBytes: DefaultMSSBytes, WindowScaling: true})
	for i := 1; i <= 4; i++ {
		s.Flows = append(s.Flows, Flow{Name: "reno-" + string(rune('0'+i)), Algorithm: "reno", Path: "p0", MSSBytes: DefaultMSSBytes, WindowScaling: true})
	}
	return s
}
