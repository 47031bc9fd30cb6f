package model

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// DCTCP's event face (Linux tcp_dctcp.c): α is the EWMA, gain 1/16 per RTT, of the marked
// fraction; an ECN-Echo reduction keeps W·(1 − α/2); a loss halves.
func TestDCTCPEventAlphaAndReduction(t *testing.T) {
	ev := mustAlgo(t, "dctcp").NewEvent(FlowConfig{InitialCwnd: 100, InitialSsthresh: 1, MaxCwnd: 1e6}).(*dctcpEvent)
	if ev.Alpha() != 1 {
		t.Fatalf("α at the start %g, want 1 (RFC 8257 §4.2)", ev.Alpha())
	}
	const rtt = 0.1
	// Ten windows each with a quarter of their packets marked: the first ACK starts α's clock,
	// so nine updates, α → (1−g)^9·1 + (1 − (1−g)^9)·¼.
	now := 0.0
	for range 10 {
		for i := range 100 {
			ce := 0.0
			if i%4 == 0 {
				ce = 1
			}
			now += rtt / 100
			ev.ECNAck(1, ce, Observation{Now: now, RTT: rtt, BaseRTT: rtt})
		}
	}
	keep := math.Pow(1-1.0/16, 9)
	if want := keep + (1-keep)*0.25; math.Abs(ev.Alpha()-want) > 0.02 {
		t.Errorf("α after ten windows a quarter marked: %.4f, want %.4f (±0.02: the window boundaries fall on ACKs)", ev.Alpha(), want)
	}
	w, a := ev.Cwnd(), ev.Alpha()
	ev.ECNReduce(Observation{Now: now, RTT: rtt})
	if got, want := ev.Cwnd(), w*(1-a/2); math.Abs(got-want) > 1e-9 || ev.Ssthresh() != got {
		t.Errorf("ECN reduction: cwnd %g, ssthresh %g; want both %g", got, ev.Ssthresh(), want)
	}
	w = ev.Cwnd()
	ev.OnLoss(Observation{Now: now, RTT: rtt})
	if ev.Cwnd() != w/2 {
		t.Errorf("loss: cwnd %g, want %g (halved, as Reno)", ev.Cwnd(), w/2)
	}
	if got := DCTCPReduction(3, 1); got != MinLossWindow {
		t.Errorf("reduction of 3 packets at α = 1: %g, want the 2-packet floor", got)
	}
}

// DCTCP's fluid face: with every packet marked α tends to 1 at rate g per RTT and the
// window falls at W·α/(2·RTT) less the additive 1/RTT; sparse marks reduce once per window
// with a mark, P = 1 − (1 − m)^W.
func TestDCTCPFluidDeriv(t *testing.T) {
	law := mustAlgo(t, "dctcp").NewFluid(FlowConfig{InitialCwnd: 100, InitialSsthresh: 1, MaxCwnd: 1e6})
	x := make([]float64, law.Vars())
	dx := make([]float64, law.Vars())
	law.Init(x, Observation{RTT: 0.1, BaseRTT: 0.1})
	x[1] = 0.5
	o := Observation{Now: 1, RTT: 0.1, BaseRTT: 0.1, MarkFrac: 1}
	law.Deriv(dx, x, o)
	if want := (1 - 100*0.5/2) / 0.1; math.Abs(dx[0]-want) > 1e-9 {
		t.Errorf("dW/dt fully marked: %g, want %g", dx[0], want)
	}
	if want := (1.0 / 16) * (1 - 0.5) / 0.1; math.Abs(dx[1]-want) > 1e-12 {
		t.Errorf("dα/dt fully marked: %g, want %g", dx[1], want)
	}
	o.MarkFrac = 1e-3
	law.Deriv(dx, x, o)
	p := 1 - math.Pow(1-1e-3, 100)
	if want := (1 - 100*0.5*p/2) / 0.1; math.Abs(dx[0]-want) > 1e-9 {
		t.Errorf("dW/dt with sparse marks: %g, want %g", dx[0], want)
	}
	// A mark event in slow start ends it with the event face's reduction.
	ss := mustAlgo(t, "dctcp").NewFluid(FlowConfig{InitialCwnd: 40, MaxCwnd: 1e6})
	y := make([]float64, 2)
	ss.Init(y, Observation{RTT: 0.1, BaseRTT: 0.1})
	ss.(FluidECNReactor).ECNReduce(y, Observation{Now: 1, RTT: 0.1})
	if y[0] != 20 || ss.Ssthresh() != 20 {
		t.Errorf("mark in slow start at α = 1: W %g, ssthresh %g; want 20, 20", y[0], ss.Ssthresh())
	}
}

// The analysis of DCTCP's queue (Alizadeh et al. 2010, 2011) at the data-centre numbers of
// the modern built-ins.
func TestDCTCPQueueReference(t *testing.T) {
	c := 10e9 / 8 / 1460
	r := DCTCPQueueReference(2, c, 100e-6, 65)
	w := (c*100e-6 + 65) / 2
	for _, v := range []struct {
		what      string
		got, want float64
	}{
		{"W*", r.WStar, w},
		{"α", r.Alpha, math.Sqrt(2 / w)},
		{"peak", r.Max, 67},
		{"amplitude", r.Amplitude, 0.5 * math.Sqrt(2*2*(c*100e-6+65))},
		{"mean", r.Mean, 67 - r.Amplitude/2},
	} {
		if math.Abs(v.got-v.want) > 1e-9*math.Abs(v.want) {
			t.Errorf("%s = %g, want %g", v.what, v.got, v.want)
		}
	}
}

// BBR's event face on synthetic rate samples: Startup doubles the pacing rate per round,
// leaves after three rounds without 25% growth, drains and cycles the gains; cwnd is
// 2·BtlBw·RTprop plus the quantization budget.
func TestBBREventModel(t *testing.T) {
	ev := mustAlgo(t, "bbr").NewEvent(FlowConfig{InitialCwnd: 10, MaxCwnd: 1e6}).(*bbrEvent)
	const rtt, bw = 0.04, 8000.0 // s, packets/s
	delivered := 0.0
	now := 0.0
	// Every round delivers at rate rate over one RTT, one sample per round.
	round := func(rate, inflight float64) {
		now += rtt
		prior := delivered
		delivered += rate * rtt
		ev.OnRateSample(RateSample{Delivered: rate * rtt, IntervalS: rtt, PriorDelivered: prior, DeliveredTotal: delivered,
			AckedSacked: rate * rtt, PriorInFlight: inflight, InFlight: inflight}, Observation{Now: now, RTT: rtt, BaseRTT: rtt})
	}
	for _, r := range []float64{1000, 2000, 4000, 8000} {
		round(r, r*rtt)
		if ev.mode != bbrStartup {
			t.Fatalf("rate %g: mode %d, want Startup", r, ev.mode)
		}
		if want := ev.p.highGain * r * 0.99; math.Abs(ev.PacingRate()-want) > 1e-6*want {
			t.Errorf("Startup at %g packets/s: pacing %g, want high_gain·BtlBw·0.99 = %g", r, ev.PacingRate(), want)
		}
	}
	for range 3 {
		round(bw, 3*bw*rtt) // the pipe is full: no growth
	}
	if !ev.fullBwReached || ev.mode != bbrDrain {
		t.Fatalf("after three flat rounds: full %v, mode %d; want Drain", ev.fullBwReached, ev.mode)
	}
	round(bw, bw*rtt) // the queue has drained
	if ev.mode != bbrProbeBW || ev.cycleIdx == 1 {
		t.Fatalf("after Drain: mode %d, phase %d; want ProbeBW, not the draining phase", ev.mode, ev.cycleIdx)
	}
	budget := 3*math.Floor(ev.PacingRate()/1024) + 2*boolF(ev.cycleIdx == 0)
	target := 2*2*math.Ceil(bw*rtt)/2 + budget
	for range 30 {
		round(bw, bw*rtt)
	}
	if got := ev.Cwnd(); got < 2*bw*rtt || got > 2*bw*rtt+3*44+4 {
		t.Errorf("ProbeBW cwnd %g packets, want 2·BDP = %g plus at most the quantization budget (about %g)", got, 2*bw*rtt, target)
	}
	gains := map[float64]bool{}
	for range 16 {
		// The flight follows the gain, with a queue above the budget while probing.
		round(bw, ev.pacingGain*bw*rtt+100)
		gains[ev.pacingGain] = true
	}
	for _, g := range []float64{1.25, 0.75, 1} {
		if !gains[g] {
			t.Errorf("gain cycle never paced at %g: saw %v", g, gains)
		}
	}
}

func boolF(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// BBR enters ProbeRTT when RTprop has not been refreshed for 10 s, holds 4 packets for
// 200 ms and a round, and restores its cwnd.
func TestBBRProbeRTT(t *testing.T) {
	ev := mustAlgo(t, "bbr").NewEvent(FlowConfig{InitialCwnd: 10, MaxCwnd: 1e6}).(*bbrEvent)
	const rtt, bw = 0.04, 8000.0
	now, delivered := 0.0, 0.0
	step := func(inflight float64) {
		now += rtt
		prior := delivered
		delivered += bw * rtt
		ev.OnRateSample(RateSample{Delivered: bw * rtt, IntervalS: rtt, PriorDelivered: prior, DeliveredTotal: delivered,
			AckedSacked: bw * rtt, PriorInFlight: inflight, InFlight: inflight}, Observation{Now: now, RTT: rtt + 0.01, BaseRTT: rtt})
	}
	for now < 9 {
		step(bw * rtt)
	}
	before := ev.Cwnd()
	for now < 10.1 {
		step(bw * rtt)
	}
	if ev.mode != bbrProbeRTT || ev.Cwnd() > bbrMinCwnd {
		t.Fatalf("at 10 s: mode %d, cwnd %g; want ProbeRTT at 4 packets", ev.mode, ev.Cwnd())
	}
	for ev.mode == bbrProbeRTT && now < 11 {
		step(bbrMinCwnd)
	}
	if ev.mode != bbrProbeBW || ev.Cwnd() < before*0.9 {
		t.Errorf("after ProbeRTT (t = %.2f s): mode %d, cwnd %g; want ProbeBW, about %g", now, ev.mode, ev.Cwnd(), before)
	}
}

// The fluid face of BBR: paced at the pacing rate from the start, its derivatives read the
// delivery rate (dD/dt = delivery rate; W grows at ln2·delivery rate in Startup).
func TestBBRFluidFace(t *testing.T) {
	law := mustAlgo(t, "bbr").NewFluid(FlowConfig{InitialCwnd: 10, MaxCwnd: 1e6})
	x := make([]float64, law.Vars())
	dx := make([]float64, law.Vars())
	law.Init(x, Observation{RTT: 0.04, BaseRTT: 0.04})
	p := law.(FluidPacer)
	if got, want := p.PacingRate(x, Observation{}), 2/math.Ln2*10/0.04*0.99; math.Abs(got-want) > 1e-9*want {
		t.Errorf("initial pacing rate %g packets/s, want high_gain·cwnd/RTT·0.99 = %g", got, want)
	}
	// Startup grows the window by what the ACKs acknowledge: nothing within the first base
	// RTT, then the deliveries of a base RTT before.
	law.Deriv(dx, x, Observation{Now: 0.01, RTT: 0.04, BaseRTT: 0.04, DeliveryRate: 250})
	if dx[1] != 250 || dx[0] != 0 {
		t.Errorf("Startup, before the first ACK: dW/dt %g, dD/dt %g; want 0, 250", dx[0], dx[1])
	}
	x[1] = 250 * 0.05 // delivered at 250 packets/s since the start
	law.Deriv(dx, x, Observation{Now: 0.05, RTT: 0.04, BaseRTT: 0.04, DeliveryRate: 400})
	if dx[1] != 400 || math.Abs(dx[0]-250) > 1e-9 {
		t.Errorf("Startup: dW/dt %g, dD/dt %g; want 250 (the deliveries a base RTT ago), 400", dx[0], dx[1])
	}
	if g := law.Guard(x, Observation{Now: 0.01, RTT: 0.04}); !(g < 0) {
		t.Errorf("guard %g before the first round's end, want < 0", g)
	}
}

// Scenario fields of the AQMs and ECN: defaults, ranges, and the YAML queue mapping.
func TestAQMValidation(t *testing.T) {
	base := func(q QueueKind) *Scenario {
		return &Scenario{DurationS: 1,
			Links: []Link{{CapacityBps: 1e6, DelayS: 0.01, BufferPkts: 10, Queue: q}},
			Paths: []Path{{Links: []string{"l0"}}},
			Flows: []Flow{{Algorithm: "reno", Path: "p0"}}}
	}
	s := base(QueueCoDel)
	if err := s.Validate(); err != nil || s.Links[0].CoDel != (CoDel{TargetS: 0.005, IntervalS: 0.1}) {
		t.Errorf("codel defaults: %v, %+v", err, s.Links[0].CoDel)
	}
	s = base(QueuePIE)
	if err := s.Validate(); err != nil || s.Links[0].PIE.TargetS != 0.015 || s.Links[0].PIE.Alpha != 0.125 || s.Links[0].PIE.Beta != 1.25 {
		t.Errorf("pie defaults: %v, %+v", err, s.Links[0].PIE)
	}
	s = base(QueueFQCoDel)
	if err := s.Validate(); err != nil || s.Links[0].FQCoDel.QuantumBytes != 1514 || s.Links[0].FQCoDel.TargetS != 0.005 {
		t.Errorf("fq_codel defaults: %v, %+v", err, s.Links[0].FQCoDel)
	}
	s = base(QueueDropTail)
	s.Links[0].MarkThresholdPkts = 5
	if err := s.Validate(); err != nil || !s.Links[0].ECN {
		t.Errorf("step marking implies ECN: %v, ECN %v", err, s.Links[0].ECN)
	}
	for _, c := range []struct {
		name    string
		change  func(*Scenario)
		mention []string
	}{
		{"unknown kind", func(s *Scenario) { s.Links[0].Queue = "sfq" }, []string{`"sfq"`, `want "droptail" or "red"`, `"codel"`, `"pie"`}},
		{"ecn without marking", func(s *Scenario) { s.Links[0].ECN = true }, []string{"links[0].ecn", "mark_threshold"}},
		{"step on codel", func(s *Scenario) { s.Links[0].Queue, s.Links[0].MarkThresholdPkts = QueueCoDel, 5 }, []string{"links[0].mark_threshold", `"droptail"`}},
		{"codel on pie", func(s *Scenario) { s.Links[0].Queue, s.Links[0].CoDel.TargetS = QueuePIE, 0.01 }, []string{"links[0].codel", "unset"}},
		{"codel interval below target", func(s *Scenario) {
			s.Links[0].Queue, s.Links[0].CoDel = QueueCoDel, CoDel{TargetS: 0.2, IntervalS: 0.1}
		}, []string{"links[0].codel.interval", "want >= target"}},
		{"pie ecn_max_p", func(s *Scenario) { s.Links[0].Queue, s.Links[0].PIE.ECNMaxProb = QueuePIE, 2 }, []string{"links[0].pie.ecn_max_p", "2"}},
		{"negative threshold", func(s *Scenario) { s.Links[0].MarkThresholdPkts = -1 }, []string{"links[0].mark_threshold", "-1"}},
	} {
		s := base(QueueDropTail)
		c.change(s)
		err := s.Validate()
		if !errors.Is(err, ErrScenario) {
			t.Errorf("%s: error %v, want ErrScenario", c.name, err)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, m)
			}
		}
	}
}

func TestAQMYAML(t *testing.T) {
	const doc = `
duration: 10s
links:
  - {name: a, capacity: 100Mbps, delay: 10ms, buffer: 100 packets, queue: {kind: codel, target: 2ms, interval: 50ms, ecn: true}}
  - {name: b, capacity: 100Mbps, delay: 10ms, buffer: 100 packets, queue: {kind: pie, target: 20ms, t_update: 30ms, alpha: 0.2, beta: 2, ecn_max_p: 0.2}}
  - {name: c, capacity: 100Mbps, delay: 10ms, buffer: 100 packets, queue: {kind: droptail, mark_threshold: 20}}
  - {name: d, capacity: 100Mbps, delay: 10ms, buffer: 100 packets, queue: {kind: fq_codel, quantum: 3000B}}
  - {name: e, capacity: 100Mbps, delay: 10ms, buffer: 100 packets, queue: red}
paths: [{name: p, links: [a, b, c, d, e]}]
flows: [{algorithm: dctcp, path: p, ecn: true, pacing: true}]
`
	s, err := LoadScenario(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	l := s.Links
	switch {
	case l[0].Queue != QueueCoDel || l[0].CoDel != (CoDel{TargetS: 0.002, IntervalS: 0.05}) || !l[0].ECN:
		t.Errorf("codel link %+v", l[0])
	case l[1].PIE != (PIE{TargetS: 0.02, TUpdateS: 0.03, Alpha: 0.2, Beta: 2, MaxBurstS: 0.15, ECNMaxProb: 0.2}):
		t.Errorf("pie link %+v", l[1].PIE)
	case l[2].MarkThresholdPkts != 20 || !l[2].ECN:
		t.Errorf("step link %+v", l[2])
	case l[3].FQCoDel != (FQCoDel{QuantumBytes: 3000, CoDel: CoDel{TargetS: 0.005, IntervalS: 0.1}}):
		t.Errorf("fq_codel link %+v", l[3].FQCoDel)
	case l[4].Queue != QueueRED:
		t.Errorf("red link %+v", l[4])
	case !s.Flows[0].ECN || !s.Flows[0].Pacing:
		t.Errorf("flow %+v", s.Flows[0])
	}
	_, err = LoadScenario(strings.NewReader(strings.Replace(doc, "t_update: 30ms", "interval: 30ms", 1)))
	if err == nil || !strings.Contains(err.Error(), "t_update") {
		t.Errorf("interval on pie: %v, want an error naming t_update", err)
	}
}

// The new algorithms' parameters are documented as the classic ones are.
func TestModernAlgoParams(t *testing.T) {
	for _, name := range []string{"bbr", "dctcp"} {
		alg := mustAlgo(t, name)
		for _, p := range alg.Params() {
			if p.Value != p.Default || p.Default < p.Min || p.Default > p.Max || p.Unit == "" || p.Source == "" || p.Doc == "" {
				t.Errorf("%s.%s: incomplete or inconsistent %+v", name, p.Name, p)
			}
		}
		if !UsesECN(alg, false) != (name == "bbr") {
			t.Errorf("%s: UsesECN %v", name, UsesECN(alg, false))
		}
	}
}

// The hot paths of the new laws allocate nothing.
func TestModernNoAllocations(t *testing.T) {
	for _, name := range []string{"bbr", "dctcp"} {
		alg := mustAlgo(t, name)
		law := alg.NewFluid(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
		x := make([]float64, law.Vars())
		dx := make([]float64, law.Vars())
		o := Observation{Now: 1, RTT: 0.12, BaseRTT: 0.1, DeliveryRate: 1000, MarkFrac: 0.1}
		law.Init(x, o)
		if n := testing.AllocsPerRun(100, func() { law.Deriv(dx, x, o) }); n != 0 {
			t.Errorf("%s Deriv: %g allocations", name, n)
		}
		ev := alg.NewEvent(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
		rs := RateSample{Delivered: 10, IntervalS: 0.1, AckedSacked: 1, InFlight: 100}
		if n := testing.AllocsPerRun(100, func() {
			o.Now += 1e-3
			ev.OnAck(1, o)
			if s, ok := ev.(RateSampler); ok {
				rs.PriorDelivered++
				rs.DeliveredTotal += 1
				s.OnRateSample(rs, o)
			}
			if r, ok := ev.(ECNReactor); ok {
				r.ECNAck(1, 0, o)
			}
		}); n != 0 {
			t.Errorf("%s event face: %g allocations", name, n)
		}
	}
}

func BenchmarkModernDeriv(b *testing.B) {
	for _, name := range []string{"bbr", "dctcp"} {
		b.Run(name, func(b *testing.B) {
			law := mustAlgo(b, name).NewFluid(FlowConfig{InitialCwnd: 500, InitialSsthresh: 1, MaxCwnd: 1e6})
			x := make([]float64, law.Vars())
			dx := make([]float64, law.Vars())
			o := Observation{Now: 1, RTT: 0.12, BaseRTT: 0.1, DeliveryRate: 1000, MarkFrac: 0.1}
			law.Init(x, o)
			b.ReportAllocs()
			for b.Loop() {
				law.Deriv(dx, x, o)
			}
		})
	}
}
