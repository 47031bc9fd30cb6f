package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

var mptcpAlgos = []string{"lia", "olia", "vlia"}

// mpObs is an observation of subflows with the given RTTs (s) and no queueing.
func mpObs(now float64, rtts ...float64) Observation {
	subs := make([]SubflowObservation, len(rtts))
	for k, r := range rtts {
		subs[k] = SubflowObservation{RTT: r, BaseRTT: r}
	}
	return Observation{Now: now, RTT: rtts[0], BaseRTT: rtts[0], Subflows: subs}
}

// mpSteady observes fixed subflow RTTs at every time.
func mpSteady(rtts ...float64) lawObs {
	o := mpObs(0, rtts...)
	return func(t float64, _ []float64) Observation { o.Now = t; return o }
}

// mpFluid is a fluid law of algorithm name over len(w) subflows, past slow start, with
// subflow k's window w[k] packets; params are set first.
func mpFluid(t testing.TB, name string, params map[string]float64, w ...float64) (*coupledFluid, []float64) {
	t.Helper()
	alg := mustAlgo(t, name)
	for p, v := range params {
		if err := alg.Set(p, v); err != nil {
			t.Fatal(err)
		}
	}
	law := alg.NewFluid(FlowConfig{InitialCwnd: 1, InitialSsthresh: 1, MaxCwnd: 1e9, Subflows: len(w)}).(*coupledFluid)
	x := make([]float64, law.Vars())
	law.Init(x, Observation{})
	copy(x, w)
	return law, x
}

// mpEvent is the event face matching mpFluid.
func mpEvent(t testing.TB, name string, params map[string]float64, w ...float64) *coupledEvent {
	t.Helper()
	alg := mustAlgo(t, name)
	for p, v := range params {
		if err := alg.Set(p, v); err != nil {
			t.Fatal(err)
		}
	}
	e := alg.NewEvent(FlowConfig{InitialCwnd: 1, InitialSsthresh: 1, MaxCwnd: 1e9, Subflows: len(w)}).(*coupledEvent)
	copy(e.cwnd, w)
	return e
}

// mpAckRounds delivers ACKs on subflow k for the given number of its RTTs, one packet per
// ACK evenly spaced (the last ACK of a round carries any fraction of a packet), starting
// at time t0; it returns the time reached.
func mpAckRounds(e *coupledEvent, k int, t0 float64, rounds int, o Observation) float64 {
	o.Subflow = k
	rtt := o.Subflows[k].RTT
	t := t0
	for range rounds {
		n := e.CwndOf(k)
		whole := math.Floor(n)
		for i := 1.0; i <= whole+1; i++ {
			acked := 1.0
			if i > whole {
				if acked = n - whole; acked <= 0 {
					break
				}
			}
			t += rtt * acked / n
			o.Now = t
			e.OnAck(acked, o)
		}
	}
	return t
}

// RFC 6356 §3: α = W_total·max(W_i/τ_i²)/(Σ W_i/τ_i)².
func TestLIAAlpha(t *testing.T) {
	tests := []struct {
		name   string
		w, rtt []float64
		want   float64
	}{
		{"one path", []float64{37}, []float64{0.3}, 1},
		{"two identical paths: 1/n", []float64{100, 100}, []float64{0.1, 0.1}, 0.5},
		{"three identical paths: 1/n", []float64{7, 7, 7}, []float64{0.05, 0.05, 0.05}, 1.0 / 3},
		// 30 · max(10/0.01, 20/0.04) / (10/0.1 + 20/0.2)² = 30 · 1000 / 200² = 0.75
		{"hand", []float64{10, 20}, []float64{0.1, 0.2}, 0.75},
		// 300 · max(100/1e-4, 200/0.01) / (100/0.01 + 200/0.1)² = 300 · 1e6 / 1.2e4² = 2.0833
		{"short path dominates", []float64{100, 200}, []float64{0.01, 0.1}, 300 * 1e6 / 1.44e8},
		{"no window", []float64{0, 0}, []float64{0.1, 0.2}, 0},
	}
	for _, tt := range tests {
		if got := LIAAlpha(tt.w, tt.rtt); math.Abs(got-tt.want) > 1e-12*math.Max(1, tt.want) {
			t.Errorf("%s: α = %.15g, want %.15g", tt.name, got, tt.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("LIAAlpha with 2 windows and 1 RTT did not panic")
		}
	}()
	LIAAlpha([]float64{1, 2}, []float64{0.1})
}

// The fluid face: dW_i/dt = min(α/W_total, 1/W_i)·W_i/τ_i, by hand.
func TestLIAFluidRates(t *testing.T) {
	tests := []struct {
		name string
		w    []float64
		rtt  []float64
		want []float64 // packets/s
	}{
		// α/W_total = 1000/200² = 0.025 < 1/10, 1/20: 0.025·10/0.1 and 0.025·20/0.2.
		{"coupled increase", []float64{10, 20}, []float64{0.1, 0.2}, []float64{2.5, 2.5}},
		// α/W_total = 1e6/1.2e4² = 1/144; subflow 1's 1/W = 1/200 is smaller: it grows as
		// Reno on its path, 1/τ = 10 packets/s; subflow 0: 100/144/0.01 = 69.44.
		{"capped at 1/W_i", []float64{100, 200}, []float64{0.01, 0.1}, []float64{100 / 144.0 / 0.01, 10}},
	}
	for _, tt := range tests {
		law, x := mpFluid(t, "lia", nil, tt.w...)
		dx := make([]float64, len(x))
		law.Deriv(dx, x, mpObs(1, tt.rtt...))
		for k := range tt.want {
			if algoRelErr(dx[k], tt.want[k]) > 1e-12 {
				t.Errorf("%s: dW_%d/dt = %.12g, want %.12g", tt.name, k, dx[k], tt.want[k])
			}
		}
	}
}

// RFC 6356: on n identical paths α = 1/n, so each subflow grows by 1/n² packets per RTT and
// the flow by 1/n (not by a Reno flow's 1 per RTT: the flow's windows are halved one
// subflow at a time, so it is fair with a total growth of 1/n). With loss probability p per
// packet on every path, the mean-field drift α/W_total·W_i/τ − p·(W_i/τ)·W_i/2 vanishes at
// W_total = sqrt(2/p): one Reno flow's window.
func TestLIAIdenticalPaths(t *testing.T) {
	const rtt, w, rounds = 0.1, 100.0, 10
	for _, n := range []int{2, 3} {
		ws := make([]float64, n)
		rtts := make([]float64, n)
		for k := range ws {
			ws[k], rtts[k] = w, rtt
		}
		law, x := mpFluid(t, "lia", nil, ws...)
		sim := newLawSim(law, rtt/100, mpSteady(rtts...), 0)
		copy(sim.x, x)
		sim.run(rounds*rtt, nil)
		total := 0.0
		for k := range n {
			total += sim.x[k]
			want := w + rounds/float64(n*n)
			if algoRelErr(sim.x[k], want) > 1e-9 {
				t.Errorf("n=%d: W_%d after %d RTTs = %.9g, want %.9g (+1/n² per RTT)", n, k, rounds, sim.x[k], want)
			}
		}
		if want := float64(n)*w + rounds/float64(n); algoRelErr(total, want) > 1e-9 {
			t.Errorf("n=%d: W_total after %d RTTs = %.9g, want %.9g (+1/n per RTT)", n, rounds, total, want)
		}
		t.Logf("n=%d: W_total grew %.6f packets per RTT", n, (total-float64(n)*w)/rounds)
		const p = 1e-4
		for k := range n {
			x[k] = math.Sqrt(2/p) / float64(n)
		}
		dx := make([]float64, len(x))
		law.Deriv(dx, x, mpObs(0, rtts...))
		for k := range n {
			loss := p * (x[k] / rtt) * x[k] / 2
			if math.Abs(dx[k]-loss) > 1e-12*loss {
				t.Errorf("n=%d: at W_total = sqrt(2/p) subflow %d grows %.12g packets/s, loses %.12g", n, k, dx[k], loss)
			}
		}
	}
}

// RFC 6356 goal 2 in window form: Σ dW_i/dt = Σ min(α/W_total, 1/W_i)·W_i/τ_i
// ≤ max(W_i/τ_i²)/Σ(W_i/τ_i) ≤ 1/τ_min, a Reno flow's growth on the shortest path; a single
// path is exactly Reno.
func TestLIANoMoreAggressiveThanReno(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 6356))
	logUniform := func(lo, hi float64) float64 { return lo * math.Pow(hi/lo, rng.Float64()) }
	worst := 0.0
	for range 2000 {
		n := 1 + rng.IntN(4)
		w := make([]float64, n)
		rtts := make([]float64, n)
		minRTT := math.Inf(1)
		for k := range n {
			w[k], rtts[k] = logUniform(1, 1e4), logUniform(1e-3, 1)
			minRTT = math.Min(minRTT, rtts[k])
		}
		law, x := mpFluid(t, "lia", nil, w...)
		dx := make([]float64, len(x))
		law.Deriv(dx, x, mpObs(0, rtts...))
		sum := 0.0
		for k := range n {
			sum += dx[k]
		}
		ratio := sum * minRTT
		worst = math.Max(worst, ratio)
		if ratio > 1+1e-12 || (n == 1 && math.Abs(ratio-1) > 1e-12) {
			t.Fatalf("W %v RTT %v: dW_total/dt = %g packets/s, Reno on the shortest path %g", w, rtts, sum, 1/minRTT)
		}
	}
	t.Logf("largest dW_total/dt · τ_min over 2000 random states: %.6f", worst)
}

// OLIA (Khalili et al. 2012): per ACK on r, (W_r/τ_r²)/(Σ W_p/τ_p)² + ε_r/W_r with
// ε_r = 1/(n·|B∖M|) on the collected paths B∖M, −1/(n·|M|) on the largest-window paths M
// when B∖M is not empty, else 0. Hand numbers with τ = 0.1 s: Σ W/τ = 300 packets/s for
// W = [10, 20], 500 for [10, 10, 30].
func TestOLIAIncrease(t *testing.T) {
	tests := []struct {
		name    string
		w, ell  []float64 // windows and ℓ2 (packets acknowledged since the last loss)
		eps     []float64
		perAck  []float64
		dWdt    []float64
		comment string
	}{
		{"best path small: ε moves window to it", []float64{10, 20}, []float64{1000, 10},
			[]float64{0.5, -0.5},
			[]float64{1000/9e4 + 0.5/10, 2000/9e4 - 0.5/20},
			[]float64{(1000/9e4 + 0.05) * 100, (2000/9e4 - 0.025) * 200}, "B={0}, M={1}"},
		{"best path largest: ε = 0", []float64{10, 20}, []float64{10, 1000},
			[]float64{0, 0},
			[]float64{1000 / 9e4, 2000 / 9e4},
			[]float64{1000 / 9e4 * 100, 2000 / 9e4 * 200}, "B = M = {1}"},
		{"three paths, two collected", []float64{10, 10, 30}, []float64{1000, 1000, 10},
			[]float64{1.0 / 6, 1.0 / 6, -1.0 / 3},
			[]float64{1000/2.5e5 + 1.0/60, 1000/2.5e5 + 1.0/60, 3000/2.5e5 - 1.0/90}, nil, "B={0,1}, M={2}"},
	}
	for _, tt := range tests {
		n := len(tt.w)
		rtts := make([]float64, n)
		for k := range rtts {
			rtts[k] = 0.1
		}
		o := mpObs(1, rtts...)
		law, x := mpFluid(t, "olia", nil, tt.w...)
		copy(x[n:], tt.ell)
		dx := make([]float64, len(x))
		law.Deriv(dx, x, o)
		sumEps := 0.0
		for k := range n {
			eps := law.oliaEpsilon(k, x[:n], x[n:], o)
			sumEps += eps
			if math.Abs(eps-tt.eps[k]) > 1e-15 {
				t.Errorf("%s (%s): ε_%d = %.15g, want %.15g", tt.name, tt.comment, k, eps, tt.eps[k])
			}
			want := tt.perAck[k] * tt.w[k] / 0.1
			if tt.dWdt != nil {
				want = tt.dWdt[k]
			}
			if math.Abs(dx[k]-want) > 1e-12*math.Abs(want) {
				t.Errorf("%s: dW_%d/dt = %.12g, want %.12g", tt.name, k, dx[k], want)
			}
			if want := tt.w[k] / 0.1; algoRelErr(dx[n+k], want) > 1e-15 {
				t.Errorf("%s: dℓ2_%d/dt = %g, want the ACK rate %g", tt.name, k, dx[n+k], want)
			}
			ev := mpEvent(t, "olia", nil, tt.w...)
			copy(ev.acked, tt.ell)
			ev.acked[k]-- // the ACK counts itself before the increase is computed
			o.Subflow = k
			ev.OnAck(1, o)
			if got := ev.CwndOf(k) - tt.w[k]; math.Abs(got-tt.perAck[k]) > 1e-12 {
				t.Errorf("%s: event increase on subflow %d = %.12g per ACK, want %.12g", tt.name, k, got, tt.perAck[k])
			}
		}
		if math.Abs(sumEps) > 1e-15 {
			t.Errorf("%s: Σ ε = %g, want 0", tt.name, sumEps)
		}
	}
}

// OLIA's ℓ = max(ℓ1, ℓ2): a loss moves ℓ2 into ℓ1 and halves the window, so the path stays
// best; and membership of M ramps over tie_pkts below the largest window, keeping Σ ε = 0.
func TestOLIAInterLossAndTies(t *testing.T) {
	o := mpObs(1, 0.1, 0.1)
	law, x := mpFluid(t, "olia", nil, 10, 20)
	x[2], x[3] = 500, 10
	o.Subflow = 0
	law.OnLoss(x, o)
	if x[0] != 5 || x[2] != 0 || law.gap[0] != 500 || law.SsthreshOf(0) != 5 {
		t.Fatalf("after a loss on subflow 0: W %g, ℓ2 %g, ℓ1 %g, ssthresh %g; want 5, 0, 500, 5", x[0], x[2], law.gap[0], law.SsthreshOf(0))
	}
	dx := make([]float64, 4)
	law.Deriv(dx, x, o)
	// (5/0.01)/(50 + 200)² + 0.5/5 per ACK, 50 ACKs/s.
	if want := (500/62500.0 + 0.1) * 50; math.Abs(dx[0]-want) > 1e-12*want {
		t.Errorf("after the loss dW_0/dt = %.12g, want %.12g (ℓ1 = 500 keeps it best)", dx[0], want)
	}
	// W_0 half a packet below W_1 with tie_pkts = 1: m_0 = 1/2, collected 1/2, so
	// ε_0 = (1/2)·(1 − (1/2)/(3/2))/2 = 1/6 and ε_1 = (1/2)·(0 − 1/(3/2))/2 = −1/6.
	x[0], x[1], x[2] = 19.5, 20, 1000
	e0, e1 := law.oliaEpsilon(0, x[:2], x[2:], o), law.oliaEpsilon(1, x[:2], x[2:], o)
	if math.Abs(e0-1.0/6) > 1e-15 || math.Abs(e1+1.0/6) > 1e-15 {
		t.Errorf("ε at W = [19.5, 20] = %.15g, %.15g; want 1/6, −1/6", e0, e1)
	}
	// Continuity across the ramp's lower end, where Linux's integer comparison jumps.
	x[0] = 19 - 1e-9
	below := law.oliaEpsilon(0, x[:2], x[2:], o)
	x[0] = 19 + 1e-9
	above := law.oliaEpsilon(0, x[:2], x[2:], o)
	if below != 0.5 || math.Abs(above-0.5) > 1e-8 {
		t.Errorf("ε_0 across W_max − tie: %.12g below, %.12g above; want 1/2 on both sides", below, above)
	}
}

// VLIA's virtual Reno window: CUBIC's mean window k_c·(τ/p)^(3/4) maps to Reno's
// sqrt(3/(2p)) at the same p (RFC 8312 §5.1 and the Reno response function); docs/models.md
// writes k_c as 1.054 (it is 1.05383 at C = 0.4, β = 0.7).
func TestVirtualRenoWindow(t *testing.T) {
	kc := math.Pow(0.4*3.7/1.2, 0.25)
	if math.Abs(kc-1.054) > 5e-4 {
		t.Fatalf("k_c = %.6f, docs/models.md 1.054", kc)
	}
	for _, c := range []struct{ p, rtt float64 }{{1e-6, 0.1}, {1e-6, 0.2}, {1e-5, 0.05}, {1e-8, 1}} {
		wCubic := kc * math.Pow(c.rtt/c.p, 0.75)
		want := math.Sqrt(1.5 / c.p)
		if got := VirtualRenoWindow(wCubic, c.rtt, 0.4, 0.7); algoRelErr(got, want) > 1e-12 {
			t.Errorf("p=%g τ=%g: CUBIC mean %.2f → %.6f, want Reno's mean %.6f", c.p, c.rtt, wCubic, got, want)
		}
		literal := math.Sqrt(1.5) * math.Pow(wCubic/1.054, 2.0/3) / math.Sqrt(c.rtt)
		if got := VirtualRenoWindow(wCubic, c.rtt, 0.4, 0.7); algoRelErr(got, literal) > 2e-4 {
			t.Errorf("p=%g τ=%g: %.6f vs docs/models.md's literal formula %.6f", c.p, c.rtt, got, literal)
		}
	}
	if got := VirtualRenoWindow(8000, 0.15, 0.4, 0.7); math.Abs(got-1221.46) > 0.01 {
		t.Errorf("W_vR(8000 packets, 0.15 s) = %.3f, want 1221.46 (doc example)", got)
	}
	// Below the crossing 1.5^(3/2)/k_c²/τ^(3/2) = 52.3 packets at 0.1 s, CUBIC is Reno.
	cross := math.Pow(1.5, 1.5) / (kc * kc) / math.Pow(0.1, 1.5)
	for _, w := range []float64{1, 10, cross * 0.999} {
		if got := VirtualRenoWindow(w, 0.1, 0.4, 0.7); got != w {
			t.Errorf("W_vR(%g packets, 0.1 s) = %g, want the CUBIC window itself", w, got)
		}
	}
	if got := VirtualRenoWindow(cross*1.001, 0.1, 0.4, 0.7); got >= cross*1.001 {
		t.Errorf("above the crossing %.2f W_vR = %g, want below W", cross, got)
	}
	if VirtualRenoWindow(0, 0.1, 0.4, 0.7) != 0 || VirtualRenoWindow(-3, 0.1, 0.4, 0.7) != 0 {
		t.Error("W_vR of a non-positive window is not 0")
	}
}

// VLIA's classification: the BDP estimate is max(W·BaseRTT/RTT) at congestion events; a
// subflow above bdp_threshold_pkts (1000) runs CUBIC (β = 0.7) from that event on, the
// others LIA (halving).
func TestVLIAClassification(t *testing.T) {
	o := mpObs(0, 0.1, 0.02)
	o.Subflows[0].RTT = 0.2 // queueing doubles subflow 0's RTT
	law, x := mpFluid(t, "vlia", nil, 2000, 50)
	ev := mpEvent(t, "vlia", nil, 2000, 50)
	steps := []struct {
		sub       int
		w         float64 // window set before the loss
		after     float64
		cubic     bool
		estimate  float64
		situation string
	}{
		{1, 50, 25, false, 50, "small path: LIA halves"},
		{0, 2000, 1000, false, 1000, "estimate 2000·0.1/0.2 = 1000 is not above the threshold"},
		{0, 3000, 2100, true, 1500, "estimate 1500: CUBIC from this loss on, 0.7·W"},
		{0, 2100, 1470, true, 1500, "CUBIC again"},
	}
	for _, s := range steps {
		o.Subflow = s.sub
		x[s.sub] = s.w
		law.OnLoss(x, o)
		ev.cwnd[s.sub] = s.w
		if ev.cubic[s.sub] {
			ev.ce[s.sub].cwnd = s.w
		}
		ev.OnLoss(o)
		for face, got := range map[string]struct {
			w     float64
			cubic bool
			est   float64
		}{"fluid": {x[s.sub], law.cubic[s.sub], law.bdp[s.sub]}, "event": {ev.CwndOf(s.sub), ev.cubic[s.sub], ev.bdp[s.sub]}} {
			if math.Abs(got.w-s.after) > 1e-9 || got.cubic != s.cubic || math.Abs(got.est-s.estimate) > 1e-9 {
				t.Errorf("%s, %s: W %g, CUBIC %v, estimate %g; want %g, %v, %g", s.situation, face, got.w, got.cubic, got.est, s.after, s.cubic, s.estimate)
			}
		}
	}
	if law.SsthreshOf(0) != 1470 || ev.SsthreshOf(0) != 1470 || law.Ssthresh() != 1470+25 || ev.Ssthresh() != 1470+25 {
		t.Errorf("ssthresh: fluid %g (subflow 0 %g), event %g (subflow 0 %g); want 1495 (1470)", law.Ssthresh(), law.SsthreshOf(0), ev.Ssthresh(), ev.SsthreshOf(0))
	}
	// A higher threshold keeps the subflow on LIA.
	law, x = mpFluid(t, "vlia", map[string]float64{"bdp_threshold_pkts": 5000}, 3000, 50)
	o.Subflow = 0
	law.OnLoss(x, o)
	if x[0] != 1500 || law.cubic[0] {
		t.Errorf("bdp_threshold_pkts = 5000: W %g, CUBIC %v after a loss at 3000; want 1500, false", x[0], law.cubic[0])
	}
}

// VLIA classifies at setup from the path BDPs it is given (FlowConfig.PathBDP, seed 001's
// 4281 and 171 packets): the long path's subflow runs CUBIC from the start, so its first
// loss, at 800 packets (too few for a congestion event to classify it), keeps β = 0.7 of
// the window, while the short path's halves (LIA); with a threshold above 4281 both run LIA.
func TestVLIASetupClassification(t *testing.T) {
	o := mpObs(0, 0.1, 0.02)
	for _, c := range []struct {
		threshold float64
		after     [2]float64
	}{
		{1000, [2]float64{560, 25}},
		{5000, [2]float64{400, 25}},
	} {
		alg := mustAlgo(t, "vlia")
		if err := alg.Set("bdp_threshold_pkts", c.threshold); err != nil {
			t.Fatal(err)
		}
		cfg := FlowConfig{InitialCwnd: 1, InitialSsthresh: 1, MaxCwnd: 1e9, Subflows: 2, PathBDP: []float64{4281, 171}}
		law := alg.NewFluid(cfg).(*coupledFluid)
		x := make([]float64, law.Vars())
		law.Init(x, o)
		ev := alg.NewEvent(cfg).(*coupledEvent)
		for k, w := range []float64{800, 50} {
			o.Subflow = k
			x[k] = w
			law.OnLoss(x, o)
			ev.cwnd[k] = w
			if ev.cubic[k] {
				ev.ce[k].cwnd = w
			}
			ev.OnLoss(o)
			if x[k] != c.after[k] || ev.CwndOf(k) != c.after[k] {
				t.Errorf("threshold %g, subflow %d: W %g after a loss at %g (fluid), %g (event); want %g",
					c.threshold, k, x[k], w, ev.CwndOf(k), c.after[k])
			}
		}
	}
}

// A CUBIC subflow of VLIA follows CUBIC's curve W_max + C(t−K)³ after a loss at
// W_max = 2000 packets (K = cbrt(2000·0.3/0.4) = 11.45 s; within 1% in the fluid face and
// 2% in the event face, as TestCubicCurve), while the LIA subflow's growth uses the
// virtual Reno window in α.
func TestVLIACubicSubflow(t *testing.T) {
	const wmax = 2000.0
	rtts := []float64{0.1, 0.02}
	k := CubicK(wmax, 0.4, 0.7)
	curve := func(t float64) float64 { return 0.4*math.Pow(t-k, 3) + wmax }
	o := mpObs(0, rtts...)
	law, x := mpFluid(t, "vlia", nil, wmax, 50)
	sim := newLawSim(law, 1e-3, mpSteady(rtts...), 0)
	copy(sim.x, x)
	law.OnLoss(sim.x, o)
	if !law.cubic[0] || sim.x[0] != 1400 {
		t.Fatalf("after the loss: CUBIC %v, W %g; want true, 1400", law.cubic[0], sim.x[0])
	}
	for _, at := range []float64{2, 5, 8, k, 13} {
		sim.run(at, nil)
		if algoRelErr(sim.x[0], curve(at)) > 0.01 {
			t.Errorf("fluid W_0(%.2f s) = %.2f, curve %.2f ±1%%", at, sim.x[0], curve(at))
		}
		t.Logf("fluid W_0(%.3f s) = %.3f, curve %.3f; W_1 = %.3f", at, sim.x[0], curve(at), sim.x[1])
	}
	dx := make([]float64, 4)
	law.Deriv(dx, sim.x, mpObs(13, rtts...))
	wv := VirtualRenoWindow(sim.x[0], 0.1, 0.4, 0.7)
	best := math.Max(wv/0.01, sim.x[1]/0.0004)
	rate := wv/0.1 + sim.x[1]/0.02
	if want := math.Min(best/(rate*rate), 1/sim.x[1]) * sim.x[1] / 0.02; algoRelErr(dx[1], want) > 1e-12 {
		t.Errorf("LIA subflow: dW_1/dt = %.12g, want %.12g with W_vR = %.3f for W_0 = %.3f", dx[1], want, wv, sim.x[0])
	}
	// sqrt_alpha: the virtual window is scaled by sqrt(α') first.
	lawS, xs := mpFluid(t, "vlia", map[string]float64{"sqrt_alpha": 1}, wmax, 50)
	lawS.OnLoss(xs, o)
	copy(xs, sim.x[:2])
	lawS.Deriv(dx, xs, mpObs(13, rtts...))
	scaled := math.Sqrt(LIAAlpha([]float64{wv, xs[1]}, rtts)) * wv
	best = math.Max(scaled/0.01, xs[1]/0.0004)
	rate = scaled/0.1 + xs[1]/0.02
	if want := math.Min(best/(rate*rate), 1/xs[1]) * xs[1] / 0.02; algoRelErr(dx[1], want) > 1e-12 {
		t.Errorf("sqrt_alpha: dW_1/dt = %.12g, want %.12g with sqrt(α)·W_vR = %.3f", dx[1], want, scaled)
	}
	ev := mpEvent(t, "vlia", nil, wmax, 50)
	ev.OnLoss(o)
	now := 0.0
	for _, at := range []float64{2, 5, 8, k, 13} {
		now = mpAckRounds(ev, 0, now, int(math.Round((at-now)/0.1)), o)
		if algoRelErr(ev.CwndOf(0), curve(now)) > 0.02 {
			t.Errorf("event W_0(%.2f s) = %.2f, curve %.2f ±2%%", now, ev.CwndOf(0), curve(now))
		}
	}
}

// The event face's per-ACK increments over one round of W_k ACKs add up to the fluid rate
// times one RTT, within 1% (the window moves by under a packet in the round).
func TestMPTCPEventMatchesFluid(t *testing.T) {
	rtts := []float64{0.1, 0.03}
	w := []float64{300, 120}
	for _, name := range mptcpAlgos {
		for k := range w {
			o := mpObs(0, rtts...)
			law, x := mpFluid(t, name, nil, w...)
			ev := mpEvent(t, name, nil, w...)
			switch name {
			case "olia":
				// Subflow 1 is best (ℓ/τ²), subflow 0 largest: ε = ±1/2.
				x[2], x[3] = 100, 5000
				ev.acked[0], ev.acked[1] = 100, 5000
			case "vlia":
				// Subflow 0 runs CUBIC (estimate 3000 > 1000) and counts as W_vR.
				if k == 0 {
					continue
				}
				x[0], ev.cwnd[0] = 3000, 3000
				o.Subflow = 0
				law.OnLoss(x, o)
				ev.OnLoss(o)
			}
			dx := make([]float64, len(x))
			law.Deriv(dx, x, o)
			want := dx[k] * rtts[k]
			before := ev.CwndOf(k)
			mpAckRounds(ev, k, 0, 1, o)
			got := ev.CwndOf(k) - before
			if algoRelErr(got, want) > 0.01 {
				t.Errorf("%s subflow %d: event round adds %.6f packets, fluid rate × RTT %.6f ±1%%", name, k, got, want)
			}
			t.Logf("%s subflow %d: event %.6f, fluid %.6f packets per RTT", name, k, got, want)
		}
	}
}

// Each subflow slow-starts on its own clock, doubling per its RTT (W·ln2/τ_k), and leaves
// slow start at its ssthresh; the fluid face locates both exits with its one guard.
func TestMPTCPSlowStartPerSubflow(t *testing.T) {
	rtts := []float64{0.1, 0.05}
	for _, name := range mptcpAlgos {
		alg := mustAlgo(t, name)
		cfg := FlowConfig{InitialCwnd: 1, InitialSsthresh: 16, MaxCwnd: 1e6, Subflows: 2}
		law := alg.NewFluid(cfg)
		sim := newLawSim(law, 1e-4, mpSteady(rtts...), 0)
		sim.run(0.15, nil)
		for k, want := range []float64{math.Exp2(1.5), 8} {
			if algoRelErr(sim.x[k], want) > 1e-3 {
				t.Errorf("%s fluid W_%d(0.15 s) = %.6f, want %.6f", name, k, sim.x[k], want)
			}
		}
		sim.run(0.5, nil)
		if sim.switches != 2 || math.Abs(sim.switchT-0.4) > 1e-3 || law.Guard(sim.x, mpObs(0.5, rtts...)) >= 0 {
			t.Errorf("%s: %d slow-start exits, the last at %.5f s; want 2, the last at 0.4 s", name, sim.switches, sim.switchT)
		}
		ev := alg.NewEvent(cfg).(*coupledEvent)
		o := mpObs(0, rtts...)
		for k := range 2 {
			mpAckRounds(ev, k, 0, 3, o)
			if ev.CwndOf(k) != 8 {
				t.Errorf("%s event W_%d after 3 of its RTTs = %g, want 8", name, k, ev.CwndOf(k))
			}
		}
		if ev.Cwnd() != 16 {
			t.Errorf("%s event Cwnd = %g, want the sum 16", name, ev.Cwnd())
		}
	}
}

// A loss or a timeout concerns one subflow: the others keep their windows.
func TestMPTCPLossPerSubflow(t *testing.T) {
	for _, name := range mptcpAlgos {
		o := mpObs(3, 0.1, 0.02)
		law, x := mpFluid(t, name, nil, 40, 30)
		ev := mpEvent(t, name, nil, 40, 30)
		o.Subflow = 1
		law.OnLoss(x, o)
		ev.OnLoss(o)
		if x[0] != 40 || x[1] != 15 || ev.CwndOf(0) != 40 || ev.CwndOf(1) != 15 || ev.Cwnd() != 55 {
			t.Errorf("%s loss on subflow 1: fluid %v, event %g %g (total %g); want 40, 15", name, x[:2], ev.CwndOf(0), ev.CwndOf(1), ev.Cwnd())
		}
		o.Subflow = 0
		law.OnTimeout(x, o)
		ev.OnTimeout(o)
		if x[0] != 1 || x[1] != 15 || law.SsthreshOf(0) != 20 || ev.CwndOf(0) != 1 || ev.SsthreshOf(0) != 20 {
			t.Errorf("%s timeout on subflow 0: fluid %v ssthresh %g, event %g ssthresh %g; want 1, 15 and 20", name, x[:2], law.SsthreshOf(0), ev.CwndOf(0), ev.SsthreshOf(0))
		}
		// The flow's guard is the largest subflow guard, and never below −1.
		if g, g0 := law.Guard(x, o), law.guardOf(0, x); g != -1 || g0 != -19 {
			t.Errorf("%s guard after the timeout = %g (subflow 0: %g), want −1 (1 − 20)", name, g, g0)
		}
		if RecoveryOf(mustAlgo(t, name)) != RecoveryNewReno || ev.CwndOf(2) != 0 || ev.CwndOf(-1) != 0 {
			t.Errorf("%s: recovery %v, CwndOf(2) %g", name, RecoveryOf(mustAlgo(t, name)), ev.CwndOf(2))
		}
		if _, ok := Algorithm(mustAlgo(t, name)).(Multipath); !ok {
			t.Errorf("%s does not implement Multipath", name)
		}
		if _, ok := EventLaw(ev).(MultipathEventLaw); !ok {
			t.Errorf("%s event face does not implement MultipathEventLaw", name)
		}
	}
}

// Windows, derivatives and guards stay finite for 2 and 3 subflows over windows of 1 to
// 1e7 packets and RTTs of 0.1 ms to 10 s, after losses, timeouts and CUBIC switches.
func TestMPTCPLawsFinite(t *testing.T) {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, name := range mptcpAlgos {
		for _, n := range []int{2, 3} {
			for _, rtt := range []float64{1e-4, 0.1, 10} {
				for _, base := range []float64{rtt, rtt / 3, 0} {
					for _, w := range []float64{1, 2, 1e3, 1e7} {
						ws := make([]float64, n)
						rtts := make([]float64, n)
						for k := range n {
							ws[k], rtts[k] = w/float64(k+1), rtt*float64(k+1)
						}
						o := mpObs(5, rtts...)
						for k := range o.Subflows {
							o.Subflows[k].BaseRTT = base * float64(k+1)
						}
						law, x := mpFluid(t, name, nil, ws...)
						ev := mpEvent(t, name, nil, ws...)
						dx := make([]float64, len(x))
						for step := range 4 * n {
							o.Subflow = step % n
							switch step / n {
							case 1:
								law.OnLoss(x, o)
								ev.OnLoss(o)
							case 2:
								law.OnTimeout(x, o)
								ev.OnTimeout(o)
							case 3:
								if law.Guard(x, o) > -1 {
									law.Switch(x, o)
								}
								law.OnLoss(x, o)
								ev.OnLoss(o)
							}
							law.Deriv(dx, x, o)
							for i, d := range dx {
								if !finite(d) || !finite(x[i]) {
									t.Fatalf("%s n=%d W=%g RTT=%g base=%g step %d: x[%d] = %g, dx = %g", name, n, w, rtt, base, step, i, x[i], d)
								}
							}
							for range 3 {
								ev.OnAck(1, o)
							}
							if g, s, c := law.Guard(x, o), law.Ssthresh(), ev.Cwnd(); !finite(g) || !finite(s) || !finite(c) || c <= 0 {
								t.Fatalf("%s n=%d W=%g RTT=%g step %d: guard %g, ssthresh %g, event cwnd %g", name, n, w, rtt, step, g, s, c)
							}
						}
					}
				}
			}
		}
	}
}

func TestMPTCPParams(t *testing.T) {
	sources := map[string][]string{"lia": {"RFC 6356"}, "olia": {"Khalili"}, "vlia": {"seed 001", "reconstruction"}}
	for _, name := range mptcpAlgos {
		alg := mustAlgo(t, name)
		if mp, ok := alg.(Multipath); !ok || !mp.Multipath() {
			t.Errorf("%s: Multipath() is not true", name)
		}
		for _, s := range sources[name] {
			if !strings.Contains(alg.Describe(), s) {
				t.Errorf("%s: Describe %q does not mention %q", name, alg.Describe(), s)
			}
		}
		for _, p := range alg.Params() {
			if p.Value != p.Default || p.Default < p.Min || p.Default > p.Max || p.Unit == "" || p.Source == "" || p.Doc == "" ||
				math.IsInf(p.Min, 0) || math.IsInf(p.Max, 0) {
				t.Errorf("%s.%s: incomplete or inconsistent %+v", name, p.Name, p)
			}
		}
	}
	if got := len(mustAlgo(t, "vlia").Params()); got != 6 {
		t.Errorf("vlia has %d parameters, want 6", got)
	}
	for _, c := range []struct {
		algo, param string
		value       float64
		mention     []string
	}{
		{"vlia", "bdp_threshold_pkts", 0, []string{"vlia.bdp_threshold_pkts", "0", "[1, 1e+09]", "packets"}},
		{"vlia", "sqrt_alpha", 0.5, []string{"vlia.sqrt_alpha", "whole"}},
		{"vlia", "beta", 1, []string{"vlia.beta", "[0.5, 0.95]"}},
		{"olia", "tie_pkts", -1, []string{"olia.tie_pkts", "-1", "[0.001, 100]"}},
		{"lia", "alpha", 1, []string{"lia", "no parameters"}},
	} {
		err := mustAlgo(t, c.algo).Set(c.param, c.value)
		if !errors.Is(err, ErrParam) {
			t.Errorf("%s.%s = %v: error %v does not wrap ErrParam", c.algo, c.param, c.value, err)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("error %q does not mention %q", err, m)
			}
		}
	}
	// A CUBIC parameter reaches VLIA's CUBIC subflows.
	law, x := mpFluid(t, "vlia", map[string]float64{"beta": 0.8}, 3000, 10)
	law.OnLoss(x, mpObs(0, 0.1, 0.1))
	if x[0] != 2400 {
		t.Errorf("vlia.beta = 0.8: W after a CUBIC loss at 3000 = %g, want 2400", x[0])
	}
}

// The hot paths allocate nothing.
func TestMPTCPNoAllocations(t *testing.T) {
	for _, name := range mptcpAlgos {
		law, x := mpFluid(t, name, nil, 3000, 50)
		ev := mpEvent(t, name, nil, 3000, 50)
		o := mpObs(1, 0.12, 0.03)
		law.OnLoss(x, o) // VLIA: subflow 0 to CUBIC
		ev.OnLoss(o)
		dx := make([]float64, len(x))
		if n := testing.AllocsPerRun(100, func() { law.Deriv(dx, x, o) }); n != 0 {
			t.Errorf("%s Deriv: %g allocations", name, n)
		}
		if n := testing.AllocsPerRun(100, func() { o.Now += 1e-3; o.Subflow ^= 1; ev.OnAck(1, o) }); n != 0 {
			t.Errorf("%s OnAck: %g allocations", name, n)
		}
	}
}

func BenchmarkMPTCPDeriv(b *testing.B) {
	for _, name := range mptcpAlgos {
		b.Run(name, func(b *testing.B) {
			law, x := mpFluid(b, name, nil, 3000, 50)
			o := mpObs(1, 0.12, 0.03)
			law.OnLoss(x, o)
			dx := make([]float64, len(x))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				o.Now = 1 + float64(i&1023)*1e-3
				law.Deriv(dx, x, o)
			}
		})
	}
}

func BenchmarkMPTCPOnAck(b *testing.B) {
	for _, name := range mptcpAlgos {
		b.Run(name, func(b *testing.B) {
			ev := mpEvent(b, name, nil, 3000, 50)
			o := mpObs(1, 0.12, 0.03)
			ev.OnLoss(o)
			b.ReportAllocs()
			for b.Loop() {
				o.Now += 1e-4
				o.Subflow ^= 1
				ev.OnAck(1, o)
				if ev.CwndOf(o.Subflow) > 1e5 {
					ev.OnLoss(o)
				}
			}
		})
	}
}

// seed001-mptcp against seed 001 and docs/references.md.
func TestSeed001Builtin(t *testing.T) {
	sc, err := Builtin("seed001-mptcp")
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		what      string
		got, want float64
	}{
		{"duration s", sc.DurationS, 1000},
		{"p1 capacity bit/s", sc.Links[0].CapacityBps, 500e6},
		{"p1 RTT s", sc.PathRTTS(0), 0.1},
		{"p1 buffer packets: ceil(500e6·0.1/11680)", sc.Links[0].BufferPkts, 4281},
		{"p2 capacity bit/s", sc.Links[1].CapacityBps, 100e6},
		{"p2 RTT s", sc.PathRTTS(1), 0.02},
		{"p2 buffer packets: ceil(100e6·0.02/11680)", sc.Links[1].BufferPkts, 172},
		{"p1 random loss", sc.Links[0].LossP, 1e-6},
		{"p2 random loss", sc.Links[1].LossP, 1e-6},
		{"MSS bytes", sc.Flows[0].MSSBytes + sc.Flows[1].MSSBytes, 2 * 1460},
		{"rwnd bytes (window scaling)", sc.Flows[0].RwndBytes, 1 << 30},
	}
	for _, c := range checks {
		if algoRelErr(c.got, c.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	f := sc.Flows
	if f[0].Algorithm != "lia" || len(f[0].Paths) != 2 || f[0].Paths[0] != "p1" || f[0].Paths[1] != "p2" ||
		f[1].Algorithm != "reno" || f[1].Path != "p2" || sc.Links[0].Loss != LossRandom || sc.Links[1].Loss != LossRandom ||
		sc.DropRule != DropProportional {
		t.Errorf("flows %+v, links %+v, drop rule %q", f, sc.Links, sc.DropRule)
	}
}

// α for the windows and RTTs of seed 001's two paths, and the virtual Reno window VLIA puts
// in place of a CUBIC window of 8000 packets on p1.
func ExampleLIAAlpha() {
	w := []float64{1300, 60}    // packets on p1 and p2
	rtt := []float64{0.1, 0.04} // s, with queueing on p2
	fmt.Printf("α = %.3f\n", LIAAlpha(w, rtt))
	fmt.Printf("α = %.3f for two identical paths\n", LIAAlpha([]float64{50, 50}, []float64{0.1, 0.1}))
	fmt.Printf("W_vR = %.0f packets\n", VirtualRenoWindow(8000, 0.15, 0.4, 0.7))
	// Output:
	// α = 0.841
	// α = 0.500 for two identical paths
	// W_vR = 1221 packets
}

// LIA counts ACKs (docs/models.md "per ACK"; Linux mptcp_coupled.c): behind a receiver that
// acknowledges every second packet its congestion-avoidance increase halves, in the fluid
// face by the ACK rate W/(2τ) and in the event face by one increase per ACK whatever it
// acknowledges; slow start and OLIA count packets and do not change.
func TestLIACountsACKs(t *testing.T) {
	cfg := func(ppa float64) FlowConfig {
		return FlowConfig{InitialCwnd: 1, InitialSsthresh: 1, MaxCwnd: 1e9, Subflows: 2, PacketsPerAck: ppa}
	}
	w, o := []float64{40, 10}, mpObs(1, 0.1, 0.05)
	for _, name := range []string{"lia", "olia"} {
		want := 0.5
		if name == "olia" {
			want = 1
		}
		var dx [2][]float64
		for i, ppa := range []float64{1, 2} {
			law := mustAlgo(t, name).NewFluid(cfg(ppa))
			x := make([]float64, law.Vars())
			law.Init(x, o)
			copy(x, w)
			law.(*coupledFluid).win[0].SlowStart, law.(*coupledFluid).win[1].SlowStart = false, false
			dx[i] = make([]float64, len(x))
			law.Deriv(dx[i], x, o)
		}
		for k := range w {
			if r := dx[1][k] / dx[0][k]; math.Abs(r-want) > 1e-12 {
				t.Errorf("%s fluid subflow %d: growth with delayed ACKs / without = %.12g, want %g", name, k, r, want)
			}
		}
	}
	// Event faces: one ACK for two packets against one ACK for one.
	for _, c := range []struct {
		name string
		want float64 // increase for an ACK of two packets / for an ACK of one
	}{{"lia", 1}, {"vlia", 1}, {"olia", 2}, {"reno", 2}} {
		inc := func(acked float64) float64 {
			e := mustAlgo(t, c.name).NewEvent(FlowConfig{InitialCwnd: 20, InitialSsthresh: 20, MaxCwnd: 1e9, Subflows: 1})
			before := e.Cwnd()
			e.OnAck(acked, mpObs(1, 0.1))
			return e.Cwnd() - before
		}
		if r := inc(2) / inc(1); math.Abs(r-c.want) > 1e-9 {
			t.Errorf("%s event face: increase for 2 packets acknowledged / for 1 = %.12g, want %g", c.name, r, c.want)
		}
	}
}
