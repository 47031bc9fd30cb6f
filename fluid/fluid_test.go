package fluid_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// oneLink is a single-link, single-flow scenario: capacity in bit/s, one-way delay in s,
// buffer in packets.
func oneLink(algo string, capBps, delayS, bufPkts float64, durationS float64) *model.Scenario {
	return &model.Scenario{
		Name:      "one-link",
		DurationS: durationS,
		Links:     []model.Link{{Name: "l0", CapacityBps: capBps, DelayS: delayS, BufferPkts: bufPkts}},
		Paths:     []model.Path{{Name: "p0", Links: []string{"l0"}}},
		Flows:     []model.Flow{{Name: "f0", Algorithm: algo, Path: "p0", WindowScaling: true}},
	}
}

func runFluid(t testing.TB, sc *model.Scenario, set fluid.Settings) *model.Result {
	t.Helper()
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := fluid.Run(context.Background(), sc, set)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func flowSamples(res *model.Result, flow int) []model.Sample {
	var out []model.Sample
	for _, s := range res.Trace {
		if s.Flow == flow {
			out = append(out, s)
		}
	}
	return out
}

func linkSamples(res *model.Result, link string) []model.Sample {
	var out []model.Sample
	for _, s := range res.Trace {
		if s.Flow == -1 && s.Link == link {
			out = append(out, s)
		}
	}
	return out
}

func cwndAt(t *testing.T, samples []model.Sample, ts float64) float64 {
	t.Helper()
	for _, s := range samples {
		if math.Abs(s.TS-ts) < 1e-9 {
			return s.CwndPkts
		}
	}
	t.Fatalf("no sample at t = %g s", ts)
	return 0
}

// With no congestion and no loss, Reno's slow start doubles per RTT (not ×e: the trap of
// writing dW/dt = W/RTT), and congestion avoidance adds one packet per RTT.
func TestFluidSlowStartAndAvoidance(t *testing.T) {
	const rtt = 0.1
	sc := oneLink("reno", 100e9, rtt/2, 1e6, 3)
	sc.Flows[0].InitialCwnd = 1
	res := runFluid(t, sc, fluid.Settings{SampleS: rtt})
	samples := flowSamples(res, 0)
	for k := 1; k <= 10; k++ {
		w0, w1 := cwndAt(t, samples, float64(k-1)*rtt), cwndAt(t, samples, float64(k)*rtt)
		if r := w1 / w0; math.Abs(r-2) > 2e-3 {
			t.Errorf("slow start round %d: cwnd ×%.5f per RTT, want 2", k, r)
		}
	}

	// Start in congestion avoidance: an initial ssthresh below the window.
	sc = oneLink("reno", 100e9, rtt/2, 1e6, 10)
	sc.Flows[0].InitialCwnd, sc.Flows[0].InitialSsthresh = 100, 50
	res = runFluid(t, sc, fluid.Settings{SampleS: rtt})
	samples = flowSamples(res, 0)
	for k := 10; k <= 90; k += 20 {
		w0, w1 := cwndAt(t, samples, float64(k)*rtt), cwndAt(t, samples, float64(k+10)*rtt)
		if g := (w1 - w0) / 10; math.Abs(g-1) > 1e-3 {
			t.Errorf("congestion avoidance at %g s: %.5f packets per RTT, want 1", float64(k)*rtt, g)
		}
	}
}

// Periodic loss gives Reno the deterministic sawtooth: mean window sqrt(3/(2p))
// (Mathis et al. 1997, docs/references.md "Reno, periodic loss").
func TestFluidRenoPeriodicLoss(t *testing.T) {
	for _, p := range []float64{1e-3, 1e-4} {
		sc := oneLink("reno", 100e9, 0.05, 1e6, 20000)
		sc.Links[0].Loss, sc.Links[0].LossP = model.LossPeriodic, p
		res := runFluid(t, sc, fluid.Settings{})
		want := math.Sqrt(1.5 / p)
		got := res.Flows[0].MeanCwndPkts
		// 20000 s is over 250 cycles of W/2 RTTs: the slow-start transient and the partial
		// last cycle shift the mean by well under 1%.
		if math.Abs(got/want-1) > 0.01 {
			t.Errorf("p = %g: mean cwnd %.2f packets, want %.2f ±1%%", p, got, want)
		}
		// One loss every 1/p packets sent.
		if ev := float64(res.Flows[0].LossEvents); math.Abs(ev/(res.Flows[0].SentPkts*p)-1) > 0.01 {
			t.Errorf("p = %g: %v loss events for %.0f packets sent, want one per %g", p, ev, res.Flows[0].SentPkts, 1/p)
		}
	}
}

// After a loss at W, Reno halves and needs W/2 RTTs to return to W (±1%).
func TestFluidRenoRecovery(t *testing.T) {
	const p, rtt = 1e-4, 0.1
	sc := oneLink("reno", 100e9, rtt/2, 1e6, 400)
	sc.Links[0].Loss, sc.Links[0].LossP = model.LossPeriodic, p
	res := runFluid(t, sc, fluid.Settings{SampleS: 0.001})
	s := flowSamples(res, 0)
	// Find two consecutive maxima after the transient: the window just before a loss.
	var peaks []model.Sample
	for i := 1; i+1 < len(s); i++ {
		if s[i].TS > 100 && s[i].CwndPkts > s[i-1].CwndPkts && s[i].CwndPkts > 1.5*s[i+1].CwndPkts {
			peaks = append(peaks, s[i])
		}
	}
	if len(peaks) < 3 {
		t.Fatalf("found %d loss peaks after 100 s, want at least 3", len(peaks))
	}
	for i := 1; i < len(peaks); i++ {
		w := peaks[i-1].CwndPkts
		rtts := (peaks[i].TS - peaks[i-1].TS) / rtt
		if math.Abs(rtts/(w/2)-1) > 0.01 {
			t.Errorf("recovery from W = %.1f took %.2f RTTs, want W/2 = %.2f ±1%%", w, rtts, w/2)
		}
		if math.Abs(peaks[i].CwndPkts/w-1) > 0.01 {
			t.Errorf("peak %d: %.2f packets, previous %.2f: the periodic sawtooth repeats", i, peaks[i].CwndPkts, w)
		}
	}
}

// The queue stays within [0, buffer], the link never carries more than its capacity, and
// one long-lived Reno flow through a 1-BDP drop-tail buffer keeps it at least 99% busy
// once slow start is over.
func TestFluidDropTailBounds(t *testing.T) {
	const capBps, delay, mss = 100e6, 0.05, 1460.0
	bdp := capBps * 2 * delay / (8 * mss)
	sc := oneLink("reno", capBps, delay, math.Ceil(bdp), 300)
	res := runFluid(t, sc, fluid.Settings{SampleS: 0.01})
	if u := res.Links[0].Utilisation; u > 1+1e-9 {
		t.Errorf("utilisation %.6f exceeds capacity", u)
	}
	buf := sc.Links[0].BufferPkts
	busy, n := 0, 0
	for _, s := range linkSamples(res, "l0") {
		if s.QueuePkts < -1e-9 || s.QueuePkts > buf*(1+1e-9) {
			t.Fatalf("t = %g s: queue %.6f packets outside [0, %g]", s.TS, s.QueuePkts, buf)
		}
		if s.TS >= 30 {
			n++
			if s.QueuePkts > 1e-6 {
				busy++
			}
		}
	}
	if frac := float64(busy) / float64(n); frac < 0.99 {
		t.Errorf("link busy %.2f%% of the time after slow start, want >= 99%%", 100*frac)
	}
	if res.Flows[0].LossEvents < 3 {
		t.Errorf("%d loss events in 300 s: the sawtooth did not develop", res.Flows[0].LossEvents)
	}
}

// Seed 004: without window scaling the 65535-byte receiver window caps throughput at
// 65535·8/0.05 = 10.49 Mb/s; with it the flow fills the 45 Mb/s path.
func TestFluidSeed004WindowScaling(t *testing.T) {
	sc, err := model.Builtin("seed004-lfn")
	if err != nil {
		t.Fatal(err)
	}
	res := runFluid(t, sc, fluid.Settings{})
	no, yes := res.Flows[0], res.Flows[1]
	capped := 65535 * 8 / 0.05
	// The slow-start ramp to the cap lasts a few RTTs of a 38 s transfer: 2%.
	if math.Abs(no.GoodputBps/capped-1) > 0.02 {
		t.Errorf("no scaling: goodput %.4g bit/s, want %.4g ±2%%", no.GoodputBps, capped)
	}
	if no.CompletionTimeS == nil || math.Abs(*no.CompletionTimeS/(50e6*8/capped)-1) > 0.02 {
		t.Errorf("no scaling: completion %v s, want %.2f ±2%%", no.CompletionTimeS, 50e6*8/capped)
	}
	// With scaling, about 45 Mb/s: Reno's slow start overshoots the 1-BDP buffer by about
	// a BDP, loses many packets of one window and waits for one retransmission timeout,
	// which costs under 10% of the 9-second transfer (the packet engine agrees: 39.6 Mb/s).
	if yes.GoodputBps < 0.90*45e6 || yes.GoodputBps > 45e6 {
		t.Errorf("scaling: goodput %.4g bit/s, want within 10%% below 45 Mb/s", yes.GoodputBps)
	}
	if yes.CompletionTimeS == nil || *yes.CompletionTimeS > 50e6*8/45e6/0.90 {
		t.Errorf("scaling: completion %v s, want about %.2f s", yes.CompletionTimeS, 50e6*8/45e6)
	}
	if yes.Timeouts != 1 {
		t.Errorf("scaling: %d timeouts, want the one after slow start", yes.Timeouts)
	}
}

// No algorithm produces NaN or Inf on the seed-000 dumbbell, with and without random loss.
func TestFluidAllAlgorithmsFinite(t *testing.T) {
	for _, name := range model.Algorithms() {
		for _, p := range []float64{0, 1e-5} {
			sc, err := model.Builtin("seed000-dumbbell")
			if err != nil {
				t.Fatal(err)
			}
			if err := sc.SetAlgorithm(name); err != nil {
				t.Fatal(err)
			}
			sc.DurationS = 30
			if p > 0 {
				sc.Links[1].Loss, sc.Links[1].LossP = model.LossRandom, p
			}
			res := runFluid(t, sc, fluid.Settings{Seed: 3})
			for _, f := range res.Flows {
				for _, v := range []float64{f.MeanCwndPkts, f.MeanThroughputBps, f.SentPkts, f.DeliveredPkts, f.DroppedPkts, f.GoodputBps} {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("%s p=%g: non-finite result %+v", name, p, f)
					}
				}
				if f.MeanThroughputBps <= 0 || f.MeanThroughputBps > 100e6*(1+1e-9) {
					t.Errorf("%s p=%g: throughput %.4g bit/s outside (0, capacity]", name, p, f.MeanThroughputBps)
				}
			}
		}
	}
}

// manyFlows is n long-lived Reno flows sharing one 1 Gb/s, 50 ms bottleneck with a 1-BDP
// drop-tail buffer, starting 10 ms apart.
func manyFlows(n int, durationS float64) *model.Scenario {
	sc := &model.Scenario{
		Name:      "many-flows",
		DurationS: durationS,
		Links:     []model.Link{{Name: "l0", CapacityBps: 1e9, DelayS: 0.025, BufferBDP: 1}},
		Paths:     []model.Path{{Name: "p0", Links: []string{"l0"}}},
	}
	for i := 0; i < n; i++ {
		sc.Flows = append(sc.Flows, model.Flow{Algorithm: "reno", Path: "p0", StartS: 0.01 * float64(i%100), WindowScaling: true})
	}
	return sc
}

func BenchmarkFluidOneFlow1000s(b *testing.B) { benchFluid(b, oneLink("reno", 100e6, 0.05, 834, 1000)) }

func BenchmarkFluid1000Flows100s(b *testing.B) { benchFluid(b, manyFlows(1000, 100)) }

// benchFluid times whole fluid runs of scenario sc.
func benchFluid(b *testing.B, sc *model.Scenario) {
	if err := sc.Validate(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fluid.Run(context.Background(), sc, fluid.Settings{}); err != nil {
			b.Fatal(err)
		}
	}
}

// model.CBR cross traffic above the capacity fills the buffer and the excess is dropped: the
// link departs at capacity, and the dropped volume is the excess rate times the time full.
func TestFluidCBROverload(t *testing.T) {
	sc := &model.Scenario{
		Name: "cbr", DurationS: 10,
		Links: []model.Link{{Name: "l0", CapacityBps: 1e6, DelayS: 0.01, BufferPkts: 20}},
		Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
		CBR:   []model.CBR{{Name: "c0", Path: "p0", RateBps: 1.5e6, PacketBytes: 1000, StartS: 1, StopS: 9}},
	}
	res := runFluid(t, sc, fluid.Settings{})
	// 8 s of 1.5 Mb/s into 1 Mb/s: the queue fills 20 packets (160 kbit) in 0.32 s, then
	// 0.5 Mb/s is dropped for 7.68 s: 480 packets of 1000 bytes; 8 Mbit depart in 10 s.
	l := res.Links[0]
	// The solver's RelTol of 1e-6 per step, accumulated over the run: 1e-4 relative.
	if math.Abs(l.DroppedPkts/480-1) > 1e-4 {
		t.Errorf("dropped %.4f packets, want 480", l.DroppedPkts)
	}
	// Busy from 1 s until the queue drains 0.16 s after the source stops.
	if want := (8 + 0.16) / 10; math.Abs(l.Utilisation-want) > 1e-6 {
		t.Errorf("utilisation %.6f, want %.6f", l.Utilisation, want)
	}
}

// A link that goes down times every crossing flow out, and its timer backs off (RFC 6298
// §5.5) until a retransmission gets through. Here the RTT never exceeds 0.08 + 0.117 s, so
// the timer is MinRTOS: expiries 0.2, 0.6, 1.4, 3.0, 6.2 and 12.6 s after the failure at
// 20 s, six timeouts, and the link back at 30 s carries nothing until 32.6 s; with the one
// the slow start's overshoot costs (more holes in one window than NewReno repairs before
// its timer fires, as the packet engine's sender: 7 timeouts there too), seven. Then
// NewReno starts from one packet with ssthresh 2
// (RFC 5681: max(FlightSize/2, 2) after a repeated timeout): one round trip of slow start
// and congestion avoidance for the rest of the 0.4 s make 1 + 0.4/RTT packets at 33 s, 5.93
// at the path's round trip of 81.2 ms (0.08 s and a 1460-byte packet's transmission).
func TestFluidLinkDownUp(t *testing.T) {
	sc := oneLink("newreno", 10e6, 0.04, 100, 60)
	sc.Events = []model.TimedEvent{{AtS: 20, Kind: model.EventLinkDown, Link: "l0"}, {AtS: 30, Kind: model.EventLinkUp, Link: "l0"}}
	res := runFluid(t, sc, fluid.Settings{SampleS: 0.2})
	f := sc.Flows[0]
	rtt := 2*sc.Links[0].DelayS + (f.MSSBytes+2*f.HeaderBytes)*8/sc.Links[0].CapacityBps
	if res.Flows[0].Timeouts != 7 {
		t.Errorf("%d timeouts, want 7", res.Flows[0].Timeouts)
	}
	for _, s := range flowSamples(res, 0) {
		if s.TS > 20 && s.TS < 32.6 && s.RateBps != 0 {
			t.Fatalf("t = %g s: sending %.4g bit/s before the retransmission at 32.6 s", s.TS, s.RateBps)
		}
		if (math.Abs(s.TS-32.4) < 1e-9 && s.CwndPkts != 1) || (math.Abs(s.TS-33) < 1e-9 && math.Abs(s.CwndPkts-(1+0.4/rtt)) > 0.01) {
			t.Errorf("t = %g s: cwnd %.3f, want 1 until 32.6 s and %.3f at 33 s", s.TS, s.CwndPkts, 1+0.4/rtt)
		}
		if s.TS > 32.6 && s.TS < 34 && s.Ssthresh != 2 {
			t.Fatalf("t = %g s: ssthresh %g, want 2", s.TS, s.Ssthresh)
		}
	}
}

// model.RED keeps the average queue between its thresholds for a long-lived flow and makes it
// lose by intensity rather than by overflow; the link counts what RED takes, the flow's
// every drop.
func TestFluidRED(t *testing.T) {
	sc := oneLink("reno", 10e6, 0.02, 100, 200)
	sc.Links[0].Queue = model.QueueRED
	res := runFluid(t, sc, fluid.Settings{Seed: 5, SampleS: 0.1})
	for _, s := range res.Trace {
		if s.Link != "" && s.QueuePkts >= sc.Links[0].BufferPkts {
			t.Fatalf("RED queue full at %.1f s: %.1f packets", s.TS, s.QueuePkts)
		}
	}
	if l, f := res.Links[0].DroppedPkts, res.Flows[0].DroppedPkts; !(f > 0) || math.Abs(l-f) > 1e-6*f {
		t.Errorf("the RED link counts %.3f dropped packets, its one flow %.3f: want the same, above 0", l, f)
	}
	if res.Flows[0].LossEvents < 10 {
		t.Errorf("%d loss events in 200 s, want model.RED to drop regularly", res.Flows[0].LossEvents)
	}
	r := sc.Links[0].RED
	if q := res.Links[0].MeanQueuePkts; q < r.MinThPkts/2 || q > r.MaxThPkts*1.5 {
		t.Errorf("mean queue %.2f packets, want near model.RED's thresholds [%g, %g]", q, r.MinThPkts, r.MaxThPkts)
	}
	t.Logf("RED: mean queue %.2f packets, utilisation %.3f, %d loss events", res.Links[0].MeanQueuePkts, res.Links[0].Utilisation, res.Flows[0].LossEvents)
}

// The proportional drop rule reacts per flow to its own share of the dropped fluid, and is
// reported in the result.
func TestFluidProportionalDropRule(t *testing.T) {
	sc := manyFlows(4, 100)
	sc.DropRule = model.DropProportional
	res := runFluid(t, sc, fluid.Settings{Seed: 2})
	if res.DropRule != model.DropProportional {
		t.Errorf("result drop rule %q", res.DropRule)
	}
	total := 0
	for _, f := range res.Flows {
		total += f.LossEvents
		if f.LossEvents == 0 {
			t.Errorf("flow %d saw no loss in 100 s at a full drop-tail queue", f.Flow)
		}
	}
	if u := res.Links[0].Utilisation; u > 1+1e-9 || u < 0.9 {
		t.Errorf("utilisation %.4f", u)
	}
}

// The random drop rule draws which flows a full queue's drops fall on from the seed: two
// seeds give the four flows different loss events and goodputs, where the proportional
// rule gives the same for any seed; its flows never run as one class, since each draws its
// own drops.
func TestFluidRandomDropRule(t *testing.T) {
	perFlow := func(rule model.DropRule, seed uint64) string {
		sc := manyFlows(4, 100)
		sc.DropRule = rule
		res := runFluid(t, sc, fluid.Settings{Seed: seed})
		if res.DropRule != rule {
			t.Errorf("result drop rule %q, want %q", res.DropRule, rule)
		}
		var b strings.Builder
		for _, f := range res.Flows {
			fmt.Fprintf(&b, "%d %.6g; ", f.LossEvents, f.MeanThroughputBps)
		}
		return b.String()
	}
	if a, b := perFlow(model.DropRandom, 1), perFlow(model.DropRandom, 2); a == b {
		t.Errorf("random rule: seeds 1 and 2 both give %s", a)
	}
	if a, b := perFlow(model.DropProportional, 1), perFlow(model.DropProportional, 2); a != b {
		t.Errorf("proportional rule: seed 1 gives %s, seed 2 %s", a, b)
	}
	sc := manyFlows(4, 100)
	sc.DropRule = model.DropRandom
	if got := fluid.Classes(sc, fluid.Settings{}); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("random rule: classes %v, want every flow its own", got)
	}
}

// A sender that starts while the drop-tail queue is full loses there as the others did,
// and no window outgrows twice what the path holds, slow start's overshoot in the round
// its loss takes to be seen (the synchronized rule reacts at the overflow, before such a
// sender existed).
func TestFluidFlowsStartingIntoAFullQueue(t *testing.T) {
	const capBps, delay, mss = 100e6, 0.02, 1460.0
	bdp := capBps * 2 * delay / (8 * mss)
	sc := oneLink("cubic", capBps, delay, math.Ceil(bdp), 20)
	f0 := sc.Flows[0]
	sc.Flows = nil
	for i := range 10 {
		f := f0
		f.Name, f.StartS, f.InitialCwnd = fmt.Sprintf("f%d", i), 0.1*float64(i), 10
		sc.Flows = append(sc.Flows, f)
	}
	res := runFluid(t, sc, fluid.Settings{SampleS: 0.01})
	for _, f := range res.Flows {
		if f.LossEvents == 0 {
			t.Errorf("%s: no loss in 20 s on a full drop-tail queue", f.Name)
		}
	}
	pipe := 2 * math.Ceil(bdp) // the BDP and the buffer
	for _, s := range res.Trace {
		if s.Flow >= 0 && s.CwndPkts > 2*pipe {
			t.Fatalf("t = %g s: flow %d's window %.0f packets, above twice the %.0f the path holds", s.TS, s.Flow, s.CwndPkts, pipe)
		}
	}
}
