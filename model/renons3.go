package model

import "math"

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
//   - TcpNewReno's increase, MSS²/cwnd bytes, is truncated to whole bytes (at least one):
//     ⌊MSS/W⌋ bytes an ACK, W·⌊MSS/W⌋/MSS packets a round trip: from 730 packets (of 1460
//     bytes) to 1460 it falls from 1 to 1/2 at each step. Below MSS/16 packets the steps
//     are finer than 1/16 of the rate, and the window crosses each at the speed of the
//     step's middle (MSS/W − 1/2 bytes: within 0.06% of the time the steps take), so that
//     the solver does not stop at each of a small window's hundred steps.
type renoNS3Rule struct {
	renoRule
	newReno bool
	mss     float64 // bytes, for TcpNewReno's whole-byte increase
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

func (r renoNS3Rule) PerRTT(w float64, _ Observation) float64 {
	if !r.newReno || !(w > 0) {
		return 1
	}
	bytes := r.mss / w
	if bytes >= newRenoSmoothBytes {
		return w * (bytes - 0.5) / r.mss
	}
	return w * max(math.Floor(bytes), 1) / r.mss
}

// newRenoSmoothBytes is the per-ACK increase, bytes, from which renoNS3Rule runs
// TcpNewReno's truncation as a smooth rate.
const newRenoSmoothBytes = 16
