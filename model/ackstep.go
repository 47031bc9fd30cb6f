package model

import "math"

// AckStepper is implemented by window rules whose implementation counts an ACK of several
// segments one segment at a time against the window as it grows (ns-3.37
// TcpHighSpeed::CongestionAvoidance's while loop), where the others count them all at the
// window the ACK finds (TcpLinuxReno, TcpScalable, Linux's modules). It matters where one
// ACK covers a flight: the one that ends a fast recovery (RecoveryExitAcker).
type AckStepper interface {
	StepsAcks() bool
}

// ackStepSize is the most one sub-step of a stepped ACK adds, packets.
const ackStepSize = 0.25

// caIncrease is the window after acked packets acknowledged at once in congestion
// avoidance: the per-ACK increase at the window the ACK finds, or for an AckStepper
// counted against the window as it grows (StepAcks).
func caIncrease(rule WindowRule, win *Window, cwnd, acked float64, o Observation) float64 {
	st, ok := rule.(AckStepper)
	if acked <= 1 || !ok || !st.StepsAcks() {
		return cwnd + win.Limit(cwnd, acked*rule.PerRTT(cwnd, o)/cwnd)
	}
	return StepAcks(rule, cwnd, acked, win.MaxCwnd, o)
}

// StepAcks is the window after acked packets acknowledged at once, each counted against
// the window as it grows under rule's per-ACK increase PerRTT(w)/w, up to maxCwnd:
// midpoint sub-steps of at most ackStepSize packets that end at every whole packet, where
// a counted rule's increase changes (exact for one constant between whole packets).
func StepAcks(rule WindowRule, cwnd, acked, maxCwnd float64, o Observation) float64 {
	perAck := func(w float64) float64 { return rule.PerRTT(w, o) / w }
	for range 1 << 20 {
		r := perAck(cwnd)
		if !(acked > 0) || !(r > 0) || cwnd >= maxCwnd {
			break
		}
		next := math.Floor(cwnd) + 1
		if next-cwnd < 1e-9 {
			next++
		}
		h := min(acked, min(ackStepSize, next-cwnd)/r)
		step := h * perAck(cwnd+h*r/2)
		if next-cwnd-step < 1e-9 {
			step = next - cwnd
		}
		cwnd += step
		acked -= h
	}
	return min(cwnd, maxCwnd)
}
