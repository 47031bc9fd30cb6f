package meanfield

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/ode"
)

// TestRenoEquilibrium: with a random loss p and no queue, the mean-field Reno equation's
// fixed point is W²p/2 = 1, W = √(2/p). The solver finds it to bisection precision; a run
// from W = 1 must reach it within 1% (the check). The window relaxes at
// (2/W0)/τ, so after 200 s at τ = 0.1 s the residual is far below that.
func TestRenoEquilibrium(t *testing.T) {
	for _, p := range []float64{1e-4, 1e-3, 1e-2, 0.05} {
		net := oneLink(Reno(), 1, 1e9, p, 0.1)
		want := math.Sqrt(2 / p)
		eq, err := net.Equilibrium()
		if err != nil {
			t.Fatal(err)
		}
		if e := relErr(eq.Classes[0].CwndPkts, want); e > 1e-12 {
			t.Errorf("p = %g: equilibrium window %.15g packets, want √(2/p) = %.15g (error %.2g)", p, eq.Classes[0].CwndPkts, want, e)
		}
		if eq.Links[0].Regime != RegimeIdle || !eq.Smooth {
			t.Errorf("p = %g: link regime %q smooth %v, want idle and smooth", p, eq.Links[0].Regime, eq.Smooth)
		}
		res, err := Simulate(context.Background(), net, Settings{DurationS: 200})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Classes[0]
		e := relErr(c.MeanCwndPkts, want)
		t.Logf("p = %g: mean-field window %.6f packets over the tail, √(2/p) = %.6f, error %.2g (%d steps, %s)", p, c.MeanCwndPkts, want, e, res.Steps, res.Behaviour)
		if e > 0.01 {
			t.Errorf("p = %g: mean window %.6g packets, want within 1%% of √(2/p) = %.6g", p, c.MeanCwndPkts, want)
		}
		if res.Behaviour != BehaviourConverged || relErr(c.MeanLossP, p) > 1e-9 {
			t.Errorf("p = %g: behaviour %s, loss seen %g; want converged at p", p, res.Behaviour, c.MeanLossP)
		}
	}
}

// TestREDEquilibrium reproduces the operating point of the HMTG example — W0 = R0·C/N,
// q0 = 175 packets, R0 = 0.2467 s, p0 = 2/W0² — and a run from an empty network reaches
// it: the tail's mean window within 1% of √(2/p̄) for the p̄ the flows see.
func TestREDEquilibrium(t *testing.T) {
	net := hmtgNet()
	eq, err := net.Equilibrium()
	if err != nil {
		t.Fatal(err)
	}
	r0 := hmtgTp + hmtgQ0/hmtgC
	w0 := r0 * hmtgC / hmtgN
	c, l := eq.Classes[0], eq.Links[0]
	for _, chk := range []struct {
		what      string
		got, want float64
	}{{"W0 (packets)", c.CwndPkts, w0}, {"q0 (packets)", l.QueuePkts, hmtgQ0}, {"R0 (s)", c.RTTS, r0}, {"p0", c.LossP, 2 / (w0 * w0)},
		{"rate (packets/s)", c.Flows * c.RatePktsPerS, hmtgC}} {
		if e := relErr(chk.got, chk.want); e > 1e-9 {
			t.Errorf("HMTG example: %s = %.12g, want %.12g", chk.what, chk.got, chk.want)
		}
	}
	if l.Regime != RegimeRED || !eq.Smooth {
		t.Errorf("regime %q, smooth %v; want red, smooth", l.Regime, eq.Smooth)
	}
	t.Logf("HMTG example: W0 = %.4f packets, q0 = %.2f packets, R0 = %.4f s, p0 = %.5f", c.CwndPkts, l.QueuePkts, c.RTTS, c.LossP)
	res, err := Simulate(context.Background(), net, Settings{DurationS: 3000})
	if err != nil {
		t.Fatal(err)
	}
	rc, rl := res.Classes[0], res.Links[0]
	want := math.Sqrt(2 / rc.MeanLossP)
	t.Logf("run: mean window %.6f packets, √(2/p̄) = %.6f, queue %.3f packets, utilisation %.6f, %s, %d steps", rc.MeanCwndPkts, want, rl.MeanQueuePkts, rl.Utilisation, res.Behaviour, res.Steps)
	if e := relErr(rc.MeanCwndPkts, want); e > 0.01 {
		t.Errorf("mean window %.6g packets, want within 1%% of √(2/p̄) = %.6g", rc.MeanCwndPkts, want)
	}
	if e := relErr(rl.MeanQueuePkts, hmtgQ0); e > 0.01 || res.Behaviour != BehaviourConverged {
		t.Errorf("mean queue %.6g packets (%s), want the equilibrium %v packets within 1%%", rl.MeanQueuePkts, res.Behaviour, hmtgQ0)
	}
}

// TestGenericEquilibria: the same construction for other laws. The fixed point of
// Increase(W) = lost(W)·W·p is W = √(a/((1−b)p)) for AIMD(a, b), a/(b·p) for Scalable above
// its legacy window, and the root of a(W) = b(W)·W²·p for HighSpeed (RFC 3649's a and b);
// runs reach them within 1%.
func TestGenericEquilibria(t *testing.T) {
	for _, c := range []struct {
		law   Law
		p     float64
		want  float64 // 0: check the balance instead
		check func(w float64) float64
	}{
		{AIMD{A: 2, B: 0.8}, 1e-3, math.Sqrt(2 / (0.2 * 1e-3)), nil},
		{mustLaw(t, "scalable"), 1e-4, 0.01 / (0.125 * 1e-4), nil},
		{mustLaw(t, "highspeed"), 1e-5, 0, func(w float64) float64 {
			return model.HighSpeedA(w)/(model.HighSpeedB(w)*w*w*1e-5) - 1
		}},
	} {
		net := oneLink(c.law, 1, 1e9, c.p, 0.1)
		eq, err := net.Equilibrium()
		if err != nil {
			t.Fatal(err)
		}
		w := eq.Classes[0].CwndPkts
		if c.want > 0 {
			if e := relErr(w, c.want); e > 1e-12 {
				t.Errorf("%s: equilibrium %.15g packets, want %.15g", c.law.Name(), w, c.want)
			}
		} else if e := math.Abs(c.check(w)); e > 1e-12 {
			t.Errorf("%s: equilibrium %.15g packets leaves a relative imbalance %g", c.law.Name(), w, e)
		}
		res, err := Simulate(context.Background(), net, Settings{DurationS: 400})
		if err != nil {
			t.Fatal(err)
		}
		e := relErr(res.Classes[0].MeanCwndPkts, w)
		t.Logf("%s at p = %g: equilibrium %.4f packets, run %.4f (error %.2g, %s)", c.law.Name(), c.p, w, res.Classes[0].MeanCwndPkts, e, res.Behaviour)
		if e > 0.01 {
			t.Errorf("%s: run's mean window %.6g packets, want within 1%% of %.6g", c.law.Name(), res.Classes[0].MeanCwndPkts, w)
		}
	}
}

// TestMillionFlows: flows enter only as a multiplicity. 10^6 flows with capacity, RED
// thresholds and buffer scaled by the same factor (and RED's weight giving the same K)
// follow the very trajectory of the 60-flow example. At RelTol 1e-9 the two runs'
// windows and queues per flow agree to 1e-6 = 10³·RelTol, the usual reach of the global
// error of an error-per-step controlled integration over this many steps.
func TestMillionFlows(t *testing.T) {
	set := Settings{DurationS: 600, SampleS: 10, RelTol: 1e-9, AbsTol: 1e-9}
	small, err := Simulate(context.Background(), hmtgNet(), set)
	if err != nil {
		t.Fatal(err)
	}
	k := 1e6 / hmtgN
	big, err := Simulate(context.Background(), scaledHMTG(k), set)
	if err != nil {
		t.Fatal(err)
	}
	worstW, worstQ := 0.0, 0.0
	for i, s := range small.Series {
		b := big.Series[i]
		worstW = math.Max(worstW, relErr(b.CwndPkts[0], s.CwndPkts[0]))
		if s.QueuePkts[0] > 1 {
			worstQ = math.Max(worstQ, relErr(b.QueuePkts[0]/k, s.QueuePkts[0]))
		}
	}
	t.Logf("10^6 flows vs 60: max relative difference %.2g in the window, %.2g in the queue per flow; %d and %d steps", worstW, worstQ, small.Steps, big.Steps)
	if worstW > 1e-6 || worstQ > 1e-6 {
		t.Errorf("scaled runs differ by %g (window) and %g (queue), want ≤ 1e-6", worstW, worstQ)
	}
}

// TestQuasiStaticAverage: with K·τ ≥ 100 the run reads RED's average from the queue's
// history, x = q − q'/K + q”/K², whose truncation error is of order (1/(Kτ))³ = 10⁻⁶ of
// the queue's swing. At K·τ = 100 (K = 500/s, τ = 0.2 s) the windows match the
// integrated average's run to 1e-5 relative while it takes a fraction of the steps.
func TestQuasiStaticAverage(t *testing.T) {
	net := hmtgNet()
	red := *net.Links[0].RED
	red.Weight = -math.Expm1(-500.0 / hmtgC)
	net.Links[0].RED = &red
	set := Settings{DurationS: 120, SampleS: 1, RelTol: 1e-8, AbsTol: 1e-8}
	quasi, err := simulate(context.Background(), net, set, true, false)
	if err != nil {
		t.Fatal(err)
	}
	full, err := simulate(context.Background(), net, set, false, false)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range quasi.Series {
		worst = math.Max(worst, relErr(quasi.Series[i].CwndPkts[0], full.Series[i].CwndPkts[0]))
	}
	t.Logf("K·τ = 100: quasi-static average %d steps, integrated %d steps, max relative window difference %.2g", quasi.Steps, full.Steps, worst)
	if worst > 1e-5 {
		t.Errorf("quasi-static RED average: windows differ by %g relative, want ≤ 1e-5", worst)
	}
	if quasi.Steps >= full.Steps {
		t.Errorf("quasi-static run took %d steps, the integrated %d; want fewer", quasi.Steps, full.Steps)
	}
}

// TestMultiLink: two RED links in tandem, a long class over both and a short class on
// each: the Gauss–Seidel equilibrium balances every link and class, and a run reaches it.
func TestMultiLink(t *testing.T) {
	red := func(lo, hi float64) *model.RED {
		return &model.RED{MinThPkts: lo, MaxThPkts: hi, MaxP: 0.1, Weight: 1e-4}
	}
	net := &Network{
		Links: []Link{{Name: "a", CapacityPktsPerS: 2000, RED: red(20, 400)}, {Name: "b", CapacityPktsPerS: 3000, RED: red(30, 600)}},
		Classes: []Class{{Name: "long", Law: Reno(), Flows: 20, PropRTTS: 0.15, Links: []int{0, 1}},
			{Name: "a-only", Law: Reno(), Flows: 10, PropRTTS: 0.05, Links: []int{0}},
			{Name: "b-only", Law: mustLaw(t, "scalable"), Flows: 10, PropRTTS: 0.1, Links: []int{1}}},
	}
	eq, err := net.Equilibrium()
	if err != nil {
		t.Fatal(err)
	}
	for l, le := range eq.Links {
		if e := relErr(le.ArrivalPktsPerS, net.Links[l].CapacityPktsPerS); le.Regime != RegimeRED || e > 1e-9 {
			t.Errorf("link %s: regime %s, arrivals %.12g packets/s, want red and the capacity", le.Name, le.Regime, le.ArrivalPktsPerS)
		}
	}
	for i, ce := range eq.Classes {
		c := &net.Classes[i]
		o := model.Observation{RTT: ce.RTTS, BaseRTT: c.PropRTTS}
		if e := math.Abs(c.Law.Increase(ce.CwndPkts, o)/(lost(c.Law, ce.CwndPkts, o)*ce.CwndPkts*ce.LossP) - 1); e > 1e-9 {
			t.Errorf("class %s: imbalance %g at W = %g packets", ce.Name, e, ce.CwndPkts)
		}
	}
	st, err := Analyze(net)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Simulate(context.Background(), net, Settings{DurationS: 2000})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tandem: %s (rightmost root %.4g%+.4gi), run %s", st.Verdict, st.Roots[0].Re, st.Roots[0].Im, res.Behaviour)
	if st.Verdict != VerdictStable || st.Loop != nil {
		t.Fatalf("tandem: verdict %s, loop %v; want stable and no single-link loop", st.Verdict, st.Loop)
	}
	for i, c := range res.Classes {
		if e := relErr(c.MeanCwndPkts, eq.Classes[i].CwndPkts); e > 0.01 {
			t.Errorf("class %s: run's mean window %.6g packets, equilibrium %.6g", c.Name, c.MeanCwndPkts, eq.Classes[i].CwndPkts)
		}
	}
}

// TestDropTail: without RED a congested queue sits at its buffer, a fixed point the
// field is not differentiable at; the analysis says so and the run stays finite, the
// queue within its buffer.
func TestDropTail(t *testing.T) {
	net := &Network{Links: []Link{{CapacityPktsPerS: 1000, BufferPkts: 100}},
		Classes: []Class{{Law: Reno(), Flows: 10, PropRTTS: 0.1, Links: []int{0}}}}
	eq, err := net.Equilibrium()
	if err != nil {
		t.Fatal(err)
	}
	if eq.Links[0].Regime != RegimeFull || eq.Smooth {
		t.Errorf("drop-tail: regime %s smooth %v, want full, not smooth", eq.Links[0].Regime, eq.Smooth)
	}
	if _, err := Analyze(net); !errors.Is(err, ErrNetwork) || !strings.Contains(err.Error(), "full") {
		t.Errorf("Analyze(drop-tail): %v, want ErrNetwork naming the full queue", err)
	}
	res, err := Simulate(context.Background(), net, Settings{DurationS: 100, SampleS: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	l := res.Links[0]
	t.Logf("drop-tail: queue %.2f [%.2f, %.2f] packets, utilisation %.4f, loss %.4g, %s", l.MeanQueuePkts, l.MinQueuePkts, l.MaxQueuePkts, l.Utilisation, res.Classes[0].MeanLossP, res.Behaviour)
	if l.MaxQueuePkts > 100 || l.MeanMarkP <= 0 || l.Utilisation < 0.9 {
		t.Errorf("drop-tail: max queue %g packets (buffer 100), mark %g, utilisation %g", l.MaxQueuePkts, l.MeanMarkP, l.Utilisation)
	}
}

// TestStartStop: a class that starts later holds its initial window until then, and two
// identical classes end with equal windows.
func TestStartStop(t *testing.T) {
	net := hmtgNet()
	net.Classes[0].Flows = 30
	late := net.Classes[0]
	late.Name, late.StartS = "late", 500
	early := net.Classes[0]
	early.Name, early.StopS = "early-stop", 800
	net.Classes = append(net.Classes, late, early)
	res, err := Simulate(context.Background(), net, Settings{DurationS: 3000, SampleS: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Series {
		if s.TS < 500 && s.CwndPkts[1] != 1 {
			t.Fatalf("t = %v s: the late class's window %v before its start, want 1", s.TS, s.CwndPkts[1])
		}
	}
	if e := relErr(res.Classes[1].MeanCwndPkts, res.Classes[0].MeanCwndPkts); e > 1e-6 {
		t.Errorf("identical classes end with windows %v and %v packets", res.Classes[0].MeanCwndPkts, res.Classes[1].MeanCwndPkts)
	}
	if res.Classes[2].MeanRatePktsPerS != 0 {
		t.Errorf("stopped class sends %v packets/s over the tail", res.Classes[2].MeanRatePktsPerS)
	}
}

// TestInvalid: every bad field is refused with ErrNetwork, naming it.
func TestInvalid(t *testing.T) {
	good := func() *Network { return hmtgNet() }
	for _, c := range []struct {
		field  string
		change func(n *Network)
	}{
		{"capacity_pkts_per_s", func(n *Network) { n.Links[0].CapacityPktsPerS = 0 }},
		{"capacity_pkts_per_s", func(n *Network) { n.Links[0].CapacityPktsPerS = math.Inf(1) }},
		{"buffer_pkts", func(n *Network) { n.Links[0].BufferPkts = -1 }},
		{"loss_p", func(n *Network) { n.Links[0].LossP = 1 }},
		{"max_thresh", func(n *Network) { n.Links[0].RED.MaxThPkts = 1 }},
		{"q_weight", func(n *Network) { n.Links[0].RED.Weight = 0 }},
		{"max_p", func(n *Network) { n.Links[0].RED.MaxP = math.NaN() }},
		{"flows", func(n *Network) { n.Classes[0].Flows = 0 }},
		{"prop_rtt_s", func(n *Network) { n.Classes[0].PropRTTS = 0 }},
		{"links[0]", func(n *Network) { n.Classes[0].Links = []int{3} }},
		{"law", func(n *Network) { n.Classes[0].Law = nil }},
		{"max_cwnd_pkts", func(n *Network) { n.Classes[0].MaxCwndPkts = 1 }},
		{"stop_s", func(n *Network) { n.Classes[0].StartS, n.Classes[0].StopS = 5, 4 }},
	} {
		n := good()
		red := *n.Links[0].RED
		n.Links[0].RED = &red
		c.change(n)
		_, err := Simulate(context.Background(), n, Settings{DurationS: 1})
		if !errors.Is(err, ErrNetwork) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v, want ErrNetwork naming it", c.field, err)
		}
	}
	for _, c := range []struct {
		what string
		set  Settings
	}{
		{"duration", Settings{}}, {"sample", Settings{DurationS: 1, SampleS: -1}}, {"sample", Settings{DurationS: 1e7, SampleS: 1}},
		{"tail", Settings{DurationS: 1, TailS: 2}}, {"perturb", Settings{DurationS: 1, Perturb: 1}},
		{"tolerance", Settings{DurationS: 1, RelTol: math.NaN()}}, {"max steps", Settings{DurationS: 1, MaxSteps: -1}},
	} {
		if _, err := Simulate(context.Background(), good(), c.set); !errors.Is(err, ErrNetwork) || !strings.Contains(err.Error(), c.what) {
			t.Errorf("settings %s: %v, want ErrNetwork naming it", c.what, err)
		}
	}
}

// TestLimits: cancellation and the step limit stop a run with their errors; an
// overloaded network has no equilibrium but its run stays finite.
func TestLimits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Simulate(ctx, hmtgNet(), Settings{DurationS: 100}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if _, err := Simulate(context.Background(), hmtgNet(), Settings{DurationS: 100, MaxSteps: 10}); !errors.Is(err, ode.ErrMaxSteps) || !errors.Is(err, ErrSolve) {
		t.Errorf("step limit: %v, want ErrSolve wrapping ode.ErrMaxSteps", err)
	}
	over := hmtgNet()
	over.Classes[0].Flows = 1e4
	over.Links[0].BufferPkts = 2000
	if _, err := over.Equilibrium(); !errors.Is(err, ErrNetwork) || !strings.Contains(err.Error(), "cannot carry") {
		t.Errorf("overloaded equilibrium: %v, want ErrNetwork: cannot carry", err)
	}
	res, err := Simulate(context.Background(), over, Settings{DurationS: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Equilibrium != nil || res.Links[0].MaxQueuePkts > 2000 {
		t.Errorf("overloaded run: equilibrium %v, max queue %v packets", res.Equilibrium, res.Links[0].MaxQueuePkts)
	}
	if _, err := Simulate(context.Background(), over, Settings{DurationS: 50, FromEquilibrium: true}); !errors.Is(err, ErrNetwork) {
		t.Errorf("overloaded run from equilibrium: %v, want ErrNetwork", err)
	}
	lossless := oneLink(Reno(), 1, 1000, 0, 0.1)
	if _, err := lossless.Equilibrium(); !errors.Is(err, ErrNetwork) || !strings.Contains(err.Error(), "no equilibrium window") {
		t.Errorf("lossless unlimited queue: %v, want ErrNetwork: no equilibrium window", err)
	}
}
