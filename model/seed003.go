package model

// Seed 003: the ns-2 study of Tahoe, Reno, NewReno and Vegas (Miyakawa), its script.

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
