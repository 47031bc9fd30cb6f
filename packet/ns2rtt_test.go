package packet

import (
	"math"
	"testing"
)

// TestNS2RTT checks ns2RTT against ns-2.35 LinuxTcpAgent::rtt_update's fixed-point
// arithmetic worked by hand (1 ms ticks, t_srtt_ = 8·SRTT, t_rttvar_ = 4·RTTVAR).
func TestNS2RTT(t *testing.T) {
	steady := func() *ns2RTT {
		e := &ns2RTT{}
		for range 100 {
			e.sample(0.4894) // 489 ticks
		}
		return e
	}
	for _, tc := range []struct {
		name           string
		e              *ns2RTT
		then           []float64 // further samples, s
		srtt8, rttvar4 int64
		baseS          float64
	}{
		// The first sample: SRTT = m, RTTVAR = m/2, timeout 3m.
		{"first", &ns2RTT{}, []float64{0.4894}, 3912, 978, 1.467},
		// A sample under half a tick counts as one tick.
		{"floor", &ns2RTT{}, []float64{0.0004}, 8, 2, 0.003},
		// Equal samples: t_rttvar_ loses a quarter each time until its quarter rounds to
		// zero at 3, and nothing holds it up: the timeout is SRTT + 3 ms, not RFC 6298's
		// SRTT + max(10 ms, 4·RTTVAR).
		{"steady", steady(), nil, 3912, 3, 0.492},
		// 100 ticks above: RTTVAR takes the whole excess.
		{"rise", steady(), []float64{0.589}, 4012, 103, 0.604},
		// 100 ticks below: an eighth of it, Linux's mdev asymmetry.
		{"fall", steady(), []float64{0.389}, 3812, 15, 0.491},
	} {
		for _, r := range tc.then {
			tc.e.sample(r)
		}
		if tc.e.srtt8 != tc.srtt8 || tc.e.rttvar4 != tc.rttvar4 || math.Abs(tc.e.base()-tc.baseS) > 1e-12 {
			t.Errorf("%s: t_srtt_ %d, t_rttvar_ %d, timeout %.4f s; want %d, %d, %.4f s", tc.name,
				tc.e.srtt8, tc.e.rttvar4, tc.e.base(), tc.srtt8, tc.rttvar4, tc.baseS)
		}
	}
	e := steady()
	if e.forget(); e.base() != 0.492 {
		t.Errorf("forgotten: timeout %v s, want the last sample's 0.492 s until the next one", e.base())
	}
	if e.sample(0.1); e.srtt8 != 800 || e.rttvar4 != 200 || e.base() != 0.3 {
		t.Errorf("after forget: t_srtt_ %d, t_rttvar_ %d, timeout %v s; want a fresh start, 800, 200 and 0.3 s", e.srtt8, e.rttvar4, e.base())
	}
}
