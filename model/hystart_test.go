package model_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// ackSlowStart sends ACKs of one packet each, gap seconds apart, with the RTT rtt(k) of
// ACK k, until slow start ends or n ACKs; it returns the window then and the ACKs taken.
func ackSlowStart(t *testing.T, e model.EventLaw, gap float64, rtt func(k int) float64, n int) (float64, int) {
	t.Helper()
	for k := range n {
		before := e.Cwnd()
		e.OnAck(1, model.Observation{Now: float64(k) * gap, RTT: rtt(k), BaseRTT: 0.1})
		if e.Cwnd() < before+1 {
			return before, k
		}
	}
	return e.Cwnd(), n
}

// HyStart's ACK train: ACKs 0.1 ms apart make a round of W packets last W·0.1 ms, which
// outlasts the least RTT, 100 ms, in the round that begins at 1024 packets, after 1000 of
// its ACKs: slow start ends at 2024 packets with ssthresh there. Plain CUBIC (RFC 9438)
// keeps doubling.
func TestHystartAckTrain(t *testing.T) {
	flat := func(int) float64 { return 0.1 }
	cfg := model.FlowConfig{InitialCwnd: 16, MSSBytes: 1460}
	ns3, err := model.New("cubic@ns3")
	if err != nil {
		t.Fatal(err)
	}
	e := ns3.NewEvent(cfg)
	w, _ := ackSlowStart(t, e, 1e-4, flat, 1e5)
	if math.Abs(w-2024) > 1 || e.Ssthresh() != w {
		t.Errorf("cubic@ns3 left slow start at %v packets, ssthresh %v; want 2024 ± 1, ssthresh there", w, e.Ssthresh())
	}
	rfc, err := model.New("cubic")
	if err != nil {
		t.Fatal(err)
	}
	if w, k := ackSlowStart(t, rfc.NewEvent(cfg), 1e-4, flat, 1e5); k != 1e5 {
		t.Errorf("cubic without HyStart left slow start at %v packets after %d ACKs", w, k)
	}
}

// HyStart's delay test on ns-3's smoothed RTT (α = 1/8 a sample): ACKs 3 ms apart never
// make a train. The samples rise from 100 to 250 ms at ACK 200; the fifth round (16, 32,
// 64, 128 packets) begins at ACK 240, where the smoothed RTT is within 1 ms of 250 and the
// least of its first eight exceeds the least (100 ms) by more than the least itself: slow
// start ends at its ninth ACK. A timeout forgets the exit and the least RTT, and the slow
// start after it finds its own.
func TestHystartDelay(t *testing.T) {
	a, err := model.New("cubic@ns3")
	if err != nil {
		t.Fatal(err)
	}
	e := a.NewEvent(model.FlowConfig{InitialCwnd: 16, MSSBytes: 1460})
	step := func(at int) func(k int) float64 {
		return func(k int) float64 {
			if k >= at {
				return 0.25
			}
			return 0.1
		}
	}
	w, k := ackSlowStart(t, e, 3e-3, step(200), 1e4)
	if k != 240+8 || w != 16+248 {
		t.Errorf("left slow start at ACK %d with %v packets, want ACK 248 with 264", k, w)
	}
	e.OnTimeout(model.Observation{Now: 10, RTT: 0.25, BaseRTT: 0.1})
	if want := 0.7 * 264; e.Cwnd() != 1 || math.Abs(e.Ssthresh()-want) > 0.1 { // the exit ACK added 1/CntClamp
		t.Fatalf("timeout left %v packets and ssthresh %v, want 1 and β·264 = %v", e.Cwnd(), e.Ssthresh(), want)
	}
	// From one packet, rounds of 1, 2, …, 64, 128 packets begin at ACKs 0, 1, 3, …, 63,
	// 127. The samples rise at ACK 60, three before the round of 64: the raw samples of its
	// first eight ACKs are all 250 ms (a test on them ends slow start at ACK 71), but the
	// smoothed RTT has come only 1 − (7/8)⁴ of the way, to 162 ms, short of twice the least
	// (100.05 ms). The round of 128 finds it at its ninth ACK, 136 packets, short of ssthresh.
	w, k = ackSlowStart(t, e, 3e-3, step(60), 1e4)
	if k != 127+8 || w != 136 {
		t.Errorf("after the timeout: left slow start at ACK %d with %v packets, want ACK 135 with 136", k, w)
	}
}

// Before any loss CUBIC's curve has no plateau and barely moves; ns-3.37 clamps its ACK
// count to CntClamp 20 (at least 5% a round) and Linux 2.6.2x sets it to 50 (2% a
// round, where the Reno-friendly estimate makes 1). A timeout forgets W_max
// in both, so the clamp holds again afterwards, and sets ssthresh to β·W as a loss does.
func TestCubicClampAndTimeoutReset(t *testing.T) {
	const rtt = 0.1
	for _, c := range []struct {
		algo          string
		grown         float64 // packets after one round of 100 ACKs from 100 in congestion avoidance
		afterTimeout  float64 // ssthresh after a loss at 100 and a timeout at the window left
		grownAfterRTO float64 // packets one round after slow start reaches that ssthresh
		through       bool    // slow start runs through ssthresh (ss_through)
	}{
		{"cubic", 1, 0.7 * 100 / 2, 0, false}, // RFC 9438: W_est, 1 a round below cwnd_prior
		{"cubic@ns3", 5, 0.7 * 0.7 * 100, 0.05 * 0.49 * 100, false},
		// Linux's u32 ssthresh: ⌊⌊100·819/1024⌋·819/1024⌋ = ⌊79·0.7998⌋ = 63.
		{"cubic@linux", 2, 63, 0.02 * 0.64 * 100, true},
	} {
		a, err := model.New(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		at := func(s float64) model.Observation { return model.Observation{Now: s, RTT: rtt, BaseRTT: rtt} }
		round := func(e model.EventLaw, from float64) float64 {
			w0 := e.Cwnd()
			n := int(math.Round(w0))
			for k := range n {
				e.OnAck(1, at(from+rtt*float64(k)/float64(n)))
			}
			return e.Cwnd() - w0
		}
		e := a.NewEvent(model.FlowConfig{InitialCwnd: 100, InitialSsthresh: 100, MSSBytes: 1460})
		if g := round(e, 0); math.Abs(g-c.grown) > 0.1 {
			t.Errorf("%s: one round before any loss grows %.3f packets, want %v", c.algo, g, c.grown)
		}
		e = a.NewEvent(model.FlowConfig{InitialCwnd: 100, InitialSsthresh: 100, MSSBytes: 1460})
		e.OnLoss(at(0))
		e.OnTimeout(at(1))
		if s := e.Ssthresh(); math.Abs(s-c.afterTimeout) > 1e-9 {
			t.Errorf("%s: ssthresh after the timeout %v, want %v", c.algo, s, c.afterTimeout)
		}
		for e.Cwnd() < e.Ssthresh() || (c.through && e.Cwnd() <= e.Ssthresh()) {
			e.OnAck(1, at(2))
		}
		if g := round(e, 3); c.grownAfterRTO > 0 && math.Abs(g-c.grownAfterRTO) > 0.15 {
			t.Errorf("%s: one round after the timeout's slow start grows %.3f packets, want %.3f", c.algo, g, c.grownAfterRTO)
		}
	}
}
