package model

import (
	"math"
	"sort"
	"sync"

	"gonum.org/v1/gonum/integrate/quad"
)

// HighSpeed TCP (RFC 3649, Floyd 2003). Above Low_Window = 38 packets the window grows by
// a(W) per RTT (a(W)/W per ACK) and a loss leaves (1 − b(W))·W, with
//
//	b(w) = (High_Decrease − 0.5)·(ln w − ln Low_Window)/(ln High_Window − ln Low_Window) + 0.5
//	p(w) = 0.078/w^1.2
//	a(w) = w²·p(w)·2·b(w)/(2 − b(w))
//
// for Low_Window = 38, High_Window = 83000, High_P = 1e-7, High_Decrease = 0.1 (RFC 3649
// §5; p(w) is the RFC's rounded fit of the line through (38, 1.5/38²) and (83000, 1e-7)).
// At or below 38 packets it is Reno. Those constants are the RFC's defaults and not
// parameters, since both the rounded p(w) and the Appendix B table are derived from them.
// Above High_Window b(w) is held at High_Decrease (the formula would reach 0 near 568,000
// packets and then grow the window on a loss); a(w) keeps the same response-function line.
//
// Fluid face, x = [W]: dW/dt = a(W)/RTT; loss W ← (1 − b(W))·W. Event face: W += a(W)/W per
// packet acknowledged.
//
// Parameter table = 1 replaces the closed form by RFC 3649 Appendix B's table as Linux's
// tcp_highspeed.c applies it: a window in (w[i−1], w[i]] uses row i's a and b (windows
// beyond the last row use the last row). The table is regenerated here from the RFC's
// recipe; it differs from the closed form by less than 1 in a.
//
// The implementations count in whole packets (docs/simulators.md):
//   - Linux 2.6.2x hstcp_cong_avoid, as ns-2.35 TCP/Linux runs it, adds the row's a to its
//     ACK counter per ACK and a packet each time the counter reaches cwnd: a/⌊W⌋ per ACK;
//     hstcp_ssthresh leaves cwnd − (cwnd·md) >> 8 with the row's decrease in 1/256,
//     md = ⌊256·b(w_row)⌋ from the unrounded b(w) line (128, 112, 104, 98, … — a little
//     below the RFC's two-decimal b), and the counter's progress is lost with the loss
//     (whole_packets = 1).
//   - ns-3.37 TcpHighSpeed::CongestionAvoidance counts the same a/⌊W⌋ per ACK and keeps its
//     counter; an ACK of several segments is counted against the window as it grows (its
//     while loop, AckStepper), and so is the count a reduction carries; GetSsThresh leaves
//     ⌊(1 − b)·pipe⌋ of the packets in flight at recovery entry, b the two-decimal row of
//     the pipe, which with SACK and limited transmit are the window less pipe_deficit
//     (whole_packets = 2).
//
// As Scalable's (scalable.go), the event face counts against ⌊W⌋ and the fluid face
// against W − ½, which over W ∈ [n, n + 1) adds up to the n/a ACKs the event face needs.

// HighSpeed TCP constants, RFC 3649 §5 defaults.
const (
	hsLowWindow    = 38    // packets
	hsHighWindow   = 83000 // packets
	hsHighDecrease = 0.1
	hsLowDecrease  = 0.5
	hsTableTop     = 100000 // packets: the window at which Appendix B's recipe stops
)

// The b(w) line in ln w: b = hsLowDecrease + hsSlope·(ln w − ln Low_Window).
var (
	hsLnLow  = math.Log(hsLowWindow)
	hsLnHigh = math.Log(hsHighWindow)
	hsSlope  = (hsHighDecrease - hsLowDecrease) / (hsLnHigh - hsLnLow)
)

func init() {
	Register("highspeed", func() Algorithm {
		h := &highSpeed{}
		h.Base = NewBase("highspeed", "HighSpeed TCP: AIMD with window-dependent a(W) and b(W) above 38 packets (RFC 3649)",
			Switch(&h.p.table, "table", 0, "RFC 3649 §5 closed form (0); Appendix B table as in Linux tcp_highspeed.c (1)",
				"0: closed-form a(W), b(W); 1: RFC 3649 Appendix B table, looked up as Linux does"),
			wholeParam(Real(&h.p.whole, "whole_packets", 0, "1", 0, 2,
				"RFC 3649 (0); Linux hstcp_cong_avoid, hstcp_ssthresh (1); ns-3.37 TcpHighSpeed (2)",
				"0: fractional windows; whole packets: the increase counts ACKs against ⌊W⌋ and a loss leaves ⌊W⌋ − ⌊⌊W⌋·⌊256·b⌋/256⌋ (1) or ⌊(1 − b)·⌊W⌋⌋ (2)")),
			Real(&h.p.pipe, "pipe_deficit", 0, "packets", 0, 100, "ns-3.37 TcpSocketBase::EnterRecovery (BytesInFlight with SACK: 2)",
				"packets by which the flight a loss reduction starts from falls short of the window (0: the window itself)"),
			Switch(&h.p.exitAck, "exit_ack", 0, "ns-3.37 TcpSocketBase::ProcessAck (1)",
				"1: the cumulative ACK that ends a fast recovery counts every segment it covers, a flight's worth of increase (hybrid-recovery form; model.RecoveryExitAcker)"),
			onePerAckParam(&h.p.perAck, "ns-3.37 TcpHighSpeed (TcpNewReno::SlowStart), ns-2.35 TCP/Linux tcp_slow_start (1)"),
			throughSsthreshParam(&h.p.through, "Linux 2.6.2x hstcp_cong_avoid: tcp_slow_start while snd_cwnd <= snd_ssthresh (1)"),
			timeoutSsthreshParam(&h.p.rtoSsthresh, "Linux tcp_enter_loss (hstcp_ssthresh), ns-3.37 ReTxTimeout (TcpHighSpeed::GetSsThresh): 1"),
			Switch(&h.p.ssRow, "ss_row", 0, "Linux 2.6.2x hstcp_cong_avoid: ca->ai moves only in congestion avoidance (1)",
				"1: a loss or timeout in slow start reduces by the decrease of the last window congestion avoidance saw (b = 0.5 before any); 0: of the window it finds"))
		h.WindowLaw = WindowLaw{Rule: h.rule, Memoryless: true}
		return h
	})
}

// HighSpeedB is RFC 3649's decrease b(w): the fraction of the window a loss removes at a
// window of w packets (0.5 at or below 38 packets, 0.1 at or above 83000).
func HighSpeedB(w float64) float64 {
	if w <= hsLowWindow {
		return hsLowDecrease
	}
	if w >= hsHighWindow {
		return hsHighDecrease
	}
	return hsDecreaseLine(math.Log(w))
}

// hsDecreaseLine is RFC 3649's b(w) line at ln w, unclamped: 0.5 at 38 packets, 0.1 at
// 83000.
func hsDecreaseLine(lnW float64) float64 { return hsLowDecrease + hsSlope*(lnW-hsLnLow) }

// HighSpeedA is RFC 3649's increase a(w) in packets per RTT at a window of w packets (1 at
// or below 38 packets), with p(w) = 0.078/w^1.2.
func HighSpeedA(w float64) float64 {
	if w <= hsLowWindow {
		return 1
	}
	return hsIncreaseAt(math.Log(w))
}

// hsIncreaseAt is a(w) above Low_Window at ln w = x (at x = ln Low_Window, its limit from
// above, 0.955: a(w) steps down from Reno's 1 there).
func hsIncreaseAt(x float64) float64 {
	b := hsHighDecrease
	if x < hsLnHigh {
		b = hsDecreaseLine(x)
	}
	// w²·p(w) = 0.078·w^0.8
	return highSpeedIncrease(0.078*math.Exp(0.8*x), b)
}

// highSpeedIncrease is a = w²·p·2·b/(2 − b) for w²·p = w2p: the AIMD increase that, with
// decrease b, has a deterministic response function through (p, w).
func highSpeedIncrease(w2p, b float64) float64 { return w2p * 2 * b / (2 - b) }

// hsRow is one row of RFC 3649 Appendix B: from the previous row's window (exclusive) to
// w (inclusive) the increase is a packets per RTT and the decrease b.
type hsRow struct{ w, a, b float64 }

// highSpeedTable is RFC 3649 Appendix B, rebuilt from the RFC's recipe: walk integer
// windows upwards from 38 and start a new row whenever the increase, computed with the
// RFC's p(w) = 1/(12.8·w^1.2) and the unclamped b(w) line, exceeds the previous row's by
// more than one packet; the row lists the window, the integer part of a and b rounded to
// two decimals. Built on first use: 73 rows, from (38, 1, 0.50) to (94717, 73, 0.09).
var highSpeedTable = sync.OnceValue(func() []hsRow {
	rows := []hsRow{{w: hsLowWindow, a: 1, b: hsLowDecrease}}
	last := 1.0
	for w := hsLowWindow; w < hsTableTop; w++ {
		b := hsDecreaseLine(math.Log(float64(w)))
		a := highSpeedIncrease(float64(w)*float64(w)/(12.8*math.Pow(float64(w), 1.2)), b)
		if a > last+1 {
			rows = append(rows, hsRow{w: float64(w), a: math.Trunc(a), b: math.Round(b*100) / 100})
			last = a
		}
	}
	return rows
})

type highSpeedParams struct{ table, whole, pipe, exitAck, perAck, through, rtoSsthresh, ssRow float64 }

type highSpeed struct {
	Base
	WindowLaw
	p highSpeedParams
}

var (
	_ Algorithm          = (*highSpeed)(nil)
	_ Varianter          = (*highSpeed)(nil)
	_ AckStepper         = (*highSpeedRule)(nil)
	_ PerAckSlowStarter  = (*highSpeedRule)(nil)
	_ ThroughSsthresher  = (*highSpeedRule)(nil)
	_ SlowStartReducer   = (*highSpeedRule)(nil)
	_ ResponseReferencer = (*highSpeed)(nil)
	_ ConvergeReferencer = (*highSpeed)(nil)
)

func (h *highSpeed) rule() WindowRule { return h.newRule(false) }

// newRule is the rule of the fluid face, or of the event face (event), which counts whole
// packets as ⌊W⌋ rather than W − ½.
func (h *highSpeed) newRule(event bool) *highSpeedRule {
	r := &highSpeedRule{p: h.p, event: event}
	if h.p.table == 1 {
		r.rows = highSpeedTable()
	}
	return r
}

// NewEvent is the window law's event face with the event face's rule.
func (h *highSpeed) NewEvent(c FlowConfig) EventLaw {
	l := h.WindowLaw
	l.Rule = func() WindowRule { return h.newRule(true) }
	return l.NewEvent(c)
}

func (h *highSpeed) ResponseReference(LossModel) (ResponseReference, bool) {
	return ResponseReference{C: 0.12, D: 0.835, Source: "RFC 3649 §5", PMax: 1e-4}, true
}

// ConvergeReference: dW/dt = a(W)/RTT, so the times are RTT·∫dw/a(w), by Gauss–Legendre
// quadrature of the closed-form a(w); the table's steps have no such form.
func (h *highSpeed) ConvergeReference(bdpPkts, rttS float64) ConvergeReference {
	if h.p.table == 1 || h.p.whole != 0 || h.p.pipe != 0 {
		return ConvergeReference{Note: "no closed form for the Appendix B table or whole-packet counting"}
	}
	fill := rttS * integrateInverse(HighSpeedA, 1, bdpPkts)
	rec := rttS * integrateInverse(HighSpeedA, (1-HighSpeedB(bdpPkts))*bdpPkts, bdpPkts)
	return ConvergeReference{FillS: &fill, RecoveryS: &rec, Note: "RTT·∫dw/a(w) with RFC 3649's closed-form a(w)"}
}

// integrateInverse is ∫_lo^hi dw/a(w), split at Low_Window, where a(w) has a kink, and
// integrated piecewise with 64-point Gauss–Legendre.
func integrateInverse(a func(float64) float64, lo, hi float64) float64 {
	inv := func(w float64) float64 { return 1 / a(w) }
	if lo < hsLowWindow && hi > hsLowWindow {
		return quad.Fixed(inv, lo, hsLowWindow, 64, nil, 0) + quad.Fixed(inv, hsLowWindow, hi, 64, nil, 0)
	}
	return quad.Fixed(inv, lo, hi, 64, nil, 0)
}

// highSpeedRule uses the closed form when rows is nil, else the Appendix B table; event
// marks the event face's rule.
type highSpeedRule struct {
	rows  []hsRow
	p     highSpeedParams
	event bool
	caW   float64 // the window of the latest reduction in congestion avoidance, packets (ss_row)
}

func (*highSpeedRule) Start(Observation) {}

func (r *highSpeedRule) ExitAck() bool { return r.p.exitAck == 1 }

// StepsAcks: ns-3's TcpHighSpeed counts the segments of one ACK against the window as it
// grows (whole_packets = 2).
func (r *highSpeedRule) StepsAcks() bool { return r.p.whole == 2 }

func (r *highSpeedRule) SlowStartPerAck() bool { return r.p.perAck == 1 }

func (r *highSpeedRule) SlowStartThroughSsthresh() bool { return r.p.through == 1 }

func (r *highSpeedRule) ReducesAtTimeout() bool { return r.p.rtoSsthresh == 1 }

// row is the table row governing window w (Linux: the first row whose window is ≥ w).
func (r *highSpeedRule) row(w float64) hsRow {
	i := sort.Search(len(r.rows), func(i int) bool { return r.rows[i].w >= w })
	return r.rows[min(i, len(r.rows)-1)]
}

// a is the increase per RTT at window w, packets.
func (r *highSpeedRule) a(w float64) float64 {
	if r.rows == nil {
		return HighSpeedA(w)
	}
	return r.row(w).a
}

// b is the fraction a loss at window w removes; with whole_packets = 1 in Linux's 1/256,
// ⌊256·b⌋/256, of the unrounded b(w) line at the row's window (the closed form at w).
func (r *highSpeedRule) b(w float64) float64 {
	switch {
	case r.p.whole == 1 && r.rows != nil:
		return math.Floor(256*hsDecreaseLine(math.Log(r.row(w).w))) / 256
	case r.p.whole == 1:
		return math.Floor(256*HighSpeedB(w)) / 256
	case r.rows == nil:
		return HighSpeedB(w)
	}
	return r.row(w).b
}

func (r *highSpeedRule) PerRTT(w float64, _ Observation) float64 {
	if r.p.whole == 0 {
		return r.a(w)
	}
	n := countedWindow(w, r.event)
	return w * r.a(n) / n
}

func (r *highSpeedRule) Congestion(w float64, o Observation) float64 {
	r.caW = w
	return r.reduce(w, w, o)
}

// CongestionInSlowStart: with ss_row = 1 the decrease is the one congestion avoidance last
// set, as Linux's ca->ai is (0 before any: the first row's, 0.5).
func (r *highSpeedRule) CongestionInSlowStart(w float64, o Observation) float64 {
	if r.p.ssRow != 1 {
		return r.Congestion(w, o)
	}
	return r.reduce(w, r.caW, o)
}

// reduce is the window a loss at w leaves with the decrease of window row; row = w means
// the window the reduction starts from (w less pipe_deficit).
func (r *highSpeedRule) reduce(w, row float64, o Observation) float64 {
	if r.p.whole == 0 {
		m := w - r.p.pipe
		if row == w {
			row = m
		}
		return (1 - r.b(row)) * m
	}
	n := wholePackets(w)
	m := n - r.p.pipe
	if row == w {
		row = m
	}
	if r.p.whole == 1 {
		return m - math.Floor(m*r.b(row))
	}
	// ns-3 keeps its ACK counter across the reduction and counts it, with the next ACK's
	// segments, against the new window as it grows.
	next := math.Floor((1 - r.b(row)) * m)
	return StepAcks(r, max(next, 1), (w-n)*n/r.a(n), math.Inf(1), o)
}

// Variants: Linux 2.6.2x's tcp_highspeed.c as ns-2.35 TCP/Linux runs it, and ns-3.37's
// TcpHighSpeed, both stepping through RFC 3649's Appendix B table (hstcp_aimd_vals) in
// whole packets, each with its simulator's recovery.
func (a *highSpeed) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux 2.6.2x tcp_highspeed.c (ns-2.35 TCP/Linux): hstcp_aimd_vals (RFC 3649 Appendix B, md in 1/256); hstcp_cong_avoid snd_cwnd_cnt += ai + 1; hstcp_ssthresh cwnd − (cwnd·md) >> 8",
			Params: map[string]float64{"table": 1, "whole_packets": 1, "ss_per_ack": 1, "ss_through": 1, "rto_ssthresh": 1, "ss_row": 1}, Recovery: RecoveryLinuxMinCwnd},
		{Name: "ns3", Source: "ns-3.37 TcpHighSpeed: TableLookupA per segment acked against the window in segments; GetSsThresh (1 − TableLookupB)·BytesInFlight",
			Params: map[string]float64{"table": 1, "whole_packets": 2, "pipe_deficit": 2, "exit_ack": 1, "ss_per_ack": 1, "rto_ssthresh": 1}, Recovery: RecoveryPRR},
	}
}
