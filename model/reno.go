package model

// Reno (RFC 5681): slow start of one packet per ACK up to ssthresh, then
// congestion avoidance of one packet per RTT (1/W per ACK); a loss detected by duplicate
// ACKs halves the window (ssthresh = W = max(W/2, 2), fast recovery); a timeout restarts
// slow start from one packet. Tahoe and NewReno share this file's law and differ only in
// the loss jump (Tahoe) or in the recovery semantics the engines apply (NewReno).
//
// Fluid face, x = [W]: dW/dt = W·ln2/RTT in slow start (doubling per RTT, see
// SlowStartRate), dW/dt = 1/RTT in congestion avoidance (1/W per ACK × W/RTT ACKs/s);
// loss W ← W/2. Event face: W += 1 per packet acknowledged in slow start, W += 1/W per
// packet acknowledged in congestion avoidance.

func init() {
	Register("reno", func() Algorithm {
		return newRenoFamily("reno", "Reno: AIMD(1, 1/2) with fast retransmit and fast recovery (RFC 5681)", RecoveryReno, false)
	})
}

// renoRule is standard additive increase, multiplicative decrease: +1 packet per RTT,
// halve on loss.
type renoRule struct{}

func (renoRule) Start(Observation)                           {}
func (renoRule) PerRTT(float64, Observation) float64         { return 1 }
func (renoRule) Congestion(w float64, _ Observation) float64 { return w / 2 }

// renoFamily is Tahoe, Reno or NewReno: the same window law, no parameters.
type renoFamily struct {
	Base
	WindowLaw
	recovery Recovery
}

var (
	_ Algorithm          = (*renoFamily)(nil)
	_ RecoveryStyle      = (*renoFamily)(nil)
	_ ResponseReferencer = (*renoFamily)(nil)
	_ ConvergeReferencer = (*renoFamily)(nil)
)

func newRenoFamily(name, describe string, r Recovery, restartAfterLoss bool) *renoFamily {
	return &renoFamily{
		Base:      NewBase(name, describe),
		WindowLaw: WindowLaw{Rule: func() WindowRule { return renoRule{} }, RestartAfterLoss: restartAfterLoss, Memoryless: true},
		recovery:  r,
	}
}

func (a *renoFamily) Recovery() Recovery { return a.recovery }

// ResponseReference is Mathis's, except for Tahoe, whose slow start after every loss has
// no published closed form.
func (a *renoFamily) ResponseReference(loss LossModel) (ResponseReference, bool) {
	return renoReference(loss), !a.RestartAfterLoss
}

func (a *renoFamily) ConvergeReference(bdpPkts, rttS float64) ConvergeReference {
	return aimdConverge(bdpPkts, rttS)
}
