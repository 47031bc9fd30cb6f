package reference

// LossWindow is the window at which the row's first converge run saw its first loss,
// packets, and the simulator that ran it: ns-2's when it ran, else ns-3's; 0 and "" when
// neither measured one. A simulator sees that loss a round trip after slow start ends, at
// the BDP plus a round trip of its congestion-avoidance growth (ns-2's CUBIC 8654 packets
// of a BDP of 8333, BIC 9091): tcpfluid's converge starts its recovery there
// (FluidConverge), so that both measure the time back to the BDP from the same state.
// A window above two BDPs, more than a one-BDP buffer holds, is no starting point.
func (r *Row) LossWindow() (float64, string) {
	for _, s := range []struct {
		name string
		ms   []*Measurement
	}{{NS2, r.NS2}, {NS3, r.NS3}} {
		if len(s.ms) == 0 || s.ms[0].Converge == nil {
			continue
		}
		cv := s.ms[0].Converge
		if w := cv.CwndAtLossPkts; w > 0 && w <= 2*cv.BDPPkts {
			return w, s.name
		}
	}
	return 0, ""
}
