package model

import "math"

// BIC (Xu, Harfoush, Rhee, INFOCOM 2004; Linux tcp_bic.c; ns-3 TcpBic). After a loss the
// window searches for the last maximum W_max by binary search: each RTT it moves by the
// distance to W_max divided by B (B = 2: half-way, the paper's midpoint), by at most S_max
// and at least S_min packets. Past W_max it probes for a new maximum with increments that
// grow as it leaves W_max, (W − W_max)/(B − 1) per RTT (max probing, the mirror image of the
// search). A loss sets W_max = W (fast convergence: W·(1+β)/2 when W is below the previous
// W_max) and keeps β·W. At or below the low window BIC is Reno. Defaults β = 0.8, B = 2,
// S_max = 16, S_min = 0.01 packets, low window 14.
//
// The per-RTT increase, used by both faces, is
//
//	W ≤ low window:  1
//	W < W_max:       clamp((W_max − W)/B,     S_min, S_max)    binary search
//	W ≥ W_max:       clamp((W − W_max)/(B−1), S_min, S_max)    max probing
//
// Fluid face, x = [W]: dW/dt = increase/RTT. Event face: W += increase/W per packet
// acknowledged. The increase dips near W_max between stretches of S_max per RTT, a dip the
// ODE solver could step over (a step whose stages all land where the increase is S_max sees
// no error); the fluid face therefore switches mode at every level where the increase
// changes form (bicRule.nextLevel), so that each piece is integrated on its own.
//
// The implementations (variants linux and ns3) differ from the paper:
//   - B = 4 (BICTCP_B; ns-3 BinarySearchCoefficient), and with smooth_part > 0 a fixed
//     step B/smooth_part per RTT where the distance is at most one (dist ≤ 1 in
//     tcp_bic.c's bictcp_update: the last 2B − 1 whole packets below W_max) and within B
//     packets above it: 0.2 packet per RTT with Linux's smooth_part 20, 0.8 with ns-3's 5;
//   - whole_packets: distances and comparisons in whole packets, dist = ⌊(⌊W_max⌋ −
//     ⌊W⌋)/B⌋, as the kernel's u32 arithmetic computes them, and whole windows after a loss;
//   - startup_growth: before the first loss the increase is at least 5% of the window per
//     RTT (cnt ≤ 20), in both;
//   - the ACK counting (count_offset, ack_ratio): the kernel adds a packet after cnt + 1
//     ACKs (the snd_cwnd_cnt ≥ cnt test), cnt = W/increase, and divides cnt by its
//     delayed-ACK estimate delayed_ack/16, which with one packet per ACK is stuck at 31/16
//     (bictcp_acked: the estimate starts at 2 and its integer update stops at 31); ns-3
//     counts cnt + 1 ACKs (m_cWndCnt > cnt) with no estimate. The Reno region is exempt
//     from the estimate in both (bictcp_update returns before it);
//   - fast convergence: ns-3's TcpBic::GetSsThresh sets W_max = β·W (fast_convergence 2);
//   - timeout_reset: a timeout forgets W_max and the first loss (bictcp_state at
//     TCP_CA_Loss), in Linux only.

func init() {
	Register("bic", func() Algorithm {
		a := &bic{}
		const src = "Xu, Harfoush, Rhee 2004; Linux tcp_bic.c"
		a.Base = NewBase("bic", "BIC: binary search towards the last maximum window, then max probing (Xu, Harfoush, Rhee 2004)",
			Real(&a.p.beta, "beta", 0.8, "1", 0.5, 0.95, "Linux tcp_bic.c (819/1024)", "fraction of the window kept after a loss"),
			Real(&a.p.sMax, "s_max", 16, "packets/RTT", 0.01, 1e4, src, "largest increase per RTT"),
			Real(&a.p.sMin, "s_min", 0.01, "packets/RTT", 1e-4, 1e4, "Xu, Harfoush, Rhee 2004", "smallest increase per RTT"),
			Real(&a.p.low, "low_window", 14, "packets", 0, 1e9, "Linux tcp_bic.c", "at or below this window BIC behaves as Reno"),
			wholeNumber(Real(&a.p.fastConvergence, "fast_convergence", 1, "1", 0, 2, "Linux tcp_bic.c; ns-3 TcpBic::GetSsThresh",
				"0 off; 1: a loss below the previous W_max lowers W_max to W·(1+β)/2 (Linux, the paper); 2: to β·W (ns-3.37)")),
			Real(&a.p.b, "b", 2, "1", 1.5, 64, "Xu, Harfoush, Rhee 2004 (midpoint); Linux BICTCP_B and ns-3 BinarySearchCoefficient: 4",
				"binary search divisor: each RTT the window moves by the distance to W_max over b, and past W_max by the distance over b − 1"),
			Real(&a.p.smooth, "smooth_part", 0, "RTTs", 0, 1e4, "Linux tcp_bic.c smooth_part 20; ns-3 TcpBic SmoothPart 5",
				"0: off; else the increase is b/smooth_part per RTT within one binary-search distance below W_max and b packets above"),
			Switch(&a.p.whole, "whole_packets", 0, "Linux tcp_bic.c, ns-3 TcpBic (u32 windows)",
				"1: distances, region tests and the window after a loss in whole packets, as the implementations compute them"),
			Real(&a.p.startup, "startup_growth", 0, "1/RTT", 0, 1, "Linux tcp_bic.c and ns-3 TcpBic: cnt ≤ 20 before the first loss (0.05)",
				"before the first loss the increase is at least this fraction of the window per RTT (above the low window)"),
			Real(&a.p.offset, "count_offset", 0, "ACKs", 0, 10, "Linux 2.6.2x bictcp_cong_avoid (snd_cwnd_cnt ≥ cnt), ns-3 TcpBic (m_cWndCnt > cnt): 1",
				"ACKs beyond cnt = W/increase before each one-packet increase: W += 1/(cnt + count_offset) per ACK"),
			Real(&a.p.ackRatio, "ack_ratio", 1, "packets/ACK", 1, 16, "Linux 2.6.2x bictcp_acked as ns-2.35 runs it: delayed_ack stuck at 31/16",
				"the implementation's delayed-ACK estimate: cnt is divided by it above the low window"),
			Switch(&a.p.timeoutReset, "timeout_reset", 0, "Linux tcp_bic.c bictcp_state (TCP_CA_Loss)",
				"1: a timeout forgets W_max and the first loss"),
			onePerAckParam(&a.p.perAck, "ns-3.37 TcpBic::IncreaseWindow, ns-2.35 TCP/Linux tcp_slow_start (1)"),
			throughSsthreshParam(&a.p.through, "Linux 2.6.2x bictcp_cong_avoid: tcp_slow_start while snd_cwnd <= snd_ssthresh (1)"),
			timeoutSsthreshParam(&a.p.rtoSsthresh, "Linux tcp_enter_loss (bictcp_recalc_ssthresh), ns-3.37 ReTxTimeout (TcpBic::GetSsThresh): 1"))
		a.Require(Ordered("s_min", &a.p.sMin, "s_max", &a.p.sMax))
		a.WindowLaw = WindowLaw{Rule: func() WindowRule { return &bicRule{p: a.p} }}
		return a
	})
}

// wholeNumber marks a real parameter as a whole-number selector.
func wholeNumber(d ParamDef) ParamDef {
	d.Whole = true
	return d
}

type bicParams struct {
	beta, sMax, sMin, low, fastConvergence      float64
	b, smooth, whole, startup, offset, ackRatio float64
	timeoutReset, perAck, through, rtoSsthresh  float64
}

type bic struct {
	Base
	WindowLaw
	p bicParams
}

var (
	_ Algorithm = (*bic)(nil)
	_ Varianter = (*bic)(nil)
	_ FluidLaw  = (*bicFluid)(nil)
	_ EventLaw  = (*bicEvent)(nil)
)

func (a *bic) NewFluid(c FlowConfig) FluidLaw {
	cwnd, w := NewWindow(c)
	w.ThroughSsthresh = a.p.through == 1
	r := &bicRule{p: a.p}
	return &bicFluid{windowFluid: &windowFluid{init: w, win: w, cwnd0: cwnd, rule: r}, r: r}
}

func (a *bic) NewEvent(c FlowConfig) EventLaw {
	cwnd, w := NewWindow(c)
	r := &bicRule{p: a.p}
	w.OnePerAck = a.p.perAck == 1
	w.ThroughSsthresh = a.p.through == 1
	return &bicEvent{windowEvent: &windowEvent{cwnd: cwnd, win: w, rule: r}, r: r}
}

type bicRule struct {
	p    bicParams
	wMax float64 // packets; 0 before the first loss
	lost bool    // a loss has been seen (Linux: loss_cwnd ≠ 0)
}

func (r *bicRule) Start(Observation) { r.wMax, r.lost = 0, false }

func (r *bicRule) ReducesAtTimeout() bool { return r.p.rtoSsthresh == 1 }

// reset is the timeout of timeout_reset: W_max and the first loss forgotten.
func (r *bicRule) reset() {
	if r.p.timeoutReset == 1 {
		r.wMax, r.lost = 0, false
	}
}

// whole is w in whole packets when the rule counts them.
func (r *bicRule) whole(w float64) float64 {
	if r.p.whole == 1 {
		return math.Floor(w)
	}
	return w
}

// step is the increase per RTT the rule aims at for a window of w packets, before the
// implementations' ACK counting, and whether the delayed-ACK estimate applies to it.
func (r *bicRule) step(w float64) (inc float64, estimated bool) {
	p := &r.p
	n, m := r.whole(w), r.whole(r.wMax)
	if n <= p.low {
		return 1, false
	}
	smooth := math.Inf(1)
	if p.smooth > 0 {
		smooth = p.b / p.smooth
	}
	if n < m {
		d := (m - n) / p.b
		if p.whole == 1 {
			d = math.Floor(d)
		}
		switch {
		case d > p.sMax:
			inc = p.sMax
		case d <= 1 && p.smooth > 0:
			inc = smooth
		default:
			inc = max(d, p.sMin)
		}
	} else {
		switch {
		case n-m < p.b && p.smooth > 0:
			inc = smooth
		default:
			inc = min(max((w-m)/(p.b-1), p.sMin), p.sMax)
		}
	}
	if !r.lost && p.startup > 0 {
		inc = max(inc, p.startup*w)
	}
	return inc, true
}

func (r *bicRule) PerRTT(w float64, _ Observation) float64 {
	inc, estimated := r.step(w)
	if r.p.offset == 0 && r.p.ackRatio == 1 {
		return inc // the paper's W += increase/W per ACK
	}
	// One packet per cnt + count_offset ACKs, cnt = W/increase (at least 1) divided by the
	// delayed-ACK estimate: W/(cnt + count_offset) per RTT of W ACKs.
	ratio := 1.0
	if estimated {
		ratio = r.p.ackRatio
	}
	cnt := max(w/(inc*ratio), 1)
	return w / (cnt + r.p.offset)
}

func (r *bicRule) Congestion(w float64, _ Observation) float64 {
	p := &r.p
	n := r.whole(w)
	below := n < r.whole(r.wMax)
	switch {
	case p.fastConvergence == 1 && below:
		r.wMax = r.whole(n * (1 + p.beta) / 2)
	case p.fastConvergence == 2 && below:
		r.wMax = r.whole(p.beta * n)
	default:
		r.wMax = n
	}
	r.lost = true
	if n <= p.low {
		return r.whole(n / 2)
	}
	return r.whole(p.beta * n)
}

// nextLevel is the lowest window above w, packets, at which the increase changes form:
// the ends of the binary-search and probing regions, the low window and, with whole
// packets, each whole-packet change of the distance. +Inf when there is none. W_max itself
// is none: the increase is S_min (or the smooth step) on both sides of it. That matters
// beyond economy: the fluid engine fires one of a flow's guards that reach zero together,
// and converge watches for the window to come back to the BDP, which is W_max there.
func (r *bicRule) nextLevel(w float64) float64 {
	p := &r.p
	next := math.Inf(1)
	try := func(level float64) {
		if level > w && level < next {
			next = level
		}
	}
	m := r.whole(r.wMax)
	if p.whole == 1 {
		try(math.Floor(p.low) + 1)
		// ⌊(m − ⌊W⌋)/B⌋ drops below k when ⌊W⌋ passes m − k·B.
		for k := 1.0; k <= math.Floor(p.sMax)+1; k++ {
			try(math.Floor(m-k*p.b) + 1)
		}
		try(m + math.Ceil(p.b))
		try(m + math.Ceil((p.b-1)*p.sMax))
		return next
	}
	for _, level := range [...]float64{p.low, m - p.b*p.sMax, m - p.b*p.sMin, m - p.b,
		m + (p.b-1)*p.sMin, m + p.b, m + (p.b-1)*p.sMax} {
		try(level)
	}
	return next
}

// bicFluid is BIC's fluid face: the window law's, with a mode switch at every level where
// the increase changes form (see the file comment). In each mode the increase is the
// piece's own, held at its value at the next level beyond it (piece): a trial stage of
// the solver past the level then sees the piece continued, not the S_max of the region
// after the dip, so the step's error estimate notices the piece's curvature and the guard
// locates the level.
type bicFluid struct {
	*windowFluid
	r    *bicRule
	next float64 // the next level, packets; +Inf for none
}

var _ AckIncrement = (*bicFluid)(nil)

// piece is the window at which the current mode's increase is evaluated: w, at most just
// below the next level (whole-packet pieces change at the level itself).
func (f *bicFluid) piece(w float64) float64 {
	return min(w, math.Nextafter(f.next, math.Inf(-1)))
}

func (f *bicFluid) Deriv(dx, x []float64, o Observation) {
	if f.win.SlowStart {
		f.windowFluid.Deriv(dx, x, o)
		return
	}
	dx[0] = f.win.Limit(x[0], f.r.PerRTT(f.piece(x[0]), o)/ClockRTT(o))
}

// AckIncrement is the window law's, PerRTT/W per ACK, with the mode's increase.
func (f *bicFluid) AckIncrement(x []float64, o Observation) float64 {
	if f.win.SlowStart {
		return 1
	}
	return f.r.PerRTT(f.piece(x[0]), o) / x[0]
}

func (f *bicFluid) Init(x []float64, o Observation) {
	f.windowFluid.Init(x, o)
	f.next = f.r.nextLevel(x[0])
}

func (f *bicFluid) Guard(x []float64, _ Observation) float64 {
	if f.win.SlowStart {
		return f.win.Guard(x[0])
	}
	if math.IsInf(f.next, 1) {
		return -1
	}
	return x[0] - f.next
}

func (f *bicFluid) Switch(x []float64, o Observation) {
	if f.win.SlowStart {
		f.windowFluid.Switch(x, o)
		f.next = f.r.nextLevel(x[0])
		return
	}
	f.next = f.r.nextLevel(max(x[0], f.next))
}

func (f *bicFluid) OnLoss(x []float64, o Observation) {
	f.windowFluid.OnLoss(x, o)
	f.next = f.r.nextLevel(x[0])
}

func (f *bicFluid) OnTimeout(x []float64, o Observation) {
	f.windowFluid.OnTimeout(x, o)
	f.r.reset()
	f.next = f.r.nextLevel(x[0])
}

// bicEvent is BIC's event face: the window law's, with timeout_reset.
type bicEvent struct {
	*windowEvent
	r *bicRule
}

func (e *bicEvent) OnTimeout(o Observation) {
	e.windowEvent.OnTimeout(o)
	e.r.reset()
}

// Variants: BIC as Linux 2.6.22's tcp_bic.c has it (ns-2.35 TCP/Linux runs it) and as
// ns-3.37's TcpBic; docs/simulators.md compares them. Neither has a min_cwnd.
func (a *bic) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux 2.6.22 tcp_bic.c (ns-2.35 tcp/linux/src), bictcp_update and bictcp_recalc_ssthresh: " +
			"beta 819/1024, BICTCP_B 4, max_increment 16, low_window 14, smooth_part 20, cnt ≤ 20 before the first loss, " +
			"one packet per cnt + 1 ACKs, cnt over delayed_ack 31/16 (bictcp_acked), reset at a timeout (bictcp_state)",
			Params: map[string]float64{"beta": 819.0 / 1024, "b": 4, "s_max": 16, "low_window": 14, "smooth_part": 20,
				"whole_packets": 1, "startup_growth": 0.05, "count_offset": 1, "ack_ratio": 31.0 / 16, "timeout_reset": 1, "ss_per_ack": 1, "ss_through": 1, "rto_ssthresh": 1},
			Recovery: RecoveryLinux},
		{Name: "ns3", Source: "ns-3.37 TcpBic (Update, GetSsThresh): Beta 0.8, BinarySearchCoefficient 4, MaxIncr 16, " +
			"LowWnd 14 (Reno below 14: low_window 13 in whole packets), SmoothPart 5, cnt ≤ 20 before the first loss, " +
			"one packet per cnt + 1 ACKs (m_cWndCnt > cnt), fast convergence W_max = Beta·W",
			Params: map[string]float64{"beta": 0.8, "b": 4, "s_max": 16, "low_window": 13, "smooth_part": 5,
				"whole_packets": 1, "startup_growth": 0.05, "count_offset": 1, "fast_convergence": 2, "ss_per_ack": 1, "rto_ssthresh": 1},
			Recovery: RecoveryPRR},
	}
}
