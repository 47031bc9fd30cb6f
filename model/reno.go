package model

import "math"

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
//
// The family has no parameters: what its implementations do differently is how they count
// (renoImpl), and each comes with its own recovery, so a variant's recovery names the
// implementation whose counting the law follows (Variants, newreno.go's Variants):
//   - reno@linux, Linux 2.6.2x tcp_reno_cong_avoid with sysctl_tcp_abc = 1 as ns-2.35
//     TCP/Linux runs it (RecoveryLinuxMinCwnd): a whole-packet window; slow start adds one
//     packet per ACK while cwnd ≤ ssthresh (so the ACK that finds cwnd = ssthresh after a
//     recovery still adds one); congestion avoidance adds one packet once a window of
//     packets has been acknowledged since the last increase (bytes_acked ≥ cwnd·mss), a
//     count every reduction clears; ssthresh = max(⌊cwnd⌋ >> 1, 2).
//   - reno@ns3, ns-3.37 TcpLinuxReno (RecoveryPRR): slow start while cwnd < ssthresh, one
//     segment per segment acknowledged, at most to ssthresh, the rest counted in congestion
//     avoidance; congestion avoidance counts acknowledged segments in m_cWndCnt and adds
//     ⌊count/⌊cwnd⌋⌋ packets, the remainder kept — across losses too (nothing clears it);
//     ssthresh = max(cwnd/2, 2) from the window.
//   - newreno@ns3, ns-3.37 TcpNewReno (RecoveryPRR): slow start +1 per ACK while
//     cwnd < ssthresh; congestion avoidance adds ⌊MSS²/cwnd⌋ bytes once per ACK whatever
//     it acknowledges (1/W packet, truncated to whole bytes); ssthresh = max(FlightSize/2,
//     2) from the packets in flight at the entry into recovery (FlightReducer).

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
	_ Varianter          = (*renoFamily)(nil)
)

func newRenoFamily(name, describe string, r Recovery, restartAfterLoss bool) *renoFamily {
	return &renoFamily{
		Base:      NewBase(name, describe),
		WindowLaw: WindowLaw{Rule: func() WindowRule { return renoRule{} }, RestartAfterLoss: restartAfterLoss, Memoryless: true},
		recovery:  r,
	}
}

func (a *renoFamily) Recovery() Recovery { return a.recovery }

// Variants: Reno as ns-2.35 TCP/Linux runs Linux's and as ns-3.37's TcpLinuxReno; Tahoe
// has none. NewReno's are in newreno.go.
func (a *renoFamily) Variants() []Variant {
	switch a.recovery {
	case RecoveryReno:
		return []Variant{
			{Name: "linux", Source: "Linux 2.6.2x tcp_reno_cong_avoid with ABC (sysctl_tcp_abc 1), tcp_reno_ssthresh, tcp_reno_min_cwnd, as ns-2.35 TCP/Linux runs it",
				Recovery: RecoveryLinuxMinCwnd},
			{Name: "ns3", Source: "ns-3.37 TcpLinuxReno (m_cWndCnt counting, ssthresh from the window) with TcpPrrRecovery",
				Recovery: RecoveryPRR},
		}
	case RecoveryNewReno:
		return newRenoVariants()
	}
	return nil
}

// renoImpl is the implementation whose counting the family's law follows.
type renoImpl int

const (
	renoRFC      renoImpl = iota // RFC 5681: +1/W per packet acknowledged, real-valued window
	renoLinux                    // Linux tcp_reno_cong_avoid with ABC
	renoNS3Linux                 // ns-3.37 TcpLinuxReno
	renoNS3New                   // ns-3.37 TcpNewReno
)

// impl is the implementation the variant's recovery names (RFC 5681 without one).
func (a *renoFamily) impl() renoImpl {
	switch a.variantRecovery() {
	case RecoveryLinux, RecoveryLinuxMinCwnd:
		return renoLinux
	case RecoveryPRR:
		if a.recovery == RecoveryNewReno {
			return renoNS3New
		}
		return renoNS3Linux
	}
	return renoRFC
}

// NewFluid is WindowLaw's fluid face, with ns-3's rules for its implementations
// (renoNS3Rule) and Linux's for its own (renoLinuxRule).
func (a *renoFamily) NewFluid(c FlowConfig) FluidLaw {
	l := a.WindowLaw
	switch impl := a.impl(); {
	case a.RestartAfterLoss:
	case impl == renoNS3Linux || impl == renoNS3New:
		mss := c.mss()
		l.Rule = func() WindowRule { return renoNS3Rule{newReno: impl == renoNS3New, mss: mss} }
	case impl == renoLinux:
		l.Rule = func() WindowRule { return renoLinuxRule{} }
	}
	return l.NewFluid(c)
}

// renoLinuxRule is Reno's rule as Linux counts it, for the fluid face: the reduction in
// whole packets, ⌊⌊W⌋/2⌋ (tcp_reno_ssthresh), slow start through ssthresh
// (Window.ThroughSsthresh: tcp_reno_cong_avoid calls tcp_slow_start while snd_cwnd <=
// snd_ssthresh), the packet renoCounted's first ACK after the recovery adds, and byte
// counting in congestion avoidance (ABC, bytecount.go).
type renoLinuxRule struct{ renoRule }

func (renoLinuxRule) countsBytes() bool { return true }

func (renoLinuxRule) Congestion(w float64, _ Observation) float64 {
	return wholeShare(w, 0.5)
}

func (renoLinuxRule) SlowStartThroughSsthresh() bool { return true }

// NewEvent is the event face of the implementation (renoCounted), or WindowLaw's.
func (a *renoFamily) NewEvent(c FlowConfig) EventLaw {
	impl := a.impl()
	if impl == renoRFC || a.RestartAfterLoss {
		return a.WindowLaw.NewEvent(c)
	}
	cwnd, w := NewWindow(c)
	if impl == renoLinux {
		cwnd = max(math.Floor(cwnd), 1) // snd_cwnd counts whole packets
	}
	return &renoCounted{impl: impl, cwnd: cwnd, win: w, mss: c.mss()}
}

// ResponseReference is Mathis's, except for Tahoe, whose slow start after every loss has
// no published closed form.
func (a *renoFamily) ResponseReference(loss LossModel) (ResponseReference, bool) {
	return renoReference(loss), !a.RestartAfterLoss
}

func (a *renoFamily) ConvergeReference(bdpPkts, rttS float64) ConvergeReference {
	return aimdConverge(bdpPkts, rttS)
}

// renoCounted is the event face of Reno as Linux or ns-3 counts it (renoImpl): windows in
// packets, ssthresh in win.Ssthresh.
type renoCounted struct {
	impl renoImpl
	cwnd float64
	win  Window
	cnt  float64 // packets acknowledged towards the next increase (Linux bytes_acked/mss, ns-3 m_cWndCnt)
	mss  float64 // bytes: ns-3 TcpNewReno's increase is whole bytes
}

var (
	_ EventLaw      = (*renoCounted)(nil)
	_ ByteCounter   = (*renoCounted)(nil)
	_ FlightReducer = (*renoCounted)(nil)
	_ WindowReducer = (*renoCounted)(nil)
)

func (e *renoCounted) Cwnd() float64 { return e.cwnd }

// CountsBytes: Linux's Reno counts bytes above ssthresh (bytecount.go).
func (e *renoCounted) CountsBytes() bool { return e.impl == renoLinux && e.cwnd > e.win.Ssthresh }
func (e *renoCounted) Ssthresh() float64 { return e.win.Reported() }

func (e *renoCounted) OnAck(acked float64, _ Observation) {
	if !(acked > 0) {
		return
	}
	ss := e.win.Ssthresh
	switch e.impl {
	case renoLinux:
		// tcp_slow_start with ABC: one packet per ACK while cwnd ≤ ssthresh, and the byte
		// count starts afresh; then tcp_reno_cong_avoid's bytes_acked ≥ cwnd·mss.
		if e.cwnd <= ss {
			e.cwnd++
			e.cnt = 0
			break
		}
		e.cnt += acked
		if w := math.Floor(e.cwnd); e.cnt >= w {
			e.cnt -= w
			e.cwnd++
		}
	case renoNS3Linux:
		if e.cwnd < ss {
			next := min(e.cwnd+acked, ss)
			acked -= math.Floor(next - e.cwnd)
			e.cwnd = next
		}
		if e.cwnd >= ss && acked > 0 {
			w := max(math.Floor(e.cwnd), 1)
			if e.cnt >= w {
				e.cnt = 0
				e.cwnd++
			}
			e.cnt += acked
			if e.cnt >= w {
				d := math.Floor(e.cnt / w)
				e.cnt -= d * w
				e.cwnd += d
			}
		}
	case renoNS3New:
		if e.cwnd < ss {
			e.cwnd++
			acked--
		}
		if e.cwnd >= ss && acked > 0 {
			e.cwnd += max(math.Floor(e.mss/e.cwnd), 1) / e.mss
		}
	}
	e.cwnd = e.win.Clamp(e.cwnd)
}

// reduced is the implementation's ssthresh for a reduction from the window (or, for
// FlightReducer, the flight) w.
func (e *renoCounted) reduced(w float64) float64 {
	if e.impl == renoLinux {
		return max(wholeShare(w, 0.5), MinLossWindow)
	}
	return max(w/2, MinLossWindow)
}

// OnLoss sets ssthresh and the window after recovery to the reduced window; Linux also
// clears its count (bytes_acked = snd_cwnd_cnt = 0 in tcp_fastretrans_alert), ns-3 keeps it.
// Linux's slow start runs while cwnd ≤ ssthresh, so the first ACK after recovery still
// adds a packet.
func (e *renoCounted) OnLoss(Observation) { e.reduce(e.reduced(e.cwnd)) }

// OnLossFrom reduces from the sender's window cwnd when it is below the law's
// (WindowReducer).
func (e *renoCounted) OnLossFrom(cwnd float64, o Observation) {
	e.cwnd = min(e.cwnd, cwnd)
	e.OnLoss(o)
}

// OnLossInFlight is OnLoss for the ns-3 TcpNewReno, whose ssthresh halves the packets in
// flight; the others halve their window whatever is in flight.
func (e *renoCounted) OnLossInFlight(inFlight float64, o Observation) {
	if e.impl != renoNS3New || !(inFlight >= 0) {
		e.OnLoss(o)
		return
	}
	e.reduce(e.reduced(inFlight))
}

func (e *renoCounted) reduce(ss float64) {
	e.win.Ssthresh = ss
	e.win.SlowStart = false
	e.cwnd = ss
	if e.impl == renoLinux {
		e.cnt = 0
	}
}

// OnTimeout: ssthresh as at a loss, one packet, slow start.
func (e *renoCounted) OnTimeout(Observation) {
	e.win.Ssthresh = e.reduced(e.cwnd)
	e.win.SlowStart = true
	e.cwnd = 1
	e.cnt = 0
}
