package fluid_test

import (
	"math"
	"testing"
)

// BBR v2 against one CUBIC flow (issue 18: every new algorithm fluid against packet on its
// built-ins, throughput and mean window within 10%, queueing delay within 15%). ns-3.37
// has no BBR v2, so the packet engine (the event face after Linux tcp_bbr2.c) is the
// reference here.
//
// On the built-ins (CUBIC 0.1 s after BBR v2):
//
//	                        BBR v2 Mb/s     window        CUBIC Mb/s    window      queue, pkts
//	0.2 BDP  fluid, packet  77.7, 78.6      293, 296      21.3, 20.7    79.5, 77.8  28.1, 27.6
//	1 BDP    fluid, packet  46.0, 47.9      300, 297      53.9, 51.8    314, 303    241, 234
//
// Over 0.2 BDP the result holds at CUBIC starts from 40 to 100 ms (BBR v2 within 1.6%,
// CUBIC within 6.1%); at 20 ms CUBIC takes 17.5% more in the fluid. Over 1 BDP it does not
// hold: at CUBIC starts of 40 to 80 ms the fluid BBR v2 takes 16–21% less than the packet
// engine's (the mean share over the five starts is 0.375 against 0.433, within 0.1).
//
// v2's bounds are what they are for: over 0.2 BDP, where v1 leaves CUBIC 3 Mb/s and loses
// 10,878 packets in the packet engine, v2 leaves it about 21 Mb/s and loses 1,313.
func TestBBR2AgainstCUBIC(t *testing.T) {
	if testing.Short() {
		t.Skip("60 s packet runs")
	}
	for _, name := range []string{"modern-bbr2-cubic-shallow", "modern-bbr2-cubic-1bdp"} {
		sc := builtin(t, name)
		fl, pk := runCounted(t, sc, 0), runPacket(t, sc, 0)
		for i := range sc.Flows {
			f, p := fl.Flows[i], pk.Flows[i]
			t.Logf("%s %s: %.2f Mb/s, %.1f packets (fluid); %.2f Mb/s, %.1f packets (packet)", name, sc.Flows[i].Name,
				f.MeanThroughputBps/1e6, f.MeanCwndPkts, p.MeanThroughputBps/1e6, p.MeanCwndPkts)
			if e := relErr(f.MeanThroughputBps, p.MeanThroughputBps); e > 0.1 {
				t.Errorf("%s %s: throughput %.2f Mb/s, packet %.2f (%.1f%%, ±10%%)", name, sc.Flows[i].Name,
					f.MeanThroughputBps/1e6, p.MeanThroughputBps/1e6, 100*e)
			}
			if e := relErr(f.MeanCwndPkts, p.MeanCwndPkts); e > 0.1 {
				t.Errorf("%s %s: mean window %.1f, packet %.1f (%.1f%%, ±10%%)", name, sc.Flows[i].Name, f.MeanCwndPkts, p.MeanCwndPkts, 100*e)
			}
		}
		if d, e := queueDelayS(fl, sc, 0), queueDelayS(pk, sc, 0); relErr(d, e) > 0.15 {
			t.Errorf("%s: queueing delay %.3f ms, packet %.3f (±15%%)", name, d*1e3, e*1e3)
		}
	}
}

// BBR v2 over a shallow buffer leaves CUBIC several times what v1 leaves it and loses a
// fraction of v1's packets, in both engines: inflight_hi, set where a probe's losses
// passed 2% of the flight, keeps it out of the buffer v1 overfills at every probe.
func TestBBR2BoundsItsProbes(t *testing.T) {
	if testing.Short() {
		t.Skip("60 s packet runs")
	}
	v1, v2 := builtin(t, "modern-bbr-cubic-shallow"), builtin(t, "modern-bbr2-cubic-shallow")
	for _, eng := range []struct {
		name string
		run  func() (cubic1, cubic2, drops1, drops2 float64)
	}{
		{"fluid", func() (float64, float64, float64, float64) {
			a, b := runCounted(t, v1, 0), runCounted(t, v2, 0)
			return a.Flows[1].MeanThroughputBps, b.Flows[1].MeanThroughputBps, a.Flows[0].DroppedPkts, b.Flows[0].DroppedPkts
		}},
		{"packet", func() (float64, float64, float64, float64) {
			a, b := runPacket(t, v1, 0), runPacket(t, v2, 0)
			return a.Flows[1].MeanThroughputBps, b.Flows[1].MeanThroughputBps, a.Flows[0].DroppedPkts, b.Flows[0].DroppedPkts
		}},
	} {
		c1, c2, d1, d2 := eng.run()
		t.Logf("%s: CUBIC %.2f Mb/s beside v1, %.2f beside v2; BBR drops %.0f (v1), %.0f (v2)", eng.name, c1/1e6, c2/1e6, d1, d2)
		if !(c2 > 3*c1) || math.IsNaN(c2) {
			t.Errorf("%s: CUBIC beside v2 %.2f Mb/s, beside v1 %.2f; want over three times", eng.name, c2/1e6, c1/1e6)
		}
		if !(d2 < d1/5) {
			t.Errorf("%s: BBR v2 drops %.0f packets, v1 %.0f; want under a fifth", eng.name, d2, d1)
		}
	}
}
