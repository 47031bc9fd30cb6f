package model

import (
	"math"
	"testing"
)

// A paced sender sends at its pacing rate while its window has room, at its full-window
// rate once its flight fills the window, and in between falls linearly over FlightSlack of
// the RTT of room; an unset pacing rate leaves window/RTT.
func TestFlightLimitedRate(t *testing.T) {
	const w, rtt, full = 100.0, 0.1, 600.0 // packets, s, packets/s: window/RTT is 1000 packets/s
	for _, c := range []struct {
		name           string
		flight, pacing float64
		want           float64
	}{
		{"room in the window: the pacing rate", 80, 1250, 1250},
		{"a full window: the full-window rate", 100, 1250, full},
		{"a full window paced slower: the pacing rate", 100, 500, 500},
		{"two packets of room: the full-window rate plus 2/(FlightSlack·RTT)", 98, 1e9, full + 2/(FlightSlack*rtt)},
		{"no pacing rate: window/RTT", 50, 0, 1000},
		{"an infinite pacing rate: window/RTT", 50, math.Inf(1), 1000},
	} {
		if got := FlightLimitedRate(w, c.flight, c.pacing, full, rtt); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s: %v packets/s, want %v", c.name, got, c.want)
		}
	}
}
