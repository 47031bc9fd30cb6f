package model

// parkingLot is a four-hop parking lot: one long CUBIC flow crosses every hop, and one
// cross flow per hop crosses that hop alone, with Reno, Vegas, H-TCP and Reno; hop 2 runs
// RED and hop 3 has random loss 1e-5. It asks whether the fluid engine gets multi-hop
// sharing right: the long flow meets four queues, each of a different kind.
func parkingLot() *Scenario {
	// Two packet times at a hop, the jitter validate gives the proportional rule, as the
	// duration its YAML form reads back.
	parkingLotJitterS, _ := ParseDuration("467.2us")
	hop := func(name string) Link {
		return Link{Name: name, CapacityBps: 50e6, DelayS: 0.010, BufferBDP: 1}
	}
	h2 := hop("h2")
	h2.Queue = QueueRED
	h3 := hop("h3")
	h3.Loss, h3.LossP = LossRandom, 1e-5
	access := func(name string) Link {
		return Link{Name: name, CapacityBps: 1e9, DelayS: 0.030, BufferBDP: 1}
	}
	flow := func(name, algo, path string, start float64) Flow {
		return Flow{Name: name, Algorithm: algo, Path: path, MSSBytes: DefaultMSSBytes, WindowScaling: true, StartS: start}
	}
	return &Scenario{
		Name: "parking-lot",
		Description: "A four-hop parking lot, hops h1–h4 of 50 Mb/s and 10 ms one way, buffers of 1 BDP of the " +
			"paths crossing them; h2 is RED (ns-2 defaults), h3 drops 1e-5 of its packets at random. The long " +
			"CUBIC flow crosses all four hops (RTT 80 ms); each hop also carries one cross flow of its own, " +
			"which reaches it over a 1 Gb/s access link of 30 ms (RTT 80 ms too): Reno on h1, Vegas on h2, " +
			"H-TCP on h3, Reno on h4, starting 1 s apart. 200 s. The packet engine's senders hold each packet " +
			"up to two packet times at a hop (0.467 ms, ns-2's overhead_): without it a drop-tail phase effect at h3 " +
			"costs the long flow 7 packets an overflow and 28 timeouts, and 64% of its throughput.",
		DurationS:   200,
		SendJitterS: parkingLotJitterS,
		Links:       []Link{hop("h1"), h2, h3, hop("h4"), access("a1"), access("a2"), access("a3"), access("a4")},
		Paths: []Path{
			{Name: "long", Links: []string{"h1", "h2", "h3", "h4"}},
			{Name: "x1", Links: []string{"a1", "h1"}},
			{Name: "x2", Links: []string{"a2", "h2"}},
			{Name: "x3", Links: []string{"a3", "h3"}},
			{Name: "x4", Links: []string{"a4", "h4"}},
		},
		Flows: []Flow{
			flow("long", "cubic", "long", 0),
			flow("x1", "reno", "x1", 1),
			flow("x2", "vegas", "x2", 2),
			flow("x3", "htcp", "x3", 3),
			flow("x4", "reno", "x4", 4),
		},
	}
}
