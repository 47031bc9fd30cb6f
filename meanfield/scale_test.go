package meanfield

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tcpfluid/tcpfluid/model"
)

// redScenario is the HMTG example's RED bottleneck (C/N = 62.5 packets/s of 500 bytes,
// thresholds per flow as the example's, RED's pole K = 0.005/s) shared by n flows on
// each of three paths of propagation RTTs 100, 200 and 300 ms.
func redScenario(n int, durationS float64) *model.Scenario {
	k := float64(3*n) / hmtgN
	red := *hmtgRED()
	red.MinThPkts *= k
	red.MaxThPkts *= k
	c := hmtgC * k
	red.Weight = -math.Expm1(-hmtgK / c)
	sc := &model.Scenario{Name: "red3", DurationS: durationS,
		Links: []model.Link{{Name: "bottleneck", CapacityBps: c * 500 * 8, DelayS: 0.025, BufferPkts: 100 * c, Queue: model.QueueRED, RED: red}}}
	for j, d := range []float64{0.025, 0.075, 0.125} {
		a := fmt.Sprintf("access%d", j)
		sc.Links = append(sc.Links, model.Link{Name: a, CapacityBps: 10 * c * 500 * 8, DelayS: d, BufferPkts: 100 * c})
		sc.Paths = append(sc.Paths, model.Path{Name: fmt.Sprintf("p%d", j), Links: []string{a, "bottleneck"}})
	}
	for i := range 3 * n {
		sc.Flows = append(sc.Flows, model.Flow{Algorithm: "reno", Path: fmt.Sprintf("p%d", i%3), MSSBytes: 500, WindowScaling: true, RwndBytes: 1e6})
	}
	return sc
}

// distinguish makes every flow of sc a class of its own: receiver windows of 1000 to
// 1000 + flows packets, above any window the flows reach, so that the classes differ
// in a field and not in their equations.
func distinguish(sc *model.Scenario) {
	for i := range sc.Flows {
		sc.Flows[i].RwndBytes = (1000 + float64(i)) * sc.Flows[i].MSSBytes
	}
}

// TestGroupingInvariance: a scenario of 3n flows in three classes (one per RTT) gives
// every flow the figures of the same scenario written as 3n distinguishable classes of
// one flow, to 1e-9, for n = 1, 10 and 100 (drop-tail: 1 and 10, whose full queue makes
// every class's look-back sum the arrivals of every class). With a fixed step the two
// integrations take the same steps on the same equations, the link arrivals are summed
// exactly (rateSum), and what remains is rounding: a few 1e-16 on RED, none at all on
// drop-tail. (The adaptive controller weights classes, not flows: at RelTol 1e-9 the
// two forms of the RED scenario with n = 10 take other steps and differ by 1e-5.)
func TestGroupingInvariance(t *testing.T) {
	for _, c := range []struct {
		name     string
		n        int
		scenario func(n int) *model.Scenario
		set      ScenarioSettings
		tol      float64
	}{
		{"red", 1, func(n int) *model.Scenario { return redScenario(n, 40) }, ScenarioSettings{StepS: 0.025}, 1e-9},
		{"red", 10, func(n int) *model.Scenario { return redScenario(n, 40) }, ScenarioSettings{StepS: 0.025}, 1e-9},
		{"red", 100, func(n int) *model.Scenario { return redScenario(n, 40) }, ScenarioSettings{StepS: 0.025}, 1e-9},
		{"droptail", 1, func(n int) *model.Scenario { return millionScenario(3 * n) }, ScenarioSettings{StepS: 0.025}, 1e-9},
		{"droptail", 10, func(n int) *model.Scenario { return millionScenario(3 * n) }, ScenarioSettings{StepS: 0.025}, 1e-9},
	} {
		grouped, single := c.scenario(c.n), c.scenario(c.n)
		distinguish(single)
		var res [2]*model.Result
		for k, sc := range []*model.Scenario{grouped, single} {
			if err := sc.Validate(); err != nil {
				t.Fatal(err)
			}
			net, _, err := FromScenario(sc)
			if err != nil {
				t.Fatal(err)
			}
			if want := [2]int{3, 3 * c.n}[k]; len(net.Classes) != want {
				t.Fatalf("%s n = %d: %d classes, want %d", c.name, c.n, len(net.Classes), want)
			}
			if res[k], err = RunScenario(context.Background(), sc, c.set); err != nil {
				t.Fatal(err)
			}
		}
		worst, at := 0.0, ""
		for i := range res[0].Flows {
			g, s := &res[0].Flows[i], &res[1].Flows[i]
			for _, v := range []struct {
				what string
				g, s float64
			}{{"mean cwnd", g.MeanCwndPkts, s.MeanCwndPkts}, {"throughput", g.MeanThroughputBps, s.MeanThroughputBps},
				{"sent", g.SentPkts, s.SentPkts}, {"delivered", g.DeliveredPkts, s.DeliveredPkts}, {"dropped", g.DroppedPkts, s.DroppedPkts}} {
				if e := relErr(v.s, v.g); e > worst || math.IsNaN(e) {
					worst, at = e, fmt.Sprintf("flow %d %s (%v grouped, %v distinguishable)", i, v.what, v.g, v.s)
				}
			}
			if g.LossEvents != s.LossEvents {
				t.Errorf("%s n = %d: flow %d: %d loss events grouped, %d distinguishable", c.name, c.n, i, g.LossEvents, s.LossEvents)
			}
		}
		for l := range res[0].Links {
			g, s := res[0].Links[l], res[1].Links[l]
			if relErr(s.MeanQueuePkts, g.MeanQueuePkts) > c.tol || relErr(s.Utilisation, g.Utilisation) > c.tol {
				t.Errorf("%s n = %d: link %s: queue %v and %v packets, utilisation %v and %v", c.name, c.n, g.Link, g.MeanQueuePkts, s.MeanQueuePkts, g.Utilisation, s.Utilisation)
			}
		}
		f := res[0].Flows
		t.Logf("%s n = %d: windows %.6g, %.6g, %.6g packets; worst relative difference %.3g at %s", c.name, c.n, f[0].MeanCwndPkts, f[1].MeanCwndPkts, f[2].MeanCwndPkts, worst, at)
		if !(worst <= c.tol) {
			t.Errorf("%s n = %d: grouped and distinguishable runs differ by %.3g at %s, want ≤ %g", c.name, c.n, worst, at, c.tol)
		}
	}
}

// TestMillionFlowsRun: 10⁶ Reno flows in three RTT classes on a drop-tail bottleneck run
// from a scenario, at the default tolerances, in a step count set by the RTTs and not
// by the flows: at most 10 steps per smallest propagation RTT (the step's bound is one;
// the run takes about 3: the drop-tail queue's kinks shorten the steps about them), and
// in seconds.
func TestMillionFlowsRun(t *testing.T) {
	sc := millionScenario(1_000_000)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	net, _, err := FromScenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	mres, err := Simulate(context.Background(), net, Settings{DurationS: sc.DurationS})
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunScenario(context.Background(), sc, ScenarioSettings{})
	el := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	maxSteps := int(10 * sc.DurationS / 0.1)
	for j, c := range mres.Classes {
		t.Logf("class %d (RTT %.1f s): %v flows, window %.2f packets [%.2f, %.2f], RTT %.4f s, loss %.3g", j, net.Classes[j].PropRTTS, c.Flows, c.MeanCwndPkts, c.MinCwndPkts, c.MaxCwndPkts, c.MeanRTTS, c.MeanLossP)
	}
	t.Logf("10⁶ flows: %d steps (at most %d), %v for Simulate and RunScenario; flow 0 %.4g bit/s, bottleneck utilisation %.6f", mres.Steps, maxSteps, el, res.Flows[0].MeanThroughputBps, res.Links[0].Utilisation)
	if mres.Steps > maxSteps {
		t.Errorf("%d steps, want at most %d", mres.Steps, maxSteps)
	}
	if el > 20*time.Second {
		t.Errorf("Simulate and RunScenario of 10⁶ flows took %v, want seconds", el)
	}
	if len(res.Flows) != 1_000_000 || res.Flows[999_999].Name != sc.Flows[999_999].Name || res.Flows[999_999].MeanCwndPkts != res.Flows[0].MeanCwndPkts {
		t.Errorf("results: %d flows; flow 999999 %+v", len(res.Flows), res.Flows[999_999])
	}
}

// renoScenario is n Reno flows of 1000-byte packets on one drop-tail link of 10 Mb/s per
// flow, propagation RTT 100 ms and a buffer of bdp times its bandwidth-delay product.
func renoScenario(n int, bdp float64) *model.Scenario {
	c := 1e7 * float64(n)
	sc := &model.Scenario{Name: "reno", DurationS: 100,
		Links: []model.Link{{Name: "bottleneck", CapacityBps: c, DelayS: 0.05, BufferPkts: bdp * c / 8000 * 0.1}},
		Paths: []model.Path{{Name: "p", Links: []string{"bottleneck"}}}}
	sc.Flows = make([]model.Flow, n)
	for i := range sc.Flows {
		sc.Flows[i] = model.Flow{Algorithm: "reno", Path: "p", MSSBytes: 1000, WindowScaling: true}
	}
	return sc
}

// TestMillionFlowsLittle checks N Reno flows on a drop-tail link of capacity C
// (packets/s), propagation RTT T and buffer B against the pipe's conservation law, the
// theory of a window-limited sender (Little's law over the round trip): each flow's
// window is its rate times its RTT, so N·W = λ·τ with λ the link's arrivals and τ the
// RTT T + q/C. Arrivals are departures, the queue's growth and the drops: λ = u·C + q′ +
// d, with u the link's busy fraction, and the link is busy whenever it has a queue, so
// over the run of D seconds
//
//	N·W̄·D = C·T·U·D + q̄·D + (T + B/C)·dropped + b,   0 ≤ b = T·q(D) + q(D)²/(2C) ≤ T·B + B²/(2C),
//
// drops happening at a full queue. For a link that never idles and rarely drops this is
// W̄ ≈ C·R̄/N with R̄ = T + q̄/C the mean RTT: the fair share of the mean pipe, for the
// synchronized sawtooth and the mean-field (unsynchronized) population alike, the queue's
// oscillation entering through q̄. The residual must lie in [0, T·B + B²/(2C)] up to the
// integration's error (RelTol 1e-6 of the terms); 1, 10³ and 10⁶ flows, one BDP.
func TestMillionFlowsLittle(t *testing.T) {
	for _, n := range []int{1, 1000, 1_000_000} {
		sc := renoScenario(n, 1)
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		res, err := RunScenario(context.Background(), sc, ScenarioSettings{})
		if err != nil {
			t.Fatal(err)
		}
		f, l := res.Flows[n-1], res.Links[0]
		N, D, C, T, B := float64(n), sc.DurationS, sc.Links[0].CapacityBps/8000, 0.1, sc.Links[0].BufferPkts
		lhs := N * f.MeanCwndPkts * D
		known := C*T*l.Utilisation*D + l.MeanQueuePkts*D + (T+B/C)*l.DroppedPkts
		b, bMax, slack := lhs-known, T*B+B*B/(2*C), 1e-6*lhs
		rbar := T + l.MeanQueuePkts/C
		t.Logf("N = %d: W̄ = %.5g packets, C·R̄/N = %.5g (R̄ = %.5g s), utilisation %.6f, %.4g dropped per flow; residual %.4g of [0, %.4g] packets·s",
			n, f.MeanCwndPkts, C*rbar/N, rbar, l.Utilisation, l.DroppedPkts/N, b, bMax)
		if b < -slack || b > bMax+slack {
			t.Errorf("N = %d: N·W̄·D = %.8g, conservation gives %.8g + b with b in [0, %.4g], so b = %.4g", n, lhs, known, bMax, b)
		}
		// Deliveries are the departures but for what is still in the pipe, at most a
		// full buffer and a propagation RTT of packets.
		if d := math.Abs(N*f.DeliveredPkts - C*l.Utilisation*D); d > C*T+B {
			t.Errorf("N = %d: %.8g packets delivered, the link sent %.8g: %.4g apart, want at most the pipe's %.4g", n, N*f.DeliveredPkts, C*l.Utilisation*D, d, C*T+B)
		}
	}
}

// TestStepRefused: a fixed step must be finite, positive and at most the smallest
// propagation RTT, and the error says which.
func TestStepRefused(t *testing.T) {
	for _, c := range []struct {
		stepS float64
		want  string
	}{
		{-1, "step -1 s, want 0 (adaptive) or a fixed step > 0"},
		{math.Inf(1), "step +Inf s"},
		{0.2, "step 0.2 s, want at most the smallest propagation RTT, 0.1 s"},
	} {
		_, err := Simulate(context.Background(), oneLink(Reno(), 10, 1000, 1e-3, 0.1), Settings{DurationS: 10, StepS: c.stepS})
		if !errors.Is(err, ErrNetwork) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("step %v s: %v, want ErrNetwork saying %q", c.stepS, err, c.want)
		}
	}
}

// TestMillionFlowsEmptyingQueue: a drop-tail buffer of a quarter BDP empties every
// cycle, a kink the adaptive step must resolve to the absolute tolerance. Queues are held
// per flow crossing the link, so 10⁶ flows on 10⁶ times the capacity take the steps of
// one flow (in packets, the steps would shrink with the flows, below the solver's minimum
// at 10⁶) and give its window to the integration's accuracy, ≤ 10³·RelTol.
func TestMillionFlowsEmptyingQueue(t *testing.T) {
	var res [2]*Result
	for k, n := range []float64{1, 1e6} {
		c := 833.3 * n
		net := &Network{Links: []Link{{CapacityPktsPerS: c, BufferPkts: 0.25 * c * 0.1}},
			Classes: []Class{{Law: Reno(), Flows: n, PropRTTS: 0.1, Links: []int{0}}}}
		var err error
		if res[k], err = Simulate(context.Background(), net, Settings{DurationS: 300, RelTol: 1e-9, AbsTol: 1e-9}); err != nil {
			t.Fatalf("%v flows: %v", n, err)
		}
	}
	one, many := res[0], res[1]
	t.Logf("window %.9g and %.9g packets, utilisation %.6f and %.6f, queue [%.3g, %.3g] packets per flow; %d and %d steps",
		one.Classes[0].MeanCwndPkts, many.Classes[0].MeanCwndPkts, one.Links[0].Utilisation, many.Links[0].Utilisation,
		many.Links[0].MinQueuePkts/1e6, many.Links[0].MaxQueuePkts/1e6, one.Steps, many.Steps)
	if one.Links[0].MinQueuePkts > 0 || one.Links[0].Utilisation > 0.99 {
		t.Errorf("the queue does not empty: min %v packets, utilisation %v", one.Links[0].MinQueuePkts, one.Links[0].Utilisation)
	}
	if e := relErr(many.Classes[0].MeanCwndPkts, one.Classes[0].MeanCwndPkts); e > 1e-6 {
		t.Errorf("10⁶ flows' window %v packets, one flow's %v: %.3g apart, want ≤ 1e-6", many.Classes[0].MeanCwndPkts, one.Classes[0].MeanCwndPkts, e)
	}
	if d := many.Steps - one.Steps; d > one.Steps/10 || d < -one.Steps/10 {
		t.Errorf("%d steps for 10⁶ flows, %d for one, want within 10%%", many.Steps, one.Steps)
	}
}
