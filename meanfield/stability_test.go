package meanfield

import (
	"context"
	"math"
	"math/cmplx"
	"testing"
)

// hmtgCoefficients are the exact linearisation's coefficients for Reno over one RED link:
// a = N/(R0²C) and b = R0C²/(2N²) (HMTG's), with
//
//	δW' = −a(δW + δW_R) − (δq − δq_R)/(C R0²) − b·L_red·δx_R
//	δq' = (N/R0)·δW − δq/R0,  δx' = K(δq − δx)   (subscript R: at t − R0).
func hmtgCoefficients(h HMTG) (a, b float64) {
	r, c, n := h.RTTS, h.CapacityPktsPerS, h.Flows
	return n / (r * r * c), r * c * c / (2 * n * n)
}

// exactLoop is the exact linearisation's loop gain for Reno/RED, derived by hand:
// L(s) = (C²/2N)·L_red·K·e^{−sR}/((s + K)·[(s + 2a)(s + 1/R) − a·s·(1 − e^{−sR})]).
func exactLoop(h HMTG, s complex128) complex128 {
	a, _ := hmtgCoefficients(h)
	r := complex(h.RTTS, 0)
	e := cmplx.Exp(-s * r)
	den := (s+complex(h.KRed, 0))*((s+complex(2*a, 0))*(s+1/r)) - (s+complex(h.KRed, 0))*complex(a, 0)*s*(1-e)
	return complex(h.CapacityPktsPerS*h.CapacityPktsPerS/(2*h.Flows)*h.LRed*h.KRed, 0) * e / den
}

// TestLinearisationTheory: the central differences of the field reproduce the analytic
// coefficients (their truncation error is O(h²) with h = 10⁻⁶ of the state, far below
// 10⁻⁶ relative), the generic loop gain equals the hand-derived exact loop, and HMTG's
// loop differs from it by exactly the dropped term, |L_HMTG/L − 1| = |a·s·(1 − e^{−sR})| /
// |(s + 2a)(s + 1/R)| ≤ a·R0 = 1/W0.
func TestLinearisationTheory(t *testing.T) {
	net := hmtgNet()
	lin, err := Linearise(net)
	if err != nil {
		t.Fatal(err)
	}
	h, err := HMTGOf(net)
	if err != nil {
		t.Fatal(err)
	}
	a, b := hmtgCoefficients(h)
	r, c, n, k := h.RTTS, h.CapacityPktsPerS, h.Flows, h.KRed
	want0 := [][]float64{{-a, -1 / (c * r * r), 0}, {n / r, -1 / r, 0}, {0, k, -k}}
	want1 := [][]float64{{-a, 1 / (c * r * r), -b * h.LRed}, {0, 0, 0}, {0, 0, 0}}
	if lin.N != 3 || len(lin.A) != 1 || lin.R[0] != r {
		t.Fatalf("linearisation: %d components, %d lags, R = %v; want 3, 1, %v", lin.N, len(lin.A), lin.R, r)
	}
	for i := range 3 {
		scale := 0.0
		for j := range 3 {
			scale = math.Max(scale, math.Max(math.Abs(want0[i][j]), math.Abs(want1[i][j])))
		}
		for j := range 3 {
			if d := math.Abs(lin.A0.At(i, j) - want0[i][j]); d > 1e-6*scale {
				t.Errorf("A0[%s][%s] = %.10g, want %.10g", lin.Names[i], lin.Names[j], lin.A0.At(i, j), want0[i][j])
			}
			if d := math.Abs(lin.A[0].At(i, j) - want1[i][j]); d > 1e-6*scale {
				t.Errorf("A_R[%s][%s] = %.10g, want %.10g", lin.Names[i], lin.Names[j], lin.A[0].At(i, j), want1[i][j])
			}
		}
	}
	w0 := r * c / n
	worst := 0.0
	for _, w := range []float64{1e-3, 0.01, 0.05, 0.2, 1, 5, 50} {
		s := complex(0, w)
		l, ok := lin.Loop(s)
		if !ok {
			t.Fatal("no loop")
		}
		if e := cmplx.Abs(l/exactLoop(h, s) - 1); e > 1e-6 {
			t.Errorf("ω = %g rad/s: generic loop %v, exact %v (relative %g)", w, l, exactLoop(h, s), e)
		}
		x := cmplx.Abs(complex(a, 0)*s*(1-cmplx.Exp(-s*complex(r, 0)))) / cmplx.Abs((s+complex(2*a, 0))*(s+complex(1/r, 0)))
		d := cmplx.Abs(h.Loop(s)/exactLoop(h, s) - 1)
		worst = math.Max(worst, d)
		if math.Abs(d-x) > 1e-9*x || x > 1/w0 {
			t.Errorf("ω = %g rad/s: |L_HMTG/L − 1| = %g, want the dropped term's %g ≤ 1/W0 = %g", w, d, x, 1/w0)
		}
	}
	t.Logf("HMTG's loop vs the exact linearisation's: at most %.3g relative over the band (1/W0 = %.3g)", worst, 1/w0)
}

// TestHMTGExample: the example's loop, designed by HMTG's rule, is stable with the
// margins of its crossover a decade below the plant's poles; the generic analysis agrees.
func TestHMTGExample(t *testing.T) {
	net := hmtgNet()
	h, err := HMTGOf(net)
	if err != nil {
		t.Fatal(err)
	}
	if relErr(h.KRed, hmtgK) > 1e-9 || relErr(h.LRed, REDSlope(net.Links[0].RED)) > 1e-15 || h.Flows != hmtgN || h.CapacityPktsPerS != hmtgC {
		t.Errorf("HMTGOf: %+v, want K = %v /s and the RED slope", h, hmtgK)
	}
	lhs, rhs, ok := h.Sufficient()
	if !ok && relErr(lhs, rhs) > 1e-12 {
		t.Errorf("design point: HMTG's condition %g ≤ %g fails", lhs, rhs)
	}
	more, _ := net.Scaled(KnobFlows, 2)
	if hm, _ := HMTGOf(more); !func() bool { _, _, ok := hm.Sufficient(); return ok }() {
		t.Errorf("N = 120: HMTG's condition fails, want it to hold for N ≥ N⁻")
	}
	st, err := Analyze(net)
	if err != nil {
		t.Fatal(err)
	}
	hm := h.Margins()
	m := st.Loop
	t.Logf("HMTG example: verdict %s, rightmost root %.4g%+.4gi /s", st.Verdict, st.Roots[0].Re, st.Roots[0].Im)
	t.Logf("  exact loop: L(0) = %.4f, ω_c = %.5f rad/s, PM = %.3f°, delay margin %.3f s, gain margin %.3f", m.GainAtZero, *m.CrossoverRadPerS, *m.PhaseMarginDeg, *m.DelayMarginS, *m.GainMargin)
	t.Logf("  HMTG loop:  L(0) = %.4f, ω_c = %.5f rad/s, PM = %.3f°, delay margin %.3f s, gain margin %.3f", hm.GainAtZero, *hm.CrossoverRadPerS, *hm.PhaseMarginDeg, *hm.DelayMarginS, *hm.GainMargin)
	if st.Verdict != VerdictStable || !h.Stable() {
		t.Errorf("design point: verdict %s, HMTG stable %v; want both stable", st.Verdict, h.Stable())
	}
	if relErr(m.GainAtZero, hm.GainAtZero) > 1e-6 || relErr(m.GainAtZero, lhs) > 1e-9 {
		t.Errorf("static gains %g (exact) and %g (HMTG), want equal, and L_red(R0C)³/(2N)² = %g", m.GainAtZero, hm.GainAtZero, lhs)
	}
	// The crossover lies where |L_HMTG/L − 1| ≤ 1/W0, so the two loops' crossovers and
	// phases differ by at most that much.
	w0 := st.Equilibrium.Classes[0].CwndPkts
	if relErr(*m.CrossoverRadPerS, *hm.CrossoverRadPerS) > 1/w0 || math.Abs(*m.PhaseMarginDeg-*hm.PhaseMarginDeg) > 180/math.Pi/w0 {
		t.Errorf("crossovers %g and %g rad/s, phase margins %g° and %g°: want them within 1/W0", *m.CrossoverRadPerS, *hm.CrossoverRadPerS, *m.PhaseMarginDeg, *hm.PhaseMarginDeg)
	}
}

// ddeRate is the mean-field run's envelope growth rate after a perturbation of the
// equilibrium windows by the fraction eps, 1/s, over [200, 1000] s: the other modes have
// decayed by e^{−13} at 200 s, and comparing the two 400 s halves (16 periods of 24 s)
// biases the rate by at most period/400 s ≈ 6% of itself, so its sign is the DDE's
// verdict. eps must keep a growing oscillation linear over the run, and the tolerances
// keep the integration error far below it.
func ddeRate(t *testing.T, net *Network, eps float64) float64 {
	t.Helper()
	tol := 1e-8
	if eps < 1e-6 {
		tol = 1e-10
	}
	res, err := Simulate(context.Background(), net, Settings{DurationS: 1000, TailS: 800, FromEquilibrium: true, Perturb: eps,
		RelTol: tol, AbsTol: tol})
	if err != nil {
		t.Fatal(err)
	}
	return res.EnvelopeRatePerS
}

// TestStabilityBoundary is the check: the RED/Reno boundary of the mean-field
// delay equation within 5% of HMTG's linearised model. Along the propagation RTT, the
// boundary of HMTG's loop (phase margin zero), of the exact linearisation (rightmost
// root on the axis) and of the DDE itself (envelope growth zero, bisected) are found; the
// DDE must match the exact linearisation to 0.1% (its own first-order behaviour: the
// perturbation's O(ε²) nonlinearity and the bisection's 0.02% are below) and HMTG
// to 5%. Along the flow count the two linear boundaries must agree to 5%.
func TestStabilityBoundary(t *testing.T) {
	ctx := context.Background()
	net := hmtgNet()
	fe, err := Critical(ctx, net, KnobPropRTT, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	fh, err := CriticalHMTG(ctx, net, KnobPropRTT, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := 0.97*fe, 1.03*fe
	scaled := func(f float64) *Network { n, _ := net.Scaled(KnobPropRTT, f); return n }
	if ddeRate(t, scaled(lo), 1e-3) >= 0 || ddeRate(t, scaled(hi), 1e-3) <= 0 {
		t.Fatalf("DDE: no sign change of the growth rate over [%g, %g]·Tp", lo, hi)
	}
	for range 8 {
		mid := (lo + hi) / 2
		if ddeRate(t, scaled(mid), 1e-3) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	fd := (lo + hi) / 2
	t.Logf("critical propagation RTT: HMTG %.5f s, exact linearisation %.5f s, DDE %.5f s (DDE vs HMTG %+.3f%%, vs exact %+.4f%%)",
		fh*hmtgTp, fe*hmtgTp, fd*hmtgTp, 100*(fd/fh-1), 100*(fd/fe-1))
	if e := relErr(fd, fh); e > 0.05 {
		t.Errorf("DDE boundary %g s, HMTG's %g s: %.2f%% apart, want ≤ 5%%", fd*hmtgTp, fh*hmtgTp, 100*e)
	}
	if e := relErr(fd, fe); e > 1e-3 {
		t.Errorf("DDE boundary %g s, exact linearisation's %g s: %.3f%% apart, want ≤ 0.1%%", fd*hmtgTp, fe*hmtgTp, 100*e)
	}
	ne, err := Critical(ctx, net, KnobFlows, 0.05, 1)
	if err != nil {
		t.Fatal(err)
	}
	nh, err := CriticalHMTG(ctx, net, KnobFlows, 0.05, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("critical flow count at Tp = %g s: HMTG %.4f, exact linearisation %.4f (%+.3f%%)", hmtgTp, nh*hmtgN, ne*hmtgN, 100*(ne/nh-1))
	if e := relErr(ne, nh); e > 0.05 {
		t.Errorf("critical N: exact %g, HMTG %g, %.2f%% apart, want ≤ 5%%", ne*hmtgN, nh*hmtgN, 100*e)
	}
}

// TestBoundaryDynamics: on either side of the boundary the DDE does what the roots say.
// At 0.9 and 1.1 times the critical RTT its envelope rate matches the rightmost root's
// real part to 10% (the estimator's bias is below 6%); 5% inside, a run converges; 5%
// outside it grows into a limit cycle — amplitude steady to 1e-4/s, far below the
// linear growth, and of several percent.
func TestBoundaryDynamics(t *testing.T) {
	net := hmtgNet()
	fe, err := Critical(context.Background(), net, KnobPropRTT, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []float64{0.9, 1.1} {
		n, _ := net.Scaled(KnobPropRTT, f*fe)
		st, err := Analyze(n)
		if err != nil {
			t.Fatal(err)
		}
		rate := ddeRate(t, n, 1e-8) // e^{0.0134·1000} = 7·10⁵: still linear at the end
		t.Logf("%.2f × critical RTT: rightmost root %.5f%+.5fi /s (%s), DDE envelope rate %.5f /s", f, st.Roots[0].Re, st.Roots[0].Im, st.Verdict, rate)
		if e := relErr(rate, st.Roots[0].Re); e > 0.1 {
			t.Errorf("%.2f × critical RTT: DDE rate %g, root %g: %.1f%% apart, want ≤ 10%%", f, rate, st.Roots[0].Re, 100*e)
		}
	}
	inside, _ := net.Scaled(KnobPropRTT, 0.95*fe)
	outside, _ := net.Scaled(KnobPropRTT, 1.05*fe)
	in, err := Simulate(context.Background(), inside, Settings{DurationS: 4000, FromEquilibrium: true, Perturb: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Simulate(context.Background(), outside, Settings{DurationS: 6000, TailS: 2000, FromEquilibrium: true, Perturb: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("5%% inside: %s (amplitude %.2g); 5%% outside: %s, amplitude %.4f → %.4f, rate %.2g /s", in.Behaviour, in.AmplitudeLate, out.Behaviour, out.AmplitudeEarly, out.AmplitudeLate, out.EnvelopeRatePerS)
	if in.Behaviour != BehaviourConverged {
		t.Errorf("5%% inside the boundary: %s, want converged", in.Behaviour)
	}
	if out.Behaviour != BehaviourOscillating || math.Abs(out.EnvelopeRatePerS) > 1e-4 || out.AmplitudeLate < 0.02 {
		t.Errorf("5%% outside: %s, amplitude %g, rate %g /s; want a steady limit cycle of several percent", out.Behaviour, out.AmplitudeLate, out.EnvelopeRatePerS)
	}
}

// rhpRoots counts the characteristic roots in the right half-plane by the argument
// principle, independently of the discretisation: det Δ is a retarded quasi-polynomial
// with principal term s^n, so Z = n/2 − Δarg det Δ(jω)/π over ω from 0 to ∞. The phase
// is tracked on steps that turn the fastest exponential by at most 0.02 rad up to
// Ω = 40·n·m, m bounding the matrices' row sums, past which det Δ(jω) = (jω)^n·(1 + ε)
// with |ε| < 0.03 and the rest of the turn is the principal term's.
func rhpRoots(lin *Linearisation) int {
	n := lin.N
	m := 0.0
	for r := range n {
		sum := 0.0
		for c := range n {
			sum += math.Abs(lin.A0.At(r, c))
			for _, a := range lin.A {
				sum += math.Abs(a.At(r, c))
			}
		}
		m = math.Max(m, sum)
	}
	rmax := 0.0
	for _, r := range lin.R {
		rmax = math.Max(rmax, r)
	}
	omega := 40 * float64(n) * m
	dw := 0.02 / rmax
	prev := cmplx.Phase(lin.Det(0))
	total := 0.0
	for w := dw; w <= omega; w += dw {
		ph := cmplx.Phase(lin.Det(complex(0, w)))
		total += wrapPi(ph - prev)
		prev = ph
	}
	total += wrapPi(float64(n)*math.Pi/2 - prev)
	return int(math.Round(float64(n)/2 - total/math.Pi))
}

// TestRootsArgumentPrinciple: the rightmost root's side of the axis agrees with the
// argument principle's count of right-half-plane roots, a complex pair past the boundary.
func TestRootsArgumentPrinciple(t *testing.T) {
	net := hmtgNet()
	for _, c := range []struct {
		f    float64
		want int
	}{{1, 0}, {2.8, 0}, {3.2, 2}, {5, 2}} {
		n, _ := net.Scaled(KnobPropRTT, c.f)
		lin, err := Linearise(n)
		if err != nil {
			t.Fatal(err)
		}
		roots, err := lin.Roots(3)
		if err != nil {
			t.Fatal(err)
		}
		z := rhpRoots(lin)
		t.Logf("Tp = %.2f s: rightmost %.5f%+.5fi /s, |det Δ| there %.2g, right-half-plane roots %d", c.f*hmtgTp, real(roots[0]), imag(roots[0]), cmplx.Abs(lin.Det(roots[0])), z)
		if z != c.want || (real(roots[0]) > 0) != (c.want > 0) {
			t.Errorf("Tp = %g s: %d right-half-plane roots, rightmost root %v; want %d", c.f*hmtgTp, z, roots[0], c.want)
		}
	}
}

// TestGenericVerdicts: for a law other than Reno and for classes of unequal RTTs the
// verdict of the roots agrees with the run from a perturbed equilibrium.
func TestGenericVerdicts(t *testing.T) {
	for _, c := range []struct {
		name string
		net  func() *Network
	}{
		// 15 flows: windows of about 60 packets, above Scalable's legacy window.
		{"scalable, Tp = 0.2 s", func() *Network {
			n := hmtgNet()
			n.Classes[0].Law, n.Classes[0].Flows = mustLaw(t, "scalable"), 15
			return n
		}},
		{"scalable, Tp = 0.6 s", func() *Network {
			n := hmtgNet()
			n.Classes[0].Law, n.Classes[0].Flows, n.Classes[0].PropRTTS = mustLaw(t, "scalable"), 15, 0.6
			return n
		}},
		{"two RTTs", func() *Network {
			n := hmtgNet()
			n.Classes[0].Flows = 30
			other := n.Classes[0]
			other.Name, other.PropRTTS = "far", 1.2
			n.Classes = append(n.Classes, other)
			return n
		}},
		{"two RTTs, more flows", func() *Network {
			n := hmtgNet()
			other := n.Classes[0]
			other.Name, other.PropRTTS = "far", 0.4
			n.Classes = append(n.Classes, other)
			return n
		}},
	} {
		net := c.net()
		st, err := Analyze(net)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Simulate(context.Background(), net, Settings{DurationS: 3000, TailS: 1500, FromEquilibrium: true, Perturb: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s (root %.4g%+.4gi), run %s, envelope rate %.3g /s", c.name, st.Verdict, st.Roots[0].Re, st.Roots[0].Im, res.Behaviour, res.EnvelopeRatePerS)
		if (st.Verdict == VerdictStable) != (res.Behaviour != BehaviourOscillating) {
			t.Errorf("%s: verdict %s but the run is %s", c.name, st.Verdict, res.Behaviour)
		}
	}
}

// TestFindCritical: the bracket-free search finds Critical's boundary, and a scenario
// analyses as its network does.
func TestFindCritical(t *testing.T) {
	ctx := context.Background()
	net := hmtgNet()
	for _, c := range []struct {
		knob   Knob
		lo, hi float64
	}{{KnobPropRTT, 1, 10}} {
		want, err := Critical(ctx, net, c.knob, c.lo, c.hi)
		if err != nil {
			t.Fatal(err)
		}
		got, found, err := FindCritical(ctx, net, c.knob, 1024)
		if err != nil || !found || relErr(got, want) > 1e-8 {
			t.Errorf("%s: FindCritical %v (found %v, %v), Critical %v", c.knob, got, found, err, want)
		}
	}
	// An uncongested link has no loop through a queue: stable at every RTT up to the
	// search's limit, nothing found, no error.
	calm := oneLink(Reno(), 1, 1e9, 0.01, 0.1)
	if _, found, err := FindCritical(ctx, calm, KnobPropRTT, 64); found || err != nil {
		t.Errorf("uncongested link: found %v, %v; want no boundary", found, err)
	}
	sc := hmtgScenario(10)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	a, err := AnalyzeScenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Analyze(net)
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != b.Verdict || relErr(a.DecayRatePerS, b.DecayRatePerS) > 1e-9 {
		t.Errorf("scenario: %s at %g /s, network: %s at %g /s", a.Verdict, a.DecayRatePerS, b.Verdict, b.DecayRatePerS)
	}
}
