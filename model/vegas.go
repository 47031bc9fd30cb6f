package model

import "math"

// Vegas (Brakmo & Peterson 1995; Linux tcp_vegas.c; ns-3 TcpVegas). Once per RTT it
// estimates its own packets queued in the network, Diff = W·(1 − baseRTT/RTT), and in
// congestion avoidance adds one packet if Diff < α, removes one if Diff > β, else holds.
// Slow start (one packet per ACK) ends when Diff exceeds γ or W reaches ssthresh. A loss
// is handled as Reno: W = ssthresh = W/2. Defaults α = 2, β = 4, γ = 1 packets (Linux and
// ns-3); the 1995 paper used α = 1, β = 3.
//
// Fluid face, x = [W]: dW/dt = +1/RTT, −1/RTT or 0 by the same comparisons (one packet per
// RTT, evaluated continuously), never below 2 packets; slow start W·ln2/RTT; the guard is
// max(W − ssthresh, Diff − γ), and Switch sets ssthresh = min(ssthresh, W).
//
// Event face: slow start per ACK; the decision (±1 packet, or leaving slow start) is made
// at the first ACK of each round, a round lasting one RTT of Observation.Now. Recovery is
// RecoveryReno, as docs/models.md has Vegas fall back to Reno on loss (the 1995 paper's own
// retransmission refinements and ns-2's Vegas agent details are not modelled).
//
// The implementations differ from the paper (docs/simulators.md):
//   - Linux 2.6.2x tcp_vegas_cong_avoid, as ns-2.35 TCP/Linux runs it, moves the window one
//     packet towards the window saved at the previous decision (beg_snd_cwnd) ± 1, not the
//     current one: a window that has just grown is already at its target and holds, so on
//     a path without queueing it grows one packet every second RTT (epoch_lag = 1; half
//     Reno's growth, W̄ ≈ √½ of Reno's). The fluid face halves the per-RTT step. A loss is
//     Reno's: ssthresh = W/2.
//   - ns-3.37 TcpVegas::IncreaseWindow steps against the current window (+1 per RTT), and
//     after each decision raises ssthresh to at least ¾·cwnd; GetSsThresh answers a loss
//     (and a decrease step) with max(min(ssthresh, cwnd − 1), 2), so that a loss removes one
//     packet or takes the window down to the ¾ floor, not to half (ssthresh_raise = 0.75).
//     The fluid face carries that ssthresh as a second variable, x = [W, S]: S follows
//     ssthresh_raise·W upwards and W − 1 downwards (S < 0: no threshold yet). ns-3
//     steps by whole packets, so a loss before the first step since the last one takes
//     S down by a packet; that is what keeps S from only ratcheting up, and the fluid
//     face counts those steps (vegasFluid.lossWindow). Measured with the window taken
//     as it is, the hybrid form, which grows through the recovery round trip, never
//     lost S and kept what its start left it: 222 packets at p = 1e-3 against ns-3's 112.

func init() {
	Register("vegas", func() Algorithm {
		v := &vegas{}
		v.Base = NewBase("vegas", "Vegas: delay-based, keeps α..β of its own packets queued (Brakmo & Peterson 1995)",
			Real(&v.p.alpha, "alpha", 2, "packets", 0, 1000, "Linux tcp_vegas.c, ns-3 (paper: 1)",
				"below this many queued packets the window grows by one per RTT"),
			Real(&v.p.beta, "beta", 4, "packets", 0, 1000, "Linux tcp_vegas.c, ns-3 (paper: 3)",
				"above this many queued packets the window shrinks by one per RTT"),
			Real(&v.p.gamma, "gamma", 1, "packets", 0, 1000, "Linux tcp_vegas.c, ns-3",
				"slow start ends when more than this many packets are queued"),
			Switch(&v.p.lag, "epoch_lag", 0, "Brakmo & Peterson 1995, ns-3.37 TcpVegas (0); Linux tcp_vegas_cong_avoid beg_snd_cwnd (1)",
				"1: each decision moves the window one packet towards the previous decision's window ± 1 (one packet per two RTTs); 0: the current window ± 1"),
			Real(&v.p.raise, "ssthresh_raise", 0, "1", 0, 1, "Reno (0); ns-3.37 TcpVegas::IncreaseWindow max(ssthresh, 3·cwnd/4) (0.75)",
				"0: a loss halves the window; > 0: each decision raises ssthresh to this fraction of the window and a loss leaves max(min(ssthresh, W − 1), 2)"),
			onePerAckParam(&v.p.perAck, "ns-3.37 TcpVegas (TcpNewReno::SlowStart), ns-2.35 TCP/Linux tcp_slow_start (1)"),
			throughSsthreshParam(&v.p.through, "Linux 2.6.2x tcp_vegas_cong_avoid: tcp_slow_start while snd_cwnd <= snd_ssthresh (1)"),
			Switch(&v.p.whole, "whole_packets", 0, "Brakmo & Peterson 1995 (0); Linux tcp_reno_ssthresh max(snd_cwnd >> 1, 2) in u32 (1)",
				"1: a loss at W leaves ⌊⌊W⌋/2⌋ packets (with ssthresh_raise 0)"))
		v.Require(Ordered("alpha", &v.p.alpha, "beta", &v.p.beta))
		return v
	})
}

type vegasParams struct{ alpha, beta, gamma, lag, raise, perAck, through, whole float64 }

type vegas struct {
	Base
	p vegasParams
}

var (
	_ Algorithm          = (*vegas)(nil)
	_ Varianter          = (*vegas)(nil)
	_ RecoveryStyle      = (*vegas)(nil)
	_ ResponseReferencer = (*vegas)(nil)
	_ ConvergeReferencer = (*vegas)(nil)
	_ FluidLaw           = (*vegasFluid)(nil)
	_ EventLaw           = (*vegasEvent)(nil)
	_ WindowReducer      = (*vegasEvent)(nil)
)

// Recovery: Vegas falls back to Reno's recovery on a loss.
func (v *vegas) Recovery() Recovery { return RecoveryReno }

// ResponseReference is Reno's: on an uncongested path Vegas sees no queueing delay and
// grows by one packet per RTT, with epoch_lag one per two RTTs: AIMD(½, ½), √½ of Reno's
// window. ssthresh_raise has no closed form.
func (v *vegas) ResponseReference(loss LossModel) (ResponseReference, bool) {
	if v.p.raise > 0 {
		return ResponseReference{}, false
	}
	r := renoReference(loss)
	if v.p.lag == 1 {
		r.C *= math.Sqrt(0.5)
		r.Source += ", growth of one packet per two RTTs (Linux tcp_vegas.c)"
	}
	return r, true
}

// ConvergeReference is AIMD(1, 1/2)'s, each time doubled with epoch_lag; none with
// ssthresh_raise.
func (v *vegas) ConvergeReference(bdpPkts, rttS float64) ConvergeReference {
	if v.p.raise > 0 {
		return ConvergeReference{Note: "no closed form for ns-3's ssthresh floor"}
	}
	if v.p.lag == 1 {
		c := aimdConverge(bdpPkts, 2*rttS)
		c.Note = "one packet per two RTTs: 2(BDP−1)·RTT and BDP·RTT"
		return c
	}
	return aimdConverge(bdpPkts, rttS)
}

func (v *vegas) NewFluid(c FlowConfig) FluidLaw {
	cwnd, w := NewWindow(c)
	w.ThroughSsthresh = v.p.through == 1
	return &vegasFluid{init: w, win: w, cwnd0: cwnd, p: v.p}
}

func (v *vegas) NewEvent(c FlowConfig) EventLaw {
	cwnd, w := NewWindow(c)
	w.OnePerAck = v.p.perAck == 1
	w.ThroughSsthresh = v.p.through == 1
	return &vegasEvent{cwnd: cwnd, win: w, p: v.p, prev: cwnd}
}

// perRTT is the number of RTTs a ±1 step takes: 2 with epoch_lag.
func (p *vegasParams) perRTT() float64 { return 1 + p.lag }

// lossWindow is the window a loss leaves at window w with ssthresh s (+Inf: none yet),
// before the MinLossWindow floor: Reno's half, or with ssthresh_raise ns-3's
// min(ssthresh, W − 1).
func (p *vegasParams) lossWindow(w, s float64) float64 {
	if p.raise == 0 {
		if p.whole == 1 {
			return wholeShare(w, 0.5)
		}
		return w / 2
	}
	return min(s, w-1)
}

// vegasStep is the congestion-avoidance change per RTT for Diff queued packets at window w:
// +1, −1 (not below minLossWindow) or 0.
func (p *vegasParams) vegasStep(w, diff float64) float64 {
	switch {
	case diff < p.alpha:
		return 1
	case diff > p.beta && w > MinLossWindow:
		return -1
	}
	return 0
}

// smoothVegasStep is vegasStep for the fluid face, made continuous inside the band: +1
// falls to 0 over [α, α+δ] and 0 to −1 over [β−δ, β], δ = min(½, (β−α)/2) packets. The
// discontinuous law makes an ODE solver chatter along Diff = α; the equilibrium stays in
// [α, β].
func (p *vegasParams) smoothVegasStep(w, diff float64) float64 {
	d := min(0.5, (p.beta-p.alpha)/2)
	switch {
	case diff <= p.alpha:
		return 1
	case diff < p.alpha+d:
		return 1 - (diff-p.alpha)/d
	case diff <= p.beta-d || w <= MinLossWindow:
		return 0
	case diff < p.beta:
		return -(diff - (p.beta - d)) / d
	}
	return -1
}

// vegasFluid is Vegas's fluid face, x = [W], or x = [W, S] with ssthresh_raise.
type vegasFluid struct {
	init, win Window
	cwnd0     float64
	p         vegasParams
	// With ssthresh_raise: the time of the last loss (s; −Inf for none) and the window it
	// left (packets).
	lossT, lossW float64
}

func (f *vegasFluid) Vars() int {
	if f.p.raise > 0 {
		return 2
	}
	return 1
}

// Init starts S at the initial threshold, or at −1 (none) when there is none.
func (f *vegasFluid) Init(x []float64, _ Observation) {
	f.win = f.init
	x[0] = f.cwnd0
	f.lossT = math.Inf(-1)
	if f.p.raise > 0 {
		x[1] = -1
		if !math.IsInf(f.win.Ssthresh, 0) {
			x[1] = f.win.Ssthresh
		}
	}
}

func (f *vegasFluid) Deriv(dx, x []float64, o Observation) {
	rtt := ClockRTT(o)
	if f.win.SlowStart {
		dx[0] = f.win.Limit(x[0], SlowStartRate(x[0], rtt))
		if f.p.raise > 0 {
			dx[1] = 0
		}
		return
	}
	dx[0] = f.win.Limit(x[0], f.p.smoothVegasStep(x[0], Queued(x[0], o))/(f.p.perRTT()*rtt))
	if f.p.raise > 0 {
		// ns-3's ssthresh rises with the window once ¾·W reaches it, and follows a
		// shrinking window down once it is within a packet of it.
		switch g := dx[0]; {
		case g > 0 && f.p.raise*x[0] >= x[1]:
			dx[1] = f.p.raise * g
		case g < 0 && x[1] >= x[0]-1:
			dx[1] = g
		default:
			dx[1] = 0
		}
	}
}

func (f *vegasFluid) Guard(x []float64, o Observation) float64 {
	if !f.win.SlowStart {
		return -1
	}
	g := Queued(x[0], o) - f.p.gamma
	if !math.IsInf(f.win.Ssthresh, 0) {
		g = max(g, x[0]-f.win.Ssthresh)
	}
	return g
}

// Switch ends slow start; with ssthresh_raise, S becomes that threshold, at least
// ssthresh_raise·W.
func (f *vegasFluid) Switch(x []float64, _ Observation) {
	f.win.SlowStart = false
	f.win.Ssthresh = min(f.win.Ssthresh, x[0])
	if f.p.raise > 0 {
		x[1] = max(f.win.Ssthresh, f.p.raise*x[0])
	}
}

func (f *vegasFluid) OnLoss(x []float64, o Observation) {
	if f.p.raise == 0 {
		x[0] = f.win.FluidLoss(f.p.lossWindow(x[0], math.Inf(1)), false)
		return
	}
	x[0] = f.win.FluidLoss(f.lossWindow(x, o), false)
	x[1] = x[0]
}

// lossWindow is ns-3's loss window for the fluid's state. ns-3 moves its window by whole
// packets, once per RTT from the second round trip after a reduction (the first is the
// recovery's, without growth), so that a loss within two round trips of the last takes the
// window and the threshold down by one. The fluid's window grows continuously, through the
// recovery round trip too in the hybrid form: it counts here as at most the last loss's
// window plus the steps ns-3 has made since, ⌊Δt/RTT⌋ − 1.
func (f *vegasFluid) lossWindow(x []float64, o Observation) float64 {
	w := wholePackets(x[0])
	if !math.IsInf(f.lossT, -1) {
		w = min(w, f.lossW+max(math.Floor((o.Now-f.lossT)/ClockRTT(o))-1, 0))
	}
	next := f.p.lossWindow(w, f.threshold(x))
	f.lossT, f.lossW = o.Now, max(next, MinLossWindow)
	return next
}

// OnTimeout restarts slow start from one packet; ns-3's threshold is its loss window.
func (f *vegasFluid) OnTimeout(x []float64, o Observation) {
	if f.p.raise == 0 {
		x[0] = f.win.Timeout(x[0])
		return
	}
	s := max(f.lossWindow(x, o), MinLossWindow)
	x[0] = f.win.Timeout(x[0])
	f.win.Ssthresh, x[1] = s, s
}

// threshold is ns-3's ssthresh S from the state, +Inf for none.
func (f *vegasFluid) threshold(x []float64) float64 {
	if f.p.raise == 0 || x[1] < 0 {
		return math.Inf(1)
	}
	return x[1]
}

func (f *vegasFluid) Ssthresh() float64 { return f.win.Reported() }

// vegasEvent is Vegas's event face.
type vegasEvent struct {
	cwnd   float64
	win    Window
	p      vegasParams
	decide float64 // time of the next once-per-RTT decision, s
	// reopen is set by a loss: the first ACK after it (recovery's end) starts a fresh
	// round instead of deciding, as ns-3's EnableVegas does on the return to CA_OPEN.
	reopen bool
	prev   float64 // the window at the previous decision, before its step (Linux beg_snd_cwnd), packets
}

func (e *vegasEvent) Cwnd() float64     { return e.cwnd }
func (e *vegasEvent) Ssthresh() float64 { return e.win.Reported() }

func (e *vegasEvent) OnAck(acked float64, o Observation) {
	if e.reopen {
		e.reopen = false
		e.decide = o.Now + ClockRTT(o)
	}
	if o.Now >= e.decide {
		e.decide = o.Now + ClockRTT(o)
		diff := Queued(e.cwnd, o)
		prev := e.prev
		e.prev = e.cwnd
		switch {
		case e.win.SlowStart && diff > e.p.gamma:
			e.win.SlowStart = false
			e.win.Ssthresh = min(e.win.Ssthresh, e.cwnd)
		case !e.win.SlowStart && e.p.lag == 1:
			e.lagStep(prev, diff)
		case !e.win.SlowStart:
			step := e.p.vegasStep(e.cwnd, diff)
			if step != 0 && e.p.raise > 0 {
				// ns-3 steps from the window in whole segments (GetCwndInSegments).
				e.cwnd = wholePackets(e.cwnd)
			}
			e.cwnd += e.win.Limit(e.cwnd, step)
			if step < 0 && e.p.raise > 0 {
				e.win.Ssthresh = max(e.p.lossWindow(e.cwnd, e.win.Ssthresh), MinLossWindow)
			}
		}
		if e.p.raise > 0 && !e.win.SlowStart {
			e.win.Ssthresh = max(e.win.Ssthresh, e.p.raise*e.cwnd)
		}
	}
	// Congestion avoidance changes the window only at the decisions above.
	e.win.AckSlowStart(&e.cwnd, acked)
	e.cwnd = e.win.Clamp(e.cwnd)
}

// lagStep is Linux's decision: the target is the previous decision's window ± 1, and the
// window moves one packet towards it, never below MinLossWindow.
func (e *vegasEvent) lagStep(prev, diff float64) {
	target := prev
	switch {
	case diff < e.p.alpha:
		target++
	case diff > e.p.beta:
		target--
	}
	switch {
	case target > e.cwnd:
		e.cwnd += e.win.Limit(e.cwnd, 1)
	case target < e.cwnd:
		e.cwnd = max(e.cwnd-1, MinLossWindow)
	}
}

// OnLossFrom reduces from the sender's window cwnd when it is below the law's
// (WindowReducer).
func (e *vegasEvent) OnLossFrom(cwnd float64, o Observation) {
	e.cwnd = min(e.cwnd, cwnd)
	e.OnLoss(o)
}

func (e *vegasEvent) OnLoss(Observation) {
	e.cwnd = e.win.Loss(e.p.lossWindow(e.cwnd, e.threshold()), false)
	e.reopen = true
}

// OnTimeout restarts slow start from one packet; ns-3's threshold is its loss window.
func (e *vegasEvent) OnTimeout(Observation) {
	if e.p.raise == 0 {
		e.cwnd = e.win.Timeout(e.cwnd)
		return
	}
	s := max(e.p.lossWindow(e.cwnd, e.threshold()), MinLossWindow)
	e.cwnd = e.win.Timeout(e.cwnd)
	e.win.Ssthresh = s
}

// threshold is ns-3's ssthresh, +Inf for none.
func (e *vegasEvent) threshold() float64 {
	if e.p.raise == 0 {
		return math.Inf(1)
	}
	return e.win.Ssthresh
}

// Variants: Linux 2.6.2x's tcp_vegas.c as ns-2.35 TCP/Linux runs it, and ns-3.37's TcpVegas;
// both keep α = 2, β = 4, γ = 1.
func (v *vegas) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux 2.6.2x tcp_vegas.c (ns-2.35 TCP/Linux): tcp_vegas_cong_avoid steps towards beg_snd_cwnd ± 1; tcp_reno_ssthresh, min_cwnd",
			Params:   map[string]float64{"epoch_lag": 1, "ss_per_ack": 1, "ss_through": 1, "whole_packets": 1},
			Recovery: RecoveryLinuxMinCwnd},
		{Name: "ns3", Source: "ns-3.37 TcpVegas: IncreaseWindow ssthresh = max(ssthresh, 3·cwnd/4); GetSsThresh max(min(ssthresh, cwnd − 1), 2)",
			Params:   map[string]float64{"ssthresh_raise": 0.75, "ss_per_ack": 1},
			Recovery: RecoveryPRR},
	}
}
