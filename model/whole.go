package model

import "math"

// wholePackets is ⌊w⌋, the window a packet sender counts in whole packets. A window that
// reached an integer by n increments of 1/n may fall short of it by rounding, so the floor
// is taken a nano-packet up.
func wholePackets(w float64) float64 { return math.Floor(w + 1e-9) }

// wholeShare is ⌊⌊w⌋·f⌋ packets: the share f of a window of w packets as Linux 2.6.2x's
// modules compute ssthresh from snd_cwnd in u32 (tcp_reno_ssthresh's snd_cwnd >> 1,
// bictcp_recalc_ssthresh's (snd_cwnd·beta)/1024, htcp_recalc_ssthresh's
// (snd_cwnd·beta) >> 7).
func wholeShare(w, f float64) float64 { return math.Floor(math.Floor(w) * f) }
