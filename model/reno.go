package model

// Reno (RFC 5681): slow start of one packet per ACK up to ssthresh, then
// congestion avoidance of one packet per RTT (1/W per ACK); a loss detected by duplicate
// ACKs halves the window (ssthresh = W = max(W/2, 2), fast recovery); a timeout restarts
// slow start from one packet. Tahoe and NewReno share this file's law and differ only in
// the loss jump (Tahoe) or in the recovery semantics the packet engine applies (NewReno).
//
// Fluid face, x = [W]: dW/dt = W·ln2/RTT in slow start (doubling per RTT, see
// slowStartRate), dW/dt = 1/RTT in congestion avoidance (1/W per ACK × W/RTT ACKs/s);
// loss W ← W/2. Event face: W += 1 per packet acknowledged in slow start, W += 1/W per
// packet acknowledged in congestion avoidance.

func init() {
	Register("reno", func() Algorithm {
		return &renoFamily{
			algoBase: algoBase{name: "reno", describe: "Reno: AIMD(1, 1/2) with fast retransmit and fast recovery (RFC 5681)"},
			recovery: RecoveryReno,
		}
	})
}

// renoRule is standard additive increase, multiplicative decrease: +1 packet per RTT,
// halve on loss. Scalable, HighSpeed and BIC fall back to it below their low windows.
type renoRule struct{}

func (renoRule) start(Observation)                           {}
func (renoRule) perRTT(float64, Observation) float64         { return 1 }
func (renoRule) congestion(w float64, _ Observation) float64 { return w / 2 }

// renoFamily is Tahoe, Reno or NewReno: the same window law, no parameters.
type renoFamily struct {
	algoBase
	restart  bool // Tahoe
	recovery Recovery
}

func (a *renoFamily) NewFluid(c FlowConfig) FluidLaw {
	return newWindowFluid(c, renoRule{}, a.restart)
}

func (a *renoFamily) NewEvent(c FlowConfig) EventLaw {
	return newWindowEvent(c, renoRule{}, a.restart, a.recovery)
}
