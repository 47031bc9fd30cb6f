package model

// The window rules of reno@ns3 and newreno@ns3 (ns-3.37's TcpLinuxReno and TcpNewReno
// with TcpPrrRecovery) in the fluid face: Reno's, with what ns-3 does around a loss that a
// count of packets sees and the textbook sawtooth does not.
//   - TcpLinuxReno counts every segment the recovery's closing cumulative ACK covers in
//     m_cWndCnt (RecoveryExitAcker): W_loss/ssthresh packets more, two after halving.
//   - TcpNewReno adds MSS²/cwnd once per ACK whatever it covers, so that ACK adds
//     nothing, and its ssthresh halves the pipe at the entry into recovery (RFC 6675's
//     packets in flight, TcpSocketBase::EnterRecovery with SACK): the window, plus the
//     DupThresh − 1 new segments the first duplicate ACKs let out (each SACKed segment
//     leaves the pipe), less the DupThresh SACKed and the head marked lost: W − 2.
type renoNS3Rule struct {
	renoRule
	newReno bool
}

var _ RecoveryExitAcker = renoNS3Rule{}

// ns3PipeDeficit is how far the pipe at the entry into an ns-3 recovery falls short of
// the window (TcpSocketBase's ReTxThreshold 3 with SACK and limited transmit).
const ns3PipeDeficit = 2

func (r renoNS3Rule) Congestion(w float64, o Observation) float64 {
	if r.newReno {
		return max(w-ns3PipeDeficit, 0) / 2
	}
	return r.renoRule.Congestion(w, o)
}

func (r renoNS3Rule) ExitAck() bool { return !r.newReno }
