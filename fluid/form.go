package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/meanfield"
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
	// (inFlight); and per-ACK increases compound per round as a packet sender's do, and
	// behind a queue follow the queue's ACK clock, one packet sent per packet acknowledged
	// plus the increment (clock, and sendPerAck in network.go). On a free path these
	// are O(1/W) corrections: 4% at W = 11, 0.05% at W = 1000; behind a queue slow start
	// grows one packet per packet delivered and sends two, and so does a sender alone on its
	// path from the burst of its first window (ackclock.go). A single-path flow whose law
	// recovers as a reference simulator does (model.RecoveryLinux, RecoveryLinuxMinCwnd,
	// RecoveryPRR) reports and fills that simulator's window through the recovery round
	// trip instead of the held one, and after ns-2's min_cwnd slow-starts back to its law's
	// window (simrecovery.go).
	FormHybridRecovery = "hybrid-recovery"
	// FormMeanField is the mean-field form of Misra, Gong and Towsley: each class of
	// identical flows as one delay-differential equation of its mean window (package
	// meanfield), for equilibrium and stability questions at any number of flows.
	FormMeanField = meanfield.Form
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
	return min(w-min(0.5, w/2), max(math.Floor(rwnd), 1))
}

// holds reports whether the subflow's window holds still in fast recovery at time t, and
// after a simulator's recovery while the sender slow-starts back to its law's window
// (simrecovery.go).
func (fm form) holds(f *subflow, t float64) bool {
	return fm.counted && t < max(f.recoverUntil, f.sr.holdUntil())
}

// resumesAt is when a window held in fast recovery resumes (a step boundary), s; +Inf in
// the hybrid form, which does not hold windows.
func (fm form) resumesAt(f *subflow) float64 {
	if !fm.counted {
		return math.Inf(1)
	}
	return max(f.recoverUntil, f.sr.holdUntil())
}

// clock is the factor a single-path subflow's law derivatives dx (written at the ACK rate
// W/RTT, model.FluidLaw.Deriv) are multiplied by: the ratio of the flow's real ACK rate,
// its delivery rate, to W/RTT. The counted form counts the ACKs of a law with a per-ACK
// increment δ (model.AckIncrement) as a packet sender does:
//   - on a free path (every queue on it empty) a round's ACKs return with the window of
//     one RTT ago and each adds δ, so the window grows by the factor 1 + δ per round:
//     W' = ln(1 + δ)·(ACK rate), which gives Reno ⌊W⌋/(W + ½) packets per round (δ = 1/W);
//   - behind a queue the ACKs return at the queue's pace whatever the window did, and each
//     adds δ: W' = δ·(delivery rate a return lag before, ackedLag);
//   - in a slow start on its ACK clock (δ ≥ 1, perAckSlowStart: a sender alone on its
//     path, ackclock.go) each packet acknowledged adds δ, free path or not, W' = δ·ackedLag,
//     and the sender sends 1 + δ packets for it (sendPerAck): its window is its first
//     window more than the packets acknowledged and doubles per RTT, as a packet sender's.
//
// For laws without a per-ACK increment, and in the hybrid form, the factor is the plain ACK
// clock. queued reports whether a queue on the path is busy or full.
//
// In a go-back-N rebuild the law hears only a fraction of the ACKs (goBackN.heard), and a
// round's heard ACKs compound as the others do; in slow start on a free path the window
// follows the rebuild's rounds instead (gobackn.go). A sender whose sends wait a random time
// counts only the fraction counted of its ACKs (countedFraction, sendjitter.go): the
// others add nothing.
func (fm form) clock(f *subflow, dx, x []float64, o model.Observation, queued bool, counted float64) float64 {
	plain := f.acked / f.ackRef
	if !fm.counted {
		return plain
	}
	heard := f.gbn.heard(x[f.sub])
	d, dw := f.ackIncrement(x, o), dx[f.sub]
	if !(d > 0) || !(dw > 0) {
		return heard * plain
	}
	if f.gbn.on && !queued && d >= 1 && f.gbn.holeFrac > 0 {
		return f.gbn.rounds(x[f.sub], f.rtt) / dw
	}
	// counted·rate/(wire·mult): packets acknowledged and counted per second, per member of a
	// class — behind a queue, and on a slow start's ACK clock, those of a return lag before.
	if queued || f.perAckSlowStart(d) {
		return heard * d * counted * f.ackedLag / (f.wire * f.mult) / dw
	}
	acks := f.acked / (f.wire * f.mult)
	return math.Log1p(heard*d*counted) * acks / dw
}

// ackIncrement is the law's per-ACK window increment in packets, 0 when it has none.
func (f *subflow) ackIncrement(x []float64, o model.Observation) float64 {
	if law, ok := f.law.(model.AckIncrement); ok && f.nSub == 1 {
		return law.AckIncrement(x, o)
	}
	return 0
}
