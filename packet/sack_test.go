package packet

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// renoDumbbell is TestRenoOverflowNS2's dumbbell (10 Mb/s bottleneck of delay d behind
// 20 Mb/s access links, one-BDP buffers) carrying one Reno flow for 600 s.
func renoDumbbell(t *testing.T, d float64) *model.Scenario {
	t.Helper()
	bdp := math.Ceil(10e6 * 2 * (0.020 + d) / (8 * 1460))
	s := &model.Scenario{
		Name: "reno-overflow", DurationS: 600,
		Links: []model.Link{
			{Name: "a", CapacityBps: 20e6, DelayS: 0.010, BufferPkts: 2 * bdp},
			{Name: "b", CapacityBps: 10e6, DelayS: d, BufferPkts: bdp},
			{Name: "c", CapacityBps: 20e6, DelayS: 0.010, BufferPkts: 2 * bdp},
		},
		Paths: []model.Path{{Name: "p", Links: []string{"a", "b", "c"}}},
		Flows: []model.Flow{{Algorithm: "reno", Path: "p", MSSBytes: 1420, HeaderBytes: 40, RwndBytes: 100000 * 1420, WindowScaling: true}},
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// Where a congestion-avoidance overflow drops two packets of one window and Reno without
// SACK waits for the timer (D = 96, 102 and 110 ms: 4, 6 and 3 timeouts, as in ns-2), a
// SACK sender repairs both in one fast recovery: no timeout after slow start, every loss
// event a halving, and the link stays busy.
func TestSACKRepairsOverflowWithoutTimeout(t *testing.T) {
	for _, d := range []float64{0.096, 0.102, 0.110} {
		t.Run(fmt.Sprint(d), func(t *testing.T) {
			s := renoDumbbell(t, d)
			plain, err := Run(context.Background(), s, Settings{})
			if err != nil {
				t.Fatal(err)
			}
			sack, err := Run(context.Background(), s, Settings{SACK: true})
			if err != nil {
				t.Fatal(err)
			}
			p, q := plain.Flows[0], sack.Flows[0]
			t.Logf("D = %.0f ms: without SACK %d timeouts in %d loss events, utilisation %.4f; with SACK %d in %d, %.4f",
				1e3*d, p.Timeouts, p.LossEvents, plain.Links[1].Utilisation, q.Timeouts, q.LossEvents, sack.Links[1].Utilisation)
			if p.Timeouts < 2 {
				t.Fatalf("without SACK %d timeouts, want the overflow timeouts of TestRenoOverflowNS2", p.Timeouts)
			}
			if q.Timeouts > 1 {
				t.Errorf("with SACK %d timeouts, want at most slow start's", q.Timeouts)
			}
			if sack.Links[1].Utilisation < plain.Links[1].Utilisation {
				t.Errorf("utilisation with SACK %.4f, without %.4f: want no lower", sack.Links[1].Utilisation, plain.Links[1].Utilisation)
			}
		})
	}
}

// Under random loss p = 1e-2 (W̄ ≈ 12 packets) a Reno sender without SACK times out in
// more than a tenth of its loss events (several losses in one window); with SACK only a
// lost retransmission does, one in 1/p: at most 5% of the loss events allows for the
// retransmissions of windows with several losses.
func TestSACKRandomLossFewTimeouts(t *testing.T) {
	s := oneLink(t, model.Link{CapacityBps: 100e6, DelayS: 0.05, BufferPkts: 1e6, Loss: model.LossRandom, LossP: 1e-2},
		model.Flow{Algorithm: "reno", WindowScaling: true}, 300)
	for _, sack := range []bool{false, true} {
		r, err := Run(context.Background(), s, Settings{Seed: 1, SACK: sack})
		if err != nil {
			t.Fatal(err)
		}
		f := r.Flows[0]
		frac := float64(f.Timeouts) / float64(f.LossEvents)
		t.Logf("SACK %v: %d timeouts in %d loss events, W̄ %.2f", sack, f.Timeouts, f.LossEvents, f.MeanCwndPkts)
		switch {
		case !sack && frac < 0.1:
			t.Errorf("without SACK %.1f%% of loss events time out, want more than 10%%", 100*frac)
		case sack && frac > 0.05:
			t.Errorf("with SACK %.1f%% of loss events time out, want at most 5%%", 100*frac)
		}
	}
}

// Sender jitter (Settings.JitterS) keeps each flow's packets in order: on an uncongested,
// lossless path with a jitter of 10 ms, a tenth of the RTT, nothing is lost, nothing is
// retransmitted and no duplicate ACK ever arrives; the RTT is measured from when a packet
// leaves the host, so the jitter is not in it.
func TestJitterKeepsOrder(t *testing.T) {
	s := oneLink(t, fastLink, model.Flow{Algorithm: "reno", WindowScaling: true, RwndBytes: 1e6}, 30)
	sm := mustSim(t, s, Settings{JitterS: 0.01})
	f := &sm.flows[0]
	ctx := context.Background()
	maxDup := 0
	for sm.q.len() > 0 && sm.q.heap[0].t <= sm.end {
		if err := sm.run(ctx, math.Inf(1), 1); err != nil {
			t.Fatal(err)
		}
		maxDup = max(maxDup, f.dupacks)
	}
	if f.lossEvents != 0 || f.sent != f.maxSent || maxDup != 0 {
		t.Errorf("%d loss events, %d sent for %d sequence numbers, up to %d duplicate ACKs: want none, equal, none", f.lossEvents, f.sent, f.maxSent, maxDup)
	}
	if relErr(f.baseRTT, f.priorRTT) > 1e-9 {
		t.Errorf("base RTT %v s, want the path's %v s", f.baseRTT, f.priorRTT)
	}
}

func TestJitterSettings(t *testing.T) {
	s := oneLink(t, fastLink, model.Flow{Algorithm: "reno"}, 1)
	for _, j := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := Run(context.Background(), s, Settings{JitterS: j}); err == nil {
			t.Errorf("JitterS %v accepted", j)
		}
	}
	// A scenario's send_jitter applies where the settings give none, and yields to theirs.
	s.SendJitterS = 0.002
	for _, c := range []struct{ set, want float64 }{{0, 0.002}, {0.005, 0.005}} {
		if sm := mustSim(t, s, Settings{JitterS: c.set}); sm.set.JitterS != c.want || sm.jitter == nil {
			t.Errorf("settings' JitterS %v with send_jitter 2 ms: %v s, want %v s", c.set, sm.set.JitterS, c.want)
		}
	}
}
