package model

import "math"

// CUBIC (RFC 9438). In congestion avoidance the window follows
//
//	W_cubic(t) = C·(t − K)³ + W_max,   K = cbrt((W_max − cwnd_epoch)/C)
//
// with t the time since the congestion-avoidance epoch began and cwnd_epoch the window
// then (after a loss without fast convergence cwnd_epoch = β·W_max, so K = CubicK(W_max, C,
// β)). A Reno-friendly estimate W_est, starting at cwnd_epoch, grows by α_cubic per RTT,
// α_cubic = 3(1−β)/(1+β), and by 1 per RTT once it reaches the window before the last
// reduction (§4.3); CUBIC uses W_est whenever W_cubic(t) < W_est. On a loss W_max = W (fast
// convergence: W_max = W·(1+β)/2 if W is below the previous W_max) and W ← β·W (§4.6, §4.7).
// Defaults C = 0.4 packets/s³, β = 0.7, fast convergence and the Reno-friendly region on.
// The 2008 CUBIC paper's decrease 0.2 is the parameter choice beta = 0.8.
//
// Fluid face, x = [W, W_est]: per ACK RFC 9438 adds (target − W)/W with
// target = W_cubic(t + RTT) clamped to [W, 1.5·W]; at W/RTT ACKs/s that is
// dW/dt = (target − W)/RTT, so W trails the curve by about one RTT of its slope (a
// fraction of a packet near K). dW_est/dt = α/RTT. In the Reno-friendly region the target
// is W_est + α (W_est one RTT ahead), so W tracks W_est exactly once it has caught up, as
// the per-ACK cwnd = W_est does. In slow start both grow as W·ln2/RTT, so W_est = W when
// the epoch begins. The epoch begins at the loss (fluid face) or at slow-start exit.
//
// Event face: RFC 9438 per ACK, the epoch beginning at the first congestion-avoidance ACK
// after a loss or slow start (as Linux's epoch_start), t = Observation.Now − epoch start;
// in the Reno-friendly region cwnd = max(cwnd, W_est) (it is never lowered, as in Linux).
//
// The implementations' departures are parameters their variants set (docs/simulators.md):
// hystart (ns-3's hybrid slow start, hystart.go), cnt_clamp and cnt_forced (the growth
// before the first loss), friendly_alpha (Linux 2.6.2x's Reno estimate at 8/23 a round
// without RFC 9438's step to 1 at cwnd_prior) and timeout_reset (both forget W_max at a
// timeout and set ssthresh to β·W).

// CubicK is the time in seconds CUBIC takes to return to W_max packets after a loss that
// left β·W_max, for C in packets/s³: K = cbrt(W_max·(1−β)/C). Example: W_max = 1000, C = 0.4,
// β = 0.7 gives K ≈ 9.09 s.
func CubicK(wmax, c, beta float64) float64 { return math.Cbrt(wmax * (1 - beta) / c) }

func init() {
	Register("cubic", func() Algorithm {
		a := &cubic{}
		a.Base = NewBase("cubic", "CUBIC: window a cubic function of the time since the last loss, with a Reno-friendly region (RFC 9438)",
			Real(&a.p.c, "c", 0.4, "packets/s³", 0.01, 10, "RFC 9438 §5",
				"aggressiveness: scale of the cubic curve"),
			Real(&a.p.beta, "beta", 0.7, "1", 0.5, 0.95, "RFC 9438 §4.6 (2008 paper: 0.8)",
				"fraction of the window kept after a loss"),
			Switch(&a.p.fastConvergence, "fast_convergence", 1, "RFC 9438 §4.7",
				"1: a loss below the previous W_max lowers W_max to W·(1+β)/2"),
			Switch(&a.p.friendly, "reno_friendly", 1, "RFC 9438 §4.3",
				"1: use the Reno-friendly estimate W_est where it exceeds the cubic curve"),
			Switch(&a.p.hystart, "hystart", 0, "ns-3.37 TcpCubic HyStart (1, its default); RFC 9438 and Linux 2.6.2x as ns-2.35 runs it (0)",
				"1: hybrid slow start ends slow start when a round's ACK train outlasts the least RTT or its smoothed RTT rises (hystart.go)"),
			Real(&a.p.cntClamp, "cnt_clamp", 0, "ACKs", 0, 1000, "RFC 9438 (0: none); Linux 2.6.2x tcp_cubic.c cnt = 50 while loss_cwnd = 0; ns-3.37 TcpCubic CntClamp 20 while m_lastMaxCwnd = 0",
				"> 0: until the first loss (and after a timeout with timeout_reset) the window grows by at least one packet per this many ACKs"),
			Switch(&a.p.cntForced, "cnt_forced", 0, "ns-3.37 TcpCubic min(cnt, CntClamp) (0); Linux 2.6.2x tcp_cubic.c cnt = 50 outright (1)",
				"1: under cnt_clamp the cubic curve is set aside: exactly one packet per cnt_clamp ACKs (the Reno-friendly estimate may still be faster)"),
			Real(&a.p.friendlyAlpha, "friendly_alpha", 0, "packets/RTT", 0, 10, "RFC 9438 §4.3 (0: 3(1−β)/(1+β), then 1 from cwnd_prior); Linux 2.6.2x tcp_cubic.c 8/23, one per (cwnd·beta_scale) >> 3 ACKs, beta_scale 23",
				"> 0: the Reno-friendly estimate grows by this many packets per RTT throughout, without RFC 9438's step to 1 at cwnd_prior"),
			Switch(&a.p.timeoutReset, "timeout_reset", 0, "RFC 9438 (0); Linux tcp_cubic.c bictcp_state → bictcp_reset at TCP_CA_Loss, ns-3.37 TcpCubic CubicReset at CA_LOSS (1)",
				"1: a timeout sets ssthresh to β·W and forgets W_max, as if no loss had happened; 0: ssthresh W/2, W_max kept"),
			onePerAckParam(&a.p.perAck, "ns-2.35 TCP/Linux tcp_slow_start, one packet a call (1)"),
			throughSsthreshParam(&a.p.through, "Linux 2.6.2x tcp_cubic.c bictcp_cong_avoid: tcp_slow_start while snd_cwnd <= snd_ssthresh (1)"),
			Switch(&a.p.whole, "whole_packets", 0, "RFC 9438 (0); Linux 2.6.2x tcp_cubic.c bictcp_recalc_ssthresh in u32 (1)",
				"1: a loss at W leaves ⌊⌊W⌋·β⌋ packets ((snd_cwnd·beta)/1024) and sets W_max to ⌊W⌋, or with fast convergence ⌊⌊W⌋·(1 + β)/2⌋"))
		return a
	})
}

type cubicParams struct {
	c, beta, fastConvergence, friendly, friendlyAlpha, hystart, cntClamp, cntForced, timeoutReset, perAck, through, whole float64
}

type cubic struct {
	Base
	p cubicParams
}

var (
	_ Algorithm          = (*cubic)(nil)
	_ Varianter          = (*cubic)(nil)
	_ ResponseReferencer = (*cubic)(nil)
	_ ConvergeReferencer = (*cubic)(nil)
	_ FluidLaw           = (*cubicFluid)(nil)
	_ AckIncrement       = (*cubicFluid)(nil)
	_ RecoveryEnder      = (*cubicFluid)(nil)
	_ EventLaw           = (*cubicEvent)(nil)
)

// ResponseReference is RFC 9438 §5's cubic region: W̄ = (C·(3+β)/(4(1−β)))^¼·τ^¾/p^¾
// (1.054·τ^¾/p^¾ at the defaults).
func (a *cubic) ResponseReference(LossModel) (ResponseReference, bool) {
	c := math.Pow(a.p.c*(3+a.p.beta)/(4*(1-a.p.beta)), 0.25)
	return ResponseReference{C: c, D: 0.75, E: 0.75, Source: "RFC 9438 §5 (cubic region)", PMax: 1e-4}, true
}

// ConvergeReference: after a loss at the BDP the curve returns to it in K; filling from
// one packet has no closed form (slow start, then the curve).
func (a *cubic) ConvergeReference(bdpPkts, _ float64) ConvergeReference {
	k := CubicK(bdpPkts, a.p.c, a.p.beta)
	return ConvergeReference{RecoveryS: &k, Note: "K = cbrt(W_max(1−β)/C)"}
}

func (a *cubic) NewFluid(c FlowConfig) FluidLaw {
	cwnd, w := NewWindow(c)
	w.ThroughSsthresh = a.p.through == 1
	return &cubicFluid{init: w, win: w, cwnd0: cwnd, cubicEpoch: newCubicEpoch(a.p)}
}

func (a *cubic) NewEvent(c FlowConfig) EventLaw {
	cwnd, w := NewWindow(c)
	w.OnePerAck = a.p.perAck == 1
	w.ThroughSsthresh = a.p.through == 1
	return &cubicEvent{cwnd: cwnd, win: w, hy: newHystart(), cubicEpoch: newCubicEpoch(a.p)}
}

// cubicEpoch is CUBIC's discrete state, shared by both faces.
type cubicEpoch struct {
	p      cubicParams
	alpha  float64 // α_cubic = 3(1−β)/(1+β), packets per RTT
	wMax   float64 // window at the last congestion event after fast convergence, packets; 0 before any
	prior  float64 // window just before the last reduction (cwnd_prior), packets; 0 before any
	start  float64 // epoch start, s
	k      float64 // s
	origin float64 // the curve's plateau: max(W_max, cwnd_epoch), packets
}

func newCubicEpoch(p cubicParams) cubicEpoch {
	a := 3 * (1 - p.beta) / (1 + p.beta)
	if p.friendlyAlpha > 0 {
		a = p.friendlyAlpha
	}
	return cubicEpoch{p: p, alpha: a}
}

// begin starts a congestion-avoidance epoch at time now (s) with window cwnd (packets):
// K = cbrt((W_max − cwnd_epoch)/C), or K = 0 with the plateau at cwnd when W_max ≤ cwnd.
func (e *cubicEpoch) begin(now, cwnd float64) {
	e.start = now
	e.k, e.origin = 0, cwnd
	if e.wMax > cwnd {
		e.k, e.origin = math.Cbrt((e.wMax-cwnd)/e.p.c), e.wMax
	}
}

// curve is W_cubic at time t (s) since the epoch began, packets.
func (e *cubicEpoch) curve(t float64) float64 {
	d := t - e.k
	return e.p.c*d*d*d + e.origin
}

// cubicTarget is W_cubic(t + RTT) clamped to [W, 1.5·W] (RFC 9438 §4.2).
func (e *cubicEpoch) cubicTarget(t, rtt, w float64) float64 {
	return min(max(e.curve(t+rtt), w), 1.5*w)
}

// friendly reports whether the Reno-friendly estimate governs at time t (s).
func (e *cubicEpoch) friendly(t, west float64) bool {
	return e.p.friendly == 1 && e.curve(t) < west
}

// estAlpha is W_est's increase per RTT: α_cubic until W_est reaches cwnd_prior, then 1;
// friendly_alpha throughout.
func (e *cubicEpoch) estAlpha(west float64) float64 {
	if e.stepsAtPrior() && west >= e.prior {
		return 1
	}
	return e.alpha
}

// stepsAtPrior reports whether W_est's slope steps to 1 at cwnd_prior (RFC 9438).
func (e *cubicEpoch) stepsAtPrior() bool { return e.p.friendlyAlpha == 0 }

// clamped reports whether cnt_clamp sets a floor under the growth: before any loss the
// epoch remembers (W_max = 0), at one packet per cnt_clamp ACKs.
func (e *cubicEpoch) clamped() bool { return e.p.cntClamp > 0 && e.wMax == 0 }

// clampGrowth is the growth under cnt_clamp given the law's own and the clamp's: at least
// the clamp's, or with cnt_forced exactly it unless the Reno-friendly estimate governs and
// is faster (Linux: cnt = 50, then min with the friendly count).
func (e *cubicEpoch) clampGrowth(own, clamp float64, friendly bool) float64 {
	if e.p.cntForced == 1 && !friendly {
		return clamp
	}
	return max(own, clamp)
}

// timeout applies a timeout at window w to the epoch and returns ssthresh: with
// timeout_reset β·w and no W_max (Linux bictcp_reset, ns-3 CubicReset), else Reno's w/2
// with the loss recorded.
func (e *cubicEpoch) timeout(w float64) float64 {
	if e.p.timeoutReset == 1 {
		e.wMax, e.prior = 0, 0
		if e.p.whole == 1 {
			return max(wholeShare(w, e.p.beta), MinLossWindow)
		}
		return max(e.p.beta*w, MinLossWindow)
	}
	e.congestion(w)
	return max(w/2, MinLossWindow)
}

// congestion records a loss at window w and returns β·w. Fast convergence compares whole
// packets, as Linux's tcp_cubic.c compares its integer cwnd with last_max_cwnd: a loss a
// fraction of a packet short of W_max is not a sign of new competition. It matters where
// periodic loss holds CUBIC at the fixed point W = W_max at every loss, where a real-valued
// test would flip between the branches on rounding.
func (e *cubicEpoch) congestion(w float64) float64 {
	if e.p.whole == 1 {
		// Linux's u32 snd_cwnd, last_max_cwnd and ssthresh (bictcp_recalc_ssthresh).
		n := math.Floor(w)
		if e.p.fastConvergence == 1 && n < e.wMax {
			e.wMax = math.Floor(n * (1 + e.p.beta) / 2)
		} else {
			e.wMax = n
		}
		e.prior = w
		return wholeShare(w, e.p.beta)
	}
	if e.p.fastConvergence == 1 && math.Floor(w) < math.Floor(e.wMax) {
		e.wMax = w * (1 + e.p.beta) / 2
	} else {
		e.wMax = w
	}
	e.prior = w
	return e.p.beta * w
}

// cubicFluid is CUBIC's fluid face, x = [W, W_est].
type cubicFluid struct {
	init, win Window
	cwnd0     float64
	hy        hystart
	cubicEpoch
}

func (f *cubicFluid) Vars() int { return 2 }

func (f *cubicFluid) Init(x []float64, o Observation) {
	f.win = f.init
	f.cubicEpoch = newCubicEpoch(f.p)
	f.hy = newHystart()
	x[0], x[1] = f.cwnd0, f.cwnd0
	if !f.win.SlowStart {
		f.begin(o.Now, x[0])
	}
}

func (f *cubicFluid) Deriv(dx, x []float64, o Observation) {
	rtt := ClockRTT(o)
	w, west := x[0], x[1]
	if f.win.SlowStart {
		dx[0] = f.win.Limit(w, SlowStartRate(w, rtt))
		dx[1] = dx[0]
		return
	}
	t := o.Now - f.start
	alpha := f.estAlpha(west)
	target := f.cubicTarget(t, rtt, w)
	friendly := f.friendly(t, west)
	if friendly {
		target = west + alpha
	}
	grow := max(target-w, 0) / rtt
	if f.clamped() {
		grow = f.clampGrowth(grow, w/(f.p.cntClamp*rtt), friendly)
	}
	dx[0] = f.win.Limit(w, grow)
	dx[1] = alpha / rtt
}

// AckIncrement: one packet per ACK in slow start; in the Reno-friendly region the window
// follows W_est one RTT ahead, (W_est + α − W)/W per ACK (α/W once caught up); on the cubic
// curve the window tracks a target of time, not of ACKs (0).
// With cnt_clamp, before any loss, at least 1/cnt_clamp.
func (f *cubicFluid) AckIncrement(x []float64, o Observation) float64 {
	var d float64
	switch {
	case f.win.SlowStart:
		return 1
	case f.friendly(o.Now-f.start, x[1]):
		d = max(x[1]+f.estAlpha(x[1])-x[0], 0) / x[0]
	}
	if f.clamped() {
		d = max(d, 1/f.p.cntClamp)
	}
	return d
}

// EndRecovery starts the epoch's clock when recovery ends, as the event face does at its
// first ACK in congestion avoidance (Linux: epoch_start = 0 at a loss, set in cong_avoid).
// With ss_through the loss has left the window at ssthresh + 1 (Window.FluidLoss), which
// the epoch starts from, as Linux's does from the window tcp_slow_start left
// (bictcp_update: K from W_max − cwnd, the Reno estimate tcp_cwnd = cwnd).
func (f *cubicFluid) EndRecovery(_ []float64, o Observation) {
	if !f.win.SlowStart {
		f.start = o.Now
	}
}

func (f *cubicFluid) Guard(x []float64, o Observation) float64 {
	g := f.win.Guard(x[0])
	if f.p.hystart == 1 && f.win.SlowStart {
		g = max(g, f.hy.fluidGuard(x[0], o))
	}
	return g
}

// Switch ends slow start at ssthresh or, with HyStart, where it finds the pipe full
// (ssthresh = W).
func (f *cubicFluid) Switch(x []float64, o Observation) {
	if f.p.hystart == 1 && f.win.Guard(x[0]) < 0 { // not at ssthresh: HyStart's exit
		f.hy.found = true
		f.win.Ssthresh = x[0]
	}
	f.win.SlowStart = false
	x[1] = x[0]
	f.begin(o.Now, x[0])
}

func (f *cubicFluid) OnLoss(x []float64, o Observation) {
	x[0] = f.win.FluidLoss(f.congestion(x[0]), false)
	x[1] = x[0]
	f.begin(o.Now, x[0])
}

func (f *cubicFluid) OnTimeout(x []float64, _ Observation) {
	s := f.timeout(x[0])
	f.hy.timeout()
	x[0] = f.win.Timeout(x[0])
	f.win.Ssthresh = s
	x[1] = x[0]
}

func (f *cubicFluid) Ssthresh() float64 { return f.win.Reported() }

// cubicEvent is CUBIC's event face.
type cubicEvent struct {
	cwnd, west float64
	win        Window
	inEpoch    bool
	hy         hystart
	cubicEpoch
}

func (e *cubicEvent) Cwnd() float64     { return e.cwnd }
func (e *cubicEvent) Ssthresh() float64 { return e.win.Reported() }

func (e *cubicEvent) OnAck(acked float64, o Observation) {
	if e.p.hystart == 1 && e.win.SlowStart && e.hy.onAck(e.cwnd, e.win.Ssthresh, acked, o) {
		e.win.Ssthresh = e.cwnd // this ACK is already congestion avoidance's
	}
	left := e.win.AckSlowStart(&e.cwnd, acked)
	if left > 0 {
		if !e.inEpoch {
			e.inEpoch = true
			e.west = e.cwnd
			e.begin(o.Now, e.cwnd)
		}
		t := o.Now - e.start
		before := e.cwnd
		e.west += e.estAlpha(e.west) * left / e.cwnd
		friendly := e.friendly(t, e.west)
		if friendly {
			e.cwnd = max(e.cwnd, e.west)
		} else {
			e.cwnd += left * (e.cubicTarget(t, ClockRTT(o), e.cwnd) - e.cwnd) / e.cwnd
		}
		if e.clamped() {
			e.cwnd = before + e.clampGrowth(e.cwnd-before, left/e.p.cntClamp, friendly)
		}
	}
	e.cwnd = e.win.Clamp(e.cwnd)
}

func (e *cubicEvent) OnLoss(Observation) {
	e.cwnd = e.win.Loss(e.congestion(e.cwnd), false)
	e.inEpoch = false
}

func (e *cubicEvent) OnTimeout(Observation) {
	s := e.timeout(e.cwnd)
	e.hy.timeout()
	e.cwnd = e.win.Timeout(e.cwnd)
	e.win.Ssthresh = s
	e.inEpoch = false
}

// Variants: CUBIC as Linux's tcp_cubic.c has it (ns-2.35 TCP/Linux runs Linux 2.6.2x's:
// β = 819/1024) and as ns-3.37's TcpCubic (β 0.7 and no TCP-friendly region). What else
// they do differently is in docs/simulators.md.
func (a *cubic) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux tcp_cubic.c (2.6.2x, as ns-2.35 TCP/Linux runs it): beta 819/1024, " +
			"C = bic_scale·10/1024 = 410/1024 (bictcp_register's cube_factor), Reno estimate 8/23 a round (beta_scale 23), " +
			"cnt = 50 before the first loss, bictcp_reset at a timeout (bictcp_state); no min_cwnd",
			Params:   map[string]float64{"beta": 819.0 / 1024, "c": 410.0 / 1024, "cnt_clamp": 50, "cnt_forced": 1, "friendly_alpha": 8.0 / 23, "timeout_reset": 1, "ss_per_ack": 1, "ss_through": 1, "whole_packets": 1},
			Recovery: RecoveryLinux},
		{Name: "ns3", Source: "ns-3.37 TcpCubic: Beta 0.7, no TCP-friendly region, HyStart, CntClamp 20, CubicReset at a timeout",
			Params: map[string]float64{"beta": 0.7, "reno_friendly": 0, "hystart": 1, "cnt_clamp": 20, "timeout_reset": 1}},
	}
}
