package fluid_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// Reno's first slow start on seed 000's path, held at a receiver window of 3.5 BDP, loses
// 3081 of its 7191 packets in flight, and its NewReno recovery times out. Going back N
// from the first hole, each round trip resends W packets of which a fraction h are holes,
// and only a hole's ACK is new: ns-2's sender adds one packet per new ACK, so slow start
// grows by 1 + h + (1 − h)/W ≈ 1 + h a round instead of 2, with h the holes' density where
// it resends (holeprofile.go). The overflow took every other packet it sent, two a served
// one, from the first hole on: h = 1/2 over the span's first eight tenths (the packet
// engine's span at its timeout, 0.50 in each), a quarter in the ninth and none in the last,
// where the mean over the window, 0.43, is what the rebuild grew by before 2026-12-07. Once
// the span is resent, congestion avoidance grows by a packet a round again. The
// tolerances: 3% on the factor, which the (1 − h)/W term moves by at most 0.6% over
// windows of 100 and more; 5% on the slope, a window of 1800 growing in whole round trips.
// ns-2's and the packet engine's go-back-N over alternate holes grows a little slower than
// the recurrence, 1.44 a round trip here (rounds of 1, 2, 3, 5, 8, 13, 20, 30, 46 packets).
func TestFluidGoBackNAfterTimeout(t *testing.T) {
	const rtt = 0.24
	res, timeout := goBackNRun(t, 16)
	const h = 0.5
	var from, to model.Sample
	for _, s := range res.Trace {
		if s.Link != "" || s.TS <= timeout {
			continue
		}
		if from.TS == 0 && s.CwndPkts >= 100 {
			from = s
		}
		if s.CwndPkts <= 1000 {
			to = s
		}
	}
	factor := math.Exp(math.Log(to.CwndPkts/from.CwndPkts) * rtt / (to.TS - from.TS))
	t.Logf("h = %.3f: slow start after the timeout grows by %.3f a round trip (1 + h = %.3f)", h, factor, 1+h)
	if math.Abs(factor/(1+h)-1) > 0.03 {
		t.Errorf("slow start after the timeout grows by %.3f a round trip, want 1 + h = %.3f ± 3%%", factor, 1+h)
	}
	w := func(ts float64) float64 {
		for _, s := range res.Trace {
			if s.Link == "" && s.TS >= ts {
				return s.CwndPkts
			}
		}
		return math.NaN()
	}
	slope := (w(15) - w(13)) / 2 * rtt
	t.Logf("congestion avoidance from 13 to 15 s: %.3f packets a round trip", slope)
	if math.Abs(slope-1) > 0.05 {
		t.Errorf("congestion avoidance from 13 to 15 s grows by %.3f packets a round trip, want 1 ± 5%% once the span is resent", slope)
	}
}

// The rebuild's first round trips, on the same path: the timeout resends the first hole,
// and each new ACK releases one packet more than it acknowledges, so the new ACKs grow by
// 1 + h a round from one and the window after r rounds is 1 + ((1 + h)^r − 1)/h — 2,
// 3.5, 5.75, 9.1 at h = 1/2 (where the rebuild resends: TestFluidGoBackNAfterTimeout), where
// doubling would give 2, 4, 8, 16. The tolerance, 3%, is the trace's 10 ms sampling of a
// window growing by ln(1 + h) a round trip.
func TestFluidGoBackNRounds(t *testing.T) {
	const rtt = 0.24
	res, timeout := goBackNRun(t, 8)
	const h = 0.5
	for r := 1; r <= 6; r++ {
		var got float64
		for _, s := range res.Trace {
			if s.Link == "" && s.TS >= timeout+float64(r)*rtt {
				got = s.CwndPkts
				break
			}
		}
		want := 1 + (math.Pow(1+h, float64(r))-1)/h
		if math.Abs(got/want-1) > 0.03 {
			t.Errorf("%d round trips after the timeout: window %.2f packets, want 1 + ((1 + h)^r − 1)/h = %.2f ± 3%% (h = %.3f)", r, got, want, h)
		}
	}
}

// goBackNRun runs the overshoot of the go-back-N tests for durationS seconds, traced every
// 10 ms: the result and when the timer fired, s.
func goBackNRun(t *testing.T, durationS float64) (res *model.Result, timeout float64) {
	t.Helper()
	sc := seed000Path(model.Flow{Algorithm: "reno", MSSBytes: 1460, RwndBytes: 10.5e6, WindowScaling: true}, 1, durationS)
	res = runFluid(t, sc, fluid.Settings{Form: fluid.FormHybridRecovery, SampleS: 0.01, RecordLosses: true})
	if len(res.Losses) != 2 || res.Flows[0].Timeouts != 1 {
		t.Fatalf("test premise: %d loss events, %d timeouts, want the overflow and its timeout", len(res.Losses), res.Flows[0].Timeouts)
	}
	return res, res.Losses[1].TS
}

// The go-back-N rebuild resends the span to a receiver that holds all but its holes: of
// what it sends a fraction 1 − h is copies, delivered and no goodput. On goBackNRun's
// overshoot (16 s), where Reno's recovery times out, the packet engine counts each
// packet's first copy; the fluid's copies
// (delivered less goodput) must be within 10% of the packet sender's, for the engines'
// fractions 1 − h and resent spans together, and its goodput within 10%, validate's bound
// on a throughput.
func TestFluidGoBackNGoodput(t *testing.T) {
	for _, c := range []struct {
		algo     string
		timeouts int
	}{{"reno", 1}, {"newreno", 1}} {
		sc := seed000Path(model.Flow{Algorithm: c.algo, MSSBytes: 1460, RwndBytes: 10.5e6, WindowScaling: true}, 1, 16)
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		res := runFluid(t, sc, fluid.Settings{Form: fluid.FormHybridRecovery})
		pk, err := packet.Run(context.Background(), sc, packet.Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		fl, p := res.Flows[0], pk.Flows[0]
		copies := func(f model.FlowResult) float64 { return (f.MeanThroughputBps - f.GoodputBps) * f.ActiveS / (1460 * 8) }
		if p.Timeouts != c.timeouts || fl.Timeouts != c.timeouts || copies(p) < 1000 {
			t.Fatalf("%s: test premise: the senders timed out %d (packet) and %d (fluid) times and the packet one resent %.0f copies; want %d and 1000 copies or more",
				c.algo, p.Timeouts, fl.Timeouts, copies(p), c.timeouts)
		}
		if math.Abs(copies(fl)/copies(p)-1) > 0.1 {
			t.Errorf("%s: %.0f copies delivered, the packet engine's %.0f: want within 10%%", c.algo, copies(fl), copies(p))
		}
		if math.Abs(fl.GoodputBps/p.GoodputBps-1) > 0.1 {
			t.Errorf("%s: goodput %.4g bit/s, the packet engine's %.4g: want within 10%%", c.algo, fl.GoodputBps, p.GoodputBps)
		}
	}
}
