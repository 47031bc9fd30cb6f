package model

import "math"

// FlightSlack is the fraction of the RTT over which a paced sender's rate (FluidFlight)
// falls from its pacing rate to window/RTT as its flight closes on its window: the fluid's
// smooth stand-in for a packet sender's abrupt stop at a full window.
const FlightSlack = 0.05

// FlightLimitedRate is the rate, packets/s, a paced sender sends at with window w and
// flight packets (at most w) in flight at RTT rtt (s): its pacing rate while the window
// has room, full once the flight fills it (the rate its ACKs free the window at, with the
// window's growth), and full plus the room left over FlightSlack of the RTT between. A
// non-positive or infinite pacing rate leaves the window's rate w/rtt.
func FlightLimitedRate(w, flight, pacing, full, rtt float64) float64 {
	if !(pacing > 0) || math.IsInf(pacing, 1) {
		return max(w, 0) / rtt
	}
	return min(pacing, full+max(w-flight, 0)/(FlightSlack*rtt))
}
