package model

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// classicAlgos are the algorithms of slowstart.go and its siblings.
var classicAlgos = []string{"tahoe", "reno", "newreno", "vegas", "scalable", "highspeed", "cubic", "compound", "bic", "htcp"}

// lawObs gives the observation at time t for state x.
type lawObs func(t float64, x []float64) Observation

// steadyRTT observes a fixed RTT with no queueing (BaseRTT = RTT).
func steadyRTT(rtt float64) lawObs {
	return func(t float64, _ []float64) Observation { return Observation{Now: t, RTT: rtt, BaseRTT: rtt} }
}

// lawSim integrates a FluidLaw with classical fixed-step RK4 and locates the law's guard
// crossings (and a caller's stop condition) by bisection on the step length.
type lawSim struct {
	law                       FluidLaw
	obs                       lawObs
	x, next, tmp              []float64
	k1, k2, k3, k4            []float64
	t, h                      float64
	switches                  int
	switchT, switchW, switch0 float64
}

func newLawSim(law FluidLaw, h float64, obs lawObs, t0 float64) *lawSim {
	n := law.Vars()
	s := &lawSim{law: law, obs: obs, t: t0, h: h}
	for _, p := range []*[]float64{&s.x, &s.next, &s.tmp, &s.k1, &s.k2, &s.k3, &s.k4} {
		*p = make([]float64, n)
	}
	law.Init(s.x, obs(t0, s.x))
	return s
}

// rk4 writes the state a step h after (t, x) into out.
func (s *lawSim) rk4(x []float64, t, h float64, out []float64) {
	s.law.Deriv(s.k1, x, s.obs(t, x))
	for i := range x {
		out[i] = x[i] + h/2*s.k1[i]
	}
	s.law.Deriv(s.k2, out, s.obs(t+h/2, out))
	for i := range x {
		out[i] = x[i] + h/2*s.k2[i]
	}
	s.law.Deriv(s.k3, out, s.obs(t+h/2, out))
	for i := range x {
		out[i] = x[i] + h*s.k3[i]
	}
	s.law.Deriv(s.k4, out, s.obs(t+h, out))
	for i := range x {
		out[i] = x[i] + h/6*(s.k1[i]+2*s.k2[i]+2*s.k3[i]+s.k4[i])
	}
}

func (s *lawSim) guard(t float64, x []float64) float64 { return s.law.Guard(x, s.obs(t, x)) }

// run integrates to tEnd, or until stop (if not nil) crosses zero upwards, and returns the
// time reached.
func (s *lawSim) run(tEnd float64, stop func(t float64, x []float64) float64) float64 {
	crossed := func(t0 float64, x0 []float64, t1 float64, x1 []float64) bool {
		if s.guard(t0, x0) < 0 && s.guard(t1, x1) >= 0 {
			return true
		}
		return stop != nil && stop(t0, x0) < 0 && stop(t1, x1) >= 0
	}
	for s.t < tEnd {
		h := math.Min(s.h, tEnd-s.t)
		s.rk4(s.x, s.t, h, s.next)
		if !crossed(s.t, s.x, s.t+h, s.next) {
			copy(s.x, s.next)
			s.t += h
			continue
		}
		lo, hi := 0.0, h
		for range 60 {
			mid := (lo + hi) / 2
			s.rk4(s.x, s.t, mid, s.tmp)
			if crossed(s.t, s.x, s.t+mid, s.tmp) {
				hi = mid
			} else {
				lo = mid
			}
		}
		s.rk4(s.x, s.t, hi, s.next)
		t0 := s.t
		s.t += hi
		stopped := stop != nil && stop(t0, s.x) < 0 && stop(s.t, s.next) >= 0
		switched := s.guard(t0, s.x) < 0 && s.guard(s.t, s.next) >= 0
		copy(s.x, s.next)
		if switched {
			s.switches++
			s.switchT, s.switchW = s.t, s.x[0]
			s.law.Switch(s.x, s.obs(s.t, s.x))
		}
		if stopped {
			return s.t
		}
	}
	return s.t
}

// reaches is a stop condition: the window x[0] reaches w.
func windowReaches(w float64) func(float64, []float64) float64 {
	return func(_ float64, x []float64) float64 { return x[0] - w }
}

// ackRoundsOf drives an EventLaw in rounds: a round lasts one RTT and acknowledges the window
// it starts with, one packet per ACK evenly spaced in time (the last ACK carries any
// fraction of a packet). It stops after the given number of rounds or when the window
// first reaches stopAt, returning the time, interpolated linearly between the two ACKs
// around the crossing. rtt gives the round's RTT from the window at its start.
func ackRoundsOf(e EventLaw, t0 float64, rounds int, stopAt float64, rtt func(w float64) float64, base float64) float64 {
	t := t0
	for range rounds {
		n := e.Cwnd()
		r := rtt(n)
		o := Observation{RTT: r, BaseRTT: base}
		whole := math.Floor(n)
		for i := 1.0; i <= whole+1; i++ {
			acked := 1.0
			if i > whole {
				acked = n - whole
				if acked <= 0 {
					break
				}
			}
			dt := r * acked / n
			before := e.Cwnd()
			o.Now = t + dt
			e.OnAck(acked, o)
			after := e.Cwnd()
			if before < stopAt && after >= stopAt {
				return t + dt*(stopAt-before)/(after-before)
			}
			t += dt
		}
	}
	return t
}

func fixedRTT(r float64) func(float64) float64 { return func(float64) float64 { return r } }

func mustAlgo(t testing.TB, name string) Algorithm {
	t.Helper()
	a, err := New(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func algoRelErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

// Slow start doubles the window every RTT in both faces (RFC 5681 §3.1: one SMSS per ACK;
// docs/models.md, Conventions: dW/dt = W·ln2/RTT, not W/RTT).
func TestSlowStartDoublesPerRTT(t *testing.T) {
	const rtt = 0.1
	for _, name := range classicAlgos {
		t.Run(name, func(t *testing.T) {
			alg := mustAlgo(t, name)
			cfg := FlowConfig{InitialCwnd: 1, MaxCwnd: 1e6}
			sim := newLawSim(alg.NewFluid(cfg), rtt/1000, steadyRTT(rtt), 0)
			for k := 1; k <= 10; k++ {
				sim.run(float64(k)*rtt, nil)
				if want := math.Exp2(float64(k)); algoRelErr(sim.x[0], want) > 1e-3 {
					t.Errorf("fluid W(%d RTT) = %.6g, want %g ±0.1%%", k, sim.x[0], want)
				}
			}
			t.Logf("fluid W(10 RTT) = %.6f (2^10 = 1024)", sim.x[0])
			ev := alg.NewEvent(cfg)
			for k := 1; k <= 10; k++ {
				ackRoundsOf(ev, float64(k-1)*rtt, 1, math.Inf(1), fixedRTT(rtt), rtt)
				if want := math.Exp2(float64(k)); algoRelErr(ev.Cwnd(), want) > 1e-9 {
					t.Errorf("event W(%d RTT) = %.6g, want %g", k, ev.Cwnd(), want)
				}
			}
		})
	}
}

// Reno's congestion avoidance adds one packet per RTT (RFC 5681 §3.1: cwnd += SMSS·SMSS/cwnd
// per ACK). The fluid face is exactly linear; the event face adds Σ 1/W over a round of W
// ACKs, 1 − 1/(2W) + O(W⁻²) packets, within 1% at W = 100.
func TestRenoCongestionAvoidance(t *testing.T) {
	const rtt = 0.1
	for _, name := range []string{"tahoe", "reno", "newreno"} {
		t.Run(name, func(t *testing.T) {
			alg := mustAlgo(t, name)
			cfg := FlowConfig{InitialCwnd: 100, InitialSsthresh: 50}
			sim := newLawSim(alg.NewFluid(cfg), rtt/100, steadyRTT(rtt), 0)
			sim.run(10*rtt, nil)
			if algoRelErr(sim.x[0], 110) > 1e-9 {
				t.Errorf("fluid W(10 RTT) = %.9g, want 110", sim.x[0])
			}
			ev := alg.NewEvent(cfg)
			ackRoundsOf(ev, 0, 10, math.Inf(1), fixedRTT(rtt), rtt)
			if got := (ev.Cwnd() - 100) / 10; algoRelErr(got, 1) > 0.01 {
				t.Errorf("event growth %.4f packets/RTT, want 1 ±1%%", got)
			}
		})
	}
}

// After a loss at W, Reno and NewReno continue from W/2 and need W/2 RTTs to return to W
// (docs/models.md Reno; docs/references.md, Fill and recovery times: 417 s = 8333/2 RTTs of 100 ms).
func TestRenoRecovery(t *testing.T) {
	const rtt, w = 0.1, 1000.0
	for _, name := range []string{"reno", "newreno"} {
		t.Run(name, func(t *testing.T) {
			alg := mustAlgo(t, name)
			cfg := FlowConfig{InitialCwnd: w, InitialSsthresh: 1}
			law := alg.NewFluid(cfg)
			sim := newLawSim(law, rtt/10, steadyRTT(rtt), 0)
			law.OnLoss(sim.x, Observation{Now: 0, RTT: rtt, BaseRTT: rtt})
			if sim.x[0] != w/2 || law.Ssthresh() != w/2 {
				t.Fatalf("after loss W = %g, ssthresh = %g, want %g", sim.x[0], law.Ssthresh(), w/2)
			}
			got := sim.run(1e4, windowReaches(w)) / rtt
			if algoRelErr(got, w/2) > 0.01 {
				t.Errorf("fluid recovery %.2f RTTs, want %g ±1%%", got, w/2)
			}
			t.Logf("fluid recovery %.4f RTTs", got)
			ev := alg.NewEvent(cfg)
			ev.OnLoss(Observation{RTT: rtt, BaseRTT: rtt})
			if ev.Cwnd() != w/2 || ev.Ssthresh() != w/2 {
				t.Fatalf("event after loss W = %g, ssthresh = %g", ev.Cwnd(), ev.Ssthresh())
			}
			got = ackRoundsOf(ev, 0, 1e4, w, fixedRTT(rtt), rtt) / rtt
			if algoRelErr(got, w/2) > 0.01 {
				t.Errorf("event recovery %.2f RTTs, want %g ±1%%", got, w/2)
			}
			t.Logf("event recovery %.4f RTTs", got)
		})
	}
}

// Tahoe restarts slow start from one packet with ssthresh = W/2 (docs/models.md Tahoe): back to
// W in log2(W/2) RTTs of slow start plus W/2 RTTs of congestion avoidance.
func TestTahoeLoss(t *testing.T) {
	const rtt, w = 0.1, 1000.0
	alg := mustAlgo(t, "tahoe")
	cfg := FlowConfig{InitialCwnd: w, InitialSsthresh: 1}
	law := alg.NewFluid(cfg)
	sim := newLawSim(law, rtt/100, steadyRTT(rtt), 0)
	law.OnLoss(sim.x, Observation{RTT: rtt, BaseRTT: rtt})
	if sim.x[0] != 1 || law.Ssthresh() != w/2 {
		t.Fatalf("after loss W = %g, ssthresh = %g, want 1 and %g", sim.x[0], law.Ssthresh(), w/2)
	}
	got := sim.run(1e4, windowReaches(w)) / rtt
	if want := math.Log2(w/2) + w/2; algoRelErr(got, want) > 0.01 {
		t.Errorf("fluid return to W: %.2f RTTs, want %.2f ±1%%", got, want)
	}
	t.Logf("fluid return to W in %.4f RTTs (theory %.4f); slow start ended at W = %.6f after %.6f RTTs",
		got, math.Log2(w/2)+w/2, sim.switchW, sim.switchT/rtt)
	if sim.switches != 1 || algoRelErr(sim.switchW, w/2) > 1e-6 || algoRelErr(sim.switchT/rtt, math.Log2(w/2)) > 1e-3 {
		t.Errorf("slow start ended %d times, at W = %g after %.4f RTTs; want once at %g after %.4f",
			sim.switches, sim.switchW, sim.switchT/rtt, w/2, math.Log2(w/2))
	}
	ev := alg.NewEvent(cfg)
	ev.OnLoss(Observation{RTT: rtt, BaseRTT: rtt})
	if ev.Cwnd() != 1 || ev.Ssthresh() != w/2 || RecoveryOf(alg) != RecoveryTahoe {
		t.Fatalf("event after loss W = %g, ssthresh = %g, recovery %v", ev.Cwnd(), ev.Ssthresh(), RecoveryOf(alg))
	}
}

// A timeout leaves ssthresh = max(W/2, 2) and W = 1 in slow start, for every algorithm
// (RFC 5681 §3.1 eq. 4 and the loss window of one segment).
func TestAlgoTimeout(t *testing.T) {
	const rtt = 0.1
	for _, name := range classicAlgos {
		for _, w := range []float64{1000, 3} {
			alg := mustAlgo(t, name)
			cfg := FlowConfig{InitialCwnd: w, InitialSsthresh: 1, MaxCwnd: 1e6}
			o := Observation{Now: 5, RTT: rtt, BaseRTT: rtt}
			law := alg.NewFluid(cfg)
			x := make([]float64, law.Vars())
			law.Init(x, o)
			law.OnTimeout(x, o)
			want := math.Max(w/2, 2)
			if x[0] != 1 || law.Ssthresh() != want {
				t.Errorf("%s fluid timeout at %g: W = %g, ssthresh = %g; want 1, %g", name, w, x[0], law.Ssthresh(), want)
			}
			// Vegas's guard is the larger of W − ssthresh and Diff − γ = −1.
			if g := law.Guard(x, o); g != 1-want && (name != "vegas" || g != math.Max(1-want, -1)) {
				t.Errorf("%s fluid guard after timeout = %g, want %g", name, g, 1-want)
			}
			ev := alg.NewEvent(cfg)
			ev.OnTimeout(o)
			if ev.Cwnd() != 1 || ev.Ssthresh() != want {
				t.Errorf("%s event timeout at %g: W = %g, ssthresh = %g; want 1, %g", name, w, ev.Cwnd(), ev.Ssthresh(), want)
			}
		}
	}
}

func TestAlgoRecoverySemantics(t *testing.T) {
	want := map[string]Recovery{"tahoe": RecoveryTahoe, "reno": RecoveryReno, "vegas": RecoveryReno}
	for _, name := range classicAlgos {
		r, ok := want[name]
		if !ok {
			r = RecoveryNewReno
		}
		if got := RecoveryOf(mustAlgo(t, name)); got != r {
			t.Errorf("%s recovery = %v, want %v", name, got, r)
		}
	}
}

// Defaults: W = 1, ssthresh = the receiver window; no infinity is ever reported.
func TestAlgoInitialWindow(t *testing.T) {
	for _, name := range classicAlgos {
		alg := mustAlgo(t, name)
		for _, c := range []struct {
			cfg          FlowConfig
			cwnd, thresh float64
		}{
			{FlowConfig{}, 1, 0},
			{FlowConfig{MaxCwnd: 44}, 1, 44},
			{FlowConfig{InitialCwnd: 10, InitialSsthresh: math.Inf(1), MaxCwnd: 44}, 10, 44},
			{FlowConfig{InitialCwnd: 4, InitialSsthresh: 20, MaxCwnd: 44}, 4, 20},
			{FlowConfig{InitialCwnd: 100, MaxCwnd: 44}, 44, 44},
		} {
			law := alg.NewFluid(c.cfg)
			x := make([]float64, law.Vars())
			law.Init(x, Observation{RTT: 0.1, BaseRTT: 0.1})
			ev := alg.NewEvent(c.cfg)
			if x[0] != c.cwnd || law.Ssthresh() != c.thresh || ev.Cwnd() != c.cwnd || ev.Ssthresh() != c.thresh {
				t.Errorf("%s %+v: fluid W %g ssthresh %g, event W %g ssthresh %g; want %g and %g",
					name, c.cfg, x[0], law.Ssthresh(), ev.Cwnd(), ev.Ssthresh(), c.cwnd, c.thresh)
			}
		}
	}
}

// The receiver window caps growth in both faces.
func TestAlgoMaxCwndCap(t *testing.T) {
	const rtt, max = 0.1, 50.0
	for _, name := range classicAlgos {
		alg := mustAlgo(t, name)
		cfg := FlowConfig{InitialCwnd: 1, MaxCwnd: max}
		// A step of 1e-4 s overshoots the cap by at most W·ln2/RTT·1e-4 = 0.07%.
		sim := newLawSim(alg.NewFluid(cfg), 1e-4, steadyRTT(rtt), 0)
		sim.run(2, nil)
		if sim.x[0] > max*(1+1e-3) || sim.x[0] < max {
			t.Errorf("%s fluid W after 2 s = %g, want the cap %g", name, sim.x[0], max)
		}
		ev := alg.NewEvent(cfg)
		ackRoundsOf(ev, 0, 20, math.Inf(1), fixedRTT(rtt), rtt)
		if ev.Cwnd() != max {
			t.Errorf("%s event W after 20 RTTs = %g, want the cap %g", name, ev.Cwnd(), max)
		}
	}
}

// Scalable TCP recovers from a loss in a number of RTTs independent of the window (Kelly
// 2003; docs/models.md): per-round compounding (1+a)^n gives ln(1/(1−b))/ln(1+a) = 13.42 RTTs
// (event face); continuous growth dW/dt = a·W/RTT gives ln(1/(1−b))/a = 13.35 RTTs (fluid).
func TestScalableRecovery(t *testing.T) {
	const rtt = 0.1
	for _, c := range []struct {
		a, legacy, w float64
	}{
		{0.01, 16, 1000}, {0.01, 16, 100000},
		{0.02, 50, 1000}, // Linux's parameter set
	} {
		alg := mustAlgo(t, "scalable")
		if err := errors.Join(alg.Set("a", c.a), alg.Set("legacy_window", c.legacy)); err != nil {
			t.Fatal(err)
		}
		cfg := FlowConfig{InitialCwnd: c.w, InitialSsthresh: 1}
		o := Observation{RTT: rtt, BaseRTT: rtt}
		law := alg.NewFluid(cfg)
		sim := newLawSim(law, rtt/100, steadyRTT(rtt), 0)
		law.OnLoss(sim.x, o)
		if sim.x[0] != 0.875*c.w {
			t.Fatalf("fluid after loss W = %g, want %g", sim.x[0], 0.875*c.w)
		}
		got := sim.run(1e3, windowReaches(c.w)) / rtt
		if want := math.Log(1/0.875) / c.a; algoRelErr(got, want) > 0.01 {
			t.Errorf("a=%g W=%g: fluid recovery %.4f RTTs, want %.4f ±1%%", c.a, c.w, got, want)
		}
		t.Logf("a=%g W=%g: fluid recovery %.4f RTTs (theory %.4f)", c.a, c.w, got, math.Log(1/0.875)/c.a)
		ev := alg.NewEvent(cfg)
		ev.OnLoss(o)
		got = ackRoundsOf(ev, 0, 1000, c.w, fixedRTT(rtt), rtt) / rtt
		if want := math.Log(1/0.875) / math.Log1p(c.a); algoRelErr(got, want) > 0.01 {
			t.Errorf("a=%g W=%g: event recovery %.4f RTTs, want %.4f ±1%%", c.a, c.w, got, want)
		}
		t.Logf("a=%g W=%g: event recovery %.4f RTTs (theory %.4f)", c.a, c.w, got, math.Log(1/0.875)/math.Log1p(c.a))
	}
	// At or below the legacy window Scalable is Reno.
	ev := mustAlgo(t, "scalable").NewEvent(FlowConfig{InitialCwnd: 16, InitialSsthresh: 1})
	ev.OnLoss(Observation{RTT: rtt, BaseRTT: rtt})
	if ev.Cwnd() != 8 {
		t.Errorf("loss at the legacy window: W = %g, want 8", ev.Cwnd())
	}
}

// RFC 3649 §5 closed form: b(w) at 1058, 8333 and 83000 packets is 0.327, 0.220 and 0.100
// (the Appendix B table lists 0.33 at 1058 and 0.22 at 8130), and below 38 packets a = 1,
// b = 0.5.
func TestHighSpeedClosedForm(t *testing.T) {
	for _, c := range []struct{ w, b float64 }{{1058, 0.327}, {8333, 0.220}, {83000, 0.100}} {
		if got := HighSpeedB(c.w); math.Abs(got-c.b) > 0.002 {
			t.Errorf("b(%g) = %.4f, want %.3f ±0.002", c.w, got, c.b)
		}
	}
	// The "about 8.1, 26.9, 72.5" for a(w) at the same windows take p(w) = 1e-7
	// exactly at High_Window; RFC 3649's closed form p(w) = 0.078/w^1.2 gives 9.75e-8 there,
	// 2.5% less, and a(w) ∝ p(w): 3% covers that and nothing more.
	for _, c := range []struct{ w, a float64 }{{1058, 8.1}, {8333, 26.9}, {83000, 72.5}} {
		if got := HighSpeedA(c.w); math.Abs(got/c.a-1) > 0.03 {
			t.Errorf("a(%g) = %.3f, want about %.1f (±3%%)", c.w, got, c.a)
		}
	}
	if HighSpeedA(38) != 1 || HighSpeedB(38) != 0.5 || HighSpeedA(10) != 1 {
		t.Errorf("Reno region: a(38) = %g, b(38) = %g", HighSpeedA(38), HighSpeedB(38))
	}
	// The closed form and Appendix B differ by less than one packet in a (docs/models.md): at
	// each row's window up to High_Window the closed form lies within [a_row − 0.1, a_row + 1).
	// (Beyond it the recipe continues the b(w) line while the closed form holds b at 0.1.)
	for _, r := range highSpeedTable()[1:] {
		if r.w > hsHighWindow {
			break
		}
		if got := HighSpeedA(r.w); got < r.a-0.1 || got >= r.a+1 {
			t.Errorf("closed-form a(%g) = %.3f, Appendix B row a = %g", r.w, got, r.a)
		}
	}
	// Beyond High_Window b stays at High_Decrease, so a loss never grows the window.
	for _, w := range []float64{83000, 1e6, 1e7} {
		if b := HighSpeedB(w); b != 0.1 || HighSpeedA(w) <= 0 {
			t.Errorf("w = %g: b = %g, a = %g", w, b, HighSpeedA(w))
		}
	}
}

// RFC 3649 Appendix B rows (window, a, b), as also carried by Linux tcp_highspeed.c: the
// regenerated table must reproduce them.
func TestHighSpeedTable(t *testing.T) {
	rows := highSpeedTable()
	if len(rows) != 73 {
		t.Errorf("table has %d rows, want 73", len(rows))
	}
	want := []hsRow{
		{38, 1, 0.50}, {118, 2, 0.44}, {221, 3, 0.41}, {347, 4, 0.38}, {495, 5, 0.37},
		{1058, 8, 0.33}, {1529, 10, 0.31}, {2699, 14, 0.28}, {5036, 20, 0.25},
		{8130, 26, 0.22}, {11358, 31, 0.20}, {15265, 36, 0.19}, {22101, 43, 0.17},
	}
	for _, w := range want {
		found := false
		for _, r := range rows {
			if r.w == w.w {
				found = true
				if r != w {
					t.Errorf("row at %g = %+v, want %+v", w.w, r, w)
				}
			}
		}
		if !found {
			t.Errorf("no row at window %g", w.w)
		}
	}
	// Lookup as in Linux: a window in (w[i−1], w[i]] uses row i.
	alg := mustAlgo(t, "highspeed")
	if err := alg.Set("table", 1); err != nil {
		t.Fatal(err)
	}
	rule := alg.(*highSpeed).rule()
	for _, c := range []struct{ w, a, b float64 }{
		{30, 1, 0.5}, {38, 1, 0.5}, {39, 2, 0.44}, {118, 2, 0.44}, {119, 3, 0.41}, {1e6, 73, 0.09},
	} {
		if a := rule.PerRTT(c.w, Observation{}); a != c.a {
			t.Errorf("table a(%g) = %g, want %g", c.w, a, c.a)
		}
		if next := rule.Congestion(c.w, Observation{}); math.Abs(next-(1-c.b)*c.w) > 1e-9*c.w {
			t.Errorf("table loss at %g leaves %g, want %g", c.w, next, (1-c.b)*c.w)
		}
	}
}

// HighSpeed's fluid recovery after a loss at the BDP equals RTT·∫ dW/a(W) from (1−b)·BDP
// to BDP, computed here by the trapezoid rule on 10^5 intervals (1G/1500B/100 ms: 8333
// packets, about 7.4 s; docs/references.md lists ≈ 7.3 s).
func TestHighSpeedRecovery(t *testing.T) {
	const rtt, w = 0.1, 1e9 / 8 / 1500 * 0.1
	alg := mustAlgo(t, "highspeed")
	cfg := FlowConfig{InitialCwnd: w, InitialSsthresh: 1}
	law := alg.NewFluid(cfg)
	sim := newLawSim(law, rtt/100, steadyRTT(rtt), 0)
	law.OnLoss(sim.x, Observation{RTT: rtt, BaseRTT: rtt})
	w0 := sim.x[0]
	if algoRelErr(w0, (1-HighSpeedB(w))*w) > 1e-12 {
		t.Fatalf("after loss W = %g, want %g", w0, (1-HighSpeedB(w))*w)
	}
	const n = 100000
	integral := 0.0
	for i := range n + 1 {
		v := w0 + (w-w0)*float64(i)/n
		f := 1 / HighSpeedA(v)
		if i == 0 || i == n {
			f /= 2
		}
		integral += f * (w - w0) / n
	}
	want := rtt * integral
	got := sim.run(100, windowReaches(w))
	if algoRelErr(got, want) > 1e-3 {
		t.Errorf("fluid recovery %.4f s, want %.4f s ±0.1%%", got, want)
	}
	t.Logf("fluid recovery %.4f s, quadrature %.4f s; a(1058, 8333, 83000) = %.3f %.3f %.3f",
		got, want, HighSpeedA(1058), HighSpeedA(8333), HighSpeedA(83000))
}

// CUBIC after a first loss at W_max = 1000 packets (RFC 9438 §4.2): W(t) = C(t−K)³ + W_max,
// K = cbrt(W_max(1−β)/C) = 9.09 s; the fluid face trails the curve by a fraction of a packet
// (within 1%), the event face, stepping once per ACK, within 2%.
func TestCubicCurve(t *testing.T) {
	const rtt, wmax = 0.1, 1000.0
	k := CubicK(wmax, 0.4, 0.7)
	if math.Abs(k-9.0856) > 1e-3 {
		t.Fatalf("K = %.4f s, want 9.0856", k)
	}
	curve := func(t float64) float64 { return 0.4*math.Pow(t-k, 3) + wmax }
	alg := mustAlgo(t, "cubic")
	cfg := FlowConfig{InitialCwnd: wmax, InitialSsthresh: 1}
	o := Observation{RTT: rtt, BaseRTT: rtt}
	law := alg.NewFluid(cfg)
	sim := newLawSim(law, rtt/100, steadyRTT(rtt), 0)
	law.OnLoss(sim.x, o)
	if sim.x[0] != 700 || law.Ssthresh() != 700 {
		t.Fatalf("after loss W = %g, ssthresh %g, want 700", sim.x[0], law.Ssthresh())
	}
	for _, at := range []float64{2, 5, 8, k, 11, 13} {
		sim.run(at, nil)
		if algoRelErr(sim.x[0], curve(at)) > 0.01 {
			t.Errorf("fluid W(%.2f s) = %.2f, curve %.2f ±1%%", at, sim.x[0], curve(at))
		}
		t.Logf("fluid W(%.3f s) = %.3f, curve %.3f", at, sim.x[0], curve(at))
	}
	ev := alg.NewEvent(cfg)
	ev.OnLoss(o)
	now := 0.0
	for _, at := range []float64{2, 5, 8, k, 11, 13} {
		now = ackRoundsOf(ev, now, int(math.Round((at-now)/rtt)), math.Inf(1), fixedRTT(rtt), rtt)
		if algoRelErr(ev.Cwnd(), curve(now)) > 0.02 {
			t.Errorf("event W(%.2f s) = %.2f, curve %.2f ±2%%", now, ev.Cwnd(), curve(now))
		}
		t.Logf("event W(%.3f s) = %.3f, curve %.3f", now, ev.Cwnd(), curve(now))
	}
	// docs/references.md, Fill and recovery times, CUBIC (K) at 1G/1500B/100 ms: 18.4 s.
	if got := CubicK(1e9/8/1500*0.1, 0.4, 0.7); math.Abs(got-18.4) > 0.05 {
		t.Errorf("K at 1G/1500B = %.3f s, want 18.4", got)
	}
}

// Fast convergence (RFC 9438 §4.7): a loss at W below the previous W_max sets
// W_max = W(1+β)/2, and the curve, starting at βW, plateaus there after
// K = cbrt((W_max − βW)/C).
func TestCubicFastConvergence(t *testing.T) {
	const rtt = 0.1
	for _, fc := range []float64{1, 0} {
		alg := mustAlgo(t, "cubic")
		if err := alg.Set("fast_convergence", fc); err != nil {
			t.Fatal(err)
		}
		law := alg.NewFluid(FlowConfig{InitialCwnd: 1000, InitialSsthresh: 1})
		sim := newLawSim(law, rtt/100, steadyRTT(rtt), 0)
		law.OnLoss(sim.x, Observation{RTT: rtt, BaseRTT: rtt})
		sim.x[0] = 900 // a second loss below W_max = 1000
		law.OnLoss(sim.x, Observation{RTT: rtt, BaseRTT: rtt})
		wmax := 900.0
		if fc == 1 {
			wmax = 900 * 1.7 / 2
		}
		k := math.Cbrt((wmax - 630) / 0.4)
		sim.run(k, nil)
		if algoRelErr(sim.x[0], wmax) > 0.01 {
			t.Errorf("fast_convergence=%g: W(K=%.3f s) = %.2f, want W_max %.2f ±1%%", fc, k, sim.x[0], wmax)
		}
		t.Logf("fast_convergence=%g: W(K=%.3f s) = %.3f, W_max %.3f", fc, k, sim.x[0], wmax)
	}
}

// Reno-friendly region (RFC 9438 §4.3): at W_max = 20 packets and RTT 0.1 s the estimate
// W_est = 14 + α_cubic·t/RTT (α_cubic = 0.529), then +1 per RTT once it passes
// cwnd_prior = 20, exceeds the cubic curve, and CUBIC follows it.
func TestCubicRenoFriendly(t *testing.T) {
	const rtt = 0.1
	alpha := 3 * 0.3 / 1.7
	tPrior := (20 - 14) / alpha * rtt
	est := func(t float64) float64 {
		if t < tPrior {
			return 14 + alpha*t/rtt
		}
		return 20 + (t-tPrior)/rtt
	}
	k := CubicK(20, 0.4, 0.7)
	for _, at := range []float64{1, 1.5, 2} {
		if c := 0.4*math.Pow(at-k, 3) + 20; c >= est(at) {
			t.Fatalf("test premise: curve %.2f ≥ W_est %.2f at %g s", c, est(at), at)
		}
	}
	alg := mustAlgo(t, "cubic")
	cfg := FlowConfig{InitialCwnd: 20, InitialSsthresh: 1}
	o := Observation{RTT: rtt, BaseRTT: rtt}
	law := alg.NewFluid(cfg)
	sim := newLawSim(law, rtt/100, steadyRTT(rtt), 0)
	law.OnLoss(sim.x, o)
	ev := alg.NewEvent(cfg)
	ev.OnLoss(o)
	now := 0.0
	for _, at := range []float64{1, 1.5, 2} {
		sim.run(at, nil)
		if algoRelErr(sim.x[0], est(at)) > 0.01 {
			t.Errorf("fluid W(%g s) = %.3f, W_est %.3f ±1%%", at, sim.x[0], est(at))
		}
		t.Logf("fluid W(%g s) = %.4f, W_est %.4f", at, sim.x[0], est(at))
		now = ackRoundsOf(ev, now, int(math.Round((at-now)/rtt)), math.Inf(1), fixedRTT(rtt), rtt)
		if algoRelErr(ev.Cwnd(), est(now)) > 0.02 {
			t.Errorf("event W(%.2f s) = %.3f, W_est %.3f ±2%%", now, ev.Cwnd(), est(now))
		}
	}
	// Without the Reno-friendly region the window follows the (lower) curve.
	if err := alg.Set("reno_friendly", 0); err != nil {
		t.Fatal(err)
	}
	law = alg.NewFluid(cfg)
	sim = newLawSim(law, rtt/100, steadyRTT(rtt), 0)
	law.OnLoss(sim.x, o)
	sim.run(1.5, nil)
	if c := 0.4*math.Pow(1.5-k, 3) + 20; math.Abs(sim.x[0]-c) > 0.5 {
		t.Errorf("reno_friendly=0: W(1.5 s) = %.3f, curve %.3f ±0.5 packet", sim.x[0], c)
	}
}

// Vegas on a single bottleneck of capacity C with base RTT τ: RTT = τ + q/C, with
// q = W − C·τ its own queued packets, so Diff = W(1 − τ/RTT) = q. It settles with
// α ≤ q ≤ β (Brakmo & Peterson 1995; docs/models.md Vegas), after leaving slow start near
// Diff = γ.
func TestVegasSettles(t *testing.T) {
	const c, tau = 1000.0, 0.1 // packets/s, s: a BDP of 100 packets
	rtt := func(w float64) float64 { return tau + math.Max(w-c*tau, 0)/c }
	for _, p := range []struct{ alpha, beta float64 }{{2, 4}, {1, 3}, {4, 4}} {
		alg := mustAlgo(t, "vegas")
		if err := errors.Join(alg.Set("beta", p.beta), alg.Set("alpha", p.alpha)); err != nil {
			t.Fatal(err)
		}
		obs := func(t float64, x []float64) Observation { return Observation{Now: t, RTT: rtt(x[0]), BaseRTT: tau} }
		sim := newLawSim(alg.NewFluid(FlowConfig{MaxCwnd: 1e4}), tau/100, obs, 0)
		sim.run(60, nil)
		q := sim.x[0] - c*tau
		if q < p.alpha-0.05 || q > p.beta+0.05 {
			t.Errorf("α=%g β=%g: fluid settles with %.3f packets queued", p.alpha, p.beta, q)
		}
		t.Logf("α=%g β=%g: fluid queue %.4f packets, slow start left at %.4f queued", p.alpha, p.beta, q, sim.switchW-c*tau)
		if sim.switches != 1 || sim.switchW-c*tau < 1 || sim.switchW-c*tau > 1.01 {
			t.Errorf("α=%g β=%g: fluid slow start ended %d times, at %.3f queued, want once at γ = 1",
				p.alpha, p.beta, sim.switches, sim.switchW-c*tau)
		}
		ev := alg.NewEvent(FlowConfig{MaxCwnd: 1e4})
		ackRoundsOf(ev, 0, 600, math.Inf(1), rtt, tau)
		// The event face moves whole packets once per RTT and its slow start overshoots
		// within a round; it must still end inside the band.
		if q := ev.Cwnd() - c*tau; q < p.alpha-1e-9 || q > p.beta+1e-9 {
			t.Errorf("α=%g β=%g: event settles with %.3f packets queued", p.alpha, p.beta, q)
		}
		t.Logf("α=%g β=%g: event queue %.4f packets", p.alpha, p.beta, ev.Cwnd()-c*tau)
	}
}

// Compound's delay window (Tan et al. 2006; docs/models.md): with no queueing win grows by
// α·win^k per RTT in all (cwnd's 1 plus dwnd's α·win^k − 1), so
// win(t)^(1−k) = win0^(1−k) + (1−k)·α·t/RTT; it shrinks by ζ·Diff per RTT when Diff ≥ γ;
// a loss keeps win·(1−β) split as cwnd/2 and the rest in dwnd.
func TestCompound(t *testing.T) {
	const rtt = 0.1
	alg := mustAlgo(t, "compound")
	win := func(w0, t float64) float64 { return math.Pow(math.Pow(w0, 0.25)+0.25*t/rtt/8, 4) }

	sim := newLawSim(alg.NewFluid(FlowConfig{InitialCwnd: 100, InitialSsthresh: 1}), rtt/100, steadyRTT(rtt), 0)
	sim.run(5, nil)
	if want := win(100, 5); algoRelErr(sim.x[0], want) > 1e-3 {
		t.Errorf("fluid win(5 s) = %.3f, want %.3f ±0.1%%", sim.x[0], want)
	}
	if want := win(100, 5) - 100 - 5/rtt; algoRelErr(sim.x[1], want) > 1e-3 {
		t.Errorf("fluid dwnd(5 s) = %.3f, want %.3f", sim.x[1], want)
	}

	// Diff = 100·(1 − 1/2) = 50 ≥ γ: dwnd loses ζ·Diff = 50 per RTT, cwnd gains 1.
	law := alg.NewFluid(FlowConfig{InitialCwnd: 100, InitialSsthresh: 1})
	x, dx := []float64{100, 40}, make([]float64, 2)
	o := Observation{RTT: 2 * rtt, BaseRTT: rtt}
	law.Deriv(dx, x, o)
	if math.Abs(dx[1]*o.RTT+50) > 1e-12 || math.Abs(dx[0]*o.RTT+49) > 1e-12 {
		t.Errorf("Diff ≥ γ: d(win, dwnd)/dt·RTT = %v, want [-49 -50]", []float64{dx[0] * o.RTT, dx[1] * o.RTT})
	}

	// Loss split: win 1000 = cwnd 400 + dwnd 600 → cwnd 200, dwnd 300.
	x = []float64{1000, 600}
	law.OnLoss(x, o)
	if x[0] != 500 || x[1] != 300 || law.Ssthresh() != 500 {
		t.Errorf("fluid loss split: win %g dwnd %g ssthresh %g, want 500 300 500", x[0], x[1], law.Ssthresh())
	}
	ev := alg.NewEvent(FlowConfig{InitialCwnd: 1000, InitialSsthresh: 1}).(*compoundEvent)
	ev.cwnd, ev.dwnd = 400, 600
	ev.OnLoss(o)
	if ev.cwnd != 200 || ev.dwnd != 300 || ev.Cwnd() != 500 {
		t.Errorf("event loss split: cwnd %g dwnd %g", ev.cwnd, ev.dwnd)
	}

	// Event face: a round of 1000 ACKs with no queue adds α·win^k − 1 to dwnd at its first
	// ACK, and 1/win per ACK to cwnd: 1000/(1000 + dwnd) packets, to within 1e-3.
	ev = alg.NewEvent(FlowConfig{InitialCwnd: 1000, InitialSsthresh: 1}).(*compoundEvent)
	ackRoundsOf(ev, 0, 1, math.Inf(1), fixedRTT(rtt), rtt)
	dwnd := math.Pow(1000, 0.75)/8 - 1
	if cwnd := 1000 + 1000/(1000+dwnd); math.Abs(ev.dwnd-dwnd) > 1e-9 || math.Abs(ev.cwnd-cwnd) > 1e-3 {
		t.Errorf("event round: dwnd %.4f (want %.4f), cwnd %.4f (want %.4f)", ev.dwnd, dwnd, ev.cwnd, cwnd)
	}

	// docs/references.md, Fill and recovery times, Compound (delay part active), 1G/1500B/100 ms: ≈ 4.9 s;
	// from win/2 to win = 8333 the closed form above gives 4.86 s.
	const bdp = 1e9 / 8 / 1500 * 0.1
	law = alg.NewFluid(FlowConfig{InitialCwnd: bdp, InitialSsthresh: 1})
	sim = newLawSim(law, rtt/100, steadyRTT(rtt), 0)
	sim.x[1] = bdp / 2
	law.OnLoss(sim.x, Observation{RTT: rtt, BaseRTT: rtt})
	want := 4 * rtt * 8 * (math.Pow(bdp, 0.25) - math.Pow(bdp/2, 0.25))
	got := sim.run(60, windowReaches(bdp))
	if algoRelErr(got, want) > 0.01 || math.Abs(got-4.9) > 0.05 {
		t.Errorf("recovery %.3f s, want %.3f s (REFERENCE ≈ 4.9 s)", got, want)
	}
	t.Logf("fluid recovery %.4f s (theory %.4f s)", got, want)
}

// BIC after a first loss at W_max = 1000 (β = 0.8, S_max = 16, S_min = 0.01): 10.5 RTTs at
// S_max from 800 to 968, then halving the distance each RTT, 2·ln(32/0.02) RTTs down to a
// distance of 2·S_min, then S_min per RTT: 27.26 RTTs in all (the per-RTT law of bic.go).
func TestBICRecovery(t *testing.T) {
	const rtt, w = 0.1, 1000.0
	alg := mustAlgo(t, "bic")
	law := alg.NewFluid(FlowConfig{InitialCwnd: w, InitialSsthresh: 1})
	sim := newLawSim(law, rtt/100, steadyRTT(rtt), 0)
	law.OnLoss(sim.x, Observation{RTT: rtt, BaseRTT: rtt})
	if sim.x[0] != 800 {
		t.Fatalf("after loss W = %g, want 800", sim.x[0])
	}
	want := 10.5 + 2*math.Log(32/0.02) + 2
	got := sim.run(100, windowReaches(w)) / rtt
	if algoRelErr(got, want) > 0.01 {
		t.Errorf("return to W_max in %.3f RTTs, want %.3f ±1%%", got, want)
	}
	t.Logf("return to W_max in %.4f RTTs (theory %.4f)", got, want)
	// Fast convergence: a loss at 900 < W_max lowers W_max to 900·1.8/2 = 810.
	rule := &bicRule{p: alg.(*bic).p}
	rule.Congestion(1000, Observation{})
	if next := rule.Congestion(900, Observation{}); next != 720 || rule.wMax != 810 {
		t.Errorf("second loss: W = %g, W_max = %g; want 720, 810", next, rule.wMax)
	}
	if got := rule.PerRTT(10, Observation{}); got != 1 {
		t.Errorf("below the low window the increase is %g, want Reno's 1", got)
	}
}

// H-TCP (Leith & Shorten 2004): after a loss with no queueing β = min(1, 0.8) = 0.8 and the
// window grows by 2(1−β)·α(Δ) per RTT, so
// W(t) = 0.8·W0 + 0.4/RTT·(t + 5(t−1)² + (t−1)³/12) for t > Δ_L = 1 s.
func TestHTCP(t *testing.T) {
	const rtt, w = 0.1, 1000.0
	alg := mustAlgo(t, "htcp")
	law := alg.NewFluid(FlowConfig{InitialCwnd: w, InitialSsthresh: 1})
	sim := newLawSim(law, rtt/100, steadyRTT(rtt), 10)
	law.OnLoss(sim.x, Observation{Now: 10, RTT: rtt, BaseRTT: rtt})
	for _, at := range []float64{0.5, 1, 2, 3} {
		sim.run(10+at, nil)
		inc := at
		if at > 1 {
			inc += 5*(at-1)*(at-1) + math.Pow(at-1, 3)/12
		}
		if want := 0.8*w + 0.4/rtt*inc; algoRelErr(sim.x[0], want) > 1e-3 {
			t.Errorf("W(%g s after loss) = %.3f, want %.3f ±0.1%%", at, sim.x[0], want)
		}
		t.Logf("W(%g s after loss) = %.4f (theory %.4f)", at, sim.x[0], 0.8*w+0.4/rtt*inc)
	}
	for _, c := range []struct{ rtt, beta float64 }{{rtt, 0.8}, {1.5 * rtt, 1 / 1.5}, {4 * rtt, 0.5}} {
		ev := alg.NewEvent(FlowConfig{InitialCwnd: w, InitialSsthresh: 1})
		ev.OnLoss(Observation{Now: 1, RTT: c.rtt, BaseRTT: rtt})
		if algoRelErr(ev.Cwnd(), c.beta*w) > 1e-12 {
			t.Errorf("RTT %g: W after loss %g, want β = %.3f → %g", c.rtt, ev.Cwnd(), c.beta, c.beta*w)
		}
	}
	if HTCPAlpha(0.5, 1) != 1 || HTCPAlpha(3, 1) != 1+20+1 {
		t.Errorf("α(0.5) = %g, α(3) = %g; want 1 and 22", HTCPAlpha(0.5, 1), HTCPAlpha(3, 1))
	}
}

func TestAlgoParams(t *testing.T) {
	for _, name := range classicAlgos {
		alg := mustAlgo(t, name)
		if alg.Name() != name || alg.Describe() == "" {
			t.Errorf("%s: Name %q, Describe %q", name, alg.Name(), alg.Describe())
		}
		for _, p := range alg.Params() {
			for _, v := range []float64{p.Value, p.Default, p.Min, p.Max} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s.%s: non-finite field in %+v", name, p.Name, p)
				}
			}
			if p.Value != p.Default || p.Default < p.Min || p.Default > p.Max || p.Unit == "" || p.Source == "" || p.Doc == "" {
				t.Errorf("%s.%s: incomplete or inconsistent %+v", name, p.Name, p)
			}
			if err := alg.Set(p.Name, p.Default); err != nil {
				t.Errorf("%s.%s: setting the default: %v", name, p.Name, err)
			}
		}
		err := alg.Set("nope", 1)
		if !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "nope") || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: unknown parameter error %v", name, err)
		}
	}
	for _, c := range []struct {
		algo, param string
		value       float64
		mention     []string
	}{
		{"cubic", "beta", 1.5, []string{"cubic.beta", "1.5", "[0.5, 0.95]"}},
		{"cubic", "c", math.NaN(), []string{"cubic.c", "NaN", "[0.01, 10]"}},
		{"cubic", "fast_convergence", 0.5, []string{"cubic.fast_convergence", "0.5", "whole"}},
		{"scalable", "a", -1, []string{"scalable.a", "-1", "[0.0001, 1]"}},
		{"highspeed", "table", 2, []string{"highspeed.table", "2", "[0, 1]"}},
		{"reno", "a", 1, []string{"reno", "no parameters"}},
	} {
		alg := mustAlgo(t, c.algo)
		before := alg.Params()
		err := alg.Set(c.param, c.value)
		if !errors.Is(err, ErrParam) {
			t.Errorf("%s.%s = %v: error %v does not wrap ErrParam", c.algo, c.param, c.value, err)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("error %q does not mention %q", err, m)
			}
		}
		after := alg.Params()
		for i := range before {
			if before[i].Value != after[i].Value {
				t.Errorf("%s: rejected Set changed %s from %g to %g", c.algo, before[i].Name, before[i].Value, after[i].Value)
			}
		}
	}
	if _, err := New("nope"); !errors.Is(err, ErrUnknownAlgorithm) {
		t.Errorf("New(nope) error %v does not wrap ErrUnknownAlgorithm", err)
	}
	// A parameter change reaches the laws created afterwards.
	alg := mustAlgo(t, "cubic")
	if err := alg.Set("beta", 0.8); err != nil {
		t.Fatal(err)
	}
	ev := alg.NewEvent(FlowConfig{InitialCwnd: 100, InitialSsthresh: 1})
	ev.OnLoss(Observation{RTT: 0.1, BaseRTT: 0.1})
	if ev.Cwnd() != 80 {
		t.Errorf("cubic.beta=0.8: W after loss %g, want 80", ev.Cwnd())
	}
}

// algoLawEvents are the engine calls that put a law into the states TestAlgoLawsFinite checks.
var algoLawEvents = []string{"init", "loss", "timeout", "loss-after-timeout"}

// Every law stays finite for W in [1, 1e7] packets and RTT in [1e-4, 10] s, whatever state
// the events left it in (engineering standard: results are never NaN or Inf).
func TestAlgoLawsFinite(t *testing.T) {
	windows := []float64{1, 1.5, 2, 10, 38, 100, 1e3, 1e4, 1e5, 1e6, 1e7}
	rtts := []float64{1e-4, 1e-3, 0.1, 1, 10}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, name := range Algorithms() {
		alg := mustAlgo(t, name)
		for _, state := range algoLawEvents {
			for _, rtt := range rtts {
				for _, base := range []float64{rtt, rtt / 3, 0} {
					for _, now := range []float64{0, 0.5, 100, 1e4} {
						o := Observation{Now: now, RTT: rtt, BaseRTT: base}
						law := alg.NewFluid(FlowConfig{MaxCwnd: 1e8})
						x := make([]float64, law.Vars())
						dx := make([]float64, law.Vars())
						law.Init(x, Observation{RTT: rtt, BaseRTT: base})
						ev := alg.NewEvent(FlowConfig{MaxCwnd: 1e8})
						for _, w := range windows {
							for i := range x {
								x[i] = w / float64(i+1)
							}
							switch state {
							case "loss":
								law.OnLoss(x, o)
								ev.OnLoss(o)
							case "timeout":
								law.OnTimeout(x, o)
								ev.OnTimeout(o)
							case "loss-after-timeout":
								law.OnTimeout(x, o)
								law.Switch(x, o)
								law.OnLoss(x, o)
								ev.OnTimeout(o)
								ev.OnLoss(o)
							}
							for i := range x {
								x[i] = w / float64(i+1)
							}
							law.Deriv(dx, x, o)
							for i, d := range dx {
								if !finite(d) {
									t.Fatalf("%s %s W=%g RTT=%g base=%g now=%g: dx[%d] = %g", name, state, w, rtt, base, now, i, d)
								}
							}
							if g, s := law.Guard(x, o), law.Ssthresh(); !finite(g) || !finite(s) {
								t.Fatalf("%s %s W=%g RTT=%g: guard %g, ssthresh %g", name, state, w, rtt, g, s)
							}
							for range 3 {
								ev.OnAck(1, o)
							}
							if c, s := ev.Cwnd(), ev.Ssthresh(); !finite(c) || !finite(s) || c <= 0 {
								t.Fatalf("%s %s event W=%g RTT=%g: cwnd %g, ssthresh %g", name, state, w, rtt, c, s)
							}
						}
					}
				}
			}
		}
	}
}

// Deriv must not change its input or the law: the solver evaluates it at rejected points.
func TestAlgoDerivIsPure(t *testing.T) {
	const rtt = 0.1
	for _, name := range Algorithms() {
		law := mustAlgo(t, name).NewFluid(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
		x := make([]float64, law.Vars())
		law.Init(x, Observation{RTT: rtt, BaseRTT: rtt})
		o := Observation{Now: 3, RTT: 2 * rtt, BaseRTT: rtt}
		law.OnLoss(x, o)
		x0 := append([]float64(nil), x...)
		first, again := make([]float64, len(x)), make([]float64, len(x))
		law.Deriv(first, x, Observation{Now: 4, RTT: rtt, BaseRTT: rtt})
		for i := range x {
			x[i] *= 1.5 // a rejected trial point
		}
		law.Deriv(again, x, Observation{Now: 40, RTT: 5 * rtt, BaseRTT: rtt})
		copy(x, x0)
		law.Deriv(again, x, Observation{Now: 4, RTT: rtt, BaseRTT: rtt})
		for i := range x {
			if x[i] != x0[i] || first[i] != again[i] {
				t.Errorf("%s: Deriv changed x[%d] %g→%g or is not repeatable: %g vs %g", name, i, x0[i], x[i], first[i], again[i])
			}
		}
	}
}

// The hot paths allocate nothing.
func TestAlgoNoAllocations(t *testing.T) {
	for _, name := range classicAlgos {
		alg := mustAlgo(t, name)
		if name == "highspeed" {
			if err := alg.Set("table", 1); err != nil {
				t.Fatal(err)
			}
		}
		law := alg.NewFluid(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
		x := make([]float64, law.Vars())
		dx := make([]float64, law.Vars())
		o := Observation{Now: 1, RTT: 0.12, BaseRTT: 0.1}
		law.Init(x, o)
		if n := testing.AllocsPerRun(100, func() { law.Deriv(dx, x, o) }); n != 0 {
			t.Errorf("%s Deriv: %g allocations", name, n)
		}
		ev := alg.NewEvent(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
		if n := testing.AllocsPerRun(100, func() { o.Now += 1e-3; ev.OnAck(1, o) }); n != 0 {
			t.Errorf("%s OnAck: %g allocations", name, n)
		}
	}
}

func BenchmarkAlgoDeriv(b *testing.B) {
	for _, name := range classicAlgos {
		b.Run(name, func(b *testing.B) {
			law := mustAlgo(b, name).NewFluid(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
			x := make([]float64, law.Vars())
			dx := make([]float64, law.Vars())
			o := Observation{Now: 1, RTT: 0.12, BaseRTT: 0.1}
			law.Init(x, o)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				o.Now = 1 + float64(i&1023)*1e-3
				law.Deriv(dx, x, o)
			}
		})
	}
}

func BenchmarkAlgoOnAck(b *testing.B) {
	for _, name := range append(classicAlgos[:len(classicAlgos):len(classicAlgos)], "colo") {
		b.Run(name, func(b *testing.B) {
			ev := mustAlgo(b, name).NewEvent(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
			o := Observation{Now: 1, RTT: 0.12, BaseRTT: 0.1}
			b.ReportAllocs()
			for b.Loop() {
				o.Now += 1e-4
				ev.OnAck(1, o)
				if ev.Cwnd() > 1e5 {
					ev.OnLoss(o)
				}
			}
		})
	}
}

// CUBIC's fast convergence compares whole packets, as Linux's integer cwnd and
// last_max_cwnd do: a loss at 1000.1 packets after W_max = 1000.2 keeps W_max = W (a
// real-valued test would lower it), and at 999.9 it lowers W_max to W·(1 + β)/2.
func TestCubicFastConvergenceWholePackets(t *testing.T) {
	for _, c := range []struct{ w, want float64 }{{1000.1, 1000.1}, {999.9, 999.9 * 0.85}} {
		e := newCubicEpoch(cubicParams{c: 0.4, beta: 0.7, fastConvergence: 1, friendly: 1})
		e.wMax = 1000.2
		e.congestion(c.w)
		if math.Abs(e.wMax-c.want) > 1e-9 {
			t.Errorf("loss at %g after W_max 1000.2: W_max %.6g, want %.6g", c.w, e.wMax, c.want)
		}
	}
}

// Configure sets every parameter and then checks them together once, so a valid set is
// accepted whatever order a map gives it in, and a contradictory one is refused with both
// parameters and their values named (and the range error of a single one with its name).
func TestConfigureChecksTogether(t *testing.T) {
	for range 20 {
		a, err := Configure("colo", map[string]float64{"alpha_min": 10, "alpha_max": 20})
		if err != nil {
			t.Fatalf("colo alpha_min 10, alpha_max 20: %v", err)
		}
		if p := a.Params(); p[1].Value != 10 || p[2].Value != 20 {
			t.Fatalf("colo params %+v", p)
		}
	}
	for _, c := range []struct {
		algo    string
		params  map[string]float64
		field   string // ParamError.Param
		mention []string
	}{
		{"colo", map[string]float64{"alpha_min": 20, "alpha_max": 10}, "", []string{"colo", "alpha_min = 20", "alpha_max = 10"}},
		{"vegas", map[string]float64{"alpha": 5}, "", []string{"vegas", "alpha = 5", "beta = 4"}},
		{"bic", map[string]float64{"s_min": 20}, "", []string{"bic", "s_min = 20", "s_max = 16"}},
		{"htcp", map[string]float64{"beta_max": 0.4}, "", []string{"htcp", "beta_min = 0.5", "beta_max = 0.4"}},
		{"cubic", map[string]float64{"beta": 0.7, "c": 100}, "c", []string{"cubic.c", "100", "[0.01, 10]"}},
	} {
		_, err := Configure(c.algo, c.params)
		var pe *ParamError
		if !errors.Is(err, ErrParam) || !errors.As(err, &pe) || pe.Param != c.field {
			t.Errorf("%s %v: error %v, want a ParamError for %q wrapping ErrParam", c.algo, c.params, err, c.field)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", c.algo, err, m)
			}
		}
	}
	if _, err := Configure("nope", nil); !errors.Is(err, ErrUnknownAlgorithm) {
		t.Errorf("unknown algorithm: %v", err)
	}
}
