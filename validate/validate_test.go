package validate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// pointCase is one response point of the issue's check: one flow under a loss process,
// fluid (hybrid-recovery form) against packets. Run lengths are loss events of the packet
// engine after the common start window; seed 1 throughout.
type pointCase struct {
	algo, loss     string
	p              float64
	warmup, losses int
}

func (c pointCase) String() string { return fmt.Sprintf("%s/%s/%g", c.algo, c.loss, c.p) }

func runPoint(t *testing.T, c pointCase) *Report {
	t.Helper()
	v, err := Point(context.Background(), PointSpec{Algorithm: c.algo, LossModel: c.loss, P: c.p, Seed: 1,
		WarmupLosses: c.warmup, Losses: c.losses})
	if err != nil {
		t.Fatal(err)
	}
	if !(v.FluidWallS > 0 && v.PacketWallS > 0) {
		t.Errorf("%v: wall times fluid %g s, packet %g s; want both measured", c, v.FluidWallS, v.PacketWallS)
	}
	return v
}

func metric(t *testing.T, v *Report, name string) Metric {
	t.Helper()
	for _, m := range v.Metrics {
		if m.Metric == name {
			return m
		}
	}
	t.Fatalf("no metric %s in %+v", name, v.Metrics)
	return Metric{}
}

func ci(m Metric) float64 {
	if m.CI95 == nil {
		return 0
	}
	return *m.CI95
}

// checkPoint holds a point to its tolerance (TolPointPeriodic, TolPointRandom), at every p
// from 1e-2 (W̄ of 11 to 16 packets, where whole packets matter: the recovery form sends
// ⌊W⌋ and grows per ACK at the window reached so far, see fluid.Settings.Form) to
// 1e-6. Random points must also be measured sharply: the paired 95% interval of the
// relative difference must be below half the tolerance, or the agreement would prove
// little.
func checkPoint(t *testing.T, c pointCase, v *Report) {
	t.Helper()
	w, thr := metric(t, v, "mean_cwnd_pkts"), metric(t, v, "mean_throughput_bps")
	t.Logf("%v: W̄ fluid %.2f packet %.2f (%+.2f%% ± %.2f%%), throughput %+.2f%% ± %.2f%%, start %.1f packets, %d+%d losses %v",
		c, w.Fluid, w.Packet, 100*(w.Fluid/w.Packet-1), 100*ci(w), 100*(thr.Fluid/thr.Packet-1), 100*ci(thr),
		v.Point.StartCwndPkts, v.Point.WarmupLosses, v.Point.Losses, v.Notes)
	tol := TolPointPeriodic
	if c.loss == "random" {
		tol = TolPointRandom
		if ci(w) > tol.Bound/2 || ci(thr) > tol.Bound/2 {
			t.Errorf("%v: paired 95%% intervals ±%.2f%% (window), ±%.2f%% (throughput), want below %.1f%%: run more losses", c, 100*ci(w), 100*ci(thr), 100*tol.Bound/2)
		}
	}
	if w.Tolerance == nil || thr.Tolerance == nil || *w.Tolerance != tol.Bound || *thr.Tolerance != tol.Bound || w.Kind != Relative {
		t.Errorf("%v: tolerances %v and %v (%s), want relative %v", c, w.Tolerance, thr.Tolerance, w.Kind, tol.Bound)
	}
	if !w.OK || !thr.OK {
		t.Errorf("%v: window %.2f%%, throughput %.2f%%, want within %g%%", c, 100*w.Error, 100*thr.Error, 100*tol.Bound)
	}
}

// Periodic loss, one packet in 1/p: the sawtooth is deterministic, so 20 losses after 20
// of warm-up measure it exactly (10 and 10 at p = 1e-5, 5 and 5 at p = 1e-6, where a
// cycle is 10^5 and 10^6 packets; the start window is the fluid's mean, so the warm-up is
// short).
func TestValidatePointsPeriodic(t *testing.T) {
	var cases []pointCase
	for _, a := range []string{"reno", "newreno", "scalable", "highspeed", "cubic"} {
		for _, p := range []float64{1e-2, 1e-3, 1e-4} {
			cases = append(cases, pointCase{a, "periodic", p, 20, 20})
		}
		cases = append(cases, pointCase{a, "periodic", 1e-5, 10, 10}, pointCase{a, "periodic", 1e-6, 5, 5})
	}
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			checkPoint(t, c, runPoint(t, c))
		})
	}
}

// Random (Bernoulli) loss: the engines draw the same loss sequence (common random numbers,
// packet.Settings), so a thousand losses at p = 1e-2 and 1e-3 and 300 at 1e-4 (Scalable:
// 1000) measure their difference to ±2.5% or better (the intervals are checked). Reno at
// p = 1e-2 times out where several losses share a window, in both engines (the fluid
// engine times a Reno sender out at a second loss in the window it repairs).
func TestValidatePointsRandom(t *testing.T) {
	var cases []pointCase
	for _, a := range []string{"reno", "newreno", "scalable", "highspeed", "cubic"} {
		cases = append(cases, pointCase{a, "random", 1e-2, 20, 1000}, pointCase{a, "random", 1e-3, 20, 1000},
			pointCase{a, "random", 1e-4, 20, 300})
		if a == "scalable" {
			// MIMD remembers a timeout for ln 2/a = 70 round trips: batches vary more.
			cases[len(cases)-1].losses = 1000
		}
	}
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			v := runPoint(t, c)
			if c.algo == "reno" {
				t.Logf("%v: %d timeouts in %d loss events of the packet sender, %d of the fluid", c,
					v.Packet.Flows[0].Timeouts, v.Packet.Flows[0].LossEvents, v.Fluid.Flows[0].Timeouts)
			}
			checkPoint(t, c, v)
		})
	}
}

// Common random numbers: under random loss both engines lose the packets that follow the
// same Exp(1) draws, so a loss event of one engine has one of the other within a window's
// worth of delivered packets (the packet sender learns of a loss one round trip after it;
// a few merge differently into recoveries). Independent draws would match about 2·W̄·p of
// them, 8% at p = 1e-3; at least 90% must match.
func TestValidatePointCommonLosses(t *testing.T) {
	v := runPoint(t, pointCase{"newreno", "random", 1e-3, 20, 100})
	fl, pk := v.Fluid.Losses, v.Packet.Losses
	matched := 0
	for _, f := range fl[:100] {
		k := nearestDelivered(pk, f.DeliveredPkts)
		if k >= 0 && math.Abs(pk[k].DeliveredPkts-f.DeliveredPkts) <= math.Max(f.CwndPkts, pk[k].CwndPkts) {
			matched++
		}
	}
	t.Logf("%d of 100 fluid loss events have a packet loss event within a window", matched)
	if matched < 90 {
		t.Errorf("%d of 100 fluid loss events matched, want at least 90 (common random numbers)", matched)
	}
}

// Common random numbers hold for every flow, not only the first: each flow (or subflow)
// draws its random losses from its own stream, the same in both engines (model.RandomStream,
// packet.Settings). Two NewReno flows, each alone on a path with loss 1e-3: each of the
// second flow's first 50 fluid loss events has a packet one within a window's worth of its
// delivered packets, the packet sender's being a window later: the fluid locates a loss
// where the packet is lost, the packet sender where its duplicate ACKs reveal it, one
// round trip later (independent draws: about 8% match). The sequences stay in step until
// the engines first merge a loss into a recovery differently (after about 70 events here);
// after that the draws still coincide but the windows they meet do not.
func TestCommonLossesEveryFlow(t *testing.T) {
	sc := &model.Scenario{Name: "two-paths", DurationS: 300,
		Links: []model.Link{
			{Name: "a", CapacityBps: 1e9, DelayS: 0.05, BufferPkts: 1e5, Loss: model.LossRandom, LossP: 1e-3},
			{Name: "b", CapacityBps: 1e9, DelayS: 0.05, BufferPkts: 1e5, Loss: model.LossRandom, LossP: 1e-3},
		},
		Paths: []model.Path{{Name: "pa", Links: []string{"a"}}, {Name: "pb", Links: []string{"b"}}},
	}
	for _, path := range []string{"pa", "pb"} {
		sc.Flows = append(sc.Flows, model.Flow{Name: path, Algorithm: "newreno", Path: path, WindowScaling: true,
			InitialCwnd: 38, InitialSsthresh: 38})
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	fl, err := fluid.Run(context.Background(), sc, fluid.Settings{Seed: 3, Form: Form, RecordLosses: true})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := packet.Run(context.Background(), sc, packet.Settings{Seed: 3, RecordLosses: true})
	if err != nil {
		t.Fatal(err)
	}
	of := func(ls []model.LossRecord) []model.LossRecord {
		var out []model.LossRecord
		for _, l := range ls {
			if l.Flow == 1 {
				out = append(out, l)
			}
		}
		return out
	}
	f1, p1 := of(fl.Losses), of(pk.Losses)
	if len(f1) < 50 || len(p1) < 50 {
		t.Fatalf("flow 1: %d fluid and %d packet loss events in %g s, want at least 50", len(f1), len(p1), sc.DurationS)
	}
	for i, f := range f1[:50] {
		if !slices.ContainsFunc(p1, func(p model.LossRecord) bool {
			w := math.Max(f.CwndPkts, p.CwndPkts)
			return math.Abs(p.DeliveredPkts-f.DeliveredPkts-w) <= w
		}) {
			t.Errorf("flow 1: fluid loss event %d (t = %.2f s, %.0f delivered) has no packet loss event within a window (common random numbers)",
				i, f.TS, f.DeliveredPkts)
		}
	}
}

// The JSON shape of `tcpfluid validate --format json` (docs/cli.md): scenario or point, form,
// seed, metrics with metric, fluid, packet, rel_err, tolerance and ok; and ok.
func TestValidationJSON(t *testing.T) {
	v := runPoint(t, pointCase{"reno", "periodic", 1e-2, 5, 10})
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"point", "form", "seed", "metrics", "ok"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	if _, ok := got["scenario"]; ok {
		t.Errorf("a point has a scenario key: %s", b)
	}
	ms := got["metrics"].([]any)
	if len(ms) != 2 {
		t.Fatalf("%d metrics, want mean_cwnd_pkts and mean_throughput_bps", len(ms))
	}
	for _, m := range ms {
		for _, k := range []string{"metric", "fluid", "packet", "error_kind", "error", "tolerance", "tolerance_reason", "judged", "ok"} {
			if _, ok := m.(map[string]any)[k]; !ok {
				t.Errorf("metric lacks %q: %v", k, m)
			}
		}
	}
	if got["form"] != fluid.FormHybridRecovery {
		t.Errorf("form %v, want %s", got["form"], fluid.FormHybridRecovery)
	}
}

// The same seed gives the same validation; another seed draws other random losses.
func TestValidatePointSeeds(t *testing.T) {
	run := func(seed uint64) string {
		v, err := Point(context.Background(), PointSpec{Algorithm: "cubic", LossModel: "random", P: 1e-2, Seed: seed, Losses: 50})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a, b, c := run(3), run(3), run(4)
	if a != b {
		t.Error("two validations with seed 3 differ")
	}
	if a == c {
		t.Error("seeds 3 and 4 give the same validation")
	}
}

func TestValidatePointBadInput(t *testing.T) {
	for _, s := range []PointSpec{
		{Algorithm: "nosuch", P: 1e-3},
		{Algorithm: "reno", P: 0},
		{Algorithm: "reno", P: 1},
		{Algorithm: "reno", P: math.NaN()},
		{Algorithm: "reno", P: 1e-3, LossModel: "droptail"},
		{Algorithm: "reno", P: 1e-3, RTTS: -1},
		{Algorithm: "reno", P: 1e-3, LossModel: "random", Losses: 5, Batches: 10},
		{Algorithm: "reno", P: 1e-3, WarmupLosses: -1},
	} {
		if _, err := Point(context.Background(), s); !errors.Is(err, model.ErrSettings) {
			t.Errorf("%+v: error %v, want model.ErrSettings", s, err)
		}
	}
}

// Judge measures each kind of error as named: relative to the packet value (a scale keeps
// near-zero references, an empty queue, from inflating it; a zero reference without a
// scale is not judged rather than infinite), absolute for shares and indices, and sign
// checks without a tolerance.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		kind              ErrorKind
		fluid, pkt, scale float64
		want              float64
		judged, ok        bool
	}{
		{Relative, 110, 100, 0, 0.10, true, true},
		{Relative, 90, 100, 0, 0.10, true, true},
		{Relative, 0.3, 0.1, 1, 0.2, true, false},
		{Relative, 0, 0, 0, 0, true, true},
		{Relative, 2, 0, 0, 0, false, false},
		{Relative, 5, 0, 1, 5, true, false},
		{Absolute, 0.0759, 0.0307, 0, 0.0452, true, false},
		{Absolute, 0.18, 0.17, 0, 0.01, true, true},
		{Sign, 3, 1, 0, 2, true, true},
		{Sign, -3, 1, 0, 4, true, false},
	} {
		tol := Tolerance{Kind: c.kind, Bound: 0.15, Scale: c.scale, Reason: "test"}
		if c.kind == Absolute {
			tol.Bound = 0.02
		}
		m := tol.Judge("x", c.fluid, c.pkt)
		if math.Abs(m.Error-c.want) > 1e-12 || m.Judged != c.judged || m.OK != c.ok || m.Kind != c.kind || m.Reason == "" {
			t.Errorf("%s(%v, %v, scale %v) = %+v, want error %v, judged %v, ok %v", c.kind, c.fluid, c.pkt, c.scale, m, c.want, c.judged, c.ok)
		}
		if (m.Tolerance != nil) != (m.Judged && c.kind != Sign) {
			t.Errorf("%s(%v, %v): tolerance %v with judged %v", c.kind, c.fluid, c.pkt, m.Tolerance, m.Judged)
		}
	}
}

// A metric's 95% interval leaves its verdict undecided where it reaches across the
// tolerance (10% here): 12% ± 1% is out, 12% ± 3% undecided; 8% ± 1% is within, 8% ± 3%
// undecided; a metric not judged is never undecided.
func TestMetricUndecided(t *testing.T) {
	tol := Tolerance{Kind: Relative, Bound: 0.10, Reason: "test"}
	for _, c := range []struct {
		fluid, ci float64
		verdict   string
	}{
		{112, 0.01, "FAIL"},
		{112, 0.03, "FAIL, undecided"},
		{108, 0.01, "ok"},
		{108, 0.03, "ok, undecided"},
		{110, 0, "ok"},
	} {
		m := tol.Judge("x", c.fluid, 100)
		m.setCI95(c.ci)
		if m.Verdict() != c.verdict || m.Undecided != strings.HasSuffix(c.verdict, "undecided") {
			t.Errorf("error %.2f ± %.2f: verdict %q (undecided %v), want %q", m.Error, c.ci, m.Verdict(), m.Undecided, c.verdict)
		}
	}
	nj := NotJudged("x", 1, 2, "test")
	if nj.setCI95(5); nj.Undecided {
		t.Errorf("a metric not judged is undecided")
	}
	var v Report
	for _, ci := range []float64{0.01, 0.03} {
		m := tol.Judge("x", 112, 100)
		m.setCI95(ci)
		v.add(m)
	}
	if v.FailedCount != 2 || v.Undecided != 1 {
		t.Errorf("report counts %d out, %d undecided; want 2 and 1", v.FailedCount, v.Undecided)
	}
}

// A link's utilisation is held to TolUtilisation when either engine congests it (its queue
// dropped packets, or it was at least 90% busy), else to TolUncongested; a link's random
// losses are not its queue's drops.
func TestUtilisationTolerance(t *testing.T) {
	idle := model.LinkResult{Utilisation: 0.18}
	for _, c := range []struct {
		fluid, packet model.LinkResult
		want          Tolerance
	}{
		{idle, idle, TolUncongested},
		{idle, model.LinkResult{Utilisation: 0.2, DroppedPkts: 1}, TolUtilisation},
		{model.LinkResult{Utilisation: 0.9}, idle, TolUtilisation},
		{model.LinkResult{Utilisation: 0.89}, idle, TolUncongested},
	} {
		if got := utilisationTolerance(c.fluid, c.packet); got != c.want {
			t.Errorf("fluid %+v, packet %+v: tolerance %+v, want %+v", c.fluid, c.packet, got, c.want)
		}
	}
}

// A periodic-loss response point in both engines: Reno at p = 1e-3 (W̄ ≈ 37 packets).
func ExamplePoint() {
	v, err := Point(context.Background(), PointSpec{Algorithm: "reno", LossModel: "periodic", P: 1e-3})
	if err != nil {
		panic(err)
	}
	for _, m := range v.Metrics {
		fmt.Printf("%s: fluid %.4g, packet %.4g, within %s: %v\n", m.Metric, m.Fluid, m.Packet, m.ToleranceText(), m.OK)
	}
	// Output:
	// mean_cwnd_pkts: fluid 37.47, packet 36.92, within 3%: true
	// mean_throughput_bps: fluid 4.314e+06, packet 4.322e+06, within 3%: true
}

// Flows that share no link run apart: seed000-colo-random-loss is four copies of the
// dumbbell (one flow and three links each), seed001-mptcp one group (the MPTCP flow
// joins its two paths, the TCP flow shares path 2); each group is a valid scenario, and
// merging puts rows and links back in the scenario's order.
func TestIndependentGroups(t *testing.T) {
	for _, c := range []struct {
		builtin string
		groups  int
	}{{"seed000-colo-random-loss", 4}, {"seed001-mptcp", 1}, {"seed002-mesh", 3}, {"seed003-dumbbell", 1}} {
		sc, err := model.Builtin(c.builtin)
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		gs := independentGroups(sc)
		if len(gs) != c.groups {
			t.Errorf("%s: %d groups, want %d", c.builtin, len(gs), c.groups)
		}
		links, flows := 0, 0
		var merged *model.Result
		for _, g := range gs {
			sub := g.scenario(sc)
			if err := sub.Validate(); err != nil {
				t.Errorf("%s: group %v is not a valid scenario: %v", c.builtin, g.flows, err)
			}
			links += len(g.links)
			flows += len(g.flows)
			r := &model.Result{}
			for i, f := range sub.Flows {
				for k, p := range f.PathNames() {
					r.Flows = append(r.Flows, model.FlowResult{Flow: i, Subflow: k, Name: f.Name, Path: p})
				}
			}
			for _, l := range sub.Links {
				r.Links = append(r.Links, model.LinkResult{Link: l.Name})
			}
			merged = g.merge(sc, merged, r)
		}
		sortResult(merged)
		if links != len(sc.Links) || flows != len(sc.Flows) {
			t.Errorf("%s: groups hold %d links and %d flows, want %d and %d", c.builtin, links, flows, len(sc.Links), len(sc.Flows))
		}
		row := 0
		for i, f := range sc.Flows {
			for k := range f.PathNames() {
				if got := merged.Flows[row]; got.Flow != i || got.Subflow != k || got.Name != f.Name {
					t.Errorf("%s: row %d is flow %d/%d %q, want %d/%d %q", c.builtin, row, got.Flow, got.Subflow, got.Name, i, k, f.Name)
				}
				row++
			}
		}
		for i, l := range sc.Links {
			if merged.Links[i].Link != l.Name {
				t.Errorf("%s: link %d is %q, want %q", c.builtin, i, merged.Links[i].Link, l.Name)
			}
		}
	}
}

// Every note says why: SACK that the scenario itself asks for is named as such.
func TestNotesSayWhySACK(t *testing.T) {
	v := &Report{SACK: true, Packet: &model.Result{}, Fluid: &model.Result{}}
	v.notes(false, []*model.Result{v.Fluid}, []*model.Result{v.Packet})
	if len(v.Notes) != 1 || v.Notes[0] != "packet senders use SACK recovery: the scenario sets sack: true" {
		t.Errorf("notes %q", v.Notes)
	}
	v = &Report{SACK: true, sackWhy: "seed 001's testbed runs Linux", Packet: &model.Result{}, Fluid: &model.Result{}}
	v.notes(false, []*model.Result{v.Fluid}, []*model.Result{v.Packet})
	if len(v.Notes) != 1 || !strings.HasSuffix(v.Notes[0], ": seed 001's testbed runs Linux") {
		t.Errorf("notes %q", v.Notes)
	}
}

// The timeout notes count each engine's timeouts, spurious ones and loss events: the fluid's
// timer fires before late bursts and late retransmissions too (fluid/lateack.go,
// fluid/roundtimer.go), and a note that hid them would read as the fluid never erring so.
func TestNotesCountBothEnginesTimeouts(t *testing.T) {
	flow := func(timeouts, spurious, losses int) *model.Result {
		return &model.Result{Flows: []model.FlowResult{{Name: "f0", Timeouts: timeouts, Spurious: spurious, LossEvents: losses}}}
	}
	v := &Report{Packet: flow(3, 1, 11), Fluid: flow(2, 1, 12)}
	v.notes(false, []*model.Result{v.Fluid}, []*model.Result{v.Packet})
	want := "the packet sender timed out 3 time(s) (1 spurious by RFC 3522's test: the first new ACK after it acknowledged a packet sent before it) in 11 loss events, the fluid 2 time(s) (1 spurious) in 12"
	if len(v.Notes) != 1 || !strings.HasSuffix(v.Notes[0], want) {
		t.Errorf("notes %q, want one ending %q", v.Notes, want)
	}
}

// Under the proportional rule the packet senders' jitter spans two packet times at the
// slowest link for each packet an ACK releases: seed 001's receivers delay their ACKs,
// so its senders get four (0.467 ms at 100 Mb/s: two, 0.234 ms, left its LIA subflow on
// path 2 with 3.55 Mb/s over seeds 1–5 against 8.29 with four, phaseJitter); a
// scenario's larger send_jitter stands.
func TestPhaseJitter(t *testing.T) {
	packetTime := 1460 * 8 / 100e6
	for _, c := range []struct {
		builtin     string
		delayedAck  bool
		sendJitterS float64
		want        float64
	}{
		{"seed001-mptcp", true, 0, 4 * packetTime},
		{"seed001-mptcp", false, 0, 2 * packetTime},
		{"seed001-mptcp", true, 1e-3, 1e-3},
		{"modern-bufferbloat-pie", false, 0, 2 * packetTime},
	} {
		sc, err := model.Builtin(c.builtin)
		if err != nil {
			t.Fatal(err)
		}
		for i := range sc.Flows {
			sc.Flows[i].DelayedAck = c.delayedAck
		}
		sc.SendJitterS, sc.DurationS = c.sendJitterS, 2 // the settings, not the run, are under test
		v, err := Scenario(t.Context(), sc, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(v.JitterS-c.want) > 1e-12 {
			t.Errorf("%s, delayed ACKs %v, send_jitter %g s: jitter %g s, want %g", c.builtin, c.delayedAck, c.sendJitterS, v.JitterS, c.want)
		}
		if !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, fmt.Sprintf("U(0, %.3g ms)", 1e3*c.want)) }) {
			t.Errorf("%s: no note of the %.3g ms jitter: %q", c.builtin, 1e3*c.want, v.Notes)
		}
	}
}

// The fluid's replicas of ns-2's TCP/Linux sender run with the packet senders' jitter:
// under the proportional rule validate adds two packet times (phaseJitter), and the fluid
// counts the ACKs a sender so jittered counts (fluid.Settings.SendJitterS), so that both
// engines run the same senders.
func TestFluidRunsThePacketSendersJitter(t *testing.T) {
	sc := &model.Scenario{
		Name:      "jittered-linux",
		DurationS: 20,
		DropRule:  model.DropProportional,
		Links:     []model.Link{{Name: "l", CapacityBps: 100e6, DelayS: 0.02, BufferPkts: 300}},
		Paths:     []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows: []model.Flow{
			{Name: "a", Algorithm: "highspeed@linux", Path: "p", MSSBytes: 1460, WindowScaling: true, RwndBytes: 1 << 30, InitialCwnd: 1},
			{Name: "b", Algorithm: "highspeed@linux", Path: "p", MSSBytes: 1460, WindowScaling: true, RwndBytes: 1 << 30, InitialCwnd: 1, StartS: 1},
		},
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	v, err := Scenario(t.Context(), sc, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !(v.JitterS > 0) {
		t.Fatalf("jitter %g s: want the proportional rule's", v.JitterS)
	}
	run := func(jitter float64) *model.Result {
		r, err := fluid.Run(t.Context(), sc, fluid.Settings{Seed: 1, Form: Form, SACK: v.SACK, SendJitterS: jitter})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	with, without := run(v.JitterS), run(0)
	for i, f := range v.Fluid.Flows {
		if f.MeanCwndPkts != with.Flows[i].MeanCwndPkts {
			t.Errorf("flow %d: validate's fluid window %.4f, the fluid's with the packet senders' %.3g ms jitter %.4f: want the same run",
				i, f.MeanCwndPkts, 1e3*v.JitterS, with.Flows[i].MeanCwndPkts)
		}
	}
	if with.Flows[0].MeanCwndPkts == without.Flows[0].MeanCwndPkts {
		t.Errorf("the jitter changes nothing (window %.4f): the test cannot tell", with.Flows[0].MeanCwndPkts)
	}
}
