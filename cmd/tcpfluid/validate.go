package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/seeds"
	"github.com/tcpfluid/tcpfluid/validate"
)

// pointFlags are validate's response-point flags.
var pointFlags = []string{"loss-model", "p", "rtt", "mss", "warmup-losses", "losses"}

func validateCommand() *cli.Command {
	lm := enumFlag("loss-model", "", lossModel, "response point: loss process")
	lm.DefaultText = "periodic"
	warmup := intFlag("warmup-losses", "", 1, 1_000_000, "response point: loss events discarded")
	warmup.DefaultText = "20"
	losses := intFlag("losses", "", 1, 10_000_000, "response point: measured loss events")
	losses.DefaultText = "periodic 20, random 400 (fewer below p = 4e-6: 100 at 1e-6)"
	flags := append(scenarioFlags(),
		lm,
		numberFlag("p", "", bound{lo: 0, hi: 1, loOpen: true, hiOpen: true}, "response point: loss rate per packet"),
		durationFlag("rtt", "100ms", rttRange, "response point: round-trip time"),
		sizeFlag("mss", "1460B", mssRange, "response point: packet size"),
		warmup, losses,
		boolFlag("table3", "seed 003's experiment: Tahoe, Reno, NewReno and Vegas in both engines beside its Table 3"),
		boolFlag("all", "every built-in scenario and Table 3: one line each with its worst judged metric"),
		seedFlag("seed of every random draw (both engines)"),
		intFlag("seeds", "1", 1, 1000, "a scenario (and --all): judge each metric's mean over the seeds --seed, --seed+1, …, with the 95% interval of its per-seed error"),
		formatFlag(),
		maxRoundsFlag(), maxPacketsFlag(),
	)
	return &cli.Command{
		Name:  "validate",
		Usage: "the same scenario in the fluid and the packet engine, side by side",
		Description: "Runs one scenario (--scenario or --builtin, --algo to set every flow's algorithm), one " +
			"response point (--algo reno --loss-model random --p 1e-4 --rtt 100ms: one flow alone on an " +
			"uncongested path), or seed 003's experiment (--table3) in both engines with the same seed, and " +
			"compares them metric by metric against stated tolerances (docs/validation.md). A built-in seed " +
			"scenario adds its headline: the numbers its source reports (seed000-* goodput, " +
			"slow-start drops; seed001-mptcp each path's share and the 10 GB download time, with SACK senders " +
			"as on its Linux testbed; seed002-mesh packets delivered by 120 s and the route-aware lead; " +
			"seed004-lfn completion times), within 10%, beside the generic metrics, which are judged whatever the " +
			"senders did. Exchangeable flows (the same in everything but their names and starts less than a round " +
			"trip apart) are judged by their group's mean and Jain's index, not one by one: which of them a drop " +
			"falls on is chance. Flows that share no link run one group at " +
			"a time, so that both engines draw the same random losses; under the proportional drop rule the " +
			"packet senders get two packet times of jitter (four behind delayed ACKs) against drop-tail phase effects. The fluid runs " +
			"in its hybrid-recovery form, which counts as a packet sender does: the window holds still for " +
			"one round trip after each loss (fast recovery), ⌊W⌋ packets are in flight, and per-ACK " +
			"increases take the window reached in the round. Where drop-tail phase decides which overflow " +
			"costs a flow a timeout one seed's verdict is chance: --seeds N judges each metric's mean over N " +
			"seeds instead (ci95 is the spread of its per-seed error). The exit code is 1 when any metric is out of " +
			"tolerance, after the table or JSON is printed. A response point starts both engines in " +
			"congestion avoidance at the fluid's mean window; under random loss they draw the same loss " +
			"sequence (common random numbers) and each metric carries a paired 95% confidence interval. " +
			"--table3 runs ns-2's agents as seed 003 did: Tahoe, Reno and NewReno with 40-byte headers, " +
			"Vegas with bare segments and alpha 1, beta 3; plain --builtin seed003-dumbbell --algo vegas " +
			"keeps the builtin's headers and Vegas's Linux defaults (add --param vegas.alpha=1 --param " +
			"vegas.beta=3).",
		Flags:  flags,
		Action: validateAction,
	}
}

func validateAction(c *cli.Context) error {
	format := outputFormat(c)
	scenario := c.String("scenario") != "" || enumOf(c, "builtin") != ""
	point := c.IsSet("p") || c.IsSet("loss-model")
	given := func(names ...string) string {
		for _, n := range names {
			if c.IsSet(n) {
				return n
			}
		}
		return ""
	}
	switch {
	case c.Bool("all"):
		if f := given(append([]string{"scenario", "builtin", "algo", "param", "drop-rule", "duration", "table3"}, pointFlags...)...); f != "" {
			return usagef("--all runs every built-in as it is: drop --%s", f)
		}
		return validateAll(c, format)
	case c.Bool("table3"):
		if c.IsSet("seeds") {
			return usagef("--seeds is for a scenario or --all; --table3 runs at --seed")
		}
		if b := enumOf(c, "builtin"); b != "" && b != "seed003-dumbbell" {
			return usagef("--table3 runs seed003-dumbbell's four algorithms, not --builtin %s", b)
		}
		if f := given(append([]string{"scenario", "algo", "param", "drop-rule", "duration"}, pointFlags...)...); f != "" {
			return usagef("--table3 runs seed003-dumbbell's four algorithms as seed 003 did: drop --%s", f)
		}
		bar := startProgress(c, "validate --table3", 0)
		rep, err := seeds.Table3Experiment(c.Context, seedOf(c))
		bar.done()
		if err != nil {
			return err
		}
		switch format {
		case formatJSON:
			err = writeJSON(c.App.Writer, rep)
		case formatCSV:
			err = writeTable3CSV(c.App.Writer, rep)
		default:
			err = writeTable3(c.App.Writer, rep)
		}
		if err != nil || rep.OK {
			return err
		}
		return fmt.Errorf("validate --table3: an engine misses Table 3: %w", validate.ErrOutOfTolerance)
	case scenario && point:
		return usagef("give a scenario (--scenario/--builtin) or a response point (-p, --loss-model), not both")
	case scenario:
		if f := given(pointFlags...); f != "" {
			return usagef("--%s is a response point's (--algo A -p P), not a scenario's", f)
		}
		sc, err := loadScenario(c, "", true)
		if err != nil {
			return err
		}
		if err := checkScenarioWork(c, sc, "fluid", "", 0); err != nil {
			return err
		}
		if err := checkScenarioWork(c, sc, "packet", "", 0); err != nil {
			return err
		}
		list, err := seedList(c)
		if err != nil {
			return err
		}
		bar := startProgress(c, "validate "+sc.Name, 0)
		v, err := validate.Seeds(c.Context, sc, list)
		bar.done()
		if err != nil {
			return err
		}
		return reportValidation(c, format, v)
	case point:
		if f := given("drop-rule", "duration", "seeds"); f != "" {
			return usagef("--%s is a scenario's (--scenario/--builtin), not a response point's", f)
		}
		spec, err := pointSpec(c)
		if err != nil {
			return err
		}
		bar := startProgress(c, "validate point", 0)
		v, err := validate.Point(c.Context, spec)
		bar.done()
		if err != nil {
			return settingsError(err)
		}
		return reportValidation(c, format, v)
	}
	if f := given("algo", "param", "rtt", "mss", "warmup-losses", "losses"); f != "" {
		return usagef("--%s: a response point needs -p, the loss rate per packet (tcpfluid validate --algo reno -p 1e-4)", f)
	}
	return usagef("need a scenario (--scenario FILE or --builtin NAME), a response point (--algo A -p P), --table3 or --all")
}

// seedList is the seeds --seed and --seeds name: --seed and the next --seeds − 1.
func seedList(c *cli.Context) ([]uint64, error) {
	first, n := seedOf(c), uint64(intOf(c, "seeds"))
	if first > math.MaxUint64-(n-1) {
		return nil, usagef("--seeds %d from --seed %d: the last seed would pass 2^64-1; want --seed at most %d", n, first, uint64(math.MaxUint64)-(n-1))
	}
	list := make([]uint64, n)
	for k := range list {
		list[k] = first + uint64(k)
	}
	return list, nil
}

// pointSpec reads a response point from the flags and bounds its packet-engine work.
func pointSpec(c *cli.Context) (validate.PointSpec, error) {
	spec := validate.PointSpec{
		Algorithm: algoOf(c), LossModel: enumOf(c, "loss-model"), Seed: seedOf(c),
		WarmupLosses: intOf(c, "warmup-losses"), Losses: intOf(c, "losses"),
		P: quantity(c, "p"), RTTS: quantity(c, "rtt"), MSSBytes: quantity(c, "mss"),
	}
	if spec.Algorithm == "" {
		return spec, usagef("a response point needs --algo (see tcpfluid algos)")
	}
	if !c.IsSet("p") {
		return spec, usagef("a response point needs -p, the loss rate per packet (0 < p < 1)")
	}
	if err := checkParamTargets(c, []string{spec.Algorithm}); err != nil {
		return spec, err
	}
	spec.Params = paramMap(c)[spec.Algorithm]
	// The packet engine sends a packet per 1/p for each loss event: the warm-up's, the
	// measured ones and one more; the defaults are PointSpec's.
	warmup, losses := float64(spec.WarmupLosses), float64(spec.Losses)
	if warmup == 0 {
		warmup = 20
	}
	if losses == 0 {
		losses = 20
		if spec.LossModel == "random" {
			losses = math.Max(40, math.Min(400, math.Round(1e8*spec.P)))
		}
	}
	need := (warmup + losses + 1) / spec.P
	return spec, beyond(c, fmt.Sprintf("packets of the packet engine (%.0f loss events at p = %g)", warmup+losses+1, spec.P),
		need, "max-packets", "a larger -p or fewer --losses")
}

// reportValidation prints the comparison and fails with validate.ErrOutOfTolerance (exit
// code 1) when a metric is out of tolerance.
func reportValidation(c *cli.Context, format string, v *validate.Report) error {
	var err error
	switch format {
	case formatJSON:
		err = writeJSON(c.App.Writer, v)
	case formatCSV:
		err = writeValidationCSV(c.App.Writer, v)
	default:
		err = writeValidationTable(c.App.Writer, v)
	}
	if err != nil {
		return err
	}
	if failed := v.Failed(); len(failed) > 0 {
		names := make([]string, len(failed))
		for i, m := range failed {
			names[i] = m.Metric + " " + v.Subject(m)
		}
		return fmt.Errorf("validate: %d of %d judged metrics out of tolerance (%s): %w", len(failed), v.Passed+v.FailedCount,
			strings.Join(names, ", "), validate.ErrOutOfTolerance)
	}
	return nil
}

func writeValidationTable(w io.Writer, v *validate.Report) error {
	if p := v.Point; p != nil {
		fmt.Fprintf(w, "validate response point: %s, %s loss p = %g, RTT %s, MSS %g bytes, seed %d\n", p.Algorithm, p.LossModel, p.P,
			model.FormatDuration(p.RTTS), p.MSSBytes, v.Seed)
		fmt.Fprintf(w, "both engines start at %.4g packets in congestion avoidance; %d warm-up and %d measured loss events of the packet engine\n",
			p.StartCwndPkts, p.WarmupLosses, p.Losses)
	} else {
		seeds := fmt.Sprintf("seed %d", v.Seed)
		if n := len(v.Seeds); n > 1 {
			seeds = fmt.Sprintf("means over seeds %d–%d (the error's ci95 from their spread)", v.Seeds[0], v.Seeds[n-1])
		}
		fmt.Fprintf(w, "validate scenario %s, %s, fluid drop rule %s\n", v.Scenario, seeds, v.DropRule)
	}
	fmt.Fprintf(w, "fluid form %s: counted as a packet sender counts (the window held through each recovery, whole packets in flight)\n", v.Form)
	for _, headline := range []bool{false, true} {
		var ms []validate.Metric
		for _, m := range v.Metrics {
			if m.Headline == headline {
				ms = append(ms, m)
			}
		}
		if len(ms) == 0 {
			continue
		}
		if headline {
			fmt.Fprintln(w, "headline (the source's numbers):")
		}
		tw := newTable(w)
		fmt.Fprintln(tw, "metric\tsubject\tfluid\tpacket\terror\ttolerance\tverdict")
		for _, m := range ms {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Metric, v.Subject(m), cell("%.6g", m.Fluid), cell("%.6g", m.Packet), m.ErrorText(), m.ToleranceText(), m.Verdict())
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, n := range v.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	verdict := fmt.Sprintf("%d judged metrics within tolerance", v.Passed)
	if v.FailedCount > 0 {
		verdict = fmt.Sprintf("%d of %d judged metrics out of tolerance", v.FailedCount, v.Passed+v.FailedCount)
	}
	if v.Undecided > 0 {
		verdict += fmt.Sprintf("; %d verdicts undecided by the seeds' 95%% intervals", v.Undecided)
	}
	if v.NotJudged > 0 {
		verdict += fmt.Sprintf("; %d not judged", v.NotJudged)
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}

// writeValidationCSV writes a row per metric: what it is, both engines' values, the error
// and its tolerance, and the verdict.
func writeValidationCSV(w io.Writer, v *validate.Report) error {
	cw := newCSV(w, "scenario", "metric", "subject", "fluid", "packet", "error_kind", "error", "ci95", "tolerance", "judged", "ok", "headline", "verdict")
	name := v.Scenario
	if p := v.Point; p != nil {
		name = fmt.Sprintf("point %s %s p=%s rtt=%ss", p.Algorithm, p.LossModel, full(p.P), full(p.RTTS))
	}
	for _, m := range v.Metrics {
		cw.row(name, m.Metric, v.Subject(m), full(m.Fluid), full(m.Packet), string(m.Kind), full(m.Error), fullPtr(m.CI95), fullPtr(m.Tolerance),
			strconv.FormatBool(m.Judged), strconv.FormatBool(m.OK), strconv.FormatBool(m.Headline), m.Verdict())
	}
	return cw.flush()
}

// writeTable3Orders prints each pair of Table 3's ranking, how often ns-2.35 orders it so
// and each engine's order; only the pairs ns-2 decides are judged.
func writeTable3Orders(w io.Writer, orders []seeds.Table3Order) error {
	fmt.Fprintf(w, "ranking, Table 3: %s; a pair is judged where ns-2.35 orders it so beyond chance in %d runs with the CBR sources started 0–%d ms later (sign test, p < %g)\n",
		strings.Join(seeds.Table3Ranking, " > "), seeds.Table3PhaseRuns, seeds.Table3PhaseRuns-1, seeds.Table3SignificanceLevel)
	tw := newTable(w)
	fmt.Fprintln(tw, "pair\tns-2 runs in this order\tp\tfluid\tpacket")
	for _, o := range orders {
		verdict := func(ok bool) string {
			switch {
			case o.Judged && ok:
				return "ok"
			case o.Judged:
				return "FAIL"
			case ok:
				return "in order (not judged)"
			}
			return "reversed (not judged)"
		}
		fmt.Fprintf(tw, "%s > %s\t%d of %d\t%.2g\t%s\t%s\n", o.Higher, o.Lower, o.NS2Agree, o.NS2Runs, o.PValue, verdict(o.FluidOK), verdict(o.PacketOK))
	}
	return tw.Flush()
}

// writeTable3CSV writes a row per algorithm and source (table, fluid, packet).
func writeTable3CSV(w io.Writer, rep *seeds.Table3Report) error {
	cw := newCSV(w, "algorithm", "source", "dropped_pkts", "delivered_pkts", "goodput_bps", "ok")
	for _, r := range rep.Rows {
		for _, e := range []struct {
			source string
			n      seeds.Table3Numbers
			ok     string
		}{{"table", r.Table, ""}, {"fluid", r.Fluid, strconv.FormatBool(r.FluidOK)}, {"packet", r.Packet, strconv.FormatBool(r.PacketOK)}} {
			cw.row(r.Algorithm, e.source, full(e.n.DroppedPkts), full(e.n.DeliveredPkts), full(e.n.GoodputBps), e.ok)
		}
	}
	return cw.flush()
}

func writeTable3(w io.Writer, rep *seeds.Table3Report) error {
	fmt.Fprintf(w, "seed 003 (%s): Table 3 beside both engines, seed %d, fluid form %s\n", rep.Scenario, rep.Seed, rep.Form)
	fmt.Fprintln(w, "dropped: TCP packets dropped at the bottleneck n3-n4; sent: delivered_pkts; throughput: goodput_bps")
	tw := newTable(w)
	fmt.Fprintln(tw, "algorithm\tdropped table\tfluid\tpacket\tsent table\tfluid\tpacket\tthroughput table (kb/s)\tfluid\tpacket\tfluid\tpacket")
	verdict := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "FAIL"
	}
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%s\t%.0f\t%.1f\t%.0f\t%.0f\t%.0f\t%.0f\t%.2f\t%.2f\t%.2f\t%s\t%s\n", r.Algorithm,
			r.Table.DroppedPkts, r.Fluid.DroppedPkts, r.Packet.DroppedPkts,
			r.Table.DeliveredPkts, r.Fluid.DeliveredPkts, r.Packet.DeliveredPkts,
			r.Table.GoodputBps/1e3, r.Fluid.GoodputBps/1e3, r.Packet.GoodputBps/1e3, verdict(r.FluidOK), verdict(r.PacketOK))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeTable3Orders(w, rep.Orders); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "checks (each engine): sent and throughput within %g%% of Table 3, no drops where the table has none; drops are not judged (ns-2 itself drops 19–31 with Reno as the CBR phase moves)\n", 100*rep.Tolerance)
	return err
}
