package reference

import (
	"testing"

	"github.com/tcpfluid/tcpfluid/response"
)

// packetSeeds are the seeds the packet engine runs an experiment over: ns-2's stored ones,
// or its first three where ns-2's Jain index and every share spread by less than 0.02 over
// them (the friendliness of HighSpeed and H-TCP, RTT HighSpeed), whose three-seed mean is
// within about 0.01 of the mean over ten (a standard error of 0.009 at most): ten 1000-s
// runs of those would cost the test suite three minutes and decide nothing more.
func packetSeeds(st *StoredFairness) []uint64 {
	spread := st.Jain.SD
	for _, sh := range st.Shares {
		spread = max(spread, sh.SD)
	}
	if spread < 0.02 && len(st.Seeds) > 3 {
		return st.Seeds[:3]
	}
	return st.Seeds
}

// TestPacketFairnessAgainstNS2: the packet engine, over the seeds of ns-2's stored runs
// (packetSeeds), on stored ns-2 fairness experiments that ns-2 TCP/Linux's sender decides: its
// retransmission timer (packet/ns2rtt.go) and its delayed send (packet/ns2send.go).
// Beside HighSpeed and beside H-TCP, ns-2's Reno flows send each window in one burst a
// round trip and about half their loss events are spurious timeouts (20–23 of 38–41
// beside HighSpeed, 220–240 of 273–297 beside H-TCP): a sample from every ACK and no floor
// under RTTVAR leave the timeout a few milliseconds above SRTT, and the queue grows by
// more than a burst lasts. Each Reno flow must time out at a third of its loss events at
// least (with RFC 6298's timer the packet engine's took none, and HighSpeed 0.82 of the
// link in seed 1 against ns-2's 0.87). With overhead_ ns-2's modules hear only the ACKs
// that find the window full, which slows HighSpeed's growth by the 50 ms flow's share of
// the link in the rtt mode (0.48 of it against 0.58 counting every ACK). In the `same`
// mode the late-started HighSpeed flows time out the same way, in ns-2 too (10 and 15
// timeouts in seeds 1 and 2), and escape within about 250 s. The packet engine's flow
// started at 10 s stayed locked for all 1000 s while its rate halving fell one packet for
// every two ACKs: with ns-2's delayed send only the ACKs that return while the send waits
// lower the allowance (ns2send.go), the others' windows fall to 0.5–0.6 of their size
// instead of 0.36, and their slow start back no longer grows the queue faster than the
// 10 s flow's timer. It now times out at 16 of 51 loss events a seed over seeds 1–3 (ns-2:
// 7 of 44), and over seeds 1–10 at 11.7 a run against ns-2's 10.7: within (Jain +0.000,
// largest share 0.013; −0.055 and 0.093 against ns-2's three seeds, which spread its
// shares by 0.06).
// Three Reno flows in the `same` mode took 0.47, 0.21 and 0.29 of the link (ns-2: 0.33,
// 0.30, 0.33) under that rate halving, and are within now.
func TestPacketFairnessAgainstNS2(t *testing.T) {
	if testing.Short() {
		t.Skip("twenty-nine 1000 s packet-engine dumbbell runs")
	}
	stored, err := Stored()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"friendliness highspeed", "friendliness htcp", "rtt highspeed", "same highspeed", "same reno"} {
		var st *StoredFairness
		for i := range stored {
			if stored[i].Mode+" "+stored[i].Algorithm == key {
				st = &stored[i]
			}
		}
		if st == nil {
			t.Fatalf("%s: no stored ns-2 run", key)
		}
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			spec := FairnessSpec{Mode: st.Mode, Algorithm: st.Algorithm, JitterS: st.Spec.JitterS}
			tf, against := TcpfluidAlgorithm(SetLinux, st.Algorithm), TcpfluidAlgorithm(SetLinux, "reno")
			pk, err := TcpfluidFairness(t.Context(), response.EnginePacket, "", spec, tf, against, nil, packetSeeds(st))
			if err != nil {
				t.Fatal(err)
			}
			dj, ds, verdict, ok := CompareSummary(pk, &FairnessSummary{SeedSpread: st.SeedSpread})
			if !ok {
				t.Fatalf("%d packet shares, ns-2 %d", len(pk.Shares), len(st.Shares))
			}
			t.Logf("packet Jain %.3f (first share %.3f), ns-2 %.3f ± %.3f: %+.3f, largest share difference %.3f: %s",
				pk.Jain, pk.Shares[0], st.Jain.Mean, st.Jain.SD, dj, ds, verdict)
			if verdict != "within" {
				t.Errorf("Jain %+.3f, largest share difference %.3f from ns-2: want both within %g", dj, ds, FairnessTolerance)
			}
			if st.Mode != "friendliness" {
				return
			}
			for i := 1; i < len(pk.FlowLossEvents); i++ {
				if le, to := pk.FlowLossEvents[i], pk.FlowTimeouts[i]; !(to >= le/3) {
					t.Errorf("Reno flow %d timed out at %.3g of %.3g loss events (means over seeds), ns-2's at %.3g of %.3g; want a third at least",
						i, to, le, st.Timeouts[i].Mean, st.LossEvents[i].Mean)
				}
			}
		})
	}
}
