package fluid

import (
	"math"
	"testing"
)

// jitterCounted at ns-2's numbers: 0.24 ms of overhead_ at 100 Mb/s with 1510-byte packets
// (τ = 0.1208 ms, so J/τ = 1.987 and one slot lies within reach of the wait, reached with
// probability 1 − τ/J): the rtt fairness run's HighSpeed shares 0.477, 0.292 and 0.197 count
// 0.808, 0.873 and 0.911 of their ACKs, HighSpeed's 0.87 beside 4 Reno flows 0.698; a flow
// that has every slot of a link whose packet time is half the wait counts 2/3, of a third
// of it 1/2 (two slots within reach, (1 − 1/3) + (1 − 2/3) ACKs lost a wait); a wait no
// longer than a packet time, or no share, loses none.
func TestJitterCounted(t *testing.T) {
	const tau, j = 1510 * 8 / 100e6, 0.24e-3
	for _, c := range []struct{ share, tau, j, want float64 }{
		{0.477, tau, j, 0.8085},
		{0.292, tau, j, 0.8733},
		{0.197, tau, j, 0.9109},
		{0.87, tau, j, 0.6983},
		{1, 1, 2, 2.0 / 3},
		{1, 1, 3, 0.5},
		{1, 1, 1, 1},
		{0.5, 2, 1, 1},
		{0, tau, j, 1},
	} {
		if got := jitterCounted(c.share, c.tau, c.j); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("share %g, τ %g, J %g: counted %.4f, want %.4f", c.share, c.tau, c.j, got, c.want)
		}
	}
}
