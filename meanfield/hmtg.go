package meanfield

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/tcpfluid/tcpfluid/model"
)

// HMTG is the linearised TCP/RED feedback loop of Hollot, Misra, Towsley and Gong, "A
// control theoretic analysis of RED" (INFOCOM 2001): N Reno flows through one RED link
// of capacity C at the operating point (W0, q0, p0) with W0 = R0·C/N and W0²·p0 = 2,
//
//	L(s) = L_red·K/(s + K) · (C²/2N) / ((s + 2N/(R0²C))·(s + 1/R0)) · e^{−s·R0}.
//
// It simplifies the exact linearisation of the mean-field equation (Linearisation) by
// taking δW(t − R0) ≈ δW(t) in the decrease and dropping the queue's effect on the RTT,
// which drops −(N/(R0²C))·s·(1 − e^{−s·R0}) from the plant's denominator: a relative
// error of order 1/W0 at the crossover.
type HMTG struct {
	CapacityPktsPerS float64 `json:"capacity_pkts_per_s"` // C
	Flows            float64 `json:"flows"`               // N
	RTTS             float64 `json:"rtt_s"`               // R0
	LRed             float64 `json:"l_red_per_pkt"`       // slope of the marking profile, 1/packet
	KRed             float64 `json:"k_red_per_s"`         // RED's averaging pole, 1/s
}

// poles are the plant's 2N/(R0²C) and 1/R0, 1/s.
func (h HMTG) poles() (tcp, queue float64) {
	return 2 * h.Flows / (h.RTTS * h.RTTS * h.CapacityPktsPerS), 1 / h.RTTS
}

// gain is L(0).
func (h HMTG) gain() float64 {
	p1, p2 := h.poles()
	return h.CapacityPktsPerS * h.CapacityPktsPerS / (2 * h.Flows) * h.LRed / (p1 * p2)
}

// Loop is L(s).
func (h HMTG) Loop(s complex128) complex128 {
	p1, p2 := h.poles()
	C := h.CapacityPktsPerS
	num := complex(C*C/(2*h.Flows)*h.LRed*h.KRed, 0) * cmplx.Exp(-s*complex(h.RTTS, 0))
	return num / ((s + complex(p1, 0)) * (s + complex(p2, 0)) * (s + complex(h.KRed, 0)))
}

// phase is arg L(jω), unwrapped: −ωR0 − atan(ω/p1) − atan(ω/p2) − atan(ω/K).
func (h HMTG) phase(w float64) float64 {
	p1, p2 := h.poles()
	return -w*h.RTTS - math.Atan(w/p1) - math.Atan(w/p2) - math.Atan(w/h.KRed)
}

// Crossover is the gain crossover |L(jω)| = 1, rad/s; |L| falls monotonically, so there
// is one exactly when L(0) > 1.
func (h HMTG) Crossover() (float64, bool) {
	if h.gain() <= 1 {
		return 0, false
	}
	p1, p2 := h.poles()
	mag := func(w float64) float64 {
		return h.gain() * p1 * p2 * h.KRed / math.Sqrt((w*w+p1*p1)*(w*w+p2*p2)*(w*w+h.KRed*h.KRed))
	}
	lo, hi := 0.0, max(max(p1, p2), h.KRed)
	for mag(hi) > 1 {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if !(mid > lo && mid < hi) {
			break
		}
		if mag(mid) > 1 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, true
}

// PhaseMargin is π + arg L(jω_c), radians; ok is false without a crossover (the loop is
// then stable for any delay).
func (h HMTG) PhaseMargin() (float64, bool) {
	wc, ok := h.Crossover()
	if !ok {
		return 0, false
	}
	return math.Pi + h.phase(wc), true
}

// Stable reports the Nyquist verdict: L is stable and |L| monotone, so the closed loop
// is stable exactly when there is no crossover or the phase margin is positive.
func (h HMTG) Stable() bool {
	pm, ok := h.PhaseMargin()
	return !ok || pm > 0
}

// Margins are the loop's margins.
func (h HMTG) Margins() Margins {
	m := Margins{GainAtZero: h.gain()}
	if wc, ok := h.Crossover(); ok {
		pm := math.Pi + h.phase(wc)
		m.CrossoverRadPerS, m.PhaseMarginDeg, m.DelayMarginS = ptr(wc), ptr(pm*180/math.Pi), ptr(pm/wc)
	}
	// Phase crossover: the phase falls monotonically through −π once.
	lo, hi := 0.0, 1.0
	for h.phase(hi) > -math.Pi {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if !(mid > lo && mid < hi) {
			break
		}
		if h.phase(mid) > -math.Pi {
			lo = mid
		} else {
			hi = mid
		}
	}
	m.GainMargin = ptr(1 / cmplx.Abs(h.Loop(complex(0, (lo+hi)/2))))
	return m
}

// Sufficient evaluates HMTG's design condition at this operating point,
//
//	L_red·(R0·C)³/(2N)² ≤ sqrt(ω_g²/K² + 1),  ω_g = 0.1·min(2N/(R0²C), 1/R0),
//
// which bounds the loop's gain so that the crossover lies a decade below the plant's
// poles, where the phase is still safe; it holds for every N ≥ N⁻ and R0 ≤ R⁺ when
// evaluated at (N⁻, R⁺). It is sufficient, not necessary: a conservative boundary.
func (h HMTG) Sufficient() (lhs, rhs float64, ok bool) {
	p1, p2 := h.poles()
	wg := 0.1 * min(p1, p2)
	rc := h.RTTS * h.CapacityPktsPerS
	lhs = h.LRed * rc * rc * rc / (4 * h.Flows * h.Flows)
	rhs = math.Sqrt(wg*wg/(h.KRed*h.KRed) + 1)
	return lhs, rhs, lhs <= rhs
}

// HMTGOf is the HMTG loop of a network of one Reno-law class (+1 packet per RTT, half the
// window after a loss) over one link whose RED average lies in its linear range, at the
// network's equilibrium. The link's random loss scales the marking's slope by 1 − LossP.
func HMTGOf(n *Network) (HMTG, error) {
	if err := n.Validate(); err != nil {
		return HMTG{}, err
	}
	if len(n.Classes) != 1 || len(n.Classes[0].Links) != 1 {
		return HMTG{}, fmt.Errorf("%w: the HMTG loop needs one class over one link, not %d classes", ErrNetwork, len(n.Classes))
	}
	c := &n.Classes[0]
	L := &n.Links[c.Links[0]]
	if L.RED == nil || L.RED.Weight >= 1 {
		return HMTG{}, fmt.Errorf("%w: the HMTG loop needs a RED link that averages (q_weight < 1)", ErrNetwork)
	}
	eq, err := n.Equilibrium()
	if err != nil {
		return HMTG{}, err
	}
	if le := eq.Links[c.Links[0]]; le.Regime != RegimeRED {
		return HMTG{}, fmt.Errorf("%w: the HMTG loop needs RED's average in its linear range; link %s is %s", ErrNetwork, le.Name, le.Regime)
	}
	w0 := eq.Classes[0].CwndPkts
	o := model.Observation{RTT: eq.Classes[0].RTTS, BaseRTT: c.PropRTTS}
	for _, w := range []float64{w0, w0 / 2, 2 * w0} {
		if math.Abs(c.Law.Increase(w, o)-1) > 1e-12 || math.Abs(c.Law.After(w, o)-w/2) > 1e-12*w {
			return HMTG{}, fmt.Errorf("%w: the HMTG loop is Reno's (+1 per RTT, W/2 after a loss); %s is not, at W = %.4g packets", ErrNetwork, c.Law.Name(), w)
		}
	}
	if w0 <= 2*model.MinLossWindow {
		return HMTG{}, fmt.Errorf("%w: the HMTG loop needs W0 > %v packets (the loss floor), W0 = %.4g", ErrNetwork, 2*model.MinLossWindow, w0)
	}
	return HMTG{CapacityPktsPerS: L.CapacityPktsPerS, Flows: c.Flows, RTTS: eq.Classes[0].RTTS,
		LRed: (1 - L.LossP) * REDSlope(L.RED), KRed: L.redGain()}, nil
}
