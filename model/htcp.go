package model

import "math"

// H-TCP (Leith & Shorten, PFLDnet 2004; Linux tcp_htcp.c). The increase depends on the time
// Δ since the last congestion event: α(Δ) = 1 for Δ ≤ Δ_L and
// α(Δ) = 1 + 10(Δ − Δ_L) + ((Δ − Δ_L)/2)² beyond, Δ_L = 1 s; the window grows by 2(1 − β)·α(Δ)
// packets per RTT, so that it stays Reno-friendly for any β. A loss keeps β·W with the
// adaptive backoff β = RTT_min/RTT_max clamped to [0.5, 0.8] (β starts at 0.5).
//
// RTT_min is Observation.BaseRTT and RTT_max is the RTT at the loss, where a drop-tail
// queue is at its fullest; both faces use the same reading so they can be compared. Linux's
// RTT scaling of α and its bandwidth switch (β = 0.5 after a throughput change of more than
// 20%) are not modelled.
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
			Real(&a.p.betaMax, "beta_max", 0.8, "1", 0.1, 0.95, src, "largest fraction of the window kept after a loss"))
		a.Require(Ordered("beta_min", &a.p.betaMin, "beta_max", &a.p.betaMax))
		a.WindowLaw = WindowLaw{Rule: func() WindowRule { return &htcpRule{p: a.p} }}
		return a
	})
}

type htcpParams struct{ deltaL, betaMin, betaMax float64 }

type htcp struct {
	Base
	WindowLaw
	p htcpParams
}

var _ Algorithm = (*htcp)(nil)

type htcpRule struct {
	p        htcpParams
	lastLoss float64 // s
	beta     float64
}

func (r *htcpRule) Start(o Observation) { r.lastLoss, r.beta = o.Now, r.p.betaMin }

// HTCPAlpha is H-TCP's increase factor α(Δ) for Δ seconds since the last congestion event
// and a low-speed period of deltaL seconds: 1 + 10(Δ − Δ_L) + ((Δ − Δ_L)/2)², or 1 within Δ_L.
func HTCPAlpha(delta, deltaL float64) float64 {
	d := delta - deltaL
	if d <= 0 {
		return 1
	}
	return 1 + 10*d + d*d/4
}

func (r *htcpRule) PerRTT(_ float64, o Observation) float64 {
	return 2 * (1 - r.beta) * HTCPAlpha(o.Now-r.lastLoss, r.p.deltaL)
}

func (r *htcpRule) Congestion(w float64, o Observation) float64 {
	r.beta = math.Min(math.Max(MinimumRTT(o)/ClockRTT(o), r.p.betaMin), r.p.betaMax)
	r.lastLoss = o.Now
	return r.beta * w
}
