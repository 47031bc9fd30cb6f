package model_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/reference"
	"github.com/tcpfluid/tcpfluid/response"
)

// Issue 13's response check: each implementation variant's mean window (linux: the Linux
// 2.6.2x module ns-2.35 TCP/Linux runs; ns3: ns-3.37's class) within 10% of the simulator
// at p = 1e-2 and 5% at p ≤ 1e-3 (ns-3: 10% everywhere), plus the two measurements' 95%
// CIs combined. Like is compared with like: the fluid runs in its hybrid-recovery form,
// which counts packets and recovers as the simulators' senders do (the textbook hybrid
// form grows through the recovery round trip and is not compared), at the loss rate the
// simulator's runs realized together (reference.PooledLossRate: ns-2's seed 1 lost
// 0.94–0.95·p at 1e-3, its seeds 2 and 3 0.97–0.99·p), against the mean of the stored
// runs (seeds 1–3 of ns-2 at 1e-2 to 1e-5, seed 1 with 60 loss events at 1e-6; seed 1 of
// ns-3 at 1e-2 to 1e-4, and at 1e-5, 60 loss events, where stored; Scalable's 30, after 10
// of warm-up: 1.9 hours of ns-3). cubic717 is CUBIC with ns-2's β = 717/1024.
func TestVariantsAgainstSimulators(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 75 fluid response points")
	}
	type point struct {
		name, sim string
		p, goal   float64
	}
	var cases []point
	for _, name := range []string{"reno", "highspeed", "scalable", "cubic", "cubic717", "bic", "htcp", "compound", "vegas"} {
		for _, p := range []float64{1e-2, 1e-3, 1e-4, 1e-5, 1e-6} {
			cases = append(cases, point{name, "ns2", p, map[bool]float64{true: 0.10, false: 0.05}[p == 1e-2]})
		}
	}
	for _, name := range []string{"reno", "newreno", "highspeed", "scalable", "cubic", "bic", "htcp", "vegas"} {
		for _, p := range []float64{1e-2, 1e-3, 1e-4} {
			cases = append(cases, point{name, "ns3", p, 0.10})
		}
	}
	// ns-3's runs at 1e-5 stored so far. Not vegas: on a path that never queues, ns-3's
	// TcpVegas holds the window its initial ssthresh gives it (4410 packets, from the
	// fluid's mean; 4426 ± 4.7 over 60 loss events, each of which removes one packet) — the
	// run measures its start, not an equilibrium.
	for _, name := range []string{"reno", "newreno", "highspeed", "scalable", "cubic", "bic", "htcp"} {
		cases = append(cases, point{name, "ns3", 1e-5, 0.10})
	}
	for _, c := range cases {
		set := map[string]string{reference.NS2: reference.SetLinux, reference.NS3: reference.SetNS3}[c.sim]
		algo, params := reference.TcpfluidAlgorithm(set, strings.TrimSuffix(c.name, "717")), map[string]float64(nil)
		if c.name == "cubic717" {
			params = map[string]float64{"beta": 717.0 / 1024}
		}
		t.Run(fmt.Sprintf("%s/%s/%g", c.name, c.sim, c.p), func(t *testing.T) {
			runs, err := reference.StoredRuns(filepath.Join("..", "testdata", "reference"), c.sim, c.name, c.p)
			if err != nil {
				t.Fatal(err)
			}
			ref := reference.SummarizeResponse(runs)
			got, gotCI := fluidMeanCwnd(t, algo, params, ref.LossRate, fluid.FormHybridRecovery)
			tol := c.goal*ref.MeanCwndPkts + math.Hypot(ref.CI95Pkts, gotCI)
			t.Logf("%s at %.4g (%s's %d runs): fluid %.4g ± %.2g, %s %.4g ± %.2g: %+.1f%%, tolerance ±%.3g packets",
				algo, ref.LossRate, c.sim, ref.Runs, got, gotCI, c.sim, ref.MeanCwndPkts, ref.CI95Pkts, 100*(got/ref.MeanCwndPkts-1), tol)
			if math.Abs(got-ref.MeanCwndPkts) > tol {
				t.Errorf("%s at p = %g (realized %.4g): fluid mean window %.4g packets, %s %.4g ± %.2g: off by %.3g, want within %.3g (%.0f%% + CIs)",
					algo, c.p, ref.LossRate, got, c.sim, ref.MeanCwndPkts, ref.CI95Pkts, got-ref.MeanCwndPkts, tol, 100*c.goal)
			}
		})
	}
}

// fluidMeanCwnd is the time-average window (packets) of one flow of algo at random loss
// rate p on the response path of the reference experiments (RTT 100 ms, 1460-byte
// packets), in the given fluid form, over whole loss cycles after a warm-up, with the 95%
// CI of 10 batch means as response.MeasurePoint computes it.
func fluidMeanCwnd(t *testing.T, algo string, params map[string]float64, p float64, form string) (mean, ci float64) {
	t.Helper()
	const (
		warmup, measured, batches = 200, 2000, 10
		rttS, mssBytes            = 0.1, 1460
		t975                      = 2.262 // Student t, 9 degrees of freedom
	)
	sc, err := response.PointScenario(algo, params, rttS, mssBytes)
	if err != nil {
		t.Fatal(err)
	}
	sc.Links[0].Loss, sc.Links[0].LossP = model.LossRandom, p
	sc.DurationS = (warmup + measured + 1) * rttS / p * 4
	res, err := fluid.Run(context.Background(), sc, fluid.Settings{Seed: 1, Form: form,
		StopAfterLosses: warmup + measured + 1, RecordLosses: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Losses) < warmup+measured+1 {
		t.Fatalf("%s at p = %g: %d loss events, want %d", algo, p, len(res.Losses), warmup+measured+1)
	}
	avg := func(i0, i1 int) float64 {
		a, b := res.Losses[i0], res.Losses[i1]
		return (b.CwndTimePktS - a.CwndTimePktS) / (b.TS - a.TS)
	}
	mean = avg(warmup, warmup+measured)
	var s, s2 float64
	for k := range batches {
		m := avg(warmup+k*measured/batches, warmup+(k+1)*measured/batches)
		s += m
		s2 += m * m
	}
	bm := s / batches
	return mean, t975 * math.Sqrt(math.Max(s2/batches-bm*bm, 0)*batches/(batches-1)/batches)
}

// TestWholePacketVariants: the packet counting of each implementation, in the event face.
// Linux tcp_scalable_cong_avoid adds a packet once its counter exceeds min(cwnd, 50)
// (⌊W⌋ + 1 ACKs below 50 packets, 51 above) and tcp_scalable_ssthresh leaves
// cwnd − cwnd>>3; ns-3.37 TcpScalable adds one per min(cwnd, 50) ACKs and GetSsThresh
// leaves ⌊7/8 · packets in flight⌋, the window less pipe_deficit 2. HighSpeed counts a
// (Appendix B) per ACK against cwnd in both; Linux's hstcp_ssthresh removes
// (cwnd·md) >> 8, ns-3's GetSsThresh leaves ⌊(1 − b)·pipe⌋.
func TestWholePacketVariants(t *testing.T) {
	cases := []struct {
		algo       string
		cwnd       float64 // packets, whole
		acks       int     // ACKs that add exactly one packet
		afterLoss  float64 // window a loss at cwnd leaves, packets
		lossCredit float64 // ACKs counted before that loss
	}{
		{"scalable@linux", 24, 25, 21, 0},  // 24 − 24>>3
		{"scalable@linux", 60, 51, 53, 0},  // 60 − 60>>3
		{"scalable@linux", 60, 51, 53, 30}, // the counter's progress is lost
		{"scalable@ns3", 24, 24, 19, 0},    // ⌊7/8·22⌋
		{"scalable@ns3", 60, 50, 50, 0},    // ⌊7/8·58⌋
		{"scalable@ns3", 60, 50, 50.6, 30}, // 30 of 50 ACKs counted on at 50: 0.6 packet
	}
	o := model.Observation{RTT: 0.1, BaseRTT: 0.1}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/W%g/credit%g", c.algo, c.cwnd, c.lossCredit), func(t *testing.T) {
			a, err := model.New(c.algo)
			if err != nil {
				t.Fatal(err)
			}
			cfg := model.FlowConfig{InitialCwnd: c.cwnd, InitialSsthresh: c.cwnd, MSSBytes: 1460}
			e := a.NewEvent(cfg)
			for i := range c.acks - 1 {
				e.OnAck(1, o)
				if w := e.Cwnd(); math.Floor(w+1e-9) != c.cwnd {
					t.Fatalf("after %d ACKs: window %v, want below %v until ACK %d", i+1, w, c.cwnd+1, c.acks)
				}
			}
			e.OnAck(1, o)
			if w := e.Cwnd(); math.Abs(w-(c.cwnd+1)) > 1e-9 && math.Floor(w+1e-9) != c.cwnd+1 {
				t.Errorf("after %d ACKs: window %v, want %v", c.acks, w, c.cwnd+1)
			}
			e = a.NewEvent(cfg)
			for range int(c.lossCredit) {
				e.OnAck(1, o)
			}
			e.OnLoss(o)
			if w := e.Cwnd(); math.Abs(w-c.afterLoss) > 1e-9 {
				t.Errorf("loss at %v after %v ACKs: window %v, want %v", c.cwnd, c.lossCredit, w, c.afterLoss)
			}
		})
	}
}

// ns-3.37 TcpScalable clears its ACK counter after every increase: an ACK of several
// segments (the one that ends a recovery) keeps only the whole packets they make up, where
// Linux's counter keeps the rest. At 60 packets, 30 ACKs counted and then one of 80
// segments: ⌊(30 + 80)/50⌋ = 2 packets and nothing left (ns-3), against 110/51 with the
// counter at 8 (Linux).
func TestScalableNS3ClearsCounter(t *testing.T) {
	o := model.Observation{RTT: 0.1, BaseRTT: 0.1}
	for _, c := range []struct {
		algo string
		want float64
	}{{"scalable@ns3", 62}, {"scalable@linux", 60 + 110.0/51}} {
		a, err := model.New(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		e := a.NewEvent(model.FlowConfig{InitialCwnd: 60, InitialSsthresh: 60, MSSBytes: 1460})
		for range 30 {
			e.OnAck(1, o)
		}
		e.OnAck(80, o)
		if w := e.Cwnd(); math.Abs(w-c.want) > 0.02 {
			t.Errorf("%s: window %.4f after 30 ACKs and one of 80 segments, want %.4f", c.algo, w, c.want)
		}
	}
}

// TestVegasVariantSteps: on a path without queueing, Linux 2.6.2x tcp_vegas_cong_avoid
// moves towards the window of the previous decision + 1 and so grows one packet per two
// RTTs; ns-3.37 TcpVegas grows one per RTT, raises ssthresh to ¾·cwnd at each decision,
// and answers a loss with max(min(ssthresh, cwnd − 1), 2).
func TestVegasVariantSteps(t *testing.T) {
	const rtt = 0.1 // s
	cases := []struct {
		algo   string
		rounds int
		grown  float64 // packets after rounds decisions from 20
		loss1  float64 // window after a loss there
		loss2  float64 // window after a second loss at once
	}{
		{"vegas", 10, 10, 15, 7.5},        // Reno halving
		{"vegas@linux", 10, 5, 12, 6},     // half the growth, Reno halving in whole packets
		{"vegas@ns3", 10, 10, 22.5, 21.5}, // ¾·30 floor, then one packet
		{"vegas@ns3", 1, 1, 20, 19},       // threshold 20 from slow start: one packet each
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.algo, c.rounds), func(t *testing.T) {
			a, err := model.New(c.algo)
			if err != nil {
				t.Fatal(err)
			}
			e := a.NewEvent(model.FlowConfig{InitialCwnd: 20, InitialSsthresh: 20, MSSBytes: 1460})
			// One ACK per decision: the decisions are a round trip apart.
			for k := range c.rounds {
				e.OnAck(0, model.Observation{Now: float64(k) * rtt, RTT: rtt, BaseRTT: rtt})
			}
			if got := e.Cwnd() - 20; got != c.grown {
				t.Errorf("after %d decisions: grown by %v packets, want %v", c.rounds, got, c.grown)
			}
			o := model.Observation{Now: float64(c.rounds) * rtt, RTT: rtt, BaseRTT: rtt}
			e.OnLoss(o)
			if w := e.Cwnd(); w != c.loss1 {
				t.Errorf("first loss: window %v, want %v", w, c.loss1)
			}
			e.OnLoss(o)
			if w := e.Cwnd(); w != c.loss2 {
				t.Errorf("second loss: window %v, want %v", w, c.loss2)
			}
		})
	}
}

// TestVegasRoundAfterRecovery: the ACK that ends a recovery comes long after the last
// decision was due, but ns-3's EnableVegas and Linux's vegas_enable start a fresh round on
// the return to the open state: that ACK decides nothing, and the next decision is a round
// trip later. Deciding at once would add a packet to every loss cycle, and under ns-3's
// ssthresh floor keep the threshold from ever stepping down. Linux's slow start runs
// while cwnd ≤ ssthresh (ss_through), so vegas@linux's first ACK after the recovery adds
// one packet, by slow start, not by a decision.
func TestVegasRoundAfterRecovery(t *testing.T) {
	const rtt = 0.1 // s
	for _, algo := range []string{"vegas", "vegas@linux", "vegas@ns3"} {
		a, err := model.New(algo)
		if err != nil {
			t.Fatal(err)
		}
		e := a.NewEvent(model.FlowConfig{InitialCwnd: 20, InitialSsthresh: 20, MSSBytes: 1460})
		at := func(s float64) model.Observation { return model.Observation{Now: s, RTT: rtt, BaseRTT: rtt} }
		e.OnAck(1, at(0))
		e.OnLoss(at(0.5 * rtt))
		left := e.Cwnd()
		if algo == "vegas@linux" {
			left++ // tcp_slow_start at cwnd = ssthresh
		}
		e.OnAck(1, at(3*rtt)) // recovery ends two round trips after the decision was due
		if w := e.Cwnd(); w != left {
			t.Errorf("%s: the ACK that ends recovery moves the window to %v, want %v", algo, w, left)
		}
		e.OnAck(1, at(3.9*rtt))
		if w := e.Cwnd(); w != left {
			t.Errorf("%s: a decision within the first round after recovery: %v to %v", algo, left, w)
		}
		e.OnAck(1, at(4*rtt))
		e.OnAck(1, at(6*rtt))
		if w := e.Cwnd(); w <= left {
			t.Errorf("%s: no growth two rounds after recovery: window %v, left %v", algo, w, left)
		}
	}
}

// TestCompoundLinuxIncrement: tcp_compound_cong_avoid grows dwnd once per RTT by
// (qroot(W³) >> 3) − 1 whole packets when that is positive; the paper by α·W^k − 1. A loss
// halves the total; the module's stale first update after it adds the increment at 1.5·W
// less the one at W/2, which the window grows by anyway.
func TestCompoundLinuxIncrement(t *testing.T) {
	for _, c := range []struct {
		algo       string
		cwnd, left float64 // packets
	}{
		{"compound", 120, 60},
		{"compound@linux", 120, 64}, // 60 + (180: 49 >> 3 = 6, − 1) − (60: 21 >> 3 = 2, − 1)
		{"compound@linux", 60, 32},  // 30 + (90: 29 >> 3 = 3, − 1) − (30: 12 >> 3 = 1, − 1)
	} {
		a, err := model.New(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		e := a.NewEvent(model.FlowConfig{InitialCwnd: c.cwnd, InitialSsthresh: c.cwnd, MSSBytes: 1460})
		e.OnLoss(model.Observation{RTT: 0.1, BaseRTT: 0.1})
		if w := e.Cwnd(); w != c.left {
			t.Errorf("%s: a loss at %v leaves %v packets, want %v", c.algo, c.cwnd, w, c.left)
		}
	}
	const rtt = 0.1 // s
	cases := []struct {
		algo string
		cwnd float64 // packets
		step float64 // delay window growth at the decision, packets
	}{
		{"compound", 60, 60.0/8*math.Pow(60, -0.25) - 1}, // α·W^k − 1 = 1.69
		{"compound@linux", 39, 0},                        // ⌊39^0.75⌋ = 15, >> 3 = 1
		{"compound@linux", 60, 1},                        // 21 >> 3 = 2
		{"compound@linux", 70, 2},                        // 24 >> 3 = 3
		{"compound@linux", 102, 3},                       // 32 >> 3 = 4
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/W%g", c.algo, c.cwnd), func(t *testing.T) {
			a, err := model.New(c.algo)
			if err != nil {
				t.Fatal(err)
			}
			e := a.NewEvent(model.FlowConfig{InitialCwnd: c.cwnd, InitialSsthresh: c.cwnd, MSSBytes: 1460})
			e.OnAck(1, model.Observation{RTT: rtt, BaseRTT: rtt})
			if got := e.Cwnd() - c.cwnd - 1/c.cwnd; math.Abs(got-c.step) > 1e-9 {
				t.Errorf("window %v: delay step %v packets, want %v", c.cwnd, got, c.step)
			}
		})
	}
}
