package model

import "math"

// hystart is hybrid slow start (Ha & Rhee 2008) as ns-3.37's TcpCubic runs it by default
// (HyStart true, HyStartDetect BOTH): slow start ends, with ssthresh set to the window,
// when a round's ACKs arrive as one train — each within HyStartAckDelta of the last —
// for longer than the least RTT seen (the flow fills the pipe), or when the least of a
// round's first HyStartMinSamples RTTs exceeds the least RTT seen by that RTT clamped to
// [HyStartDelayMin, HyStartDelayMax] (ns-3 clamps the least RTT itself, where Linux takes
// an eighth of it). The RTTs are the smoothed RTT after each sample, which is what ns-3
// hands TcpCubic::PktsAcked (Linux hands the sample): at a round's first ACKs it still
// holds the previous round's, so behind a rising queue the delay test comes a round late.
// It watches windows of HyStartLowWindow packets and more.
// ns-3 ends a round at the ACK of the highest sequence sent when it began: in slow start,
// once the window of its start has been acknowledged, which is how the event face counts
// it. A timeout forgets the least RTT and the exit (ns-3 CubicReset at CA_LOSS).
//
// The train is a round's ACKs, spaced by the bottleneck's service of the flow's packets:
// it outlasts the least RTT once the round's window takes longer than that to serve, when
// the window has grown to twice the flow's pipe and the queue holds as much again as the
// pipe — as the delay test finds the RTT doubled. The fluid face, whose ACKs come evenly
// (so that its smoothed RTT is its RTT, and no round starts on the stale one of a burst
// before), ends slow start there: where its RTT exceeds the least by the lesser of the two
// tests' margins (fluidGuard).
type hystart struct {
	srtt       float64 // the smoothed RTT ns-3 hands its congestion control, s; 0 before any sample
	delayMin   float64 // least smoothed RTT since the last timeout, s; +Inf for none
	found      bool
	roundStart float64 // s
	roundLeft  float64 // packets of the round still to be acknowledged
	lastAck    float64 // the train's last ACK, s
	currRTT    float64 // least RTT of the round's first samples, s
	samples    int
}

// ns-3.37 TcpCubic's HyStart attributes.
const (
	hystartLowWindow  = 16   // packets
	hystartAckDelta   = 2e-3 // s
	hystartMinSamples = 8    // RTT samples
	hystartDelayMin   = 4e-3 // s
	hystartDelayMax   = 1.0  // s
)

func newHystart() hystart { return hystart{delayMin: math.Inf(1)} }

// onAck takes one ACK of acked packets in slow start at window cwnd (packets, before the
// ACK) with ssthresh and reports whether slow start ends here.
func (h *hystart) onAck(cwnd, ssthresh, acked float64, o Observation) bool {
	now := o.Now
	if h.roundLeft <= 0 {
		h.roundStart, h.lastAck, h.roundLeft = now, now, cwnd
		h.currRTT, h.samples = math.Inf(1), 0
	}
	h.roundLeft -= acked
	if o.RTT > 0 {
		h.smooth(o.RTT)
		h.delayMin = min(h.delayMin, h.srtt)
	}
	if h.found || cwnd < hystartLowWindow || cwnd > ssthresh || math.IsInf(h.delayMin, 1) {
		return false
	}
	if now-h.lastAck <= hystartAckDelta {
		h.lastAck = now
		if now-h.roundStart > h.delayMin {
			h.found = true
		}
	}
	switch {
	case h.samples < hystartMinSamples:
		h.currRTT = min(h.currRTT, h.srtt)
		h.samples++
	case h.currRTT > h.delayMin+hystartThresh(h.delayMin):
		h.found = true
	}
	return h.found
}

// smooth takes an RTT sample into the smoothed RTT as ns-3's RttMeanDeviation does (RFC
// 6298's α = 1/8, the first sample taken whole): TcpSocketBase::EstimateRtt hands
// m_rtt->GetEstimate(), not the sample, to PktsAcked as m_lastRtt.
func (h *hystart) smooth(rtt float64) {
	if h.srtt == 0 {
		h.srtt = rtt
		return
	}
	h.srtt += (rtt - h.srtt) / 8
}

// hystartThresh is ns-3's HystartDelayThresh: the least RTT clamped to its bounds.
func hystartThresh(minRTT float64) float64 {
	return min(max(minRTT, hystartDelayMin), hystartDelayMax)
}

// fluidGuard is the fluid face's exit at window w: zero where the RTT exceeds the least
// (the path's propagation) by min(least, HyStartDelayMax) — the train's margin, the least
// RTT itself, or the delay test's, clamped; −1 once found or below the low window.
func (h *hystart) fluidGuard(w float64, o Observation) float64 {
	if h.found || w < hystartLowWindow || !(o.BaseRTT > 0) {
		return -1
	}
	return (o.RTT - o.BaseRTT - min(o.BaseRTT, hystartDelayMax)) / o.BaseRTT
}

// timeout forgets the least RTT and the exit; the socket keeps its smoothed RTT.
func (h *hystart) timeout() { *h = hystart{srtt: h.srtt, delayMin: math.Inf(1)} }
