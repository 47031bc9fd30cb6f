package meanfield

import (
	"context"
	"fmt"
	"math"
	"math/cmplx"
	"slices"

	"github.com/tcpfluid/tcpfluid/model"
)

// Verdicts of the linear stability analysis.
const (
	// VerdictStable: every characteristic root lies in the left half-plane; a
	// perturbation decays at DecayRatePerS.
	VerdictStable = "stable"
	// VerdictOscillating: a complex pair has crossed into the right half-plane (a Hopf
	// bifurcation); the mean-field run grows into a limit cycle of period about
	// 2π/FrequencyRadPerS.
	VerdictOscillating = "oscillating"
	// VerdictUnstable: a real root is in the right half-plane.
	VerdictUnstable = "unstable"
)

// Stability is the linear stability analysis of a network about its equilibrium.
type Stability struct {
	Equilibrium *Equilibrium `json:"equilibrium"`
	Verdict     string       `json:"verdict"`
	// DecayRatePerS is −Re s of the rightmost characteristic root, 1/s: positive when
	// stable. FrequencyRadPerS is its Im s, rad/s.
	DecayRatePerS    float64 `json:"decay_rate_per_s"`
	FrequencyRadPerS float64 `json:"frequency_rad_per_s"`
	// Roots lists the rightmost roots (Im ≥ 0), rightmost first.
	Roots []Root `json:"roots"`
	// Loop is the feedback loop through the single RED bottleneck, when there is one.
	Loop *Margins `json:"loop,omitempty"`
}

// Root is a characteristic root, 1/s.
type Root struct {
	Re float64 `json:"re"`
	Im float64 `json:"im"`
}

// Margins are the classical margins of a loop gain L(jω).
type Margins struct {
	Link string `json:"link,omitempty"`
	// GainAtZero is L(0), the static loop gain.
	GainAtZero float64 `json:"gain_at_zero"`
	// CrossoverRadPerS is the gain crossover |L(jω)| = 1 with the smallest delay margin,
	// rad/s; nil when |L| < 1 at every frequency.
	CrossoverRadPerS *float64 `json:"crossover_rad_per_s,omitempty"`
	// PhaseMarginDeg is 180° + arg L at that crossover, degrees.
	PhaseMarginDeg *float64 `json:"phase_margin_deg,omitempty"`
	// DelayMarginS is PhaseMargin/ω_c, s: the extra delay the loop tolerates with
	// everything else held (negative: the delay it has too much of). Nil without a
	// crossover, when any delay is tolerated.
	DelayMarginS *float64 `json:"delay_margin_s,omitempty"`
	// GainMargin is 1/|L| at the phase crossover (arg L = −180°) of the largest |L|,
	// the factor by which the loop gain may grow; nil without a phase crossover.
	GainMargin *float64 `json:"gain_margin,omitempty"`
}

func ptr(v float64) *float64 { return &v }

// Analyze linearises the network about its equilibrium and classifies it by the
// rightmost characteristic root; for a single RED bottleneck it adds the loop margins.
func Analyze(n *Network) (*Stability, error) { return analyze(n, true) }

// analyze is Analyze, with the loop margins or without (boundary searches need only the
// rightmost root).
func analyze(n *Network, loop bool) (*Stability, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	s := newSystem(allActive(n), false)
	eq, err := s.equilibrium()
	if err != nil {
		return nil, err
	}
	lin, err := s.linearise(eq)
	if err != nil {
		return nil, err
	}
	roots, err := lin.Roots(6)
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("%w: no characteristic root found", ErrSolve)
	}
	st := &Stability{Equilibrium: eq, DecayRatePerS: -real(roots[0]), FrequencyRadPerS: imag(roots[0])}
	for _, r := range roots {
		st.Roots = append(st.Roots, Root{Re: real(r), Im: imag(r)})
	}
	switch {
	case real(roots[0]) < 0:
		st.Verdict = VerdictStable
	case imag(roots[0]) > 0:
		st.Verdict = VerdictOscillating
	default:
		st.Verdict = VerdictUnstable
	}
	if _, ok := lin.Loop(0); ok && loop {
		lo, hi := lin.frequencyRange()
		m := margins(func(w float64) complex128 { l, _ := lin.Loop(complex(0, w)); return l }, lo, hi)
		m.Link = lin.loopLink
		st.Loop = &m
	}
	return st, nil
}

// Linearise returns the network's linearisation about its equilibrium.
func Linearise(n *Network) (*Linearisation, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	s := newSystem(allActive(n), false)
	eq, err := s.equilibrium()
	if err != nil {
		return nil, err
	}
	return s.linearise(eq)
}

// allActive is a copy of n with every class active from t = 0 on.
func allActive(n *Network) *Network {
	c := *n
	c.Classes = slices.Clone(n.Classes)
	for i := range c.Classes {
		c.Classes[i].StartS, c.Classes[i].StopS = 0, 0
	}
	return &c
}

// frequencyRange is the band of frequencies the margins scan, rad/s: five decades
// around the linearisation's rates.
func (lin *Linearisation) frequencyRange() (lo, hi float64) {
	rates := []float64{1 / slices.Max(lin.R), 1 / slices.Min(lin.R)}
	for i := range lin.N {
		if d := math.Abs(lin.A0.At(i, i)); d > 0 {
			rates = append(rates, d)
		}
	}
	return 1e-4 * slices.Min(rates), 1e3 * slices.Max(rates)
}

// margins scans L(jω) on a log grid of 100 points per decade over [lo, hi] and refines
// every gain and phase crossover by bisection.
func margins(L func(w float64) complex128, lo, hi float64) Margins {
	m := Margins{GainAtZero: real(L(0))}
	decades := math.Log10(hi / lo)
	pts := int(math.Ceil(100*decades)) + 1
	ws := make([]float64, pts)
	for k := range ws {
		ws[k] = lo * math.Pow(hi/lo, float64(k)/float64(pts-1))
	}
	bisect := func(a, b float64, g func(w float64) float64) float64 {
		ga := g(a)
		for range 100 {
			mid := math.Sqrt(a * b)
			if !(mid > a && mid < b) {
				break
			}
			if gm := g(mid); (gm > 0) == (ga > 0) {
				a, ga = mid, gm
			} else {
				b = mid
			}
		}
		return math.Sqrt(a * b)
	}
	gain := func(w float64) float64 { return cmplx.Abs(L(w)) - 1 }
	imag0 := func(w float64) float64 { return imag(L(w)) }
	var prev complex128
	bestDM, bestGM := math.Inf(1), math.Inf(1)
	for k, w := range ws {
		l := L(w)
		if k > 0 {
			if (cmplx.Abs(prev) >= 1) != (cmplx.Abs(l) >= 1) {
				wc := bisect(ws[k-1], w, gain)
				pm := wrapPi(math.Pi + cmplx.Phase(L(wc)))
				if dm := pm / wc; dm < bestDM {
					bestDM = dm
					m.CrossoverRadPerS, m.PhaseMarginDeg, m.DelayMarginS = ptr(wc), ptr(pm*180/math.Pi), ptr(dm)
				}
			}
			if (imag(prev) >= 0) != (imag(l) >= 0) && (real(prev) < 0 || real(l) < 0) {
				wp := bisect(ws[k-1], w, imag0)
				if lp := L(wp); real(lp) < 0 {
					if gm := 1 / cmplx.Abs(lp); gm < bestGM {
						bestGM = gm
						m.GainMargin = ptr(gm)
					}
				}
			}
		}
		prev = l
	}
	return m
}

// Knob is a parameter a stability boundary is searched along.
type Knob string

const (
	// KnobPropRTT scales every class's propagation RTT.
	KnobPropRTT Knob = "prop-rtt"
	// KnobFlows scales every class's flow count.
	KnobFlows Knob = "flows"
)

// Scaled is a copy of n with the knob scaled by f (> 0).
func (n *Network) Scaled(k Knob, f float64) (*Network, error) {
	c := *n
	c.Classes = slices.Clone(n.Classes)
	for i := range c.Classes {
		switch k {
		case KnobPropRTT:
			c.Classes[i].PropRTTS *= f
		case KnobFlows:
			c.Classes[i].Flows *= f
		default:
			return nil, fmt.Errorf("%w: knob %q, want %q or %q", ErrNetwork, k, KnobPropRTT, KnobFlows)
		}
	}
	return &c, nil
}

// Critical returns the factor f in [lo, hi] by which scaling the knob puts the rightmost
// characteristic root on the imaginary axis, by bisection on its real part to a relative
// width of 1e-9. The real part must change sign over [lo, hi].
func Critical(ctx context.Context, n *Network, k Knob, lo, hi float64) (float64, error) {
	return boundary(ctx, n, k, lo, hi, func(net *Network) (float64, error) {
		st, err := analyze(net, false)
		if err != nil {
			return 0, err
		}
		return -st.DecayRatePerS, nil
	})
}

// CriticalHMTG is Critical in the simplified loop of Hollot, Misra, Towsley and Gong
// (HMTG): the factor at which its phase margin reaches zero.
func CriticalHMTG(ctx context.Context, n *Network, k Knob, lo, hi float64) (float64, error) {
	return boundary(ctx, n, k, lo, hi, func(net *Network) (float64, error) {
		h, err := HMTGOf(net)
		if err != nil {
			return 0, err
		}
		pm, ok := h.PhaseMargin()
		if !ok {
			return -1, nil // no crossover: stable for any delay
		}
		return -pm, nil
	})
}

// boundary bisects for the sign change of g over the knob factor.
func boundary(ctx context.Context, n *Network, k Knob, lo, hi float64, g func(*Network) (float64, error)) (float64, error) {
	if !(lo > 0) || !(hi > lo) || !finite(hi) {
		return 0, fmt.Errorf("%w: boundary bracket [%v, %v], want 0 < lo < hi finite", ErrNetwork, lo, hi)
	}
	at := func(f float64) (float64, error) {
		if ctx != nil {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		net, err := n.Scaled(k, f)
		if err != nil {
			return 0, err
		}
		return g(net)
	}
	ga, err := at(lo)
	if err != nil {
		return 0, err
	}
	gb, err := at(hi)
	if err != nil {
		return 0, err
	}
	if (ga < 0) == (gb < 0) {
		return 0, fmt.Errorf("%w: %s × [%v, %v]: the stability does not change over the bracket", ErrNetwork, k, lo, hi)
	}
	for hi-lo > 1e-9*hi {
		mid := (lo + hi) / 2
		gm, err := at(mid)
		if err != nil {
			return 0, err
		}
		if (gm < 0) == (ga < 0) {
			lo, ga = mid, gm
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, nil
}

// FindCritical finds the knob's critical factor without a bracket: from f = 1 it tries
// 2^±k, k = 1, 2, …, until the rightmost root changes side or the factor passes
// maxFactor (or 1/maxFactor), then bisects (Critical). A point where the analysis fails
// (no smooth equilibrium: RED saturated, an overloaded link) ends the search in that
// direction. found is false when no change was met.
func FindCritical(ctx context.Context, n *Network, k Knob, maxFactor float64) (f float64, found bool, err error) {
	if !(maxFactor > 1) || !finite(maxFactor) {
		return 0, false, fmt.Errorf("%w: boundary search factor %v, want a finite number > 1", ErrNetwork, maxFactor)
	}
	side := func(f float64) (bool, error) {
		if ctx != nil {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		net, err := n.Scaled(k, f)
		if err != nil {
			return false, err
		}
		st, err := analyze(net, false)
		if err != nil {
			return false, err
		}
		return st.Verdict == VerdictStable, nil
	}
	at1, err := side(1)
	if err != nil {
		return 0, false, err
	}
	up, down := true, true
	for g := 2.0; g <= maxFactor && (up || down); g *= 2 {
		for _, c := range []struct {
			f  float64
			on *bool
		}{{g, &up}, {1 / g, &down}} {
			if !*c.on {
				continue
			}
			s, err := side(c.f)
			if ctx != nil && ctx.Err() != nil {
				return 0, false, ctx.Err()
			}
			if err != nil {
				*c.on = false
				continue
			}
			if s != at1 {
				var lo, hi float64
				if c.f < 1 {
					lo, hi = c.f, c.f*2
				} else {
					lo, hi = c.f/2, c.f
				}
				f, err := Critical(ctx, n, k, lo, hi)
				return f, err == nil, err
			}
		}
	}
	return 0, false, nil
}

// AnalyzeScenario is Analyze of a validated scenario's mean-field network (FromScenario),
// every flow active from t = 0: the verdict and margins a sweep maps over its axes.
func AnalyzeScenario(sc *model.Scenario) (*Stability, error) {
	net, _, err := FromScenario(sc)
	if err != nil {
		return nil, err
	}
	return Analyze(net)
}
