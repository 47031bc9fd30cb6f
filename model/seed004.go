package model

// Seed 004: TCP window scaling on a long fat network.

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
