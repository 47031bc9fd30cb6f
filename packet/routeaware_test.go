package packet

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// outage is one link (10 Mb/s, 20 ms, 50 packets of buffer, as seed 002's mesh path
// but slower) whose flow is in its congestion-avoidance sawtooth when the link fails from
// downS to upS.
func outage(t *testing.T, algo string, aware bool, downS, upS float64) *model.Scenario {
	t.Helper()
	s := oneLink(t, model.Link{CapacityBps: 10e6, DelayS: 0.02, BufferPkts: 50},
		model.Flow{Algorithm: algo, MSSBytes: 512, WindowScaling: true, RouteAware: aware}, 40)
	s.Events = []model.TimedEvent{{AtS: downS, Kind: model.EventLinkDown, Link: "l"}, {AtS: upS, Kind: model.EventLinkUp, Link: "l"}}
	return s
}

// A route-aware sender (seed 002) learns of the failure: during the outage it sends
// nothing, never times out and keeps its window; at reconnection its window is
// min(W before the outage, ssthresh) with ssthresh unchanged, and it resends from snd.una
// at once, a full window of it. With and without SACK.
func TestRouteAwareResume(t *testing.T) {
	const down, up = 20.0, 25.0
	for _, algo := range []string{"reno", "newreno"} {
		for _, sack := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/sack=%v", algo, sack), func(t *testing.T) {
				sm := mustSim(t, outage(t, algo, true, down, up), Settings{SACK: sack})
				f := &sm.flows[0]
				advance(t, sm, down-1e-9)
				w, ss, sent, losses, timeouts := f.cwnd, f.conn.law.Ssthresh(), f.sent, f.lossEvents, f.timeouts
				if !(w > ss && ss > 2) {
					t.Fatalf("before the outage cwnd %v, ssthresh %v: want congestion avoidance above ssthresh > 2", w, ss)
				}
				advance(t, sm, up-1e-9)
				if f.sent != sent || f.timeouts != timeouts || f.lossEvents != losses || f.cwnd != w {
					t.Fatalf("during the outage: sent %d → %d, timeouts %d → %d, loss events %d → %d, cwnd %v → %v: want nothing sent, no timeout, no loss, the window kept",
						sent, f.sent, timeouts, f.timeouts, losses, f.lossEvents, w, f.cwnd)
				}
				advance(t, sm, up)
				want := math.Min(w, ss)
				if f.cwnd != want || f.conn.law.Ssthresh() != ss {
					t.Errorf("at reconnection cwnd %v, ssthresh %v: want min(%v, %v) = %v and ssthresh kept", f.cwnd, f.conn.law.Ssthresh(), w, ss, want)
				}
				if n := f.sent - sent; n != int64(math.Floor(want)) || f.sndUna+n != f.maxSent && f.maxSent-f.sndUna < n {
					t.Errorf("at reconnection %d packets sent, snd.una %d, snd.max %d: want ⌊%v⌋ from snd.una", n, f.sndUna, f.maxSent, want)
				}
				advance(t, sm, 40)
				t.Logf("W before %.2f, ssthresh %.2f; after 15 s: %d loss events, %d timeouts", w, ss, f.lossEvents, f.timeouts)
			})
		}
	}
}

// Baseline Reno and NewReno time out during the outage, back off, and restart from one
// packet: at the reconnection the window is 1 and, after repeated timeouts at a window of
// one packet, ssthresh is 2 (ns-2's TcpAgent halves the window it has, RFC 5681's floor).
func TestBaselineTimesOutThroughOutage(t *testing.T) {
	const down, up = 20.0, 25.0
	for _, algo := range []string{"reno", "newreno"} {
		t.Run(algo, func(t *testing.T) {
			sm := mustSim(t, outage(t, algo, false, down, up), Settings{})
			f := &sm.flows[0]
			advance(t, sm, down)
			before := f.timeouts
			advance(t, sm, up)
			// RTO ≥ 0.2 s doubling: 0.2 + 0.4 + 0.8 + 1.6 < 5 s, so at least four timeouts.
			if n := f.timeouts - before; n < 4 || f.cwnd != 1 || f.conn.law.Ssthresh() != 2 {
				t.Errorf("after the outage: %d timeouts in it, cwnd %v, ssthresh %v: want >= 4, 1, 2", n, f.cwnd, f.conn.law.Ssthresh())
			}
		})
	}
}

// Seed 002's mesh (builtin seed002-mesh) in the packet engine: the route-aware NewReno
// has delivered more than Reno and NewReno by 120 s. The baselines resume only at their
// backed-off timer after the 70–90 s disconnection (90 + a few seconds), from one packet
// with ssthresh 2; the proposal resumes at 90 s with min(W, ssthresh).
func TestSeed002ProposalDeliversMore(t *testing.T) {
	s, err := model.Builtin("seed002-mesh")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), s, Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	delivered := map[string]float64{}
	for _, f := range r.Flows {
		delivered[f.Name] = f.GoodputBps * f.ActiveS / (8 * 512)
		t.Logf("%-12s %8.0f unique packets delivered, %d timeouts in %d loss events", f.Name, delivered[f.Name], f.Timeouts, f.LossEvents)
	}
	for _, base := range []string{"reno", "newreno"} {
		if !(delivered["route-aware"] > delivered[base]) {
			t.Errorf("route-aware delivered %.0f packets, %s %.0f: want more", delivered["route-aware"], base, delivered[base])
		}
	}
}
