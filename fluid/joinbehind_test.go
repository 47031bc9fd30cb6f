package fluid_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// hsJoin is the start of ns-2's `same` HighSpeed run (tcpfluid fairness --mode same
// --algo highspeed@linux --header 50B --sack --jitter 240us): seed 000's dumbbell, its
// first two flows, the second joining at 10 s behind the first's standing queue, for 19 s.
func hsJoin() *model.Scenario {
	link := func(name string, bps, delay, buf float64) model.Link {
		return model.Link{Name: name, CapacityBps: bps, DelayS: delay, BufferPkts: buf}
	}
	sc := &model.Scenario{
		Name: "highspeed-join", DurationS: 19, DropRule: model.DropRandom, SACK: true, SendJitterS: 240e-6,
		Links: []model.Link{link("a0", 200e6, 0.01, 4110), link("a1", 200e6, 0.01, 4110),
			link("bottleneck", 100e6, 0.1, 2055), link("out", 200e6, 0.01, 4110)},
	}
	for i, start := range []float64{0, 10} {
		path := fmt.Sprintf("p%d", i)
		sc.Paths = append(sc.Paths, model.Path{Name: path, Links: []string{fmt.Sprintf("a%d", i), "bottleneck", "out"}})
		sc.Flows = append(sc.Flows, model.Flow{Name: fmt.Sprintf("f%d", i), Algorithm: "highspeed@linux", Path: path,
			MSSBytes: 1460, HeaderBytes: 50, RwndBytes: 1 << 30, WindowScaling: true, InitialCwnd: 1, StartS: start})
	}
	return sc
}

// A flow joining behind another's standing queue, with ns-2's delayed send, slow-starts
// 5/3 times a round, finds its loss where the packet engine's does, and times out once
// its recovery is over: the first flow's slow start back after its own recovery refills
// the queue the recoveries drained within a round trip, faster than the joining flow's
// timer follows. Each flow's mean window is within validate's 10% of the packet engine's
// (means over seeds 1–4), with the same loss events and timeouts in every seed. The fluid
// had counted the delayed send's unheard ACKs as sends (the joining flow's window 97%
// high, its loss found at 1054 packets against 693) and refilled the queue at W/RTT over
// 0.85 s, and the flow never timed out.
func TestJoiningFlowTimesOutAsPacketsDo(t *testing.T) {
	const seeds = 4
	var fluidW, pktW [2]float64
	for seed := uint64(1); seed <= seeds; seed++ {
		sc := hsJoin()
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		fl, pk := runCountedSeed(t, sc, 1, seed), runPacketSeed(t, sc, 1, seed)
		for i := range 2 {
			f, p := fl.Flows[i], pk.Flows[i]
			if f.LossEvents != p.LossEvents || f.Timeouts != p.Timeouts || f.Timeouts != i {
				t.Errorf("seed %d flow %d: fluid %d loss events, %d timeouts; packet %d, %d; want equal, %d timeouts",
					seed, i, f.LossEvents, f.Timeouts, p.LossEvents, p.Timeouts, i)
			}
			fluidW[i] += f.MeanCwndPkts / seeds
			pktW[i] += p.MeanCwndPkts / seeds
		}
	}
	for i := range 2 {
		rel := fluidW[i]/pktW[i] - 1
		t.Logf("flow %d: mean window fluid %.1f, packet %.1f packets (%+.1f%%)", i, fluidW[i], pktW[i], 100*rel)
		if math.Abs(rel) > 0.10 {
			t.Errorf("flow %d: mean window fluid %.1f, packet %.1f packets: %+.1f%%, want within 10%%", i, fluidW[i], pktW[i], 100*rel)
		}
	}
}
