package model

import "math"

// H-TCP (Leith & Shorten, PFLDnet 2004; Linux tcp_htcp.c). The increase depends on the time
// Δ since the last congestion event: α(Δ) = 1 for Δ ≤ Δ_L and
// α(Δ) = 1 + 10(Δ − Δ_L) + ((Δ − Δ_L)/2)² beyond, Δ_L = 1 s; the window grows by 2(1 − β)·α(Δ)
// packets per RTT, so that it stays Reno-friendly for any β. A loss keeps β·W with the
// adaptive backoff β = RTT_min/RTT_max clamped to [0.5, 0.8] (β starts at 0.5).
//
// RTT_min is Observation.BaseRTT and RTT_max is the RTT at the loss, where a drop-tail
// queue is at its fullest; both faces use the same reading so they can be compared.
//
// rtt_scaling 1 is Linux's (tcp_htcp.c htcp_alpha_update, use_rtt_scaling): α(Δ) is
// multiplied by 8/scale, scale = ⌊800/RTT_min⌋ with RTT_min in whole milliseconds (Linux's
// jiffies at ns-2's HZ 1000), clamped to [4, 80] — about RTT_min/100 ms,
// at most 2 — and is at least 1, so that flows of different RTTs gain alike per second
// once Δ is past Δ_L (ns-2.35's H-TCP flows of 50, 75 and 100 ms take shares of 0.28, 0.36
// and 0.32 of a shared link).
//
// bandwidth_switch 1 is Linux's (tcp_htcp.c htcp_beta_update, use_bandwidth_switch): when
// a cycle's peak throughput differs from the previous cycle's by more than 20% (the test
// 4·old_maxB ≤ 5·maxB ≤ 6·old_maxB fails) β is β_min, and the adaptive β comes back only
// after two cycles in a row within it (modeswitch). Linux's maxB is the largest smoothed
// throughput sample of the cycle; the window grows through the whole cycle, so the rule takes
// the rate at the loss, W/RTT. Under random loss consecutive cycles scatter by more than
// 20%, so β is mostly 0.5: ns-2.35's H-TCP (the 2.6.2x module) backed off to 0.52·W on
// average at p = 1e-3 (docs/simulators.md).
//
// ns3_rules 1 is ns-3.37's TcpHtcp (src/internet/model/tcp-htcp.cc), which differs from
// Linux's module in three places. CongestionAvoidance adds max(1, MSS²/cwnd + α) bytes an
// ACK, truncated to whole bytes: α is in bytes, not in packets a round, so the window
// grows by 1 + α·W/MSS packets a round (about Reno's at α = 1, 4 at α = 57 and W = 60).
// UpdateBeta keeps the adaptive β = RTT_min/RTT_max, unclamped, only when the cycle's
// throughput (the bytes acknowledged in CA_OPEN since the last loss over the time since
// it) rose above the previous cycle's but less than twice it — the test divides the two
// uint32 rates, so any rise below 100% passes the 20% threshold — and 0.5 otherwise. Δ
// counts from the loss (GetSsThresh sets m_lastCon), without RTT scaling. The cycle's
// throughput is taken from the window's mean over the cycle, (W after the last cut + W at
// the loss)/2, over the cycle less its recovery round trip.
//
// Fluid face, x = [W]: dW/dt = 2(1 − β)·α(Now − last loss)/RTT. Event face:
// W += 2(1 − β)·α/W per packet acknowledged. Δ counts from the flow's start until the first
// loss.

func init() {
	Register("htcp", func() Algorithm {
		a := &htcp{}
		const src = "Leith & Shorten 2004; Linux tcp_htcp.c"
		a.Base = NewBase("htcp", "H-TCP: increase growing with the time since the last loss, adaptive backoff RTTmin/RTTmax (Leith & Shorten 2004)",
			Real(&a.p.deltaL, "delta_l", 1, "s", 0, 1e3, src, "time after a loss during which the increase is Reno's"),
			Real(&a.p.betaMin, "beta_min", 0.5, "1", 0.1, 0.95, src, "smallest fraction of the window kept after a loss"),
			Real(&a.p.betaMax, "beta_max", 0.8, "1", 0.1, 1, src, "largest fraction of the window kept after a loss"),
			Switch(&a.p.bandwidthSwitch, "bandwidth_switch", 0, "Linux tcp_htcp.c htcp_beta_update (use_bandwidth_switch 1)",
				"1: β = beta_min after a cycle whose peak throughput is outside ±20% of the previous one's, the adaptive β after two cycles within"),
			Switch(&a.p.openClock, "open_clock", 0, "Leith & Shorten 2004 (0); Linux tcp_htcp.c htcp_state, last_cong at TCP_CA_Open (1)",
				"1: Δ counts from the end of the loss's recovery (the counted form and the packet engine); 0: from the loss"),
			Switch(&a.p.ackCount, "ack_count", 0, "Leith & Shorten 2004 (0); Linux tcp_htcp.c htcp_cong_avoid snd_cwnd_cnt (1)",
				"1: a packet per ⌈W/a⌉ + 1 ACKs, as Linux's counter (cleared on the ACK that adds it) gives, for an increase of a per RTT; 0: a/W per ACK"),
			Switch(&a.p.rttScaling, "rtt_scaling", 0, "Linux tcp_htcp.c htcp_alpha_update (use_rtt_scaling 1)",
				"1: α(Δ) scaled by RTT_min/100 ms as Linux's integer scale has it (×8/⌊800/RTT_min⌋, RTT_min in whole milliseconds, the scale within [4, 80]), at least 1"),
			Real(&a.p.pipe, "pipe_deficit", 0, "packets", 0, 100, "ns-3.37 TcpSocketBase::EnterRecovery (BytesInFlight with SACK: 2)",
				"packets by which the flight a loss reduction starts from falls short of the window (0: the window itself)"),
			Switch(&a.p.ns3, "ns3_rules", 0, "ns-3.37 TcpHtcp (tcp-htcp.cc): CongestionAvoidance, UpdateBeta, UpdateAlpha",
				"1: α in bytes an ACK on top of Reno's MSS²/cwnd, β adaptive only after a cycle whose throughput rose by less than 100%, 0.5 otherwise"),
			onePerAckParam(&a.p.perAck, "ns-2.35 TCP/Linux tcp_slow_start, one packet a call (1)"),
			throughSsthreshParam(&a.p.through, "Linux 2.6.2x htcp_cong_avoid: tcp_slow_start while snd_cwnd <= snd_ssthresh (1)"),
			Switch(&a.p.whole, "whole_packets", 0, "Leith & Shorten 2004 (0); Linux tcp_htcp.c htcp_recalc_ssthresh (snd_cwnd·beta) >> 7 in u32 (1)",
				"1: β in whole 128ths (⌊128·β⌋) and a loss at W leaves ⌊⌊W⌋·β⌋ packets"),
			timeoutSsthreshParam(&a.p.rtoSsthresh, "Linux tcp_enter_loss (htcp_recalc_ssthresh), ns-3.37 ReTxTimeout (TcpHtcp::GetSsThresh): 1"))
		a.Require(Ordered("beta_min", &a.p.betaMin, "beta_max", &a.p.betaMax))
		a.WindowLaw = WindowLaw{Rule: func() WindowRule { return &htcpRule{p: a.p, mss: DefaultMSSBytes} }}
		return a
	})
}

type htcpParams struct {
	deltaL, betaMin, betaMax, bandwidthSwitch, openClock, ackCount, rttScaling, pipe, ns3, perAck, through, whole, rtoSsthresh float64
}

type htcp struct {
	Base
	WindowLaw
	p htcpParams
}

// NewFluid and NewEvent hand the rule the flow's MSS, which ns3_rules' increase counts in.
func (a *htcp) NewFluid(c FlowConfig) FluidLaw { return a.withMSS(c).NewFluid(c) }
func (a *htcp) NewEvent(c FlowConfig) EventLaw { return a.withMSS(c).NewEvent(c) }

func (a *htcp) withMSS(c FlowConfig) WindowLaw {
	law, p, mss := a.WindowLaw, a.p, c.mss()
	law.Rule = func() WindowRule { return &htcpRule{p: p, mss: mss} }
	return law
}

var (
	_ Algorithm         = (*htcp)(nil)
	_ Varianter         = (*htcp)(nil)
	_ RecoveryOpener    = (*htcpRule)(nil)
	_ PerAckSlowStarter = (*htcpRule)(nil)
	_ ThroughSsthresher = (*htcpRule)(nil)
)

func (r *htcpRule) SlowStartPerAck() bool { return r.p.perAck == 1 }

func (r *htcpRule) SlowStartThroughSsthresh() bool { return r.p.through == 1 }

func (r *htcpRule) ReducesAtTimeout() bool { return r.p.rtoSsthresh == 1 }

type htcpRule struct {
	p        htcpParams
	mss      float64 // bytes
	lastLoss float64 // s
	beta     float64
	// ns3_rules: the window the cycle started from, packets, and the previous cycle's
	// throughput, packets/s (0 before the first loss).
	cycleStart, lastThroughput float64
	// bandwidth_switch: the previous cycle's peak throughput, packets/s (0 before the
	// first loss), and whether the last cycle passed the 20% test (Linux modeswitch).
	lastRate float64
	steady   bool
}

func (r *htcpRule) Start(o Observation) {
	r.lastLoss, r.beta, r.lastRate, r.steady = o.Now, r.p.betaMin, 0, false
	r.cycleStart, r.lastThroughput = 0, 0
}

// HTCPAlpha is H-TCP's increase factor α(Δ) for Δ seconds since the last congestion event
// and a low-speed period of deltaL seconds: 1 + 10(Δ − Δ_L) + ((Δ − Δ_L)/2)², or 1 within Δ_L.
func HTCPAlpha(delta, deltaL float64) float64 {
	d := delta - deltaL
	if d <= 0 {
		return 1
	}
	return 1 + 10*d + d*d/4
}

func (r *htcpRule) PerRTT(w float64, o Observation) float64 {
	a := 2 * (1 - r.beta) * r.factor(o)
	if r.p.ns3 == 1 && w > 0 {
		// ns-3 adds ⌊max(1, MSS²/cwnd + α)⌋ bytes an ACK, α at least 1, W ACKs a round.
		return w * math.Floor(max(1, r.mss/w+max(a, 1))) / r.mss
	}
	if r.p.ackCount == 1 && w > 0 {
		// Linux adds a packet once snd_cwnd_cnt·α ≥ 128·W, ⌈W/a⌉ ACKs, and then clears the
		// counter on the ACK that added it: ⌈W/a⌉ + 1 ACKs a packet, W/a + 3/2 on average.
		a = w / (w/a + 1.5)
	}
	return a
}

// factor is α(Δ) at the time since the last congestion event, RTT-scaled with rtt_scaling.
func (r *htcpRule) factor(o Observation) float64 {
	f := HTCPAlpha(o.Now-r.lastLoss, r.p.deltaL)
	if r.p.rttScaling == 1 {
		// Linux keeps minRTT in jiffies (ns-2 TCP/Linux: HZ 1000): whole milliseconds, so a
		// path of 100 ms and a few packets' transmissions scales by 8, not 7.
		ms := max(math.Floor(1000*MinimumRTT(o)+1e-9), 1)
		scale := min(max(math.Floor(800/ms), 4), 80)
		f = max(f*8/scale, 1)
	}
	return f
}

// Reopen restarts Δ where the recovery ends, with open_clock.
func (r *htcpRule) Reopen(o Observation) {
	if r.p.openClock == 1 {
		r.lastLoss = o.Now
	}
}

func (r *htcpRule) Congestion(w float64, o Observation) float64 {
	adaptive := min(max(MinimumRTT(o)/ClockRTT(o), r.p.betaMin), r.p.betaMax)
	r.beta = adaptive
	if r.p.ns3 == 1 {
		r.beta = r.ns3Beta(w, o, adaptive)
		r.lastLoss, r.cycleStart = o.Now, r.beta*max(w-r.p.pipe, 0)
		return r.cycleStart
	}
	if r.p.bandwidthSwitch == 1 {
		rate, last := w/ClockRTT(o), r.lastRate
		r.lastRate = rate
		switch {
		case !(rate >= 0.8*last && rate <= 1.2*last):
			r.beta, r.steady = r.p.betaMin, false
		case !r.steady:
			r.beta, r.steady = r.p.betaMin, true
		}
	}
	r.lastLoss = o.Now
	if r.p.whole == 1 {
		// Linux: ca->beta in 128ths, ssthresh = (snd_cwnd·beta) >> 7.
		b := math.Floor(128*r.beta+1e-9) / 128
		return wholeShare(w, b)
	}
	return r.beta * w
}

// ns3Beta is TcpHtcp::UpdateBeta's β at a loss at window w: the adaptive β when the cycle's
// throughput rose above the last cycle's by less than 100%, else beta_min.
func (r *htcpRule) ns3Beta(w float64, o Observation, adaptive float64) float64 {
	rtt := ClockRTT(o)
	cycle := o.Now - r.lastLoss
	thr := 0.0
	if cycle > 0 {
		thr = (r.cycleStart + w) / 2 / rtt * max(cycle-rtt, 0) / cycle
	}
	last := r.lastThroughput
	r.lastThroughput = thr
	if last > 0 && thr > last && thr < 2*last {
		return adaptive
	}
	return r.p.betaMin
}

// Variants: H-TCP as Linux 2.6.2x's tcp_htcp.c has it (ns-2.35 TCP/Linux runs it), and
// as ns-3.37's TcpHtcp has it (ns3_rules); docs/simulators.md compares them.
func (a *htcp) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux 2.6.22 tcp_htcp.c (ns-2.35 tcp/linux/src), htcp_beta_update and htcp_alpha_update: " +
			"BETA_MIN 64/128, BETA_MAX 102/128, use_bandwidth_switch 1, use_rtt_scaling 1, Δ_L 1 s, Δ from the return to TCP_CA_Open (htcp_state); no min_cwnd",
			Params: map[string]float64{"beta_min": 0.5, "beta_max": 102.0 / 128, "delta_l": 1, "bandwidth_switch": 1, "open_clock": 1, "ack_count": 1,
				"rtt_scaling": 1, "ss_per_ack": 1, "ss_through": 1, "whole_packets": 1, "rto_ssthresh": 1},
			Recovery: RecoveryLinux},
		{Name: "ns3", Source: "ns-3.37 TcpHtcp (tcp-htcp.cc): DefaultBackoff 0.5, ThroughputRatio 0.2 (an integer ratio), DeltaL 1 s; " +
			"α bytes an ACK on top of MSS²/cwnd; β = RTT_min/RTT_max unclamped after a cycle whose throughput rose by less than 100%; Δ from the loss",
			Params:   map[string]float64{"beta_min": 0.5, "beta_max": 1, "delta_l": 1, "ns3_rules": 1, "pipe_deficit": 2, "ss_per_ack": 1, "rto_ssthresh": 1},
			Recovery: RecoveryPRR},
	}
}
