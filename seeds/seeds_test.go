package seeds

import (
	"context"
	"flag"
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/validate"
)

// One Reno flow, drop-tail, buffer 1 BDP (seed 000's dumbbell): the sawtooth between 2 BDP
// and 1 BDP never empties the buffer, so utilisation must be at least 99% in both
// engines, and the engines must agree within every tolerance. The flow starts in
// congestion avoidance high in its sawtooth (1.8 BDP), so that 300 s cover an overflow,
// the halving and the climb back without slow start's overshoot, which costs a packet
// Reno sender (ns-2.35's too) a timeout: over the builtin's own 100 s from one packet the
// packet engine's utilisation is 93%. A Reno overflow that drops two packets in one window
// also ends in a timeout (packet/doc.go, with ns-2.35's evidence), as it does from 1.9
// BDP; NewReno repairs both, so it is checked from there.
func TestValidateSeed000Utilisation(t *testing.T) {
	for _, c := range []struct {
		algo string
		w0   float64 // start window and ssthresh, BDPs of the bottleneck
	}{{"reno", 1.8}, {"newreno", 1.9}} {
		t.Run(c.algo, func(t *testing.T) {
			t.Parallel()
			sc, err := model.Builtin("seed000-dumbbell")
			if err != nil {
				t.Fatal(err)
			}
			if err := sc.SetAlgorithm(c.algo); err != nil {
				t.Fatal(err)
			}
			bdp := sc.Links[sc.LinkIndex("bottleneck")].BufferPkts
			sc.DurationS = 300
			sc.Flows[0].InitialCwnd, sc.Flows[0].InitialSsthresh = c.w0*bdp, c.w0*bdp
			v, err := validate.Scenario(context.Background(), sc, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range v.Metrics {
				t.Logf("%-20s %-10s fluid %12.6g packet %12.6g rel err %.4f%%", m.Metric, m.Link, m.Fluid, m.Packet, 100*m.Error)
			}
			var u validate.Metric
			for _, m := range v.Metrics {
				if m.Metric == "utilisation" && m.Link == "bottleneck" {
					u = m
				}
			}
			if u.Fluid < 0.99 || u.Packet < 0.99 {
				t.Errorf("%s: bottleneck utilisation fluid %.4f, packet %.4f, want >= 0.99", c.algo, u.Fluid, u.Packet)
			}
			if n := v.Packet.Flows[0].LossEvents; n != 1 {
				t.Errorf("%s: %d packet loss events, want the one overflow", c.algo, n)
			}
			if !v.OK {
				t.Errorf("%s: metrics out of tolerance: %+v", c.algo, v.Failed())
			}
		})
	}
}

// Seed 003 in the packet engine against Table 3 (REFERENCE.md): delivered packets and
// goodput within 10%, no drops for Vegas, and the table's throughput ranking.
func TestSeed003Experiment(t *testing.T) {
	rep, err := Table3Experiment(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rep.Rows))
	}
	for i, r := range rep.Rows {
		t.Logf("%-7s dropped %2.0f / fluid %5.1f / packet %2.0f   sent %4.0f / %6.1f / %4.0f   kb/s %.2f / %.2f / %.2f",
			r.Algorithm, r.Table.DroppedPkts, r.Fluid.DroppedPkts, r.Packet.DroppedPkts, r.Table.DeliveredPkts, r.Fluid.DeliveredPkts,
			r.Packet.DeliveredPkts, r.Table.GoodputBps/1e3, r.Fluid.GoodputBps/1e3, r.Packet.GoodputBps/1e3)
		if r.Algorithm != Table3[i].Algorithm {
			t.Errorf("row %d is %s, want Table 3's order (%s)", i, r.Algorithm, Table3[i].Algorithm)
		}
		for _, m := range []struct {
			name      string
			got, want float64
		}{{"delivered_pkts", r.Packet.DeliveredPkts, r.Table.DeliveredPkts}, {"goodput_bps", r.Packet.GoodputBps, r.Table.GoodputBps}} {
			if math.Abs(m.got/m.want-1) > TolTable3 {
				t.Errorf("%s: packet %s %.6g, Table 3 %.6g, want within 10%%", r.Algorithm, m.name, m.got, m.want)
			}
		}
		if !r.OK {
			t.Errorf("%s: row not ok", r.Algorithm)
		}
	}
	if v := rep.Rows[3]; v.Packet.DroppedPkts != 0 || v.Fluid.DroppedPkts != 0 {
		t.Errorf("vegas: dropped %v (packet), %v (fluid), want 0", v.Packet.DroppedPkts, v.Fluid.DroppedPkts)
	}
	if !rep.RankingOK || !rep.OK {
		t.Errorf("ranking ok %v, report ok %v, want both", rep.RankingOK, rep.OK)
	}
}

// The headline of every seed scenario (Headlines), in both engines at their full length:
// within validate.TolHeadline, sign checks positive, and the scenario's verdict OK. seed001-mptcp runs its 1000 s (shorter runs weigh the start-up and
// the slow settling of the subflow on path 2 more, and move the shares: at 300 s LIA's
// download time is 11% apart); with VLIA only under -long.
func TestValidateHeadlines(t *testing.T) {
	for _, c := range []struct {
		builtin, algo string
		long          bool
	}{
		{"seed000-dumbbell", "", false},
		{"seed000-colo-random-loss", "", false},
		{"seed000-slow-start", "", false},
		{"seed001-mptcp", "", false},
		{"seed001-mptcp", "vlia", true},
		{"seed002-mesh", "", false},
		{"seed004-lfn", "", false},
	} {
		t.Run(c.builtin+"/"+c.algo, func(t *testing.T) {
			if c.long && !*long {
				t.Skip("-long runs it")
			}
			t.Parallel()
			sc, err := model.Builtin(c.builtin)
			if err != nil {
				t.Fatal(err)
			}
			if c.algo != "" {
				if err := sc.SetAlgorithm(c.algo); err != nil {
					t.Fatal(err)
				}
			}
			if err := sc.Validate(); err != nil {
				t.Fatal(err)
			}
			v, err := validate.Scenario(context.Background(), sc, 1)
			if err != nil {
				t.Fatal(err)
			}
			headlines := 0
			for _, m := range v.Metrics {
				key := fmt.Sprintf("%s/%s/%s", c.builtin, m.Metric, v.Subject(m))
				if m.Headline {
					headlines++
					t.Logf("%-28s %-10s fluid %12.6g packet %12.6g  %.2f%%", m.Metric, v.Subject(m), m.Fluid, m.Packet, 100*m.Error)
				}
				if m.Judged && !m.OK {
					t.Errorf("%s: fluid %.6g, packet %.6g, %s apart, tolerance %s", key, m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText())
				}
			}
			if headlines == 0 {
				t.Errorf("no headline metrics")
			}
			if v.OK != (len(v.Failed()) == 0) {
				t.Errorf("verdict %v with %d failed gating metrics", v.OK, len(v.Failed()))
			}
		})
	}
}

var long = flag.Bool("long", false, "also validate seed001-mptcp with VLIA over its 1000 s (about 40 s)")
