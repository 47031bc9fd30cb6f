package model

// Seed 001: MPTCP LIA and VLIA (Kim, Han & Lee 2020).

// seed001MPTCP is seed 001's testbed (Kim, Han & Lee, JITAE 2020): an MPTCP connection over
// a high-BDP path and a low-BDP path, and a single-path TCP flow sharing the low-BDP one.
func seed001MPTCP() *Scenario {
	const lossP = 1e-6 // "일반 유선 네트워크망의 손실률인 10^-6", on both bottlenecks
	return &Scenario{
		Name: "seed001-mptcp",
		Description: "Seed 001's (MPTCP LIA vs VLIA) testbed: path p1 one 500 Mb/s link with a 100 ms " +
			"round trip (50 ms one way), path p2 one 100 Mb/s link with a 20 ms round trip (10 ms one " +
			"way); drop-tail buffers of 1 BDP; random loss 1e-6 per packet on both links; 1460-byte " +
			"packets; 1000 s. Flow mptcp (lia; --algo vlia for the proposal) has one subflow on each " +
			"path, flow tcp (reno) shares p2, both from 0 s with window scaling. Interpretations: the " +
			"paper's 100 ms and 20 ms delays are round trips (its BDP of 4166 packets is 500 Mb/s × " +
			"100 ms in 1500-byte frames); here a packet is its 1460-byte MSS with no header, so the " +
			"same bytes make BDPs of 4281 and 172 packets and buffers of that many; the paper does not " +
			"name the single-path TCP's algorithm (Ubuntu 14.04's default is cubic) and reno is the " +
			"flow LIA is designed to be fair to; ACKs return uncongested; a full queue drops from one " +
			"flow at a time, chosen in proportion to its arrivals (drop rule proportional), as the " +
			"testbed's drop-tail queues do: the synchronized rule would halve the small MPTCP subflow " +
			"at every overflow of p2; the receivers delay their ACKs, as Linux's do (one ACK per two " +
			"packets), which halves LIA's growth: the testbed's LIA (mptcp_coupled.c) counts ACKs, not packets; " +
			"the MPTCP flow's subflows start with ssthresh 400 packets, not a fresh slow start: Linux " +
			"caches ssthresh per destination between connections (tcp_metrics; at close it keeps cwnd/2 " +
			"from congestion avoidance) and a testbed run follows earlier ones; 400 is half LIA's mean " +
			"window on p1, and with it the window climbs for about 250 s to about 1240 packets (seed 1) " +
			"before a loss halves it, as in the paper's Fig. 4 (to 1290 at 240 s); a fresh slow start " +
			"(initial_ssthresh 0) fills p1 at first (about 8500 packets), takes about 200 s and four " +
			"losses to come down, and raises LIA's share of p1 over the 1000 s from 19% to 25%.",
		DurationS: 1000,
		DropRule:  DropProportional,
		Links: []Link{
			{Name: "l1", CapacityBps: 500e6, DelayS: 0.050, BufferBDP: 1, Loss: LossRandom, LossP: lossP},
			{Name: "l2", CapacityBps: 100e6, DelayS: 0.010, BufferBDP: 1, Loss: LossRandom, LossP: lossP},
		},
		Paths: []Path{
			{Name: "p1", Links: []string{"l1"}},
			{Name: "p2", Links: []string{"l2"}},
		},
		Flows: []Flow{
			{Name: "mptcp", Algorithm: "lia", Paths: []string{"p1", "p2"}, MSSBytes: DefaultMSSBytes, WindowScaling: true, DelayedAck: true, InitialSsthresh: 400},
			{Name: "tcp", Algorithm: "reno", Path: "p2", MSSBytes: DefaultMSSBytes, WindowScaling: true, DelayedAck: true},
		},
	}
}
