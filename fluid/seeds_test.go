package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// Seed 002: after the 70–90 s disconnection the route-change-aware sender resumes at
// min(window before the outage, ssthresh) while Reno and NewReno restart from one packet,
// and the proposal has delivered more by 120 s.
func TestSeed002RouteAware(t *testing.T) {
	sc, err := model.Builtin("seed002-mesh")
	if err != nil {
		t.Fatal(err)
	}
	res := runFluid(t, sc, fluid.Settings{SampleS: 0.01})
	byName := map[string]model.FlowResult{}
	for _, f := range res.Flows {
		byName[f.Name] = f
	}
	at := func(flow int, ts float64) model.Sample {
		for _, s := range res.Trace {
			if s.Flow == flow && math.Abs(s.TS-ts) < 1e-9 {
				return s
			}
		}
		t.Fatalf("no sample of flow %d at %g s", flow, ts)
		return model.Sample{}
	}
	for i, f := range sc.Flows {
		// The sample at 70 s is taken before the link fails; 10 ms after reconnection a
		// window has grown by under half a packet in congestion avoidance (RTT >= 20 ms),
		// and by at most ×1.5 in slow start.
		before, after := at(i, 70), at(i, 90.01)
		if f.RouteAware {
			want := math.Min(before.CwndPkts, after.Ssthresh)
			if after.CwndPkts < want || after.CwndPkts > want+0.5 {
				t.Errorf("%s: cwnd %.2f just after reconnection, want min(%.2f, ssthresh %.2f)", f.Name, after.CwndPkts, before.CwndPkts, after.Ssthresh)
			}
		} else if after.CwndPkts > 1.5 {
			t.Errorf("%s: cwnd %.2f just after reconnection, want slow start from 1", f.Name, after.CwndPkts)
		}
	}
	aware := byName["route-aware"].DeliveredPkts
	for _, name := range []string{"reno", "newreno"} {
		if aware <= byName[name].DeliveredPkts {
			t.Errorf("route-aware delivered %.0f packets by 120 s, %s %.0f: want more", aware, name, byName[name].DeliveredPkts)
		}
	}
}

// Seed 000: under random loss 1e-5 on an otherwise uncongested path COLO keeps its
// throughput within 10% of the 100 Mb/s capacity while Reno falls well below it (Reno's
// response function gives W ≈ 1.31/√p = 414 packets, 20 Mb/s at 240 ms).
func TestSeed000RandomLoss(t *testing.T) {
	sc, err := model.Builtin("seed000-colo-random-loss")
	if err != nil {
		t.Fatal(err)
	}
	res := runFluid(t, sc, fluid.Settings{Seed: 1})
	for _, f := range res.Flows {
		t.Logf("%s: %.2f Mb/s, %d loss events", f.Name, f.GoodputBps/1e6, f.LossEvents)
		switch f.Name {
		case "colo":
			if f.GoodputBps < 0.9*100e6 {
				t.Errorf("COLO: %.4g bit/s, want within 10%% of 100 Mb/s", f.GoodputBps)
			}
		case "reno":
			if f.GoodputBps > 0.5*100e6 {
				t.Errorf("Reno: %.4g bit/s, want well below capacity", f.GoodputBps)
			}
		}
	}
}

// Seed 000's slow-start experiment: COLO's concave slow start overshoots less than
// standard slow start and drops fewer packets.
func TestSeed000SlowStart(t *testing.T) {
	sc, err := model.Builtin("seed000-slow-start")
	if err != nil {
		t.Fatal(err)
	}
	res := runFluid(t, sc, fluid.Settings{})
	colo, reno := res.Flows[0], res.Flows[1]
	if colo.DroppedPkts >= reno.DroppedPkts {
		t.Errorf("slow-start drops: COLO %.0f, Reno %.0f; want fewer for COLO", colo.DroppedPkts, reno.DroppedPkts)
	}
}
