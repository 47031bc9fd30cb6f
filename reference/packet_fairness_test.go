package reference

import (
	"testing"

	"github.com/tcpfluid/tcpfluid/response"
)

// TestPacketFairnessAgainstNS2: the packet engine, seed 1, on stored ns-2 fairness
// experiments where ns-2 TCP/Linux's retransmission timer decides the outcome (the sender
// keeps that agent's timer, packet/ns2rtt.go). Beside HighSpeed and beside H-TCP, ns-2's
// Reno flows send each window in one burst a round trip and most of their loss events are
// spurious timeouts (17–26 of 34–44 beside HighSpeed, 220–240 of 273–297 beside H-TCP): a
// sample from every ACK and no floor under RTTVAR leave the timeout a few milliseconds
// above SRTT, and the queue grows by more than a burst lasts. Each Reno flow must time out
// at a third of its loss events at least (with RFC 6298's timer the packet engine's took
// none, and HighSpeed 0.82 of the link in seed 1 against ns-2's 0.87). In the `same` mode the
// late-started HighSpeed flows time out the same way, in ns-2 too (10 and 15 timeouts in
// seeds 1 and 2), but ns-2's escape within about 200 s and the packet engine's stay locked
// for all 1000 s: a known gap, asserted both ways.
func TestPacketFairnessAgainstNS2(t *testing.T) {
	if testing.Short() {
		t.Skip("two 1000 s packet-engine dumbbell runs")
	}
	stored, err := Stored()
	if err != nil {
		t.Fatal(err)
	}
	gaps := map[string]bool{"same highspeed": true}
	for _, key := range []string{"friendliness highspeed", "friendliness htcp", "same highspeed"} {
		var st *StoredFairness
		for i := range stored {
			if stored[i].Mode+" "+stored[i].Algorithm == key {
				st = &stored[i]
			}
		}
		if st == nil {
			t.Fatalf("%s: no stored ns-2 run", key)
		}
		spec := FairnessSpec{Mode: st.Mode, Algorithm: st.Algorithm, JitterS: st.Spec.JitterS}
		tf, against := TcpfluidAlgorithm(SetLinux, st.Algorithm), TcpfluidAlgorithm(SetLinux, "reno")
		pk, err := TcpfluidFairness(t.Context(), response.EnginePacket, "", spec, tf, against, nil, []uint64{1})
		if err != nil {
			t.Fatal(err)
		}
		dj, ds, verdict, ok := CompareSummary(pk, &FairnessSummary{SeedSpread: st.SeedSpread})
		if !ok {
			t.Fatalf("%s: %d packet shares, ns-2 %d", key, len(pk.Shares), len(st.Shares))
		}
		t.Logf("%-22s packet Jain %.3f (first share %.3f), ns-2 %.3f ± %.3f: %+.3f, largest share difference %.3f: %s",
			key, pk.Jain, pk.Shares[0], st.Jain.Mean, st.Jain.SD, dj, ds, verdict)
		if (verdict == "within") == gaps[key] {
			t.Errorf("%s: Jain %+.3f, largest share difference %.3f from ns-2: verdict %s, known gap %v", key, dj, ds, verdict, gaps[key])
		}
		if st.Mode != "friendliness" {
			continue
		}
		for i := 1; i < len(pk.FlowLossEvents); i++ {
			if le, to := pk.FlowLossEvents[i], pk.FlowTimeouts[i]; !(to >= le/3) {
				t.Errorf("%s: Reno flow %d timed out at %v of %v loss events, ns-2's at %.3g of %.3g; want a third at least",
					key, i, to, le, st.Timeouts[i].Mean, st.LossEvents[i].Mean)
			}
		}
	}
}
