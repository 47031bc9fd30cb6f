package model

import "math"

// Scalable TCP (Kelly 2003, "Scalable TCP: improving performance in highspeed wide area
// networks"; Linux tcp_scalable.c). Above a legacy window: W += a per ACK (a = 0.01) and
// W ← (1 − b)·W on a loss (b = 0.125); at or below it: Reno. Multiplicative increase makes
// the recovery time after a loss independent of the rate: ln(1/(1−b))/ln(1+a) = 13.42 RTTs.
//
// Fluid face, x = [W]: dW/dt = a·W/RTT above the legacy window (a per ACK × W/RTT ACKs/s),
// whose continuous growth recovers in ln(1/(1−b))/a = 13.35 RTTs; the event face compounds
// per round, W ← W·(1+a) each RTT, and recovers in the 13.42 RTTs above.
//
// The implementations count in whole packets and never halve (docs/simulators.md):
//   - Linux 2.6.2x tcp_scalable_cong_avoid, as ns-2.35 TCP/Linux runs it, adds a packet when
//     its ACK counter exceeds min(cwnd, 50): one per min(⌊W⌋, 50) + 1 ACKs, 1/(⌊W⌋ + 1) per
//     ACK below 50 packets and 1/51 above (a = 0.02, legacy_window = 50, extra_ack = 1);
//     tcp_scalable_ssthresh leaves cwnd − cwnd>>3 at every window: a loss removes ⌊⌊W⌋/8⌋
//     packets (whole_packets = 1, legacy_decrease = 0), and the fractional progress of the
//     ACK counter is lost with it.
//   - ns-3.37 TcpScalable::CongestionAvoidance adds a packet per min(⌊W⌋, AIFactor 50) ACKs
//     (extra_ack = 0); GetSsThresh leaves ⌊(1 − MDFactor)·pipe⌋ of the packets in flight at
//     recovery entry, which with SACK and limited transmit are the window less pipe_deficit
//     (whole_packets = 2, legacy_decrease = 0).
//
// With whole-packet counting the event face reads ⌊W⌋, and the fluid face, whose W moves
// continuously, reads W − ½: 1/(W + ½ + extra_ack − 1) per ACK adds, over W ∈ [n, n + 1),
// exactly the n + extra_ack ACKs' worth the event face needs for that packet.

func init() {
	Register("scalable", func() Algorithm {
		a := &scalable{}
		a.Base = NewBase("scalable", "Scalable TCP: MIMD, +a per ACK and −b·W per loss above a legacy window, Reno below (Kelly 2003)",
			Real(&a.p.a, "a", 0.01, "packets/ACK", 1e-4, 1, "Kelly 2003 (Linux tcp_scalable.c: 0.02 with delayed ACKs)",
				"window increase per acknowledged packet above the legacy window"),
			Real(&a.p.b, "b", 0.125, "1", 0.01, 0.5, "Kelly 2003; Linux tcp_scalable.c (1/8)",
				"fraction of the window removed by a loss above the legacy window"),
			Real(&a.p.legacy, "legacy_window", 16, "packets", 0, 1e9, "Kelly 2003 (Linux tcp_scalable.c: 50)",
				"at or below this window Scalable grows as Reno"),
			Switch(&a.p.legacyDecrease, "legacy_decrease", 1, "Kelly 2003 (1); Linux tcp_scalable_ssthresh and ns-3.37 TcpScalable::GetSsThresh (0)",
				"1: a loss at or below the legacy window halves the window; 0: it removes b at every window"),
			Switch(&a.p.extraAck, "extra_ack", 0, "Linux tcp_scalable_cong_avoid: the counter must exceed min(cwnd, 50) (1)",
				"1: one ACK more per packet of increase, 1/(1/a + 1) per ACK above the legacy window and 1/(W + 1) below"),
			wholeParam(Real(&a.p.whole, "whole_packets", 0, "1", 0, 2,
				"Kelly 2003 (0); Linux tcp_scalable_ssthresh cwnd − cwnd>>3 (1); ns-3.37 TcpScalable::GetSsThresh (2)",
				"0: fractional windows; whole packets: the increase counts ACKs against ⌊W⌋ and a loss leaves ⌊W⌋ − ⌊b·⌊W⌋⌋ (1) or ⌊(1 − b)·⌊W⌋⌋ (2)")),
			Real(&a.p.pipe, "pipe_deficit", 0, "packets", 0, 100, "ns-3.37 TcpSocketBase::EnterRecovery (BytesInFlight with SACK: 2)",
				"packets by which the flight a loss reduction starts from falls short of the window (0: the window itself)"),
			Switch(&a.p.exitAck, "exit_ack", 0, "ns-3.37 TcpSocketBase::ProcessAck (1)",
				"1: the cumulative ACK that ends a fast recovery counts every segment it covers, a flight's worth of increase (hybrid-recovery form; model.RecoveryExitAcker)"),
			onePerAckParam(&a.p.perAck, "ns-3.37 TcpScalable (TcpNewReno::SlowStart), ns-2.35 TCP/Linux tcp_slow_start (1)"),
			throughSsthreshParam(&a.p.through, "Linux 2.6.2x tcp_scalable_cong_avoid: tcp_slow_start while snd_cwnd <= snd_ssthresh (1)"),
			timeoutSsthreshParam(&a.p.rtoSsthresh, "Linux tcp_enter_loss (tcp_scalable_ssthresh), ns-3.37 ReTxTimeout (TcpScalable::GetSsThresh): 1"))
		a.WindowLaw = WindowLaw{Rule: func() WindowRule { return &scalableRule{p: a.p} }, Memoryless: true}
		return a
	})
}

// wholeParam marks a selector parameter as taking whole numbers only.
func wholeParam(d ParamDef) ParamDef {
	d.Whole = true
	return d
}

type scalableParams struct{ a, b, legacy, legacyDecrease, extraAck, whole, pipe, exitAck, perAck, through, rtoSsthresh float64 }

type scalable struct {
	Base
	WindowLaw
	p scalableParams
}

var (
	_ Algorithm          = (*scalable)(nil)
	_ Varianter          = (*scalable)(nil)
	_ ResponseReferencer = (*scalable)(nil)
	_ ConvergeReferencer = (*scalable)(nil)
	_ PerAckSlowStarter  = (*scalableRule)(nil)
	_ ThroughSsthresher  = (*scalableRule)(nil)
	_ RemainderDiscarder = (*scalableRule)(nil)
)

// NewEvent is the window law's event face with a rule that counts ⌊W⌋ (the fluid face's
// rule counts its continuous window's mean, W − ½).
func (s *scalable) NewEvent(c FlowConfig) EventLaw {
	l := s.WindowLaw
	l.Rule = func() WindowRule { return &scalableRule{p: s.p, event: true} }
	return l.NewEvent(c)
}

// aboveLegacy is the increase per ACK above the legacy window, packets: a, or one packet
// per 1/a + 1 ACKs with extra_ack.
func (p *scalableParams) aboveLegacy() float64 {
	if p.extraAck == 0 {
		return p.a
	}
	return 1 / (1/p.a + p.extraAck)
}

// ResponseReference: above the legacy window a periodic-loss cycle grows the window from
// (1 − b)·W to W in b·W/a packets = 1/p, and the window's time average over the
// exponential rise is b·W/ln(1/(1 − b)), so W̄ = a/(ln(1/(1 − b))·p): 0.0749/p at the
// defaults (Kelly 2003), with a the increase per ACK above the legacy window.
func (s *scalable) ResponseReference(LossModel) (ResponseReference, bool) {
	return ResponseReference{C: s.p.aboveLegacy() / -math.Log1p(-s.p.b), D: 1,
		Source: "Kelly 2003 (derived for periodic loss above the legacy window)", PMax: 1e-3}, true
}

// ConvergeReference: Reno up to the legacy window, then ×(1+a) per RTT; after a loss
// ln(1/(1−b))/ln(1+a) RTTs (13.42 at the defaults).
func (s *scalable) ConvergeReference(bdpPkts, rttS float64) ConvergeReference {
	legacy := max(s.p.legacy, 1)
	a := s.p.aboveLegacy()
	fill := ((legacy - 1) + math.Log(bdpPkts/legacy)/math.Log1p(a)) * rttS
	rec := -math.Log1p(-s.p.b) / math.Log1p(a) * rttS
	return ConvergeReference{FillS: &fill, RecoveryS: &rec,
		Note: "per-RTT compounding (1+a)^n; the fluid face grows continuously, e^(a·n), 0.5% faster"}
}

// scalableRule is Scalable's window rule; event marks the event face's, which counts whole
// packets as ⌊W⌋ rather than the fluid's W − ½.
type scalableRule struct {
	p     scalableParams
	event bool
}

func (*scalableRule) Start(Observation) {}

func (r *scalableRule) ExitAck() bool { return r.p.exitAck == 1 }

// DiscardsRemainder: ns-3.37's TcpScalable (whole_packets 2) clears its ACK counter after
// every increase, so an ACK of several segments keeps only the whole packets they make.
func (r *scalableRule) DiscardsRemainder() bool { return r.p.whole == 2 }

func (r *scalableRule) SlowStartPerAck() bool { return r.p.perAck == 1 }

func (r *scalableRule) SlowStartThroughSsthresh() bool { return r.p.through == 1 }

func (r *scalableRule) ReducesAtTimeout() bool { return r.p.rtoSsthresh == 1 }

// countedWindow is the window a whole-packet ACK counter is compared with: ⌊W⌋ in the event
// face, W − ½ in the fluid face (at least one packet).
func countedWindow(w float64, event bool) float64 {
	if event {
		return max(wholePackets(w), 1)
	}
	return max(w-0.5, 1)
}

func (r *scalableRule) PerRTT(w float64, _ Observation) float64 {
	p := &r.p
	if p.whole == 0 && p.extraAck == 0 {
		if w > p.legacy {
			return p.a * w
		}
		return 1
	}
	n := w
	if p.whole != 0 {
		n = countedWindow(w, r.event)
	}
	return w / p.acksPerPacket(n)
}

func (r *scalableRule) Congestion(w float64, _ Observation) float64 {
	p := &r.p
	d := p.b
	if p.legacyDecrease == 1 && w <= p.legacy {
		d = 0.5
	}
	if p.whole == 0 {
		return (1 - d) * (w - p.pipe)
	}
	n := wholePackets(w)
	m := n - p.pipe
	if p.whole == 1 {
		return m - math.Floor(d*m)
	}
	// ns-3 keeps its ACK counter across the reduction: the fraction of a packet counted
	// at the old window is counted on at the new one.
	next := math.Floor((1 - d) * m)
	return next + (w-n)*p.acksPerPacket(n)/p.acksPerPacket(max(next, 1))
}

// acksPerPacket is how many ACKs add one packet at a whole-packet count of n.
func (p *scalableParams) acksPerPacket(n float64) float64 {
	if n > p.legacy {
		return 1/p.a + p.extraAck
	}
	return n + p.extraAck
}

// Variants: Linux 2.6.2x's tcp_scalable.c as ns-2.35 TCP/Linux runs it, and ns-3.37's
// TcpScalable; both apply b at every window. Each wraps its simulator's recovery around the
// law (docs/simulators.md): Linux's SACK recovery with min_cwnd, ns-3's PRR.
func (a *scalable) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux 2.6.2x tcp_scalable.c (ns-2.35 TCP/Linux): tcp_scalable_cong_avoid +1 when snd_cwnd_cnt exceeds min(cwnd, TCP_SCALABLE_AI_CNT 50); tcp_scalable_ssthresh cwnd − cwnd>>3",
			Params:   map[string]float64{"a": 0.02, "legacy_window": 50, "extra_ack": 1, "whole_packets": 1, "legacy_decrease": 0, "ss_per_ack": 1, "ss_through": 1, "rto_ssthresh": 1},
			Recovery: RecoveryLinuxMinCwnd},
		{Name: "ns3", Source: "ns-3.37 TcpScalable: CongestionAvoidance +1 per min(cwnd, AIFactor 50) segments acked; GetSsThresh (1 − MDFactor 0.125)·BytesInFlight",
			Params:   map[string]float64{"a": 0.02, "legacy_window": 50, "whole_packets": 2, "legacy_decrease": 0, "pipe_deficit": 2, "exit_ack": 1, "ss_per_ack": 1, "rto_ssthresh": 1},
			Recovery: RecoveryPRR},
	}
}
