package meanfield

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// The example of Hollot, Misra, Towsley and Gong (INFOCOM 2001): N = 60 Reno flows,
// C = 3750 packets/s (15 Mb/s of 500-byte packets), propagation RTT Tp = 0.2 s, operating
// at q0 = 175 packets, so R0 = Tp + q0/C = 0.2467 s, W0 = R0·C/N = 15.4 packets and
// p0 = 2/W0² = 0.0084.
const (
	hmtgC  = 3750.0
	hmtgN  = 60.0
	hmtgTp = 0.2
	hmtgQ0 = 175.0
	hmtgK  = 0.005 // RED's averaging pole, 1/s
)

// hmtgRED is RED designed by the paper's rule for (N⁻, R⁺) = (60, R0): K = 0.005/s and
// L_red at the limit of L_red·(R0C)³/(2N)² ≤ sqrt(ω_g²/K² + 1), ω_g = 0.1·min(2N/(R0²C),
// 1/R0), with max_p = 0.1 and min_th placed so that the equilibrium is the paper's
// q0 = 175 packets.
func hmtgRED() *model.RED {
	r0 := hmtgTp + hmtgQ0/hmtgC
	wg := 0.1 * math.Min(2*hmtgN/(r0*r0*hmtgC), 1/r0)
	l := math.Sqrt(wg*wg/(hmtgK*hmtgK)+1) * 4 * hmtgN * hmtgN / math.Pow(r0*hmtgC, 3)
	p0 := 2 * hmtgN * hmtgN / math.Pow(r0*hmtgC, 2)
	minTh := hmtgQ0 - p0/l
	return &model.RED{MinThPkts: minTh, MaxThPkts: minTh + 0.1/l, MaxP: 0.1, Weight: -math.Expm1(-hmtgK / hmtgC)}
}

// hmtgNet is the example network.
func hmtgNet() *Network {
	return &Network{Links: []Link{{Name: "bottleneck", CapacityPktsPerS: hmtgC, RED: hmtgRED()}},
		Classes: []Class{{Name: "reno", Law: Reno(), Flows: hmtgN, PropRTTS: hmtgTp, Links: []int{0}}}}
}

// scaledHMTG is the example with k times the flows, the capacity and RED's thresholds,
// and RED's weight giving the same K = 0.005/s: the same windows, RTT and marking.
func scaledHMTG(k float64) *Network {
	n := hmtgNet()
	red := *n.Links[0].RED
	red.MinThPkts *= k
	red.MaxThPkts *= k
	n.Links[0].CapacityPktsPerS *= k
	red.Weight = -math.Expm1(-hmtgK / n.Links[0].CapacityPktsPerS)
	n.Links[0].RED = &red
	n.Classes[0].Flows *= k
	return n
}

// oneLink is Flows flows of law over a link of capacity c with random loss p and no
// queue management, propagation RTT rtt.
func oneLink(law Law, flows, c, p, rtt float64) *Network {
	return &Network{Links: []Link{{CapacityPktsPerS: c, LossP: p}},
		Classes: []Class{{Law: law, Flows: flows, PropRTTS: rtt, Links: []int{0}}}}
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

func mustLaw(t *testing.T, name string) Law {
	t.Helper()
	l, err := LawOf(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
