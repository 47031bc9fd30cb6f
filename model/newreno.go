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
