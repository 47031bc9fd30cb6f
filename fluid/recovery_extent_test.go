package fluid_test

import (
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// A SACK recovery lasts until the cumulative ACK passes its recovery point, which waits for
// the retransmission of the last hole found in the data sent before it began: a round trip
// after that hole; a packet sent during the recovery and lost is found after it and starts
// the next recovery where it ends. With losses at rate λ a second and round trip τ, the last
// of the first round trip's losses falls X after the first, E[X] = τ − (1 − e^(−λτ))/λ, and
// the next loss event comes at the recovery's end if a loss fell in its last X, else 1/λ
// later: E[e^(−λX)] = e^(−λτ)(1 + λτ), so events come 2τ + (e^(−λτ)(2 + λτ) − 1)/λ apart,
// not τ + 1/λ. BBR, which keeps its rate under loss, over 1% random loss on 100 Mb/s and
// 40 ms (λτ ≈ 3.5): the events are 74 ms apart, where one round trip of merging made them
// 54 ms apart. The tolerance, 5%, is the spread of τ with the queue (its mean is 2 ms of 42).
func TestFluidRecoveryLastsToItsLastHole(t *testing.T) {
	sc := &model.Scenario{
		Name: "bbr-random-loss", DurationS: 30, SACK: true, LostRetransmit: true,
		Links: []model.Link{{Name: "l", CapacityBps: 100e6, DelayS: 0.02, BufferBDP: 1, Loss: model.LossRandom, LossP: 0.01}},
		Paths: []model.Path{{Name: "p", Links: []string{"l"}}},
		Flows: []model.Flow{{Algorithm: "bbr", Path: "p", MSSBytes: 1460, RwndBytes: 1 << 30, WindowScaling: true, InitialCwnd: 10}},
	}
	res := runFluid(t, sc, fluid.Settings{Form: fluid.FormHybridRecovery, Seed: 1, SACK: true})
	f, l := res.Flows[0], res.Links[0]
	lambda := 0.01 * f.SentPkts / sc.DurationS
	tau := 0.04 + l.MeanQueuePkts*1460*8/100e6 // no header on the wire
	want := sc.DurationS / (2*tau + (math.Exp(-lambda*tau)*(2+lambda*tau)-1)/lambda)
	t.Logf("%d loss events, %.0f for recoveries to the last hole (λ %.1f/s, τ %.4f s), %.0f for one round trip each",
		f.LossEvents, want, lambda, tau, sc.DurationS/(tau+1/lambda))
	if got := float64(f.LossEvents); math.Abs(got/want-1) > 0.05 {
		t.Errorf("%d loss events in %g s, want %.0f ± 5%%", f.LossEvents, sc.DurationS, want)
	}
}
