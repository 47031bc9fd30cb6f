package model

import (
	"math"
	"testing"
)

// A paced sender sends at its pacing rate while its window has room, at window/RTT once
// its flight fills the window, and in between falls linearly over FlightSlack of the RTT
// of room; an unset pacing rate leaves window/RTT.
func TestFlightLimitedRate(t *testing.T) {
	const w, rtt = 100.0, 0.1 // packets, s: window/RTT is 1000 packets/s
	for _, c := range []struct {
		name           string
		flight, pacing float64
		want           float64
	}{
		{"room in the window: the pacing rate", 80, 1250, 1250},
		{"a full window: window/RTT", 100, 1250, 1000},
		{"a full window paced slower: the pacing rate", 100, 900, 900},
		{"two packets of room: window/RTT plus 2/(FlightSlack·RTT)", 98, 1e9, 1000 + 2/(FlightSlack*rtt)},
		{"no pacing rate", 50, 0, 1000},
		{"an infinite pacing rate", 50, math.Inf(1), 1000},
	} {
		if got := FlightLimitedRate(w, c.flight, c.pacing, rtt); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s: %v packets/s, want %v", c.name, got, c.want)
		}
	}
}
