package seeds

import (
	"context"
	"flag"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
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

// table3Gaps are Table 3's cells an engine misses, with the reason; the test fails on any
// other figure out of tolerance and on a gap that closes. None today: the fluid's Tahoe,
// Reno and NewReno goodputs are +2.9%, +1.5% and −1.7% of the table (+7.0%, −2.0% and
// −2.2% before a round trip counted the packets' transmissions, fluid/storeforward.go).
var table3Gaps = map[string]string{}

// Seed 003 in both engines against Table 3: delivered packets and goodput within 10%, no
// drops for Vegas, and the table's throughput ranking in the packet engine; the fluid
// engine's known gaps (table3Gaps) checked both ways. The fluid engine ranks its Tahoe above
// its NewReno (668.7 against 648.7 kb/s; the table's Tahoe is 1.6% below its NewReno, the
// packet engine's 0.4%): its NewReno is within 1% of the packet engine's, but its Tahoe's
// go-back-N starts at the timeout, not at the fast retransmit (fluid/gobackn.go), and it
// resends 49 copies where the packet sender resends 93.
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
		}{{"packet delivered_pkts", r.Packet.DeliveredPkts, r.Table.DeliveredPkts}, {"packet goodput_bps", r.Packet.GoodputBps, r.Table.GoodputBps},
			{"fluid delivered_pkts", r.Fluid.DeliveredPkts, r.Table.DeliveredPkts}, {"fluid goodput_bps", r.Fluid.GoodputBps, r.Table.GoodputBps}} {
			out := math.Abs(m.got/m.want-1) > TolTable3
			gap, known := table3Gaps[r.Algorithm+" "+m.name]
			switch {
			case out && !known:
				t.Errorf("%s: %s %.6g, Table 3 %.6g, want within 10%%", r.Algorithm, m.name, m.got, m.want)
			case !out && known:
				t.Errorf("%s: %s %.6g, Table 3 %.6g: the known gap (%s) closed; remove it", r.Algorithm, m.name, m.got, m.want, gap)
			}
		}
		if !r.PacketOK {
			t.Errorf("%s: packet row not ok", r.Algorithm)
		}
	}
	if v := rep.Rows[3]; v.Packet.DroppedPkts != 0 || v.Fluid.DroppedPkts != 0 {
		t.Errorf("vegas: dropped %v (packet), %v (fluid), want 0", v.Packet.DroppedPkts, v.Fluid.DroppedPkts)
	}
	// Every pair ns-2 orders whatever the CBR phase, each engine orders so: Vegas above
	// the three, Tahoe above Reno (the fluid's Tahoe above its NewReno is ns-2's order in
	// 14 of its 20 phases, not judged).
	judged := 0
	for _, o := range rep.Orders {
		if o.Judged {
			judged++
			if !o.FluidOK || !o.PacketOK {
				t.Errorf("%s above %s (ns-2 %d of %d): fluid %v, packet %v", o.Higher, o.Lower, o.NS2Agree, o.NS2Runs, o.FluidOK, o.PacketOK)
			}
		}
	}
	if len(rep.Orders) != 6 || judged != 4 || !rep.PacketRankingOK || !rep.FluidRankingOK || !rep.OK {
		t.Errorf("%d pairs, %d judged (want 6, 4); ranking ok: packet %v, fluid %v; report ok %v",
			len(rep.Orders), judged, rep.PacketRankingOK, rep.FluidRankingOK, rep.OK)
	}
}

// knownGaps are the judged metrics of the built-ins on which the fluid engine, in its
// counted form, misses the packet engine today, each with what the fluid model leaves out;
// docs/validation.md and the README list them. TestValidateBuiltins fails on any other
// metric out of tolerance, and on a gap that has closed (remove it here and there).
var knownGaps = map[string]map[string]string{
	"seed001-mptcp": {
		"mean_cwnd_pkts flow 0/1":      "the LIA subflow on path 2 grows by a fixed fraction of its window a second and halves at the Reno flow's overflows that hit it, so its window wanders in log space and one seed's mean is chance: 22.1 packets at seed 1 in the packet engine, 20.3–29.4 over seeds 1–5 (its throughput's spread 16% of the mean), the fluid's 25.3 at seed 1 and 23.3 over them, against 24.0 (TestMPTCPOverSeeds)",
		"mean_throughput_bps flow 0/1": "idem: 7.97 Mb/s at seed 1 against the fluid's 9.37 (10.06 before the Reno flow's recoveries that wait for their timers sent what their duplicate ACKs let out, fluid/awaitflight.go; 9.04 before the fluid's round trip counted the packets' transmissions, which moved the phase of the subflow's halvings); 8.68 against 8.64 over seeds 1–5 (−0.5% ± 19%)",
	},
	"seed001-mptcp/vlia": {
		"mean_cwnd_pkts flow 0/1":      "VLIA's subflow on path 2 beside its 476 Mb/s subflow on path 1: 20.2 packets in the fluid against 16.1 at seed 1, and 19.0 against 14.8 (+29% ± 22%) over seeds 1–5, where LIA's agrees. More jitter moves the packet engine towards the fluid (5.9, 6.8 and 6.9 Mb/s over seeds 1–3 at 0.467, 1 and 2 ms, against the fluid's 7.49), so a phase effect may remain at four packet times; not traced further (-long only)",
		"mean_throughput_bps flow 0/1": "idem: 7.49 against 5.71 Mb/s at seed 1 (2.28 with two packet times of jitter)",
	},
	"parking-lot": {
		"mean_queue_pkts link h2": "h2 (RED, utilisation 0.63–0.69) holds less than a packet on average in both engines, 0.56 in the fluid against 0.90 at seed 1 and 0.49 against 1.02 over seeds 1–10: the packet engine's queue there is packets that meet by chance, the long flow's recovery bursts from h1 and Vegas's pairs of packets at each increase, which the fluid, whose queue is empty below capacity, leaves out",
		"utilisation link h2":     "Vegas (x2) on h2 carries more in the fluid, +9% (within its throughput's tolerance), and h2 is 0.057 busier at seed 1, 0.036 ± 0.018 over seeds 1–10 (undecided), against a bound of 0.03. The packet engine's RED drops Vegas's packets in the bursts that the long flow's recoveries send through h1 (12 of its 13 episodes of RED drops after 3 s begin within 0.3 s of a loss event of the long flow), which reach h2 evenly in the fluid",
	},

	"seed000-colo-beta": {
		"mean_cwnd_pkts flow 0":                "one COLO against four Reno flows, five loss events each in 300 s: which flows' packets meet a full drop-tail queue decides the split, and one seed is one draw of it. With the packet senders' send jitter (two packet times, against drop-tail phase) COLO gets 0.44 of the link at seed 1 and 0.37 over seeds 1–5 (0.46 at seed 1 without it), the fluid's synchronized rule 0.38: over seeds 1–5 every judged metric is within (COLO's goodput 2.9% ± 25%, the Reno flows' mean 1.0% ± 16%, Jain's index 0.819 against 0.814; validate --seeds 5), the intervals too wide to decide",
		"mean_throughput_bps flow 0":           "idem",
		"mean_cwnd_pkts flows 1–4 (mean)":      "idem",
		"mean_throughput_bps flows 1–4 (mean)": "idem",
		"jain all flows":                       "idem",
		"goodput_bps flow 0":                   "idem",
	},
}

// Every built-in in both engines at its full length: every judged metric within its
// tolerance but the knownGaps, the headline of every seed scenario among them (a seed
// built-in without one fails), and the verdict consistent with the metrics. seed001-mptcp
// runs its 1000 s (shorter runs weigh the start-up and the slow settling of the subflow on
// path 2 more); with VLIA only under -long.
func TestValidateBuiltins(t *testing.T) {
	type run struct {
		builtin, algo string
		long          bool
	}
	var runs []run
	for _, name := range model.BuiltinNames() {
		runs = append(runs, run{builtin: name})
	}
	runs = append(runs, run{"seed001-mptcp", "vlia", true})
	for _, c := range runs {
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
			v, err := validate.Scenario(context.Background(), sc, 1)
			if err != nil {
				t.Fatal(err)
			}
			gaps := knownGaps[c.builtin]
			if c.algo != "" {
				gaps = knownGaps[c.builtin+"/"+c.algo]
			}
			headlines, seen := 0, map[string]bool{}
			for _, m := range v.Metrics {
				key := m.Metric + " " + v.Subject(m)
				if m.Headline {
					headlines++
					t.Logf("%-28s %-10s fluid %12.6g packet %12.6g  %s", m.Metric, v.Subject(m), m.Fluid, m.Packet, m.ErrorText())
				}
				_, known := gaps[key]
				switch {
				case m.Judged && !m.OK && known:
					seen[key] = true
					t.Logf("known gap %s: fluid %.6g, packet %.6g, %s apart, tolerance %s", key, m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText())
				case m.Judged && !m.OK:
					t.Errorf("%s: fluid %.6g, packet %.6g, %s apart, tolerance %s", key, m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText())
				}
			}
			for key := range gaps {
				if !seen[key] {
					t.Errorf("known gap %q has closed: remove it from knownGaps, docs/validation.md and the README", key)
				}
			}
			if _, ok := validate.HeadlineOf(c.builtin); ok != (headlines > 0) {
				t.Errorf("headline registered %v, %d headline metrics", ok, headlines)
			}
			if v.OK != (len(v.Failed()) == 0) {
				t.Errorf("verdict %v with %d failed judged metrics", v.OK, len(v.Failed()))
			}
		})
	}
}

// seed001-mptcp over seeds 1–5: every judged metric's mean within its tolerance, the
// subflow on path 2 among them (one seed's is chance, knownGaps). Its packet senders jitter
// by four packet times (validate's phaseJitter): with two, a drop-tail phase effect gave
// the subflow 3.55 Mb/s, the fluid's 8.97 (8.70 before its round trip counted the packets'
// transmissions).
func TestMPTCPOverSeeds(t *testing.T) {
	t.Parallel()
	sc, err := model.Builtin("seed001-mptcp")
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.Seeds(t.Context(), sc, []uint64{1, 2, 3, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range v.Failed() {
		t.Errorf("%s %s over seeds 1–5: fluid %.6g, packet %.6g, %s apart, tolerance %s", m.Metric, v.Subject(m), m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText())
	}
}

// parking-lot over seeds 1–4: every judged metric's mean within its tolerance but h2's
// (knownGaps: its sub-packet queue and its utilisation, 0.035 busier). The long CUBIC flow
// escapes some of the full queues it reaches smoothly, as the packet sender does with its
// sends jittered (fluid/escape.go): losing at every one, the fluid's long flow had 22.9%
// less throughput over these seeds, and seven more metrics were out.
func TestParkingLotOverSeeds(t *testing.T) {
	t.Parallel()
	sc, err := model.Builtin("parking-lot")
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.Seeds(t.Context(), sc, []uint64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"mean_queue_pkts link h2": false, "utilisation link h2": false}
	for _, m := range v.Failed() {
		key := m.Metric + " " + v.Subject(m)
		if _, ok := known[key]; ok {
			known[key] = true
			continue
		}
		t.Errorf("%s over seeds 1–4: fluid %.6g, packet %.6g, %s apart, tolerance %s", key, m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText())
	}
	for key, out := range known {
		if !out {
			t.Errorf("%s over seeds 1–4 is within: the known gap closed; update knownGaps and this test", key)
		}
	}
}

var long = flag.Bool("long", false, "also validate seed001-mptcp with VLIA over its 1000 s (about 40 s)")

// Seed 003's first slow start overflows the flow's own 50-packet access queue (n0-n3)
// before the bottleneck's: the fluid must lose there what the packet engine loses, within
// 10% (issue 14's bound), for the three senders that do (ns-2 drops 54 there with each).
func TestSeed003AccessDrops(t *testing.T) {
	for _, algo := range []string{"tahoe", "reno", "newreno"} {
		sc, err := Seed003Scenario(algo)
		if err != nil {
			t.Fatal(err)
		}
		fl, err := fluid.Run(t.Context(), sc, fluid.Settings{Seed: 1, Form: validate.Form})
		if err != nil {
			t.Fatal(err)
		}
		pk, err := packet.Run(t.Context(), sc, packet.Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		drops := func(r *model.Result) float64 {
			for _, l := range r.Links {
				if l.Link == "n0-n3" {
					return l.DroppedPkts
				}
			}
			t.Fatalf("%s: no link n0-n3", algo)
			return 0
		}
		if f, p := drops(fl), drops(pk); !(p > 0) || math.Abs(f/p-1) > 0.1 {
			t.Errorf("%s: the fluid drops %.1f packets at the access queue, the packet engine %.0f: want within 10%%", algo, f, p)
		}
	}
}
