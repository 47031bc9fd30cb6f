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
