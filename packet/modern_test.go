package packet

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/tcpfluid/tcpfluid/model"
)

// Tests of the ECN, AQM, pacing and delivery-rate machinery (signals.go, aqm.go, codel.go,
// pie.go, fqcodel.go).

// modernLink is a single-link scenario of n flows of algo (ECN-capable if ecn), starting
// 1 ms apart.
func modernScenario(t testing.TB, l model.Link, algo string, n int, ecn bool, durationS float64) *model.Scenario {
	t.Helper()
	l.Name = "l"
	s := &model.Scenario{Name: t.Name(), DurationS: durationS, Links: []model.Link{l}, Paths: []model.Path{{Name: "p", Links: []string{"l"}}}}
	for i := range n {
		s.Flows = append(s.Flows, model.Flow{Algorithm: algo, Path: "p", WindowScaling: true, InitialCwnd: 10, ECN: ecn, StartS: 0.001 * float64(i)})
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

func mustRun(t testing.TB, s *model.Scenario, set Settings) (*sim, *model.Result) {
	t.Helper()
	sm := mustSim(t, s, set)
	if err := sm.run(context.Background(), sm.end, math.MaxInt); err != nil {
		t.Fatal(err)
	}
	return sm, sm.result()
}

// Step marking with ECN-capable senders: marks instead of drops, every packet delivered
// once, the queue about the threshold; an RFC 3168 sender reduces at most once per window
// and never retransmits for a mark.
func TestStepMarkingECN(t *testing.T) {
	for _, algo := range []string{"dctcp", "reno", "cubic"} {
		s := modernScenario(t, model.Link{CapacityBps: 1e9, DelayS: 100e-6, BufferPkts: 500, MarkThresholdPkts: 20}, algo, 2, true, 1)
		sm, res := mustRun(t, s, Settings{SACK: true})
		l := &sm.links[0]
		if l.aqm.marked == 0 || res.Links[0].DroppedPkts != 0 {
			t.Errorf("%s: %d marks, %g drops; want marks and no drop", algo, l.aqm.marked, res.Links[0].DroppedPkts)
		}
		for i, f := range res.Flows {
			if g := &sm.flows[i]; g.sent != g.maxSent || f.LossEvents != 0 {
				t.Errorf("%s flow %d: %d packets sent for %d sequence numbers, %d loss events; want no retransmission", algo, i, g.sent, g.maxSent, f.LossEvents)
			}
			x := sm.flows[i].ext
			if x.marks == 0 || float64(x.marks) > res.DurationS/(2*100e-6) {
				t.Errorf("%s flow %d: %d ECN reductions in %g s, want some and at most one per RTT", algo, i, x.marks, res.DurationS)
			}
		}
		// The queue stays about K: with 2 flows of a 17-packet BDP, never past K + a window.
		if q := res.Links[0].MeanQueuePkts; q < 5 || q > 40 {
			t.Errorf("%s: mean queue %.1f packets, want about K = 20", algo, q)
		}
		if u := res.Links[0].Utilisation; u < 0.93 {
			t.Errorf("%s: utilisation %.4f, want ≥ 0.93", algo, u)
		}
	}
}

// Without ECN-capable senders a marking queue is drop-tail: the packets carry no ECT.
func TestStepMarkingIgnoresNonECT(t *testing.T) {
	s := modernScenario(t, model.Link{CapacityBps: 1e9, DelayS: 100e-6, BufferPkts: 50, MarkThresholdPkts: 20}, "reno", 2, false, 0.5)
	sm, res := mustRun(t, s, Settings{})
	if sm.links[0].aqm.marked != 0 || res.Links[0].DroppedPkts == 0 {
		t.Errorf("%d marks, %g drops; want no mark and the drop-tail overflows", sm.links[0].aqm.marked, res.Links[0].DroppedPkts)
	}
}

// CoDel's control law (RFC 8289): with the sojourn time held above target, the first drop
// comes an interval after the sojourn time first exceeded target and the k-th next one
// interval/√k after the previous.
func TestCoDelControlLaw(t *testing.T) {
	c := newCoDel(model.CoDel{TargetS: 0.005, IntervalS: 0.1})
	var q ring
	for range 100 {
		q.push(pkt{enqAt: -1}) // every packet has waited a second
	}
	var drops []float64
	for now := 0.0; now < 1.5; now += 1e-4 {
		for q.len() < 100 {
			q.push(pkt{enqAt: now - 1})
		}
		c.dequeue(now, &q, q.len, func() { q.pop(); drops = append(drops, now) }, func() bool { return false })
	}
	if len(drops) < 5 || math.Abs(drops[0]-0.1) > 2e-4 {
		t.Fatalf("drops at %v, want the first at 0.1 s", drops[:min(len(drops), 5)])
	}
	for k := 1; k < 5; k++ {
		if gap, want := drops[k]-drops[k-1], 0.1/math.Sqrt(float64(k)); math.Abs(gap-want) > 2e-4 {
			t.Errorf("gap before drop %d: %.4f s, want interval/√%d = %.4f s", k+1, gap, k, want)
		}
	}
	// A sojourn time below target ends the dropping state.
	q = ring{}
	for range 10 {
		q.push(pkt{enqAt: 1.5})
	}
	c.dequeue(1.5001, &q, q.len, func() { q.pop() }, func() bool { return false })
	if c.dropping {
		t.Errorf("still dropping after a packet below target")
	}
}

// PIE's update (RFC 8033 §4.2): a queueing delay held 10 ms above target raises p by
// α·0.01 per update, scaled down while p is small.
func TestPIEUpdate(t *testing.T) {
	s := newPIE(model.PIE{TargetS: 0.015, TUpdateS: 0.015, Alpha: 0.125, Beta: 1.25, MaxBurstS: 0.15, ECNMaxProb: 0.1})
	s.qdelay, s.qdelayOld = 0.025, 0.025
	s.calculate()
	if want := 0.125 * 0.01 / 2048; math.Abs(s.prob-want) > 1e-15 {
		t.Errorf("first update: p = %g, want α·(d − target)/2048 = %g", s.prob, want)
	}
	for range 2000 {
		s.calculate()
	}
	if s.prob < 0.1 || s.burst != 0 {
		t.Errorf("after 2000 updates 10 ms above target: p = %g, burst %g; want p ≥ 0.1 and no allowance", s.prob, s.burst)
	}
	s.qdelay, s.qdelayOld = 0, 0
	p := s.prob
	s.calculate()
	if want := math.Max(p-0.125*0.015*model.PIE{}.Scale(p), 0) * 0.98; math.Abs(s.prob-want) > 1e-12 {
		t.Errorf("empty queue: p = %g, want (p − α·target·s(p))·0.98 = %g", s.prob, want)
	}
}

// FQ-CoDel gives a TCP flow its fair share against an unresponsive CBR source that asks for
// 80% of the link, where a FIFO leaves it the remaining 20%.
func TestFQCoDelIsolation(t *testing.T) {
	share := map[model.QueueKind]float64{}
	for _, q := range []model.QueueKind{model.QueueFQCoDel, model.QueueDropTail} {
		s := &model.Scenario{Name: "fq", DurationS: 20,
			Links: []model.Link{{Name: "l", CapacityBps: 10e6, DelayS: 0.01, BufferPkts: 100, Queue: q}},
			Paths: []model.Path{{Name: "p", Links: []string{"l"}}},
			Flows: []model.Flow{{Algorithm: "cubic", Path: "p", WindowScaling: true, InitialCwnd: 10}},
			CBR:   []model.CBR{{Path: "p", RateBps: 8e6, PacketBytes: 1460}}}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		_, res := mustRun(t, s, Settings{SACK: true})
		share[q] = res.Flows[0].GoodputBps / 10e6
	}
	if share[model.QueueFQCoDel] < 0.45 || share[model.QueueDropTail] > 0.25 {
		t.Errorf("TCP share of the link: fq_codel %.3f, droptail %.3f; want about ½ (≥ 0.45) and at most the 20%% the CBR leaves", share[model.QueueFQCoDel], share[model.QueueDropTail])
	}
}

// FQ-CoDel keeps each flow's queue at CoDel's target: ten CUBIC flows see a few
// milliseconds of queueing in total, not the buffer.
func TestFQCoDelDelay(t *testing.T) {
	s := modernScenario(t, model.Link{CapacityBps: 100e6, DelayS: 0.02, BufferBDP: 1, Queue: model.QueueFQCoDel}, "cubic", 10, false, 30)
	_, res := mustRun(t, s, Settings{SACK: true})
	d := res.Links[0].MeanQueuePkts * 1460 * 8 / 100e6
	if d > 0.0075 || res.Links[0].Utilisation < 0.95 {
		t.Errorf("fq_codel: queueing delay %.2f ms, utilisation %.4f; want at most 1.5·target and the link busy", d*1e3, res.Links[0].Utilisation)
	}
	var thr []float64
	for _, f := range res.Flows {
		thr = append(thr, f.GoodputBps)
	}
	if lo, hi := slices.Min(thr), slices.Max(thr); lo < 0.7*hi {
		t.Errorf("fq_codel per-flow goodput %.3g to %.3g bit/s, want within 30%% of one another", lo, hi)
	}
}

// pacedLaw is a test law that paces at a fixed rate with an unlimited window and records
// its rate samples.
type pacedLaw struct {
	rate    float64
	samples []float64
}

const pacedName = "packettest-paced"

func init() {
	model.Register(pacedName, func() model.Algorithm { return &pacedAlg{} })
}

type pacedAlg struct{}

func (a *pacedAlg) Name() string                             { return pacedName }
func (a *pacedAlg) Describe() string                         { return "test-only paced law" }
func (a *pacedAlg) Params() []model.Param                    { return nil }
func (a *pacedAlg) Set(string, float64) error                { return model.ErrParam }
func (a *pacedAlg) NewFluid(model.FlowConfig) model.FluidLaw { return nil }
func (a *pacedAlg) NewEvent(model.FlowConfig) model.EventLaw { return &pacedLaw{rate: 1000} }
func (e *pacedLaw) Cwnd() float64                            { return 1e6 }
func (e *pacedLaw) Ssthresh() float64                        { return 0 }
func (e *pacedLaw) OnAck(float64, model.Observation)         {}
func (e *pacedLaw) OnLoss(model.Observation)                 {}
func (e *pacedLaw) OnTimeout(model.Observation)              {}
func (e *pacedLaw) PacingRate() float64                      { return e.rate }
func (e *pacedLaw) OnRateSample(rs model.RateSample, _ model.Observation) {
	if rs.Valid() {
		e.samples = append(e.samples, rs.Rate())
	}
}

// A Pacer's packets leave 1/rate apart, and its rate samples measure the delivery rate: a
// flow paced at 1000 packets/s on an idle 100 Mb/s link sends 1000 a second and samples
// 1000 packets/s.
func TestPacingAndRateSamples(t *testing.T) {
	s := &model.Scenario{Name: "paced", DurationS: 2,
		Links: []model.Link{{Name: "l", CapacityBps: 100e6, DelayS: 0.01, BufferPkts: 1000}},
		Paths: []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows: []model.Flow{{Algorithm: pacedName, Path: "p", WindowScaling: true}}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	sm, res := mustRun(t, s, Settings{SACK: true})
	if got := res.Flows[0].SentPkts; math.Abs(got-2000) > 2 {
		t.Errorf("paced at 1000 packets/s for 2 s: %g packets sent, want 2000", got)
	}
	law := sm.flows[0].conn.law.(*pacedLaw)
	if len(law.samples) < 1000 {
		t.Fatalf("%d valid rate samples, want one per ACK", len(law.samples))
	}
	mid := law.samples[len(law.samples)/2:]
	if lo, hi := slices.Min(mid), slices.Max(mid); lo < 990 || hi > 1010 {
		t.Errorf("rate samples %g to %g packets/s, want 1000 ±1%%", lo, hi)
	}
}

// Flow.Pacing paces a window sender at Linux's rate (tcp_update_pacing_rate): 2·cwnd/SRTT
// below half of ssthresh, 1.2·cwnd/SRTT above, nothing before the first RTT sample; each
// transmission moves the earliest departure of the next by 1/rate.
func TestLinuxPacing(t *testing.T) {
	s := modernScenario(t, model.Link{CapacityBps: 1e9, DelayS: 0.005, BufferPkts: 1000}, "reno", 1, false, 1)
	s.Flows[0].Pacing = true
	sm := mustSim(t, s, Settings{})
	f := &sm.flows[0]
	x := f.ext
	if x == nil || !x.linux {
		t.Fatalf("flow with Pacing has extension %+v, want Linux pacing", x)
	}
	if r := x.paceRate(sm, f); r != 0 {
		t.Errorf("pacing rate before an RTT sample %g, want 0 (unpaced)", r)
	}
	f.est.Have, f.est.SRTT, f.cwnd = true, 0.01, 100
	if r := x.paceRate(sm, f); math.Abs(r-2*100/0.01) > 1e-9 {
		t.Errorf("slow-start pacing rate %g packets/s, want 2·cwnd/SRTT = %g", r, 2*100/0.01)
	}
	c := model.FlowConfig{InitialCwnd: 100, InitialSsthresh: 150, MaxCwnd: 1e6}
	f.conn.law = f.conn.alg.NewEvent(c)
	if r := x.paceRate(sm, f); math.Abs(r-1.2*100/0.01) > 1e-9 {
		t.Errorf("pacing rate at cwnd 100, ssthresh 150: %g packets/s, want 1.2·cwnd/SRTT = %g", r, 1.2*100/0.01)
	}
	x.onTransmit(sm, f, 0)
	first := x.nextSend
	x.onTransmit(sm, f, 1)
	if gap := x.nextSend - first; math.Abs(gap-0.01/120) > 1e-12 {
		t.Errorf("departure spacing %g s, want 1/rate = %g s", gap, 0.01/120)
	}
	if !x.paceWait(sm, f) {
		t.Errorf("a packet due in the future did not wait")
	}
}

// modernBench are busy scenarios of every new mechanism, for the allocation check and the
// benchmark.
func modernBench(tb testing.TB) map[string]struct {
	s   *model.Scenario
	set Settings
} {
	big := func(l model.Link, algo string, ecn bool) *model.Scenario {
		s := modernScenario(tb, l, algo, 4, ecn, 1e6)
		return s
	}
	return map[string]struct {
		s   *model.Scenario
		set Settings
	}{
		"bbr":           {big(model.Link{CapacityBps: 100e6, DelayS: 0.01, BufferBDP: 1, Loss: model.LossRandom, LossP: 1e-3}, "bbr", false), Settings{SACK: true, LostRetransmit: true}},
		"dctcp-step":    {big(model.Link{CapacityBps: 1e9, DelayS: 1e-4, BufferPkts: 500, MarkThresholdPkts: 20}, "dctcp", true), Settings{SACK: true}},
		"cubic-codel":   {big(model.Link{CapacityBps: 100e6, DelayS: 0.01, BufferBDP: 1, Queue: model.QueueCoDel}, "cubic", false), Settings{SACK: true}},
		"cubic-pie-ecn": {big(model.Link{CapacityBps: 100e6, DelayS: 0.01, BufferBDP: 1, Queue: model.QueuePIE, ECN: true}, "cubic", true), Settings{SACK: true}},
		"cubic-fqcodel": {big(model.Link{CapacityBps: 100e6, DelayS: 0.01, BufferBDP: 1, Queue: model.QueueFQCoDel}, "cubic", false), Settings{}},
		"reno-red-ecn-paced": {func() *model.Scenario {
			s := big(model.Link{CapacityBps: 100e6, DelayS: 0.01, BufferBDP: 1, Queue: model.QueueRED, ECN: true}, "reno", true)
			for i := range s.Flows {
				s.Flows[i].Pacing = true
			}
			return s
		}(), Settings{}},
	}
}

// Steady-state event processing with the new mechanisms allocates nothing.
func TestModernSteadyStateAllocs(t *testing.T) {
	for name, c := range modernBench(t) {
		t.Run(name, func(t *testing.T) {
			sm := warm(t, c.s, c.set)
			ctx := context.Background()
			allocs := testing.AllocsPerRun(20, func() {
				if err := sm.run(ctx, math.Inf(1), 10000); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per 10000 events, want 0", allocs)
			}
		})
	}
}

func BenchmarkModernEvents(b *testing.B) {
	for name, c := range modernBench(b) {
		b.Run(name, func(b *testing.B) {
			sm := warm(b, c.s, c.set)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			if err := sm.run(ctx, math.Inf(1), b.N); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
		})
	}
}
