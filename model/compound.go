package model

import "math"

// Compound TCP (Tan, Song, Zhang, Sridharan, INFOCOM 2006; constants as in its Linux
// research module). The sending window is win = cwnd + dwnd: cwnd is Reno's loss-based
// window (+1/win per ACK, so one packet per RTT), dwnd a delay-based window updated once per
// RTT from Diff = win·(1 − baseRTT/RTT) packets queued:
//
//	Diff < γ:  dwnd += max(α·win^k − 1, 0)   (win grows by α·win^k per RTT in all)
//	Diff ≥ γ:  dwnd  = max(dwnd − ζ·Diff, 0)
//
// On a loss the window keeps win·(1−β), split as cwnd = cwnd/2 and
// dwnd = max(win·(1−β) − cwnd/2, 0). α = 1/8, k = 0.75, β = 1/2 (here the fraction
// removed, as in the paper), γ = 30 packets, ζ = 1. Slow start grows cwnd only (dwnd = 0),
// and a timeout resets dwnd to 0.
//
// Fluid face, x = [win, dwnd] (x[0] is the total window the flow sends; cwnd = x[0] − x[1]):
// dcwnd/dt = 1/RTT; ddwnd/dt = max(α·win^k − 1, 0)/RTT while Diff < γ, −ζ·Diff/RTT while
// Diff ≥ γ and dwnd > 0, else 0; dwin/dt is their sum. Slow start: dwin/dt = win·ln2/RTT.
//
// Event face: cwnd += 1/win per packet acknowledged, and dwnd changes at the first ACK of
// each round (one RTT of Observation.Now) in congestion avoidance.
//
// Linux's research module, as ns-2.35 TCP/Linux runs it (tcp/linux/src/tcp_compound.c,
// from Linux 2.6.22), differs in three places (docs/simulators.md):
//   - tcp_compound_cong_avoid grows dwnd by x − 1 when x > 1, x = qroot(old_wnd³) >> 3, in
//     integers: max(⌊α·⌊⌊W⌋^k⌋⌋ − 1, 0) per RTT, nothing below 40 packets (x ≤ 1), one
//     packet at 60 where α·W^k − 1 is 1.7 (integer_increment = 1).
//   - A loss sets the total window to half (tcp_reno_ssthresh) and leaves the module's Reno
//     part and dwnd as they were; the next tcp_compound_cong_avoid finds them above the
//     total, and unless the old Reno part fits in it — dwnd at least β·win — and dwnd does
//     too, it makes the total all Reno and dwnd 0 (reset_dwnd = 1): the delay window
//     starts again from zero after every loss, where the paper keeps half of it.
//   - The module's first once-per-RTT update after the recovery measures old_wnd over
//     stale edges (tcp_compound_state re-arms beg_snd_nxt, not beg_snd_una): the packets
//     of the round trip before the loss and of the recovery round trip, (2 − β)·W, where
//     its window is (1 − β)·W (stale_epoch = 1). In ns-2's traces at p = 1e-3 that
//     update adds 2.8 packets to dwnd on average (3.9 above W = 60), and the increment of
//     1.5·W predicts 2.7 (3.8); 5 packets after a loss at 120. The jump here adds the
//     difference from the increment at (1 − β)·W at the loss.

func init() {
	Register("compound", func() Algorithm {
		a := &compound{}
		const src = "Tan et al. 2006, INFOCOM"
		a.Base = NewBase("compound", "Compound TCP: Reno window plus a delay-based window that scales as win^k while queues are short (Tan et al. 2006)",
			Real(&a.p.alpha, "alpha", 1.0/8, "packets^(1−k)/RTT", 0, 10, src, "scale of the delay window's growth α·win^k per RTT"),
			Real(&a.p.k, "k", 0.75, "1", 0, 0.99, src, "exponent of the delay window's growth"),
			Real(&a.p.beta, "beta", 0.5, "1", 0.05, 0.95, src, "fraction of the window removed by a loss"),
			Real(&a.p.gamma, "gamma", 30, "packets", 0, 1e6, src, "queued packets at which the delay window starts shrinking"),
			Real(&a.p.zeta, "zeta", 1, "1", 0, 10, src, "delay window removed per RTT per queued packet beyond γ"),
			Switch(&a.p.integer, "integer_increment", 0, "Tan et al. 2006 (0); Linux tcp_compound_cong_avoid qroot(old_wnd³) >> 3 (1)",
				"1: the delay window grows by max(⌊α·⌊⌊win⌋^k⌋⌋ − 1, 0) whole packets per RTT; 0: by max(α·win^k − 1, 0)"),
			Switch(&a.p.resetDwnd, "reset_dwnd", 0, "Tan et al. 2006 (0); Linux tcp_compound_cong_avoid after tcp_reno_ssthresh (1)",
				"a loss leaves win·(1 − β); 1: all of it Reno, dwnd 0, unless the Reno part and dwnd each fit in it (then dwnd is kept); 0: dwnd = win·(1 − β) − cwnd/2"),
			Switch(&a.p.stale, "stale_epoch", 0, "Tan et al. 2006 (0); Linux tcp_compound_state and tcp_compound_cong_avoid (1)",
				"1: a loss at win adds to dwnd once the increment at (2 − β)·win less that at (1 − β)·win, the stale first update after recovery; 0: nothing"),
			onePerAckParam(&a.p.perAck, "ns-2.35 TCP/Linux tcp_slow_start, one packet a call (1)"),
			throughSsthreshParam(&a.p.through, "Linux 2.6.22 tcp_compound_cong_avoid: the Reno part grows a packet an ACK while vegas->cwnd <= snd_ssthresh (1)"),
			Switch(&a.p.whole, "whole_packets", 0, "Tan et al. 2006 (0); Linux tcp_reno_ssthresh max(snd_cwnd >> 1, 2) in u32, as tcp_compound.c uses it (1)",
				"1: a loss at a total window win leaves ⌊⌊win⌋·(1 − β)⌋ packets in all"))
		return a
	})
}

type compoundParams struct{ alpha, k, beta, gamma, zeta, integer, resetDwnd, stale, perAck, through, whole float64 }

type compound struct {
	Base
	p compoundParams
}

var (
	_ Algorithm          = (*compound)(nil)
	_ Varianter          = (*compound)(nil)
	_ ResponseReferencer = (*compound)(nil)
	_ FluidLaw           = (*compoundFluid)(nil)
	_ RoundStepper       = (*compoundFluid)(nil)
	_ EventLaw           = (*compoundEvent)(nil)
	_ WindowReducer      = (*compoundEvent)(nil)
)

// ResponseReference is the loss-driven bound Tan et al. derive for their defaults
// (d = 1/(2 − k) = 0.8).
func (a *compound) ResponseReference(LossModel) (ResponseReference, bool) {
	return ResponseReference{C: 0.255, D: 0.8, Source: "Tan et al. 2006 (derived, loss-driven bound)", PMax: 1e-4}, true
}

func (a *compound) NewFluid(c FlowConfig) FluidLaw {
	cwnd, w := NewWindow(c)
	w.ThroughSsthresh = a.p.through == 1
	return &compoundFluid{init: w, win: w, cwnd0: cwnd, p: a.p}
}

func (a *compound) NewEvent(c FlowConfig) EventLaw {
	cwnd, w := NewWindow(c)
	w.OnePerAck = a.p.perAck == 1
	w.ThroughSsthresh = a.p.through == 1
	return &compoundEvent{cwnd: cwnd, win: w, p: a.p}
}

// delayStep is the change of dwnd over one RTT, packets, for total window win and diff
// queued packets, before the floor dwnd ≥ 0.
func (p *compoundParams) delayStep(win, diff float64) float64 {
	if diff < p.gamma {
		return p.delayGrowth(win)
	}
	return -p.zeta * diff
}

// delayGrowth is dwnd's growth per RTT at total window win while queues are short,
// packets: α·win^k − 1, or with integer_increment Linux's whole packets, never negative.
func (p *compoundParams) delayGrowth(win float64) float64 {
	if p.integer == 1 {
		return max(math.Floor(p.alpha*math.Floor(math.Pow(wholePackets(win), p.k)))-1, 0)
	}
	return max(p.alpha*math.Pow(win, p.k)-1, 0)
}

// smoothDelayStep is delayStep for the fluid face, made continuous: the switch at
// diff = γ becomes a ramp over the packet below γ, and the shrinking fades out over dwnd's
// last packet. The discontinuous law makes an ODE solver chatter along diff = γ (a sliding
// mode) with ever smaller steps; the per-RTT law itself oscillates by about one packet there.
func (p *compoundParams) smoothDelayStep(win, diff, dwnd float64) float64 {
	grow := p.delayGrowth(win)
	shrink := -p.zeta * diff * min(max(dwnd, 0), 1)
	s := min(max(p.gamma-diff, 0), 1) // 1 below γ−1, 0 from γ on
	return s*grow + (1-s)*shrink
}

// split is the loss jump: the new cwnd and dwnd (packets) for total window win and delay
// window dwnd, the total at least minLossWindow, with stale_epoch's increment.
func (p *compoundParams) split(win, dwnd float64) (cwnd, delay float64) {
	cwnd, delay = p.halve(win, dwnd)
	return cwnd, delay + p.staleIncrement(win)
}

// staleIncrement is stale_epoch's addition to dwnd after a loss at total window win.
func (p *compoundParams) staleIncrement(win float64) float64 {
	if p.stale == 1 {
		return p.delayGrowth((2-p.beta)*win) - p.delayGrowth((1-p.beta)*win)
	}
	return 0
}

// halve is the loss's reduction of cwnd and dwnd.
func (p *compoundParams) halve(win, dwnd float64) (cwnd, delay float64) {
	dwnd = max(dwnd, 0)
	if p.resetDwnd == 1 {
		total := win * (1 - p.beta)
		if p.whole == 1 {
			total = wholeShare(win, 1-p.beta)
		}
		total = max(total, MinLossWindow)
		if win-dwnd > total || dwnd > total {
			return total, 0
		}
		return total - dwnd, dwnd
	}
	cwnd = (win - dwnd) / 2
	delay = max(win*(1-p.beta)-cwnd, 0)
	cwnd = max(cwnd, MinLossWindow-delay)
	return cwnd, delay
}

// compoundFluid is Compound's fluid face, x = [win, dwnd].
type compoundFluid struct {
	init, win Window
	cwnd0     float64
	p         compoundParams
}

func (f *compoundFluid) Vars() int { return 2 }

func (f *compoundFluid) Init(x []float64, _ Observation) {
	f.win = f.init
	x[0], x[1] = f.cwnd0, 0
}

func (f *compoundFluid) Deriv(dx, x []float64, o Observation) {
	rtt := ClockRTT(o)
	win := x[0]
	if f.win.SlowStart {
		dx[0], dx[1] = f.win.Limit(win, SlowStartRate(win, rtt)), 0
		return
	}
	delay := f.delayStep(win, x, o) / rtt
	grow := 1/rtt + delay
	if f.win.Limit(win, grow) == 0 {
		dx[0], dx[1] = 0, 0
		return
	}
	dx[0], dx[1] = grow, delay
}

func (f *compoundFluid) Guard(x []float64, _ Observation) float64 { return f.win.Guard(x[0]) }

func (f *compoundFluid) Switch(_ []float64, _ Observation) { f.win.SlowStart = false }

func (f *compoundFluid) OnLoss(x []float64, _ Observation) {
	cwnd, delay := f.p.split(x[0], x[1])
	x[0] = f.win.FluidLoss(cwnd+delay, false)
	x[1] = delay
}

func (f *compoundFluid) OnTimeout(x []float64, _ Observation) {
	x[0] = f.win.Timeout(x[0])
	x[1] = 0
}

func (f *compoundFluid) Ssthresh() float64 { return f.win.Reported() }

// compoundEvent is Compound's event face.
type compoundEvent struct {
	cwnd, dwnd float64
	win        Window
	p          compoundParams
	update     float64 // time of the next once-per-RTT dwnd update, s
}

// roundSlack is the relative slack of a once-per-RTT update's time: far below an ACK's
// spacing (10^-10 s in a 100-ms round trip against 1.2 µs between ACKs at 10 Gb/s), far
// above a float64 sum's rounding.
const roundSlack = 1e-9

func (e *compoundEvent) Cwnd() float64     { return e.cwnd + e.dwnd }
func (e *compoundEvent) Ssthresh() float64 { return e.win.Reported() }

func (e *compoundEvent) OnAck(acked float64, o Observation) {
	left := e.win.AckSlowStart(&e.cwnd, acked)
	win := e.cwnd + e.dwnd
	if left > 0 {
		e.cwnd += e.win.Limit(win, left/win)
	}
	if !e.win.SlowStart && o.Now >= e.update {
		// The round ends at the ACK of the first packet this one releases, as the module's
		// beg_snd_nxt has it: a round trip later, as this ACK's sample reports it, less a
		// part in 10^9 so that rounding does not pass it to the next ACK and walk the
		// update down the train a packet a round.
		e.update = o.Now + ClockRTT(o)*(1-roundSlack)
		e.dwnd = max(e.dwnd+e.win.Limit(win, e.p.delayStep(win, Queued(win, o))), 0)
	}
	if over := e.cwnd + e.dwnd - e.win.MaxCwnd; over > 0 {
		e.dwnd = max(e.dwnd-over, 0)
		e.cwnd = e.win.MaxCwnd - e.dwnd
	}
}

// OnLoss: ssthresh is the halved total (tcp_reno_ssthresh); stale_epoch's increment comes
// on top of it in dwnd, as the module's first update after the recovery adds it, so that
// with ss_through the Reno part slow-starts to ssthresh + 1 and no further.
func (e *compoundEvent) OnLoss(Observation) {
	win := e.cwnd + e.dwnd
	cwnd, delay := e.p.halve(win, e.dwnd)
	total := e.win.Loss(cwnd+delay, false)
	e.cwnd, e.dwnd = total-delay, delay+e.p.staleIncrement(win)
}

// OnLossFrom reduces from the sender's window cwnd when it is below the law's total
// (WindowReducer), its parts first reconciled with it as tcp_compound_cong_avoid does on
// every call: all Reno when either part exceeds the window, else the Reno part what dwnd
// leaves.
func (e *compoundEvent) OnLossFrom(cwnd float64, o Observation) {
	if e.cwnd+e.dwnd > cwnd {
		if e.cwnd > cwnd || e.dwnd > cwnd {
			e.cwnd, e.dwnd = cwnd, 0
		} else {
			e.cwnd = cwnd - e.dwnd
		}
	}
	e.OnLoss(o)
}

func (e *compoundEvent) OnTimeout(Observation) {
	e.cwnd = e.win.Timeout(e.cwnd + e.dwnd)
	e.dwnd = 0
}

// Variants: Linux's research module (2.6.22) as ns-2.35 TCP/Linux runs it, with Linux's
// SACK recovery and min_cwnd; ns-3.37 has no Compound.
func (a *compound) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "ns-2.35 tcp/linux/src/tcp_compound.c (Linux 2.6.22 module): tcp_compound_cong_avoid qroot(old_wnd³) >> 3 − 1 per RTT, dwnd reset after a loss, a stale first update; tcp_reno_ssthresh, min_cwnd",
			Params:   map[string]float64{"integer_increment": 1, "reset_dwnd": 1, "stale_epoch": 1, "ss_per_ack": 1, "ss_through": 1, "whole_packets": 1},
			Recovery: RecoveryLinuxMinCwnd},
	}
}

// AckIncrement: one packet per ACK in slow start; in congestion avoidance the law's growth
// per round, the Reno part's packet and the delay window's step, spread over the window's
// ACKs, as Linux's module counts them (snd_cwnd_cnt per call of tcp_compound_cong_avoid).
func (f *compoundFluid) AckIncrement(x []float64, o Observation) float64 {
	if f.win.SlowStart {
		return 1
	}
	win := max(x[0], 1)
	return (1 + f.delayStep(win, x, o)) / win
}

// RoundStep is the delay window's growth, added at the first ACK of a round as
// tcp_compound_cong_avoid adds it; 0 in slow start and while the window shrinks.
func (f *compoundFluid) RoundStep(x []float64, o Observation) float64 {
	if f.win.SlowStart {
		return 0
	}
	win := max(x[0], 1)
	return f.win.Limit(win, max(f.delayStep(win, x, o), 0))
}

// delayStep is the delay window's change per round at total window win, packets: the
// fluid face's, made continuous (smoothDelayStep).
func (f *compoundFluid) delayStep(win float64, x []float64, o Observation) float64 {
	return f.p.smoothDelayStep(win, Queued(win, o), x[1])
}
