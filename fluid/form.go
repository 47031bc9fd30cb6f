package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// The forms of the fluid model, reported with every result.
const (
	// FormHybrid is the textbook sawtooth: continuous growth, located loss events, jumps.
	FormHybrid = "hybrid"
	// FormHybridRecovery is FormHybrid counted the way a packet sender counts, the form to
	// compare with the packet engine: the window holds still for one RTT after each loss
	// event, as a sender's does while fast recovery repairs the loss (a cycle of W/2 RTTs
	// gains one RTT), and a law's post-loss clock starts when that recovery ends
	// (model.RecoveryEnder); the sender keeps ⌊W⌋ packets in flight, W − ½ on average
	// (inFlight); and a per-ACK increase in proportion to 1/W takes the window half-way
	// through the round's increase (ackRef). These are O(1/W) corrections: 4% at W = 11,
	// 0.05% at W = 1000.
	FormHybridRecovery = "hybrid-recovery"
)

// form is everything that differs between the forms; the rest of the engine asks it.
type form struct {
	// counted: the form counts packets and recovery as a packet sender does.
	counted bool
}

var forms = map[string]form{FormHybrid: {}, FormHybridRecovery: {counted: true}}

// inFlight is the packets a window of w packets keeps in flight under a receiver window
// of rwnd packets. A packet sender sends whole packets, ⌊min(W, rwnd)⌋, which is W − ½ on
// average as W grows through the integers, and exactly ⌊rwnd⌋ at the cap; the counted
// form does so (continuous in W; below one packet, half the window). The hybrid form keeps
// the textbook W.
func (fm form) inFlight(w, rwnd float64) float64 {
	if !fm.counted {
		return w
	}
	return math.Min(w-math.Min(0.5, w/2), math.Max(math.Floor(rwnd), 1))
}

// holds reports whether the subflow's window holds still in fast recovery at time t.
func (fm form) holds(f *subflow, t float64) bool { return fm.counted && t < f.recoverUntil }

// resumesAt is when a window held in fast recovery resumes (a step boundary), s; +Inf in
// the hybrid form, which does not hold windows.
func (fm form) resumesAt(f *subflow) float64 {
	if !fm.counted {
		return math.Inf(1)
	}
	return f.recoverUntil
}

// ackRef is the reference ACK rate (wire bytes/s) a single-path subflow's law is clocked
// against: W/RTT, except in the counted form when the law's increase is spread over the
// round's ACKs in proportion to 1/W (model.InverseWindowIncrease). A packet sender's ACKs
// of a round return together and each adds the increment at the window reached so far:
// 1/W for Reno, a(W)/W for HighSpeed, α/W for CUBIC's Reno estimate. Evaluated at the
// window half-way through the round's increase Δ = RTT·dW/dt instead of W, Reno gains
// ⌊W⌋/(W + ½) packets per round instead of 1, as the packet engine's sawtooth shows, and
// Scalable's a per ACK compounds as (1 + a)^n per round instead of e^(an)
// (1/(1 + a/2) ≈ ln(1 + a)/a). dx is the law's derivative at x.
func (fm form) ackRef(f *subflow, dx, x []float64, o model.Observation) float64 {
	if !fm.counted || f.ackRef <= 0 {
		return f.ackRef
	}
	law, ok := f.law.(model.InverseWindowIncrease)
	w := math.Min(x[f.sub], f.rwnd)
	if !ok || !law.InverseWindowIncrease(x, o) || !(dx[f.sub] > 0) || !(w > 0) {
		return f.ackRef
	}
	delta := dx[f.sub] * (f.deliver / f.ackRef) * f.rttSeen // packets per round
	return (w + delta/2) * f.wire / f.rttSeen
}
