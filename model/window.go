package model

import "math"

// The state every window-based law shares — the slow-start threshold and mode and the
// receiver-window cap — with slow start in both faces and the loss and timeout jumps of
// the Reno family. Every built-in law uses it; so may a law outside this package.

// MinLossWindow is the smallest window (packets) a loss reduction leaves: RFC 5681 eq. (4)
// sets ssthresh to at least 2·SMSS, as Linux's max(…, 2U) does for every algorithm.
const MinLossWindow = 2

// MinClockRTT (s) keeps the ACK clock finite when a path has no delay at all: rates divide
// by the RTT, and an RTT below a microsecond is taken as one microsecond.
const MinClockRTT = 1e-6

// ClockRTT is the RTT that clocks the window, in seconds: o.RTT, at least MinClockRTT.
func ClockRTT(o Observation) float64 {
	if o.RTT > MinClockRTT {
		return o.RTT
	}
	return MinClockRTT
}

// MinimumRTT is the base RTT in seconds; an unknown (non-positive) or inconsistent base RTT
// is taken as the current RTT, i.e. as no queueing.
func MinimumRTT(o Observation) float64 {
	rtt := ClockRTT(o)
	if o.BaseRTT > 0 && o.BaseRTT < rtt {
		return o.BaseRTT
	}
	return rtt
}

// Queued is Vegas's and Compound's estimate of the flow's own packets in queues:
// Diff = W·(1 − baseRTT/RTT) = (expected − actual rate)·baseRTT, in packets.
func Queued(w float64, o Observation) float64 {
	return w * (1 - MinimumRTT(o)/ClockRTT(o))
}

// SlowStartRate is the fluid form of slow start, packets/s. Slow start adds one packet per
// ACK, so the window doubles every round trip: W(t) = W0·2^(t/RTT), i.e.
// dW/dt = W·ln2/RTT. The tempting per-ACK mapping dW/dt = (1 per ACK)·(W/RTT ACKs/s) = W/RTT
// grows by e per RTT, 36% too fast each round; the tests check the doubling in both faces.
func SlowStartRate(w, rtt float64) float64 { return w * math.Ln2 / rtt }

// Window is the discrete state every window law shares. It changes only in Init, Switch,
// OnLoss and OnTimeout (fluid face) or in the event face's callbacks.
type Window struct {
	Ssthresh  float64 // packets; +Inf until the first loss when neither a threshold nor a receiver window is set
	SlowStart bool
	MaxCwnd   float64 // packets; +Inf when the flow has no receiver-window cap
	// OnePerAck makes slow start add one packet per ACK however many it acknowledges, as
	// RFC 5681 (§3.1), ns-3.37's TcpNewReno::SlowStart and ns-2.35 TCP/Linux's
	// tcp_slow_start do; false adds every packet it
	// acknowledges up to ssthresh (Linux since 3.x, ns-3's TcpLinuxReno). It matters for an
	// ACK of many packets: after a timeout with SACK, the retransmission's covers everything
	// SACKed since.
	OnePerAck bool
	// ThroughSsthresh makes slow start run while the window is at most ssthresh, not only
	// below it, as Linux 2.6.2x does: tcp_reno_cong_avoid and the cong_avoid of every module
	// ns-2.35 TCP/Linux runs (tcp_scalable.c, tcp_highspeed.c, tcp_bic.c, tcp_cubic.c,
	// tcp_htcp.c, tcp_vegas.c; tcp_compound.c for its Reno part) call tcp_slow_start when
	// snd_cwnd <= snd_ssthresh, one packet per call. A reduction leaves the window at
	// ssthresh, so the first ACK after the recovery adds a packet before congestion
	// avoidance resumes from ssthresh + 1 (with its counters as the reduction left them),
	// and slow start ends one packet above ssthresh. The event face takes that ACK (Loss
	// leaves slow start on); the fluid face jumps to ssthresh + 1 (FluidLoss).
	ThroughSsthresh bool
}

// WindowReducer is implemented by event laws whose reduction at a loss can start from a
// window the sender holds apart from the law's. Linux's ssthresh() reads snd_cwnd, and
// after a recovery under min_cwnd (model.RecoveryLinuxMinCwnd) snd_cwnd slow-starts from
// about half the window back to ssthresh while the module's law waits (ns-2.35
// LinuxTcpAgent::tcp_fastretrans_alert, tcp_moderate_cwnd, then tcp_slow_start): a loss
// found in that slow start reduces from the window it has reached, not from ssthresh. The
// packet engine calls OnLossFrom instead of OnLoss for such a loss.
type WindowReducer interface {
	OnLossFrom(cwnd float64, o Observation)
}

// throughSsthreshParam is the parameter that sets Window.ThroughSsthresh, for the laws whose
// Linux 2.6.2x modules slow-start while cwnd <= ssthresh.
func throughSsthreshParam(v *float64, source string) ParamDef {
	return Switch(v, "ss_through", 0, source,
		"1: slow start runs while cwnd ≤ ssthresh, so the first ACK after a reduction adds a packet (Linux 2.6.2x); 0: while cwnd < ssthresh")
}

// timeoutSsthreshParam is the parameter that makes a timeout reduce ssthresh as a loss
// does (TimeoutReducer), for the laws whose simulators call the module's ssthresh there.
func timeoutSsthreshParam(v *float64, source string) ParamDef {
	return Switch(v, "rto_ssthresh", 0, source,
		"1: a timeout sets ssthresh to the window a loss would leave (the module's ssthresh); 0: to half the window (RFC 5681 eq. 4)")
}

// onePerAckParam is the parameter that sets Window.OnePerAck, for the laws whose
// implementations slow-start by one packet per ACK (ns-3's TcpNewReno-derived classes and
// TcpBic, ns-2.35 TCP/Linux's modules).
func onePerAckParam(v *float64, source string) ParamDef {
	return Switch(v, "ss_per_ack", 0, source,
		"1: slow start adds one packet per ACK, however many it acknowledges (RFC 5681); 0: every packet it acknowledges, up to ssthresh")
}

// NewWindow resolves a flow's initial window and threshold: cwnd defaults to 1 packet
// (ns-2's windowInit_), ssthresh to the receiver window (or no threshold), and the window
// never exceeds the receiver window.
func NewWindow(c FlowConfig) (cwnd float64, w Window) {
	w.MaxCwnd = math.Inf(1)
	if c.MaxCwnd > 0 && !math.IsInf(c.MaxCwnd, 0) {
		w.MaxCwnd = c.MaxCwnd
	}
	cwnd = 1
	if c.InitialCwnd > 0 && !math.IsInf(c.InitialCwnd, 0) {
		cwnd = min(c.InitialCwnd, w.MaxCwnd)
	}
	w.Ssthresh = w.MaxCwnd
	if c.InitialSsthresh > 0 && !math.IsInf(c.InitialSsthresh, 0) {
		w.Ssthresh = c.InitialSsthresh
	}
	w.SlowStart = cwnd < w.Ssthresh
	return cwnd, w
}

// Reported is ssthresh for traces and tables: never infinite. With no threshold and no
// receiver window it is 0, meaning "none yet".
func (w *Window) Reported() float64 {
	if math.IsInf(w.Ssthresh, 0) {
		return 0
	}
	return w.Ssthresh
}

// Limit applies the receiver-window cap to a growth rate (or increment): no growth at or
// above the cap.
func (w *Window) Limit(cwnd, growth float64) float64 {
	if growth > 0 && cwnd >= w.MaxCwnd {
		return 0
	}
	return growth
}

// Clamp caps an event-face window at the receiver window.
func (w *Window) Clamp(cwnd float64) float64 { return min(cwnd, w.MaxCwnd) }

// Guard is the fluid slow-start guard: it crosses zero upwards when cwnd reaches ssthresh.
func (w *Window) Guard(cwnd float64) float64 {
	if !w.SlowStart || math.IsInf(w.Ssthresh, 0) {
		return -1
	}
	return cwnd - w.Ssthresh
}

// Loss applies a reduction to next packets (already computed by the algorithm): the Reno
// family sets ssthresh = cwnd = next (at least MinLossWindow) and continues in congestion
// avoidance (with ThroughSsthresh, slow start stays on for the first ACK after the
// recovery); restart (Tahoe) keeps ssthresh = next but restarts slow start from one packet.
// It returns the new window. Fluid faces call FluidLoss.
func (w *Window) Loss(next float64, restart bool) float64 {
	w.Ssthresh = max(next, MinLossWindow)
	if restart {
		w.SlowStart = true
		return 1
	}
	w.SlowStart = w.ThroughSsthresh
	return w.Ssthresh
}

// FluidLoss is Loss for a fluid face, which stays in congestion avoidance: with
// ThroughSsthresh the reduction leaves ssthresh + 1, the packet the event face's first
// ACK after the recovery adds. The hybrid-recovery form holds the window through the
// recovery round trip and fills ssthresh there (package fluid), so that packet shows where
// the recovery ends.
func (w *Window) FluidLoss(next float64, restart bool) float64 {
	cwnd := w.Loss(next, restart)
	w.SlowStart = restart
	if w.ThroughSsthresh && !restart {
		cwnd = w.Clamp(cwnd + 1)
	}
	return cwnd
}

// Timeout applies a retransmission timeout (RFC 5681 §3.1, all algorithms):
// ssthresh = max(W/2, 2), W = 1, slow start. It returns the new window.
func (w *Window) Timeout(cwnd float64) float64 {
	w.Ssthresh = max(cwnd/2, MinLossWindow)
	w.SlowStart = true
	return 1
}

// AckSlowStart is the event face of slow start (Linux tcp_slow_start): one packet per
// packet acknowledged, up to ssthresh, or one per ACK (OnePerAck). It returns the
// acknowledged packets left over for congestion avoidance. With ThroughSsthresh an ACK that
// finds the window at or below ssthresh is slow start's alone: it adds one packet
// (OnePerAck) or the packets it acknowledges, and nothing is left over.
func (w *Window) AckSlowStart(cwnd *float64, acked float64) float64 {
	if !w.SlowStart {
		return acked
	}
	if w.ThroughSsthresh {
		if !(acked > 0) {
			return 0 // Linux calls cong_avoid only for an ACK of new data
		}
		if *cwnd > w.Ssthresh {
			w.SlowStart = false
			return acked
		}
		if w.OnePerAck {
			acked = min(acked, 1)
		}
		*cwnd += acked
		w.SlowStart = *cwnd <= w.Ssthresh
		return 0
	}
	if w.OnePerAck && acked > 1 {
		// TcpNewReno::SlowStart: one segment, the rest to congestion avoidance only if
		// the window has reached ssthresh.
		*cwnd++
		if *cwnd < w.Ssthresh {
			return 0
		}
		w.SlowStart = false
		return acked - 1
	}
	next := *cwnd + acked
	if next < w.Ssthresh {
		*cwnd = next
		return 0
	}
	w.SlowStart = false
	left := min(acked, next-w.Ssthresh)
	*cwnd = max(*cwnd, w.Ssthresh)
	return left
}
