package packet

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// meanWindow runs one Reno-family flow alone on fastLink (no queue: RTT 0.1 s) with the
// given loss process, discards warmCycles loss cycles of start-up, and returns the
// time-average cwnd over the next cycles loss cycles with the half-width of its 95%
// confidence interval from 20 batch means (Student t, 19 degrees of freedom). A cycle is
// (1/p)/ref round trips, ref the expected mean window.
func meanWindow(t *testing.T, algo string, loss model.LossModel, p, ref, warmCycles, cycles float64, seed uint64) (mean, ci float64, f *tcpFlow) {
	t.Helper()
	cycle := 0.1 / (p * ref)
	warm, dur := warmCycles*cycle, (warmCycles+cycles)*cycle
	link := fastLink
	link.Loss, link.LossP = loss, p
	sm := mustSim(t, oneLink(t, link, model.Flow{Algorithm: algo, WindowScaling: true}, dur), Settings{Seed: seed})
	advance(t, sm, warm)
	const batches = 20
	means := make([]float64, batches)
	prev, width := cwndIntegral(sm, 0, warm), (dur-warm)/batches
	for b := range means {
		end := warm + float64(b+1)*width
		advance(t, sm, end)
		c := cwndIntegral(sm, 0, end)
		means[b], prev = (c-prev)/width, c
	}
	m, sd := stat.MeanStdDev(means, nil)
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: batches - 1}.Quantile(0.975)
	return m, tq * sd / math.Sqrt(batches), &sm.flows[0]
}

// Periodic loss, one packet in 1/p (Mathis et al. 1997): the Reno sawtooth between W/2 and
// W carries 3W²/8 = 1/p packets, so its time-average window is sqrt(3/(2p)). The model
// halves the window at the loss and grows it at once; a real sender spends one round trip
// in fast recovery at W/2 first, which costs about 0.6·p·W̄ of the mean (the sawtooth with
// that round added), 0.8% at p = 1e-4: the test takes p = 1e-4 and the ±3% of the
// comparison. The process is deterministic, so 40 cycles after 10 of start-up suffice.
func TestPeriodicLossMathis(t *testing.T) {
	const p = 1e-4
	ref := math.Sqrt(3 / (2 * p))
	m, ci, f := meanWindow(t, "reno", model.LossPeriodic, p, ref, 10, 40, 1)
	t.Logf("p = %g: mean cwnd %.3f ± %.3f packets, sqrt(3/(2p)) = %.3f, ratio %.4f, %d loss events, %d timeouts", p, m, ci, ref, m/ref, f.lossEvents, f.timeouts)
	if e := relErr(m, ref); e > 0.03 {
		t.Errorf("mean cwnd %.3f packets, want sqrt(3/(2p)) = %.3f ± 3%% (error %.2f%%)", m, ref, 100*e)
	}
}

// Random (Bernoulli) loss: Mathis et al. 1997 give W̄ = 1.31/sqrt(p) for ideal congestion
// avoidance with an ACK per packet, the small-p limit that halves the window instantly and
// never times out. Runs: 1000 loss cycles after 20 of start-up, seed 1 (p = 1e-3: 2462 s
// simulated; p = 1e-2: 779 s).
//
// NewReno, which recovers several losses in a window without a timeout, must agree with
// the limit within the 95% confidence interval at p = 1e-3. Reno must stay below it (each
// fast recovery spends a round trip at W/2, and windows with two losses end in a timeout),
// and fall further below at p = 1e-2, where W̄ is 13 packets and both effects are larger.
func TestRandomLossMathis(t *testing.T) {
	ratio := map[float64]float64{}
	for _, p := range []float64{1e-3, 1e-2} {
		ref := 1.31 / math.Sqrt(p)
		m, ci, f := meanWindow(t, "reno", model.LossRandom, p, ref, 20, 1000, 1)
		ratio[p] = m / ref
		t.Logf("reno p = %g: mean cwnd %.2f ± %.2f packets (95%%), 1.31/sqrt(p) = %.2f, ratio %.3f, %d loss events, %d timeouts",
			p, m, ci, ref, m/ref, f.lossEvents, f.timeouts)
		if m-ci > ref {
			t.Errorf("reno p = %g: mean cwnd %.2f ± %.2f packets, want at most the ideal 1.31/sqrt(p) = %.2f", p, m, ci, ref)
		}
	}
	if ratio[1e-2] >= ratio[1e-3] {
		t.Errorf("reno: W̄·sqrt(p)/1.31 = %.3f at p = 1e-2 and %.3f at 1e-3, want it to approach 1 as p falls", ratio[1e-2], ratio[1e-3])
	}
	const p = 1e-3
	ref := 1.31 / math.Sqrt(p)
	m, ci, f := meanWindow(t, "newreno", model.LossRandom, p, ref, 20, 1000, 1)
	t.Logf("newreno p = %g: mean cwnd %.2f ± %.2f packets (95%%), 1.31/sqrt(p) = %.2f, ratio %.3f, %d loss events, %d timeouts",
		p, m, ci, ref, m/ref, f.lossEvents, f.timeouts)
	if math.Abs(m-ref) > ci {
		t.Errorf("newreno p = %g: mean cwnd %.2f ± %.2f packets, want 1.31/sqrt(p) = %.2f within the confidence interval", p, m, ci, ref)
	}
}

// A link's random losses are the flow's, not the link queue's: on a link whose buffer never
// fills, the flow's dropped packets are its random losses and the link's drop count is 0,
// as in the fluid engine.
func TestRandomLossNotQueueDrop(t *testing.T) {
	link := fastLink
	link.Loss, link.LossP = model.LossRandom, 1e-3
	res, err := Run(context.Background(), oneLink(t, link, model.Flow{Algorithm: "reno", WindowScaling: true}, 100), Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	f, l := res.Flows[0], res.Links[0]
	if f.DroppedPkts == 0 || l.DroppedPkts != 0 {
		t.Errorf("flow dropped %v packets, link %v; want random losses for the flow and none for the link", f.DroppedPkts, l.DroppedPkts)
	}
}

// The same seed gives a byte-identical result and trace; another seed draws other random
// losses.
func TestDeterminism(t *testing.T) {
	link := model.Link{CapacityBps: 20e6, DelayS: 0.02, BufferBDP: 1, Loss: model.LossRandom, LossP: 1e-3}
	s := oneLink(t, link, model.Flow{Algorithm: "reno", WindowScaling: true}, 30)
	s.Flows = append(s.Flows, model.Flow{Algorithm: "cubic", Path: "p", StartS: 2, WindowScaling: true})
	s.CBR = []model.CBR{{Path: "p", RateBps: 2e6, StartS: 1, StopS: 20}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	dump := func(seed uint64) []byte {
		r, err := Run(context.Background(), s, Settings{Seed: seed, SampleS: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(struct {
			R *model.Result
			T []model.Sample
		}{r, r.Trace})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := dump(7), dump(7), dump(8)
	if !bytes.Equal(a, b) {
		t.Error("two runs with seed 7 differ")
	}
	if bytes.Equal(a, c) {
		t.Error("seeds 7 and 8 give identical runs, want different random losses")
	}
}

// RED's drop decision at a steady average queue, as ns-2's REDQueue makes it (wait_): each
// arrival is dropped with pa = pb/(2 − count·pb) once count·pb ≥ 1, count being the
// arrivals since the last drop, so the gaps between drops are uniform on ⌈1/pb⌉ … ⌈2/pb⌉ − 1;
// in the gentle region (max_th to 2·max_th) pb rises from max_p to 1 under the same count;
// above 2·max_th every arrival is dropped, below min_th none.
func TestREDDropFraction(t *testing.T) {
	cfg := model.RED{MinThPkts: 5, MaxThPkts: 15, MaxP: 0.1, Weight: 0.002}
	cases := []struct {
		avg, want float64
		gaps      float64 // variance of the gap between drops, for the tolerance
	}{
		{avg: 4, want: 0},
		{avg: 10, want: 1 / 29.5, gaps: (20*20 - 1) / 12.0}, // pb = 0.05: gaps 20 … 39
		{avg: 20, want: 1 / 3.5, gaps: 0.25},                // pb = 0.4: gaps 3 or 4, alike
		{avg: 31, want: 1},
	}
	const arrivals = 200000
	for _, c := range cases {
		sm := &sim{rng: rand.New(rand.NewPCG(3, 4))}
		// The average equals the queue, so it stays put; the link is busy, so no idle decay.
		l := &link{red: true, redCfg: cfg, redCnt: -1, busy: true, redAvg: c.avg}
		for range int(c.avg) {
			l.queue.push(pkt{})
		}
		drops := 0
		for range arrivals {
			if l.redDrop(sm, 0) {
				drops++
			}
		}
		got := float64(drops) / arrivals
		// A renewal process: the drop fraction's standard error is sd(gap)/mean(gap)^1.5/sqrt(n).
		tol := 1e-12
		if c.want > 0 && c.want < 1 {
			tol = 4 * math.Sqrt(c.gaps) * math.Pow(c.want, 1.5) / math.Sqrt(arrivals)
		}
		if math.Abs(got-c.want) > tol {
			t.Errorf("avg %v packets: drop fraction %.5f, want %.5f ± %.5f", c.avg, got, c.want, tol)
		}
	}
}
