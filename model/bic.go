package model

import "math"

// BIC (Xu, Harfoush, Rhee, INFOCOM 2004; defaults of Linux tcp_bic.c). After a loss the
// window searches for the last maximum W_max by binary search: each RTT it moves half-way
// to W_max (the midpoint of [W, W_max]), by at most S_max and at least S_min packets. Past
// W_max it probes for a new maximum with increments that grow as it leaves W_max (max
// probing, the mirror image of the search). A loss sets W_max = W (fast convergence:
// W·(1+β)/2 when W is below the previous W_max) and keeps β·W. At or below the low window
// BIC is Reno. Defaults β = 0.8, S_max = 16, S_min = 0.01 packets, low window 14.
//
// The per-RTT increase, used by both faces, is
//
//	W ≤ low window:  1
//	W < W_max:       clamp((W_max − W)/2, S_min, S_max)    binary search
//	W ≥ W_max:       clamp(W − W_max,     S_min, S_max)    max probing
//
// Fluid face, x = [W]: dW/dt = increase/RTT. Event face: W += increase/W per packet
// acknowledged. This is the paper's search read as a per-RTT law; Linux's implementation
// moves a quarter of the distance per RTT and has a 0.2-packet minimum step instead.

func init() {
	Register("bic", func() Algorithm {
		a := &bic{}
		const src = "Xu, Harfoush, Rhee 2004; Linux tcp_bic.c"
		a.Base = NewBase("bic", "BIC: binary search towards the last maximum window, then max probing (Xu, Harfoush, Rhee 2004)",
			Real(&a.p.beta, "beta", 0.8, "1", 0.5, 0.95, "Linux tcp_bic.c (819/1024)", "fraction of the window kept after a loss"),
			Real(&a.p.sMax, "s_max", 16, "packets/RTT", 0.01, 1e4, src, "largest increase per RTT"),
			Real(&a.p.sMin, "s_min", 0.01, "packets/RTT", 1e-4, 1e4, "Xu, Harfoush, Rhee 2004", "smallest increase per RTT"),
			Real(&a.p.low, "low_window", 14, "packets", 0, 1e9, "Linux tcp_bic.c", "at or below this window BIC behaves as Reno"),
			Switch(&a.p.fastConvergence, "fast_convergence", 1, "Linux tcp_bic.c",
				"1: a loss below the previous W_max lowers W_max to W·(1+β)/2"))
		a.Require(Ordered("s_min", &a.p.sMin, "s_max", &a.p.sMax))
		a.WindowLaw = WindowLaw{Rule: func() WindowRule { return &bicRule{p: a.p} }}
		return a
	})
}

type bicParams struct{ beta, sMax, sMin, low, fastConvergence float64 }

type bic struct {
	Base
	WindowLaw
	p bicParams
}

var (
	_ Algorithm = (*bic)(nil)
	_ Varianter = (*bic)(nil)
)

type bicRule struct {
	p    bicParams
	wMax float64 // packets; 0 before the first loss
}

func (r *bicRule) Start(Observation) { r.wMax = 0 }

func (r *bicRule) PerRTT(w float64, _ Observation) float64 {
	if w <= r.p.low {
		return 1
	}
	step := w - r.wMax
	if w < r.wMax {
		step = (r.wMax - w) / 2
	}
	return math.Min(math.Max(step, r.p.sMin), r.p.sMax)
}

func (r *bicRule) Congestion(w float64, _ Observation) float64 {
	if r.p.fastConvergence == 1 && w < r.wMax {
		r.wMax = w * (1 + r.p.beta) / 2
	} else {
		r.wMax = w
	}
	if w <= r.p.low {
		return w / 2
	}
	return r.p.beta * w
}

// Variants: BIC as Linux's tcp_bic.c has it (β 819/1024, max_increment 16, low_window 14)
// and as ns-3.37's TcpBic (Beta 0.8, MaxIncr 16, LowWnd 14).
func (a *bic) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux tcp_bic.c (2.6.2x): beta 819/1024, max_increment 16, low_window 14",
			Params: map[string]float64{"beta": 819.0 / 1024, "s_max": 16, "low_window": 14}},
		{Name: "ns3", Source: "ns-3.37 TcpBic: Beta 0.8, MaxIncr 16, LowWnd 14",
			Params: map[string]float64{"beta": 0.8, "s_max": 16, "low_window": 14}},
	}
}
