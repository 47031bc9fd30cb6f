package model

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

// coloWith returns COLO with the given parameters set.
func coloWith(t testing.TB, params map[string]float64) Algorithm {
	t.Helper()
	alg := mustAlgo(t, "colo")
	for name, v := range params {
		if err := alg.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	return alg
}

// rttRatio observes an RTT of factor·base with base RTT base.
func rttRatio(base, factor float64) lawObs {
	return func(t float64, _ []float64) Observation {
		return Observation{Now: t, RTT: factor * base, BaseRTT: base}
	}
}

// The concave part of slow start multiplies the window by 1 + (baseRTT/RTT)^γ per RTT
// (docs/models.md COLO eq. 2): it doubles with an empty queue, grows ×1.5 at RTT = 2·baseRTT
// with γ = 1 and ×1.25 with γ = 2. Starting at ssthresh/2 it reaches ssthresh after
// ln2/ln(1 + g) RTTs. The fluid face integrates W·ln(1 + g)/RTT with RK4 (error far below
// 0.1%); the event face adds g per ACK, exactly (1 + g)·W over a round of W ACKs.
func TestColoConcaveSlowStart(t *testing.T) {
	const base, w0, thresh = 0.1, 500.0, 1000.0
	for _, c := range []struct{ gamma, factor, growth float64 }{
		{1, 1, 2}, {1, 2, 1.5}, {2, 2, 1.25}, {0, 4, 2},
	} {
		t.Run(fmt.Sprintf("gamma=%g/rtt=%gbase", c.gamma, c.factor), func(t *testing.T) {
			alg := coloWith(t, map[string]float64{"gamma": c.gamma})
			rtt := c.factor * base
			cfg := FlowConfig{InitialCwnd: w0, InitialSsthresh: thresh, MaxCwnd: 1e6}
			sim := newLawSim(alg.NewFluid(cfg), rtt/1000, rttRatio(base, c.factor), 0)
			if g := sim.law.Guard(sim.x, sim.obs(0, sim.x)); g != w0-thresh {
				t.Fatalf("starting at ssthresh/2: guard %g, want W − ssthresh = %g (concave part)", g, w0-thresh)
			}
			sim.run(rtt/2, nil)
			half := sim.x[0]
			if want := w0 * math.Sqrt(c.growth); algoRelErr(half, want) > 1e-3 {
				t.Errorf("fluid W(RTT/2) = %.6g, want %.6g ±0.1%%", half, want)
			}
			end := sim.run(10*rtt, windowReaches(thresh+1)) // one packet into congestion avoidance
			wantT := math.Ln2 / math.Log(c.growth)
			if sim.switches != 1 || algoRelErr(sim.switchW, thresh) > 1e-6 || algoRelErr(sim.switchT/rtt, wantT) > 1e-3 {
				t.Errorf("fluid: %d switches, last at W = %.6g after %.6f RTTs; want one at %g after %.6f RTTs ±0.1%%",
					sim.switches, sim.switchW, sim.switchT/rtt, thresh, wantT)
			}
			// Congestion avoidance before any loss: Q_max unknown, +α_max = 8 per RTT.
			if got := (end - sim.switchT) / rtt; algoRelErr(got, 1.0/8) > 1e-3 {
				t.Errorf("fluid: one packet of congestion avoidance took %.6f RTTs, want 1/α_max = 0.125", got)
			}
			t.Logf("fluid: W(RTT/2) = %.6f (theory %.6f), ssthresh reached after %.6f RTTs (theory %.6f)",
				half, w0*math.Sqrt(c.growth), sim.switchT/rtt, wantT)

			ev := alg.NewEvent(cfg)
			ackRoundsOf(ev, 0, 1, math.Inf(1), fixedRTT(rtt), base)
			if want := math.Min(w0*c.growth, thresh); algoRelErr(ev.Cwnd(), want) > 1e-9 {
				t.Errorf("event W after one round = %.9g, want %g", ev.Cwnd(), want)
			}
			t.Logf("event: W after one round %.9f", ev.Cwnd())
		})
	}
}

// From one packet with ssthresh = 1024 and no queue, slow start doubles for 9 RTTs up to
// ssthresh/2 = 512 (docs/models.md COLO eq. 1; docs/models.md: W·ln2/RTT, not W/RTT), then the
// concave part doubles once more to 1024, then congestion avoidance adds α_max = 8 per RTT
// (no loss yet): W(12 RTT) = 1040. The event face's last two rounds add Σ 8/W over 1024
// and 1032 ACKs, 8·(1 − 4/W) packets each: 1039.94.
func TestColoSlowStartPhases(t *testing.T) {
	const rtt = 0.1
	alg := mustAlgo(t, "colo")
	cfg := FlowConfig{InitialCwnd: 1, InitialSsthresh: 1024, MaxCwnd: 1e6}
	sim := newLawSim(alg.NewFluid(cfg), rtt/1000, steadyRTT(rtt), 0)
	sim.run(9.5*rtt, nil)
	if sim.switches != 1 || algoRelErr(sim.switchW, 512) > 1e-6 || algoRelErr(sim.switchT/rtt, 9) > 1e-3 {
		t.Errorf("exponential part ended %d times, at W = %g after %.6f RTTs; want once at 512 after 9",
			sim.switches, sim.switchW, sim.switchT/rtt)
	}
	t.Logf("fluid: exponential part ended at %.6f RTTs", sim.switchT/rtt)
	sim.run(12*rtt, nil)
	if sim.switches != 2 || algoRelErr(sim.switchW, 1024) > 1e-6 || algoRelErr(sim.switchT/rtt, 10) > 1e-3 {
		t.Errorf("concave part ended (switch %d) at W = %g after %.6f RTTs; want at 1024 after 10",
			sim.switches, sim.switchW, sim.switchT/rtt)
	}
	if algoRelErr(sim.x[0], 1040) > 1e-3 || sim.law.Ssthresh() != 1024 {
		t.Errorf("fluid W(12 RTT) = %.6g, ssthresh %g; want 1040 ±0.1%%, 1024", sim.x[0], sim.law.Ssthresh())
	}
	t.Logf("fluid: concave part ended at %.6f RTTs, W(12 RTT) = %.6f", sim.switchT/rtt, sim.x[0])

	ev := alg.NewEvent(cfg)
	ackRoundsOf(ev, 0, 9, math.Inf(1), fixedRTT(rtt), rtt)
	if ev.Cwnd() != 512 {
		t.Errorf("event W(9 RTT) = %g, want 512", ev.Cwnd())
	}
	ackRoundsOf(ev, 0, 1, math.Inf(1), fixedRTT(rtt), rtt)
	if ev.Cwnd() != 1024 {
		t.Errorf("event W(10 RTT) = %g, want 1024", ev.Cwnd())
	}
	ackRoundsOf(ev, 0, 2, math.Inf(1), fixedRTT(rtt), rtt)
	want := 1024 + 8*(1-4/1024.0) + 8*(1-4/1032.0)
	if math.Abs(ev.Cwnd()-want) > 0.01 {
		t.Errorf("event W(12 RTT) = %.4f, want %.4f ±0.01", ev.Cwnd(), want)
	}
	t.Logf("event: W(12 RTT) = %.6f (estimate %.6f)", ev.Cwnd(), want)

	// ssthresh starts at the receiver window (docs/models.md COLO eq. 1): 44 packets, the
	// concave part from 22.
	law := alg.NewFluid(FlowConfig{InitialCwnd: 1, MaxCwnd: 44})
	x := []float64{0}
	law.Init(x, Observation{RTT: rtt, BaseRTT: rtt})
	if law.Ssthresh() != 44 || law.Guard(x, Observation{RTT: rtt, BaseRTT: rtt}) != 1-22 {
		t.Errorf("receiver window 44: ssthresh %g, guard %g; want 44, −21", law.Ssthresh(), law.Guard(x, Observation{}))
	}
}

// α(Diff) (docs/models.md COLO eq. 5): α_max with an empty queue, α_min at Diff = Q_max, in
// both shapes; at Diff = Q_max/2, 8 − 7·ln(1 + (e−1)/2) = 3.6591 (logarithmic) and 4.5
// (linear). An unknown Q_max (+Inf) gives α_max, Q_max = 0 with a queue α_min.
func TestColoAlpha(t *testing.T) {
	for _, c := range []struct {
		diff, qMax float64
		linear     bool
		want       float64
	}{
		{0, 500, false, 8}, {0, 500, true, 8},
		{500, 500, false, 1}, {500, 500, true, 1},
		{250, 500, false, 8 - 7*math.Log((1+math.E)/2)}, {250, 500, true, 4.5},
		{900, 500, false, 1}, {900, 500, true, 1},
		{900, math.Inf(1), false, 8}, {3, 0, true, 1},
	} {
		if got := COLOAlpha(c.diff, c.qMax, 1, 8, c.linear); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("α(Diff %g, Q_max %g, linear %v) = %.15g, want %.15g", c.diff, c.qMax, c.linear, got, c.want)
		}
	}
	if got := 8 - 7*math.Log((1+math.E)/2); math.Abs(got-3.6591) > 1e-4 {
		t.Errorf("log shape at Diff = Q_max/2: %.5f, want 3.6591", got)
	}
}

// The laws' congestion-avoidance increase after a loss at W = 1000 and RTT = 2·baseRTT,
// which records Q_max = 1000·(1 − 1/2) = 500 packets (docs/models.md COLO eq. 6), in both faces
// and both readings of Q_max.
func TestColoIncrease(t *testing.T) {
	const base = 0.1
	atLoss := Observation{Now: 1, RTT: 2 * base, BaseRTT: base}
	logAlpha := func(fill float64) float64 { return 8 - 7*math.Log1p((math.E-1)*fill) }
	for _, c := range []struct {
		name       string
		params     map[string]float64
		w, factor  float64
		wantPerRTT float64
	}{
		{"empty queue", nil, 500, 1, 8},
		{"Diff = Q_max", nil, 1000, 2, 1},
		{"Diff = 300, Q_max 500", nil, 600, 2, logAlpha(0.6)},
		{"linear, Diff = 300", map[string]float64{"alpha_shape": 1}, 600, 2, 8 - 7*0.6},
		{"current window: Diff = Q_max", map[string]float64{"qmax_at_loss": 0}, 600, 2, 1},
		{"current window: Diff = Q_max/2", map[string]float64{"qmax_at_loss": 0}, 600, 4.0 / 3, logAlpha(0.5)},
		{"α ≤ 1 is Reno's +1", map[string]float64{"alpha_min": 0.25}, 1000, 2, 1},
		{"α_max swept", map[string]float64{"alpha_max": 32}, 500, 1, 32},
	} {
		alg := coloWith(t, c.params)
		cfg := FlowConfig{InitialCwnd: 1000, InitialSsthresh: 1, MaxCwnd: 1e6}
		law := alg.NewFluid(cfg)
		x, dx := []float64{0}, []float64{0}
		law.Init(x, atLoss)
		law.OnLoss(x, atLoss)
		o := Observation{Now: 2, RTT: c.factor * base, BaseRTT: base}
		x[0] = c.w
		law.Deriv(dx, x, o)
		if got := dx[0] * o.RTT; math.Abs(got-c.wantPerRTT) > 1e-12 {
			t.Errorf("%s: fluid increase %.15g packets/RTT, want %.15g", c.name, got, c.wantPerRTT)
		}
		ev := alg.NewEvent(cfg).(*coloEvent)
		ev.OnLoss(atLoss)
		ev.cwnd = c.w
		ev.OnAck(1, o)
		if got := (ev.cwnd - c.w) * c.w; math.Abs(got-c.wantPerRTT) > 1e-9 {
			t.Errorf("%s: event increase %.12g/W per ACK, want %.12g", c.name, got, c.wantPerRTT)
		}
	}
	// A random loss (empty queue) says nothing about the buffer: before any congestion
	// loss α stays α_max at any queue; after one it keeps the Q_max that loss found.
	for _, congestionFirst := range []bool{false, true} {
		law := mustAlgo(t, "colo").NewFluid(FlowConfig{InitialCwnd: 1000, InitialSsthresh: 1})
		x, dx := []float64{0}, []float64{0}
		law.Init(x, atLoss)
		if congestionFirst {
			law.OnLoss(x, atLoss)
		}
		law.OnLoss(x, Observation{Now: 3, RTT: base, BaseRTT: base})
		x[0] = 1000
		law.Deriv(dx, x, atLoss)
		want := 8.0
		if congestionFirst {
			want = 1
		}
		if got := dx[0] * atLoss.RTT; math.Abs(got-want) > 1e-12 {
			t.Errorf("random loss (congestion loss before: %v): increase at Diff = 500 is %g, want %g", congestionFirst, got, want)
		}
	}
}

// Adaptive decrease (docs/models.md COLO eq. 7): β = clip(baseRTT/RTT, β_min, 1); W ← β·W and
// ssthresh ← W in both faces. A loss with an empty queue leaves W unchanged.
func TestColoAdaptiveDecrease(t *testing.T) {
	const base, w = 0.1, 1000.0
	for _, c := range []struct {
		factor, betaMin, beta float64
	}{
		{1, 0.5, 1}, {1.25, 0.5, 0.8}, {1.5, 0.5, 2.0 / 3}, {2, 0.5, 0.5}, {4, 0.5, 0.5}, {2, 0.7, 0.7},
	} {
		if got := COLOBeta(base, c.factor*base, c.betaMin); math.Abs(got-c.beta) > 1e-15 {
			t.Errorf("β(RTT = %g·base, β_min %g) = %.17g, want %.17g", c.factor, c.betaMin, got, c.beta)
		}
		alg := coloWith(t, map[string]float64{"beta_min": c.betaMin})
		o := Observation{Now: 1, RTT: c.factor * base, BaseRTT: base}
		cfg := FlowConfig{InitialCwnd: w, MaxCwnd: 1e6}
		law := alg.NewFluid(cfg)
		x := []float64{0}
		law.Init(x, o)
		law.OnLoss(x, o)
		ev := alg.NewEvent(cfg)
		ev.OnLoss(o)
		want := c.beta * w
		if math.Abs(x[0]-want) > 1e-9 || law.Ssthresh() != x[0] || math.Abs(ev.Cwnd()-want) > 1e-9 || ev.Ssthresh() != ev.Cwnd() {
			t.Errorf("loss at RTT = %g·base: fluid W %g ssthresh %g, event W %g ssthresh %g; want %g",
				c.factor, x[0], law.Ssthresh(), ev.Cwnd(), ev.Ssthresh(), want)
		}
		if g := law.Guard(x, o); g != -1 {
			t.Errorf("after a loss the law is in congestion avoidance; guard %g", g)
		}
	}
	// The floor of 2 packets (RFC 5681) applies as for every algorithm.
	ev := mustAlgo(t, "colo").NewEvent(FlowConfig{InitialCwnd: 3})
	ev.OnLoss(Observation{RTT: 0.4, BaseRTT: 0.1})
	if ev.Cwnd() != 2 {
		t.Errorf("loss at W = 3, β = 0.5: W = %g, want the floor 2", ev.Cwnd())
	}
}

// One flow alone on a bottleneck of C packets/s, base RTT τ and a buffer of B packets:
// RTT = τ + q/C with q = W − C·τ, and Diff = q while the link is busy. A loss at the full
// buffer records Q_max = B and keeps β = τ/(τ + B/C), which returns W exactly to the BDP
// C·τ (the queue empties); the window then refills the buffer in
// T = ∫₀^B (τ + q/C)/α(q/B) dq seconds, α logarithmic (docs/models.md COLO eqs. 3–7), computed
// here by Gauss–Legendre quadrature. The fluid face matches it to 0.1% (RK4 at τ/100). The
// event face's rounds add Σ α/W_i ≈ α·(1 − α/(2W)), at most α_max/(2·BDP) = 0.4% short,
// and last the RTT at the round's start, short of the round's mean RTT by α/(2C), at most
// α_max/(2·BDP) = 0.4% of τ: within 0.8% in all.
func TestColoSawtoothSingleBottleneck(t *testing.T) {
	const c, tau, buf = 10000.0, 0.1, 500.0 // packets/s, s, packets
	const bdp = c * tau
	rtt := func(w float64) float64 { return tau + math.Max(w-bdp, 0)/c }
	alpha := func(q float64) float64 { return COLOAlpha(q, buf, 1, 8, false) }
	period := quad.Fixed(func(q float64) float64 { return (tau + q/c) / alpha(q) }, 0, buf, 64, nil, 0)
	atFull := Observation{RTT: rtt(bdp + buf), BaseRTT: tau}

	alg := mustAlgo(t, "colo")
	cfg := FlowConfig{InitialCwnd: bdp + buf, InitialSsthresh: 1, MaxCwnd: 1e6}
	law := alg.NewFluid(cfg)
	obs := func(t float64, x []float64) Observation { return Observation{Now: t, RTT: rtt(x[0]), BaseRTT: tau} }
	sim := newLawSim(law, tau/100, obs, 0)
	for cycle := range 2 {
		before := sim.x[0]
		law.OnLoss(sim.x, atFull)
		if algoRelErr(sim.x[0], before*tau/atFull.RTT) > 1e-12 || algoRelErr(sim.x[0], bdp) > 1e-9 {
			t.Fatalf("cycle %d: W after the loss %.12g, want the BDP %g", cycle, sim.x[0], bdp)
		}
		t0 := sim.t
		got := sim.run(sim.t+100, windowReaches(bdp+buf)) - t0
		if algoRelErr(got, period) > 1e-3 {
			t.Errorf("cycle %d: fluid refill %.5f s, want %.5f s ±0.1%%", cycle, got, period)
		}
		t.Logf("cycle %d: fluid refill %.6f s (quadrature %.6f s)", cycle, got, period)
	}

	ev := alg.NewEvent(cfg)
	for cycle := range 2 {
		before := ev.Cwnd()
		ev.OnLoss(atFull)
		if algoRelErr(ev.Cwnd(), before*tau/atFull.RTT) > 1e-12 || algoRelErr(ev.Cwnd(), bdp) > 1e-3 {
			t.Fatalf("cycle %d: event W after the loss %.12g, want %g", cycle, ev.Cwnd(), bdp)
		}
		got := ackRoundsOf(ev, 0, 10000, bdp+buf, rtt, tau)
		if algoRelErr(got, period) > 8/bdp {
			t.Errorf("cycle %d: event refill %.5f s, want %.5f s ±0.8%%", cycle, got, period)
		}
		t.Logf("cycle %d: event refill %.6f s (quadrature %.6f s)", cycle, got, period)
	}
}

// A timeout is RFC 5681's: ssthresh = max(W/2, 2), W = 1, then COLO's two-part slow start
// (guard at ssthresh/2, or at ssthresh when one packet is already half of it).
func TestColoTimeout(t *testing.T) {
	o := Observation{Now: 5, RTT: 0.2, BaseRTT: 0.1}
	for _, c := range []struct{ w, thresh, guard float64 }{{1000, 500, 1 - 250}, {3, 2, 1 - 2}} {
		alg := mustAlgo(t, "colo")
		cfg := FlowConfig{InitialCwnd: c.w, InitialSsthresh: 1, MaxCwnd: 1e6}
		law := alg.NewFluid(cfg)
		x := []float64{0}
		law.Init(x, o)
		law.OnTimeout(x, o)
		if x[0] != 1 || law.Ssthresh() != c.thresh || law.Guard(x, o) != c.guard {
			t.Errorf("fluid timeout at %g: W %g ssthresh %g guard %g; want 1, %g, %g", c.w, x[0], law.Ssthresh(), law.Guard(x, o), c.thresh, c.guard)
		}
		ev := alg.NewEvent(cfg)
		ev.OnTimeout(o)
		if ev.Cwnd() != 1 || ev.Ssthresh() != c.thresh || RecoveryOf(alg) != RecoveryNewReno {
			t.Errorf("event timeout at %g: W %g ssthresh %g recovery %v", c.w, ev.Cwnd(), ev.Ssthresh(), RecoveryOf(alg))
		}
	}
}

func TestColoParams(t *testing.T) {
	alg := mustAlgo(t, "colo")
	d := alg.Describe()
	for _, m := range []string{"COLO", "reconstructed", "docs/models.md", "gamma", "alpha_min", "alpha_max", "beta_min", "alpha_shape", "qmax_at_loss"} {
		if !strings.Contains(d, m) {
			t.Errorf("Describe %q does not mention %q", d, m)
		}
	}
	want := map[string]float64{"gamma": 1, "alpha_min": 1, "alpha_max": 8, "beta_min": 0.5, "alpha_shape": 0, "qmax_at_loss": 1}
	params := alg.Params()
	if len(params) != len(want) {
		t.Errorf("%d parameters, want %d", len(params), len(want))
	}
	for _, p := range params {
		if def, ok := want[p.Name]; !ok || p.Default != def || p.Value != def {
			t.Errorf("parameter %+v, want default %g", p, want[p.Name])
		}
		if p.Default < p.Min || p.Default > p.Max || p.Unit == "" || p.Source == "" || p.Doc == "" {
			t.Errorf("incomplete or inconsistent %+v", p)
		}
	}
	for _, c := range []struct {
		param   string
		value   float64
		mention []string
	}{
		{"gamma", -1, []string{"colo.gamma", "-1", "[0, 10]"}},
		{"alpha_max", 0.5, []string{"colo.alpha_max", "0.5", "[1, 100]", "packets/RTT"}},
		{"beta_min", 1, []string{"colo.beta_min", "1", "[0.1, 0.95]"}},
		{"beta_min", math.NaN(), []string{"colo.beta_min", "NaN"}},
		{"alpha_shape", 0.5, []string{"colo.alpha_shape", "0.5", "whole"}},
		{"qmax_at_loss", 2, []string{"colo.qmax_at_loss", "2", "[0, 1]"}},
		{"q_max", 1, []string{"colo", "q_max", "gamma, alpha_min"}},
	} {
		err := alg.Set(c.param, c.value)
		if !errors.Is(err, ErrParam) {
			t.Errorf("%s = %v: error %v does not wrap ErrParam", c.param, c.value, err)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("error %q does not mention %q", err, m)
			}
		}
	}
	for i, p := range alg.Params() {
		if p.Value != params[i].Value {
			t.Errorf("a rejected Set changed %s to %g", p.Name, p.Value)
		}
	}
}

// No NaN or Inf for W in [1, 1e7] packets and RTT in [baseRTT, 100·baseRTT], in every
// regime, shape and reading of Q_max (engineering standard).
func TestColoFinite(t *testing.T) {
	const base = 0.05
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, params := range []map[string]float64{
		nil, {"alpha_shape": 1}, {"qmax_at_loss": 0}, {"gamma": 10, "alpha_min": 0, "alpha_max": 100, "beta_min": 0.1},
	} {
		alg := coloWith(t, params)
		for _, thresh := range []float64{0, 2, 1e4, 1e8} { // 0: the receiver window, 1e8
			for k := range 15 {
				w := math.Pow(10, float64(k)/2)
				for _, factor := range []float64{1, 1.001, 2, 10, 100} {
					o := Observation{Now: 1, RTT: factor * base, BaseRTT: base}
					cfg := FlowConfig{InitialCwnd: w, InitialSsthresh: thresh, MaxCwnd: 1e8}
					law := alg.NewFluid(cfg)
					x, dx := []float64{0}, []float64{0}
					law.Init(x, o)
					ev := alg.NewEvent(cfg)
					for step := range 4 {
						law.Deriv(dx, x, o)
						if !finite(dx[0]) || !finite(law.Guard(x, o)) || !finite(law.Ssthresh()) {
							t.Fatalf("%v W=%g RTT=%g·base step %d: dW/dt %g guard %g ssthresh %g",
								params, w, factor, step, dx[0], law.Guard(x, o), law.Ssthresh())
						}
						for range 3 {
							ev.OnAck(1.5, o)
						}
						if c := ev.Cwnd(); !finite(c) || c <= 0 || !finite(ev.Ssthresh()) {
							t.Fatalf("%v W=%g RTT=%g·base step %d: event cwnd %g ssthresh %g", params, w, factor, step, c, ev.Ssthresh())
						}
						switch step {
						case 0:
							law.OnLoss(x, o)
							ev.OnLoss(o)
						case 1:
							law.OnTimeout(x, o)
							ev.OnTimeout(o)
						case 2:
							law.Switch(x, o)
							law.OnLoss(x, o)
							ev.OnLoss(o)
						}
						x[0] = w
					}
				}
			}
		}
	}
}

// The hot paths allocate nothing.
func TestColoNoAllocations(t *testing.T) {
	o := Observation{Now: 1, RTT: 0.12, BaseRTT: 0.1}
	for _, cfg := range []FlowConfig{
		{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6},   // congestion avoidance
		{InitialCwnd: 500, InitialSsthresh: 800, MaxCwnd: 1e6}, // concave slow start
	} {
		alg := mustAlgo(t, "colo")
		law := alg.NewFluid(cfg)
		x, dx := []float64{0}, []float64{0}
		law.Init(x, o)
		law.OnLoss(x, Observation{Now: 1, RTT: 0.2, BaseRTT: 0.1})
		if n := testing.AllocsPerRun(100, func() { law.Deriv(dx, x, o) }); n != 0 {
			t.Errorf("Deriv: %g allocations", n)
		}
		ev := alg.NewEvent(cfg)
		if n := testing.AllocsPerRun(100, func() { o.Now += 1e-3; ev.OnAck(1, o) }); n != 0 {
			t.Errorf("OnAck: %g allocations", n)
		}
	}
}

func BenchmarkColoDeriv(b *testing.B) {
	law := mustAlgo(b, "colo").NewFluid(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
	x, dx := []float64{0}, []float64{0}
	law.Init(x, Observation{RTT: 0.12, BaseRTT: 0.1})
	law.OnLoss(x, Observation{RTT: 0.2, BaseRTT: 0.1})
	o := Observation{Now: 1, RTT: 0.12, BaseRTT: 0.1}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		o.RTT = 0.1 + float64(i&1023)*1e-4
		law.Deriv(dx, x, o)
	}
}

// COLO's increase α(Diff) and decrease β(RTT), and a random loss that costs nothing.
func ExampleCOLOAlpha() {
	for _, fill := range []float64{0, 0.25, 0.5, 1} {
		fmt.Printf("Diff = %.2f·Q_max: α = %.3f (log), %.3f (linear) packets/RTT\n",
			fill, COLOAlpha(fill*500, 500, 1, 8, false), COLOAlpha(fill*500, 500, 1, 8, true))
	}
	fmt.Printf("β at RTT = 1, 1.5, 3 × baseRTT: %.3f %.3f %.3f\n",
		COLOBeta(0.1, 0.1, 0.5), COLOBeta(0.1, 0.15, 0.5), COLOBeta(0.1, 0.3, 0.5))

	alg, _ := New("colo")
	flow := alg.NewEvent(FlowConfig{InitialCwnd: 1000, InitialSsthresh: 1})
	flow.OnLoss(Observation{RTT: 0.1, BaseRTT: 0.1})
	fmt.Println("random loss with an empty queue: W =", flow.Cwnd())
	// Output:
	// Diff = 0.00·Q_max: α = 8.000 (log), 8.000 (linear) packets/RTT
	// Diff = 0.25·Q_max: α = 5.498 (log), 6.250 (linear) packets/RTT
	// Diff = 0.50·Q_max: α = 3.659 (log), 4.500 (linear) packets/RTT
	// Diff = 1.00·Q_max: α = 1.000 (log), 1.000 (linear) packets/RTT
	// β at RTT = 1, 1.5, 3 × baseRTT: 1.000 0.667 0.500
	// random loss with an empty queue: W = 1000
}

// The fluid face's per-ACK increment is the event face's, in each regime: one ACK of a
// round moves both faces' windows alike (1 in the exponential part, (baseRTT/RTT)^γ in the
// concave part, max(α, 1)/W in congestion avoidance), so the counted form can count COLO's
// ACKs as a packet sender does.
func TestColoAckIncrementIsEventFace(t *testing.T) {
	alg := mustAlgo(t, "colo")
	o := Observation{RTT: 0.15, BaseRTT: 0.1}
	for _, c := range []struct {
		name     string
		cwnd, ss float64
	}{
		{"exponential", 100, 1024},
		{"concave", 600, 1024},
		{"avoidance", 2000, 1024},
	} {
		cfg := FlowConfig{InitialCwnd: c.cwnd, InitialSsthresh: c.ss, MaxCwnd: 1e6}
		f := alg.NewFluid(cfg)
		x := []float64{0}
		f.Init(x, o)
		x[0] = c.cwnd // the initial window sets the regime, as the event face's
		ev := alg.NewEvent(cfg)
		ev.OnAck(1, o)
		got := f.(AckIncrement).AckIncrement(x, o)
		if want := ev.Cwnd() - c.cwnd; math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: fluid increment %.9g per ACK, event face %.9g", c.name, got, want)
		}
	}
}
