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
// RecoveryReno, as MODELS.md has Vegas fall back to Reno on loss (the 1995 paper's own
// retransmission refinements and ns-2's Vegas agent details are not modelled).

func init() {
	Register("vegas", func() Algorithm {
		v := &vegas{}
		v.Base = NewBase("vegas", "Vegas: delay-based, keeps α..β of its own packets queued (Brakmo & Peterson 1995)",
			Real(&v.p.alpha, "alpha", 2, "packets", 0, 1000, "Linux tcp_vegas.c, ns-3 (paper: 1)",
				"below this many queued packets the window grows by one per RTT"),
			Real(&v.p.beta, "beta", 4, "packets", 0, 1000, "Linux tcp_vegas.c, ns-3 (paper: 3)",
				"above this many queued packets the window shrinks by one per RTT"),
			Real(&v.p.gamma, "gamma", 1, "packets", 0, 1000, "Linux tcp_vegas.c, ns-3",
				"slow start ends when more than this many packets are queued"))
		v.Require(Ordered("alpha", &v.p.alpha, "beta", &v.p.beta))
		return v
	})
}

type vegasParams struct{ alpha, beta, gamma float64 }

type vegas struct {
	Base
	p vegasParams
}

var (
	_ Algorithm          = (*vegas)(nil)
	_ RecoveryStyle      = (*vegas)(nil)
	_ ResponseReferencer = (*vegas)(nil)
	_ ConvergeReferencer = (*vegas)(nil)
	_ FluidLaw           = (*vegasFluid)(nil)
	_ EventLaw           = (*vegasEvent)(nil)
)

// Recovery: Vegas falls back to Reno's recovery on a loss.
func (v *vegas) Recovery() Recovery { return RecoveryReno }

// ResponseReference is Reno's: on an uncongested path Vegas sees no queueing delay and
// grows by one packet per RTT.
func (v *vegas) ResponseReference(loss LossModel) (ResponseReference, bool) {
	return renoReference(loss), true
}

func (v *vegas) ConvergeReference(bdpPkts, rttS float64) ConvergeReference {
	return aimdConverge(bdpPkts, rttS)
}

func (v *vegas) NewFluid(c FlowConfig) FluidLaw {
	cwnd, w := NewWindow(c)
	return &vegasFluid{init: w, win: w, cwnd0: cwnd, p: v.p}
}

func (v *vegas) NewEvent(c FlowConfig) EventLaw {
	cwnd, w := NewWindow(c)
	return &vegasEvent{cwnd: cwnd, win: w, p: v.p}
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
	d := math.Min(0.5, (p.beta-p.alpha)/2)
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

// vegasFluid is Vegas's fluid face, x = [W].
type vegasFluid struct {
	init, win Window
	cwnd0     float64
	p         vegasParams
}

func (f *vegasFluid) Vars() int { return 1 }

func (f *vegasFluid) Init(x []float64, _ Observation) {
	f.win = f.init
	x[0] = f.cwnd0
}

func (f *vegasFluid) Deriv(dx, x []float64, o Observation) {
	rtt := ClockRTT(o)
	if f.win.SlowStart {
		dx[0] = f.win.Limit(x[0], SlowStartRate(x[0], rtt))
		return
	}
	dx[0] = f.win.Limit(x[0], f.p.smoothVegasStep(x[0], Queued(x[0], o))/rtt)
}

func (f *vegasFluid) Guard(x []float64, o Observation) float64 {
	if !f.win.SlowStart {
		return -1
	}
	g := Queued(x[0], o) - f.p.gamma
	if !math.IsInf(f.win.Ssthresh, 0) {
		g = math.Max(g, x[0]-f.win.Ssthresh)
	}
	return g
}

func (f *vegasFluid) Switch(x []float64, _ Observation) {
	f.win.SlowStart = false
	f.win.Ssthresh = math.Min(f.win.Ssthresh, x[0])
}

func (f *vegasFluid) OnLoss(x []float64, _ Observation) { x[0] = f.win.Loss(x[0]/2, false) }

func (f *vegasFluid) OnTimeout(x []float64, _ Observation) { x[0] = f.win.Timeout(x[0]) }

func (f *vegasFluid) Ssthresh() float64 { return f.win.Reported() }

// vegasEvent is Vegas's event face.
type vegasEvent struct {
	cwnd   float64
	win    Window
	p      vegasParams
	decide float64 // time of the next once-per-RTT decision, s
}

func (e *vegasEvent) Cwnd() float64     { return e.cwnd }
func (e *vegasEvent) Ssthresh() float64 { return e.win.Reported() }

func (e *vegasEvent) OnAck(acked float64, o Observation) {
	if o.Now >= e.decide {
		e.decide = o.Now + ClockRTT(o)
		diff := Queued(e.cwnd, o)
		switch {
		case e.win.SlowStart && diff > e.p.gamma:
			e.win.SlowStart = false
			e.win.Ssthresh = math.Min(e.win.Ssthresh, e.cwnd)
		case !e.win.SlowStart:
			e.cwnd += e.win.Limit(e.cwnd, e.p.vegasStep(e.cwnd, diff))
		}
	}
	// Congestion avoidance changes the window only at the decisions above.
	e.win.AckSlowStart(&e.cwnd, acked)
	e.cwnd = e.win.Clamp(e.cwnd)
}

func (e *vegasEvent) OnLoss(Observation) { e.cwnd = e.win.Loss(e.cwnd/2, false) }

func (e *vegasEvent) OnTimeout(Observation) { e.cwnd = e.win.Timeout(e.cwnd) }
