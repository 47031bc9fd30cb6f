package fluid

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// The fluid's RED intensity is the drop rate of ns-2's count process (packet/link.go's
// redDrop with wait_): at a steady average, arrival by arrival, no drop while count·pb < 1,
// then pb/(2 − count·pb), so over 10^6 arrivals the drops per arrival match redDropProb.
// The gaps between drops are bounded by 2/pb, so the count's standard deviation over 10^6
// arrivals is at most 0.5% of it (at avg 5.2, the longest gaps); 1% holds it.
func TestREDIntensityIsCountProcess(t *testing.T) {
	r := model.RED{MinThPkts: 5, MaxThPkts: 15, MaxP: 0.1}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, avg := range []float64{5.2, 6, 10, 14.9, 15, 20, 29} {
		pb := r.MaxP * (avg - r.MinThPkts) / (r.MaxThPkts - r.MinThPkts)
		if avg >= r.MaxThPkts {
			pb = r.MaxP + (1-r.MaxP)*(avg-r.MaxThPkts)/r.MaxThPkts
		}
		const n = 1_000_000
		drops, count := 0, 0
		for range n {
			count++
			pa := 1.0
			switch c := float64(count) * pb; {
			case c < 1:
				pa = 0
			case c < 2:
				pa = pb / (2 - c)
			}
			if rng.Float64() <= pa {
				drops, count = drops+1, 0
			}
		}
		got, want := float64(drops)/n, redDropProb(r, avg)
		if math.Abs(got/want-1) > 0.01 {
			t.Errorf("avg %g (pb %.4g): count process drops %.5g per arrival, redDropProb %.5g", avg, pb, got, want)
		}
	}
	if p := redDropProb(r, 30); p != 1 {
		t.Errorf("at twice max_th every arrival is dropped: %v", p)
	}
	if p := redDropProb(r, 4.9); p != 0 {
		t.Errorf("below min_th nothing is dropped: %v", p)
	}
}

// RED drops a packet as it arrives, before the queue (ns-2's RED, the packet engine's):
// a constant source of 1.5 times a RED link's capacity settles where RED takes a third of
// its packets, redDropProb(q) = 1/3, with the queue (and RED's average) at that q, between
// max_th and twice it. Dropped after the queue, RED would leave the arrivals whole and the
// queue would fill the 200-packet buffer (the packet engine's mean queue: 21.09 packets).
func TestREDDropsBeforeTheQueue(t *testing.T) {
	sc := &model.Scenario{
		Name: "red-overload", DurationS: 30,
		Links: []model.Link{{Name: "red", CapacityBps: 10e6, DelayS: 0.01, BufferPkts: 200, Queue: model.QueueRED}},
		Paths: []model.Path{{Name: "p", Links: []string{"red"}}},
		CBR:   []model.CBR{{Name: "udp", Path: "p", RateBps: 15e6, PacketBytes: 1000}},
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), sc, Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := sc.Links[0].RED
	lo, hi := r.MaxThPkts, 2*r.MaxThPkts
	for range 60 { // bisection: redDropProb rises with the average
		if mid := (lo + hi) / 2; redDropProb(r, mid) < 1.0/3 {
			lo = mid
		} else {
			hi = mid
		}
	}
	want := (lo + hi) / 2
	if got := res.Links[0].MeanQueuePkts; math.Abs(got/want-1) > 0.05 {
		t.Errorf("mean queue %.2f packets, want %.2f (redDropProb 1/3) within 5%%", got, want)
	}
	if u := res.Links[0].Utilisation; u < 0.99 {
		t.Errorf("utilisation %.4f, want the link busy", u)
	}
	// What RED takes of the CBR source is the link's: 5 Mb/s of 1000-byte packets for
	// 30 s less the queue it settles at (the packet engine: 18,731).
	if got, want := res.Links[0].DroppedPkts, 5e6*30/8000-want; math.Abs(got/want-1) > 0.01 {
		t.Errorf("the link dropped %.0f packets, want %.0f within 1%%", got, want)
	}
}
