package model

// NewReno (RFC 6582): Reno's window law (reno.go); partial ACKs keep the sender in fast
// recovery, so several losses in one window cost a single halving. That difference lives
// in the packet engine's recovery state machine (RecoveryNewReno). In the fluid face the
// loss model decides how many loss events a window sees, so NewReno's fluid law is Reno's.

func init() {
	Register("newreno", func() Algorithm {
		return newRenoFamily("newreno", "NewReno: Reno whose fast recovery survives partial ACKs, one halving per window of losses (RFC 6582)",
			RecoveryNewReno, false)
	})
}

// FlightReducer is implemented by event laws whose reduction at the entry into recovery
// starts from the packets in flight rather than from the window: RFC 5681 (4)'s
// ssthresh = max(FlightSize/2, 2·SMSS), as ns-3.37's TcpNewReno and the classes derived
// from it compute GetSsThresh(tcb, BytesInFlight). The packet engine's SACK recoveries
// (RecoveryLinux, RecoveryLinuxMinCwnd, RecoveryPRR) call OnLossInFlight instead of OnLoss
// with RFC 6675's pipe (packets sent, neither acknowledged nor SACKed nor taken as lost)
// when the loss is detected.
type FlightReducer interface {
	OnLossInFlight(inFlight float64, o Observation)
}

// newRenoVariants: Linux has one Reno (newreno is reno there, recovered by SACK), and
// ns-3.37's TcpNewReno halves the pipe (reno.go's renoNS3New).
func newRenoVariants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux 2.6.2x: newreno is tcp_reno_cong_avoid with SACK recovery, as ns-2.35 TCP/Linux runs it",
			Recovery: RecoveryLinuxMinCwnd},
		{Name: "ns3", Source: "ns-3.37 TcpNewReno (ssthresh half the bytes in flight, MSS²/cwnd bytes per ACK) with TcpPrrRecovery",
			Recovery: RecoveryPRR},
	}
}
