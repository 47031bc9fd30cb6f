package fluid_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// The checks of issue 18 on the modern built-ins (model/modern.go), in the fluid engine
// and, where they compare the engines, in the packet engine (SACK and lost-retransmission
// detection on, as Linux senders have).

func builtin(t testing.TB, name string) *model.Scenario {
	t.Helper()
	sc, err := model.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// runPacket is the packet run that matches runCounted's: SACK recovery, and a lost
// retransmission found from later SACKs only where the scenario asks for it
// (lost_retransmit), as the fluid finds it; validate runs the packet engine so too.
func runPacket(t testing.TB, sc *model.Scenario, sampleS float64) *model.Result {
	t.Helper()
	return runPacketSeed(t, sc, sampleS, 1)
}

// runPacketSeed is runPacket with the random draws of seed.
func runPacketSeed(t testing.TB, sc *model.Scenario, sampleS float64, seed uint64) *model.Result {
	t.Helper()
	res, err := packet.Run(context.Background(), sc, packet.Settings{Seed: seed, SACK: true, LostRetransmit: sc.LostRetransmit, SampleS: sampleS})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// runCounted is the fluid run that matches runPacket's: the counted form, SACK recovery.
func runCounted(t testing.TB, sc *model.Scenario, sampleS float64) *model.Result {
	t.Helper()
	return runCountedSeed(t, sc, sampleS, 1)
}

// runCountedSeed is runCounted with the random draws of seed.
func runCountedSeed(t testing.TB, sc *model.Scenario, sampleS float64, seed uint64) *model.Result {
	t.Helper()
	return runFluid(t, sc, fluid.Settings{Seed: seed, Form: fluid.FormHybridRecovery, SACK: true, SampleS: sampleS})
}

// queueCycles is the mean and the peak-to-trough amplitude of a link's queue trace after
// from (s), the amplitude as √12 times the standard deviation: exact for the triangle wave
// of the analysis (its values are uniform between trough and peak), and robust to the
// packet engine's per-packet jitter, which a search for extremes is not.
func queueCycles(samples []model.Sample, from float64) (amplitude, mean float64) {
	var sum, sq, n float64
	for _, s := range samples {
		if s.TS >= from {
			sum += s.QueuePkts
			sq += s.QueuePkts * s.QueuePkts
			n++
		}
	}
	mean = sum / n
	return math.Sqrt(12 * math.Max(sq/n-mean*mean, 0)), mean
}

// DCTCP's queue at a step-marking link oscillates about K with the peak K + N and the mean
// of the analysis of Alizadeh, Javanmard and Prabhakar (SIGMETRICS 2011): within 20% in
// both engines, for 2 and 10 flows, at full utilisation. The amplitude is within 20% in the
// packet engine for 2 flows only, and is logged, not asserted, elsewhere: measured 14.3
// packets (packet) and 18.2 (fluid) against 12.3 for 2 flows, 35.5 and 38.7 against 27.4 for
// 10. The fluid engine's window senders send at W/RTT, which brings the queue to
// N·W − C·d only with a lag of about one RTT, and DCTCP's cycle is a few RTTs long: the
// marks last about 2 RTTs instead of the analysis's 1 + 1/(u − 1), and the trough falls
// lower. With 10 flows the packet senders also desynchronize, which the analysis, for
// synchronized flows, does not see.
func TestDCTCPQueueAnalysis(t *testing.T) {
	if testing.Short() {
		t.Skip("10 Gb/s packet runs")
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"modern-dctcp-2", 2}, {"modern-dctcp-10", 10}} {
		sc := builtin(t, c.name)
		l := sc.Links[0]
		ref := model.DCTCPQueueReference(c.n, sc.CapacityPktsPerS(0, sc.Flows[0].MSSBytes), sc.PathRTTS(0), l.MarkThresholdPkts)
		for _, eng := range []struct {
			name string
			run  func(testing.TB, *model.Scenario, float64) *model.Result
		}{{"fluid", func(t testing.TB, sc *model.Scenario, s float64) *model.Result {
			return runFluid(t, sc, fluid.Settings{Seed: 1, SampleS: s})
		}}, {"packet", runPacket}} {
			res := eng.run(t, sc, 1e-5)
			amp, mean := queueCycles(linkSamples(res, "bottleneck"), 0.1)
			peak := mean + amp/2
			t.Logf("%s %s: queue peak %.1f, amplitude %.1f, mean %.1f packets; analysis %.1f, %.1f, %.1f; utilisation %.4f",
				c.name, eng.name, peak, amp, mean, ref.Max, ref.Amplitude, ref.Mean, res.Links[0].Utilisation)
			for _, m := range []struct {
				what      string
				got, want float64
				assert    bool
			}{{"amplitude", amp, ref.Amplitude, eng.name == "packet" && c.n == 2}, {"mean", mean, ref.Mean, true}, {"peak", peak, ref.Max, true}} {
				if m.assert && relErr(m.got, m.want) > 0.20 {
					t.Errorf("%s %s: queue %s %.2f packets, analysis %.2f (±20%%)", c.name, eng.name, m.what, m.got, m.want)
				}
			}
			if u := res.Links[0].Utilisation; u < 0.99 {
				t.Errorf("%s %s: utilisation %.4f, want ≥ 0.99 (the queue never empties)", c.name, eng.name, u)
			}
		}
	}
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

// queueDelayS is a link's mean queueing delay in seconds: its mean queue in packets of
// mssBytes at its capacity.
func queueDelayS(res *model.Result, sc *model.Scenario, li int) float64 {
	return res.Links[li].MeanQueuePkts * sc.Flows[0].MSSBytes * 8 / sc.Links[li].CapacityBps
}

// Bufferbloat: with ten CUBIC flows CoDel holds the standing queue's sojourn time near its
// 5 ms target and PIE near its 15 ms (within 50%), FQ-CoDel each flow's queue below 1.5
// times CoDel's target (ten queues at the fair rate, each dropped once its sojourn stays
// above target: the link's mean queue over its capacity is each queue's mean delay), where
// drop-tail with a 1-BDP buffer sits near the buffer (above half of it: a CUBIC sawtooth
// over a 1-BDP buffer falls to 0.7·(2 BDP) − 1 BDP = 0.4 of it when the flows are
// synchronized, less often when not), in both engines.
func TestAQMQueueDelay(t *testing.T) {
	if testing.Short() {
		t.Skip("60 s runs of ten flows")
	}
	for _, c := range []struct {
		name       string
		targetS    float64 // 0: drop-tail
		bufferFrac float64
		below      bool // at most 1.5 times the target
	}{
		{"modern-bufferbloat-codel", model.DefaultCoDelTargetS, 0, false},
		{"modern-bufferbloat-pie", model.DefaultPIETargetS, 0, false},
		{"modern-bufferbloat-fq_codel", model.DefaultCoDelTargetS, 0, true},
		{"modern-bufferbloat-droptail", 0, 0.5, false},
	} {
		sc := builtin(t, c.name)
		for _, eng := range []string{"fluid", "packet"} {
			var res *model.Result
			if eng == "fluid" {
				res = runCounted(t, sc, 0)
			} else {
				res = runPacket(t, sc, 0)
			}
			d := queueDelayS(res, sc, 0)
			t.Logf("%s %s: mean queue %.1f packets, %.2f ms; utilisation %.4f", c.name, eng, res.Links[0].MeanQueuePkts, d*1e3, res.Links[0].Utilisation)
			switch {
			case c.below && d > 1.5*c.targetS:
				t.Errorf("%s %s: queueing delay %.2f ms, want at most 1.5 times the target %.0f ms", c.name, eng, d*1e3, c.targetS*1e3)
			case c.targetS > 0 && !c.below && relErr(d, c.targetS) > 0.5:
				t.Errorf("%s %s: queueing delay %.2f ms, want the target %.0f ms ±50%%", c.name, eng, d*1e3, c.targetS*1e3)
			case c.targetS == 0 && res.Links[0].MeanQueuePkts < c.bufferFrac*sc.Links[0].BufferPkts:
				t.Errorf("%s %s: mean queue %.1f packets, want above %.0f%% of the %.0f-packet buffer", c.name, eng,
					res.Links[0].MeanQueuePkts, 100*c.bufferFrac, sc.Links[0].BufferPkts)
			}
			if u := res.Links[0].Utilisation; u < 0.95 {
				t.Errorf("%s %s: utilisation %.4f, want ≥ 0.95", c.name, eng, u)
			}
		}
	}
}

// BBR v1 alone keeps at least 90% of the link with random loss up to 1%, in both engines,
// and up to 15%, where its probe still raises the delivery rate (1.25·(1 − p) > 1;
// Cardwell et al. 2016: flat to about 15%), the hybrid form (the default study's figure)
// gets across what the packet engine does, within validate's 0.03 of the link, each
// engine's mean over seeds 1–4: 0.94, 0.89 and 0.83 against 0.93, 0.89 and 0.84 at 5, 10
// and 15%. One seed's share spreads by 0.01–0.02 at 15% (the packet engine's 0.807–0.856),
// as much as the two engines' difference. The packet sender's goodput is lower by the
// copies its SACK recovery resends of packets that had arrived (2–3.5% of what it
// delivers; the fluid resends none): 0.91, 0.86 and 0.81. The hybrid form kept 0.51 at 15%
// while a paced fluid flow sent at min(W/RTT, pacing rate) (model.FluidFlight), and 0.79
// at 10% while its lost packets crossed the link before they were lost.
func TestBBRRandomLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("30 s packet runs")
	}
	const seeds = 4
	for _, p := range []float64{1e-3, 1e-2, 0.05, 0.1, 0.15} {
		sc := builtin(t, "modern-bbr-random-loss")
		sc.Links[0].LossP = p
		share, good := map[string]float64{}, map[string]float64{}
		for seed := uint64(1); seed <= seeds; seed++ {
			for _, eng := range []string{"counted", "hybrid", "packet"} {
				var res *model.Result
				switch eng {
				case "counted":
					res = runCountedSeed(t, sc, 0, seed)
				case "hybrid":
					res = runFluid(t, sc, fluid.Settings{Seed: seed, Form: fluid.FormHybrid, SACK: true})
				default:
					res = runPacketSeed(t, sc, 0, seed)
				}
				fl := res.Flows[0]
				share[eng] += fl.MeanThroughputBps / sc.Links[0].CapacityBps / seeds
				good[eng] += fl.GoodputBps / sc.Links[0].CapacityBps / seeds
				t.Logf("p = %g seed %d %s: %.4f of the link delivered, goodput %.4f, mean cwnd %.1f packets, %d loss events, %d timeouts",
					p, seed, eng, fl.MeanThroughputBps/sc.Links[0].CapacityBps, fl.GoodputBps/sc.Links[0].CapacityBps, fl.MeanCwndPkts, fl.LossEvents, fl.Timeouts)
			}
		}
		for _, eng := range []string{"counted", "packet"} {
			if p <= 1e-2 && good[eng] < 0.9 {
				t.Errorf("p = %g %s: BBR goodput %.4f of the link over seeds 1–%d, want ≥ 0.90", p, eng, good[eng], seeds)
			}
		}
		if d := share["hybrid"] - share["packet"]; math.Abs(d) > 0.03 {
			t.Errorf("p = %g: BBR delivers %.4f of the link (fluid, hybrid form), %.4f (packet) over seeds 1–%d, want within 0.03",
				p, share["hybrid"], share["packet"], seeds)
		}
	}
}

// The fluid engine against the packet engine on the modern built-ins: throughput and mean
// window within 10%, queueing delay within 15% (or within 0.2 ms, a few packets, for the
// data-centre queues), and BBR's share against CUBIC within 0.1 of the link. BBR under
// random loss: mean cwnd 446.6 against 434.0 packets, queueing delay 1.92 against 2.23 ms
// (388 against 441 and 1.98 against 2.36 ms when the test was written, and not asserted:
// a packet sender's recovery merges the losses of about two RTTs, and the fluid's then
// merged those of one).
//
// BBR against CUBIC has its own test (TestBBRAgainstCUBIC).
func TestModernFluidVersusPacket(t *testing.T) {
	if testing.Short() {
		t.Skip("packet runs")
	}
	for _, c := range []struct {
		name          string
		window, delay bool // assert the mean window and the queueing delay
		bbrShare      bool // assert BBR's share of the link against CUBIC
	}{
		{"modern-bufferbloat-codel", true, true, false},
		{"modern-bufferbloat-pie", true, true, false},
		{"modern-bufferbloat-fq_codel", true, true, false},
		{"modern-bufferbloat-droptail", true, true, false},
		{"modern-bbr-random-loss", true, true, false},
		{"modern-dctcp-2", true, true, false},
		{"modern-dctcp-10", true, true, false},
	} {
		name := c.name
		sc := builtin(t, name)
		fl, pk := runCounted(t, sc, 0), runPacket(t, sc, 0)
		var fThr, pThr, fW, pW float64
		for i := range fl.Flows {
			fThr += fl.Flows[i].MeanThroughputBps
			pThr += pk.Flows[i].MeanThroughputBps
			fW += fl.Flows[i].MeanCwndPkts
			pW += pk.Flows[i].MeanCwndPkts
		}
		fd, pd := queueDelayS(fl, sc, 0), queueDelayS(pk, sc, 0)
		t.Logf("%s: throughput %.4g / %.4g bit/s, mean cwnd %.1f / %.1f, queueing delay %.3f / %.3f ms (fluid / packet)",
			name, fThr, pThr, fW, pW, fd*1e3, pd*1e3)
		for i := range fl.Flows {
			t.Logf("   %s: %.4g / %.4g bit/s, cwnd %.1f / %.1f", fl.Flows[i].Name, fl.Flows[i].MeanThroughputBps, pk.Flows[i].MeanThroughputBps,
				fl.Flows[i].MeanCwndPkts, pk.Flows[i].MeanCwndPkts)
		}
		if relErr(fThr, pThr) > 0.10 {
			t.Errorf("%s: throughput %.4g bit/s, packet %.4g (±10%%)", name, fThr, pThr)
		}
		if c.window && relErr(fW, pW) > 0.10 {
			t.Errorf("%s: mean cwnd %.2f packets, packet %.2f (±10%%)", name, fW, pW)
		}
		if c.delay && relErr(fd, pd) > 0.15 && math.Abs(fd-pd) > 2e-4 {
			t.Errorf("%s: queueing delay %.3f ms, packet %.3f (±15%%)", name, fd*1e3, pd*1e3)
		}
		if c.bbrShare {
			capBps := sc.Links[0].CapacityBps
			if fs, ps := fl.Flows[0].MeanThroughputBps/capBps, pk.Flows[0].MeanThroughputBps/capBps; math.Abs(fs-ps) > 0.1 {
				t.Errorf("%s: BBR's share %.3f, packet %.3f (±0.1)", name, fs, ps)
			}
		}
	}
}

// ns3BBRShare1BDP is ns-3 3.37's TcpBbr share of the link against one TcpCubic over the
// modern-bbr-cubic-1bdp scenario (100 Mb/s, 40 ms, a 343-packet FIFO queue disc, CUBIC 0.1 s
// after BBR, SACK, pacing on as TcpBbr needs, delayed ACKs off, minimum RTO 0.2 s, goodput
// from 10 s to 60 s over 1448-byte segments on 1514-byte frames): 85.56 Mb/s of 100.
const ns3BBRShare1BDP = 0.8556

// BBR against one CUBIC flow (the known unfairness: BBR takes nearly the whole link over a
// shallow buffer, most of it over one BDP, little over a deep one). The outcome depends on
// the phase of CUBIC's start against BBR's gain cycle (over 1 BDP the packet engine's BBR
// takes 0.74 to 0.88 as CUBIC starts 20 to 100 ms after it), so the engines are compared on
// the mean of five start offsets: BBR's share within 0.1 over 0.2, 1 and 10 BDP. On the
// built-in itself (CUBIC at 0.1 s, ns-3's run) both engines take ns-3's share within 0.1.
//
// Over 1 BDP the fluid BBR takes 0.866 on the mean, the packet engine 0.873 and ns-3 0.856.
// It took 0.60 while the fluid sent a paced flow at min(W/RTT, pacing rate): a probe's queue
// lengthens the RTT, W/RTT fell below the probe's rate, and the probe stopped short of its
// 25%, where a packet sender whose flight is below its window goes on at its pacing rate
// (model.FluidFlight).
//
// Over 10 BDPs BBR takes 0.224 in the fluid engine and 0.240 in the packet engine (the
// fluid took 0.156 while its FIFO served each flow by what it held), and 0.035 in ns-3
// (which has no lost-retransmission detection; with the packet engine finding only the
// first hole's, 0.08). Both engines' BBR gains through the run as its RTprop, sampled at
// each ProbeRTT behind CUBIC's queue, grows. On the built-ins themselves (CUBIC at 0.1 s)
// the queueing delay is within issue 18's 15%: 1.51, 27.24 and 351.3 ms against 1.71, 26.50
// and 343.1 (−11.7%, +2.8%, +2.4%) over 0.2, 1 and 10 BDPs (1.45 ms, −15.5%, over 0.2 BDP
// before a probing BBR raced the others for a full queue's slots, slotrace.go).
func TestBBRAgainstCUBIC(t *testing.T) {
	if testing.Short() {
		t.Skip("60 s packet runs")
	}
	for _, c := range []struct {
		name  string
		agree bool // the engines' mean shares within 0.1
	}{{"modern-bbr-cubic-shallow", true}, {"modern-bbr-cubic-1bdp", true}, {"modern-bbr-cubic-deep", true}} {
		var fs, ps, fd, pd float64
		starts := []float64{0.02, 0.04, 0.06, 0.08, 0.10}
		for _, st := range starts {
			sc := builtin(t, c.name)
			sc.Flows[1].StartS = st
			fl, pk := runCounted(t, sc, 0), runPacket(t, sc, 0)
			capBps := sc.Links[0].CapacityBps
			f, p := fl.Flows[0].MeanThroughputBps/capBps, pk.Flows[0].MeanThroughputBps/capBps
			t.Logf("%s, CUBIC at %.2f s: BBR's share %.3f (fluid), %.3f (packet); queueing delay %.2f, %.2f ms", c.name, st, f, p,
				queueDelayS(fl, sc, 0)*1e3, queueDelayS(pk, sc, 0)*1e3)
			fs += f / float64(len(starts))
			ps += p / float64(len(starts))
			fd += queueDelayS(fl, sc, 0) / float64(len(starts))
			pd += queueDelayS(pk, sc, 0) / float64(len(starts))
			if st != builtin(t, c.name).Flows[1].StartS {
				continue
			}
			// The built-in itself: issue 18's queueing delay within 15%.
			if d, e := queueDelayS(fl, sc, 0), queueDelayS(pk, sc, 0); relErr(d, e) > 0.15 {
				t.Errorf("%s: queueing delay %.3f ms, packet %.3f (±15%%)", c.name, d*1e3, e*1e3)
			}
			if c.name == "modern-bbr-cubic-1bdp" {
				if math.Abs(p-ns3BBRShare1BDP) > 0.1 || math.Abs(f-ns3BBRShare1BDP) > 0.1 {
					t.Errorf("%s: BBR's share %.3f (fluid), %.3f (packet), ns-3 3.37 %.3f (±0.1)", c.name, f, p, ns3BBRShare1BDP)
				}
			}
		}
		t.Logf("%s: mean BBR share %.3f (fluid), %.3f (packet); mean queueing delay %.2f, %.2f ms", c.name, fs, ps, fd*1e3, pd*1e3)
		if c.agree && math.Abs(fs-ps) > 0.1 {
			t.Errorf("%s: mean BBR share %.3f, packet %.3f (±0.1)", c.name, fs, ps)
		}
	}
}

// FQ-CoDel gives a TCP flow its fair half of the link against an unresponsive CBR source
// asking for 80% of it (testdata/scenarios/fq-cbr-isolation.yaml), in the fluid engine as in
// the packet engine (within 0.05 of its share), where drop-tail leaves it the 20% the CBR
// leaves: the flow queues share by max–min fairness and the CBR's queue, above its
// share, is the one CoDel and the buffer drop from.
func TestFQCoDelIsolation(t *testing.T) {
	sc, err := model.LoadScenarioFile("../testdata/scenarios/fq-cbr-isolation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	capBps := sc.Links[0].CapacityBps
	fl, pk := runCounted(t, sc, 0).Flows[0].GoodputBps/capBps, runPacket(t, sc, 0).Flows[0].GoodputBps/capBps
	sc.Links[0].Queue, sc.Links[0].FQCoDel = model.QueueDropTail, model.FQCoDel{}
	fifo := runCounted(t, sc, 0).Flows[0].GoodputBps / capBps
	t.Logf("TCP share against the CBR: fluid %.3f, packet %.3f; drop-tail %.3f", fl, pk, fifo)
	if fl < 0.45 || math.Abs(fl-pk) > 0.05 {
		t.Errorf("TCP share of the link %.3f, packet engine %.3f; want about ½ (≥ 0.45) and the packet engine's within 0.05", fl, pk)
	}
	if fifo > 0.25 {
		t.Errorf("TCP share of a drop-tail link %.3f; want at most the 20%% the CBR leaves", fifo)
	}
}
