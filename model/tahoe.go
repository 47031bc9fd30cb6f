package model

// Tahoe (Jacobson 1988; seed 003's ns-2 TcpAgent): Reno's slow start and congestion
// avoidance (reno.go), but a loss detected by duplicate ACKs is followed by fast retransmit
// and slow start from one packet, with no fast recovery: ssthresh = max(W/2, 2), W = 1.
// Fluid face: the same jump, then W·ln2/RTT growth until W crosses ssthresh.

func init() {
	Register("tahoe", func() Algorithm {
		return newRenoFamily("tahoe", "Tahoe: slow start and AIMD(1, 1/2); every loss restarts slow start from one packet (Jacobson 1988)",
			RecoveryTahoe, true)
	})
}
