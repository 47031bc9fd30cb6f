package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/seeds"
	"github.com/tcpfluid/tcpfluid/validate"
)

func validateCommand() *cli.Command {
	flags := append(scenarioFlags(),
		&cli.StringFlag{Name: "loss-model", Usage: "response point: periodic or random", DefaultText: "periodic"},
		&cli.StringFlag{Name: "p", Usage: "response point: loss rate per packet, e.g. 1e-4"},
		&cli.StringFlag{Name: "rtt", Value: "100ms", Usage: "response point: round-trip time"},
		&cli.StringFlag{Name: "mss", Value: "1460B", Usage: "response point: packet size"},
		&cli.IntFlag{Name: "warmup-losses", Usage: "response point: loss events discarded", DefaultText: "20"},
		&cli.IntFlag{Name: "losses", Usage: "response point: measured loss events", DefaultText: "periodic 20, random 400 (fewer below p = 4e-6: 100 at 1e-6)"},
		&cli.BoolFlag{Name: "table3", Usage: "seed 003's experiment: Tahoe, Reno, NewReno and Vegas in both engines beside its Table 3"},
		&cli.BoolFlag{Name: "all", Usage: "every built-in scenario and Table 3: one line each with its worst judged metric"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of every random draw (both engines)"},
		formatFlag(),
	)
	return &cli.Command{
		Name:  "validate",
		Usage: "the same scenario in the fluid and the packet engine, side by side",
		Description: "Runs one scenario (--scenario or --builtin, --algo to set every flow's algorithm), one " +
			"response point (--algo reno --loss-model random --p 1e-4 --rtt 100ms: one flow alone on an " +
			"uncongested path), or seed 003's experiment (--table3) in both engines with the same seed, and " +
			"compares them metric by metric against stated tolerances (docs/validate.md). A built-in seed " +
			"scenario adds its headline: the numbers its source reports (seed000-* goodput, " +
			"slow-start drops; seed001-mptcp each path's share and the 10 GB download time, with SACK senders " +
			"as on its Linux testbed; seed002-mesh packets delivered by 120 s and the route-aware lead; " +
			"seed004-lfn completion times), within 10%; the generic metrics of a flow whose packet sender timed " +
			"out then inform (\"info\") and the headline decides. Flows that share no link run one group at " +
			"a time, so that both engines draw the same random losses; under the proportional drop rule the " +
			"packet senders get two packet times of jitter against drop-tail phase effects. The fluid runs " +
			"in its hybrid-recovery form, which counts as a packet sender does: the window holds still for " +
			"one round trip after each loss (fast recovery), ⌊W⌋ packets are in flight, and per-ACK " +
			"increases take the window reached in the round. The exit code is 1 when any metric is out of " +
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
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if format == formatCSV {
		return fmt.Errorf("%w: --format csv: validate prints table or json", errUsage)
	}
	scenario := c.String("scenario") != "" || c.String("builtin") != ""
	point := c.String("p") != "" || c.String("loss-model") != ""
	switch {
	case c.Bool("all"):
		if scenario || point || c.Bool("table3") || c.String("algo") != "" {
			return fmt.Errorf("%w: --all runs every built-in as it is; give no scenario, --algo, response point or --table3", errUsage)
		}
		return validateAll(c, format)
	case c.Bool("table3"):
		if b := c.String("builtin"); c.String("scenario") != "" || (b != "" && b != "seed003-dumbbell") || point || c.String("algo") != "" {
			return fmt.Errorf("%w: --table3 runs seed003-dumbbell's four algorithms; give no other scenario, --algo or response point", errUsage)
		}
		rep, err := seeds.Table3Experiment(c.Context, c.Uint64("seed"))
		if err != nil {
			return err
		}
		if format == formatJSON {
			err = writeJSON(c.App.Writer, rep)
		} else {
			err = writeTable3(c.App.Writer, rep)
		}
		if err != nil || rep.OK {
			return err
		}
		return fmt.Errorf("validate --table3: an engine misses Table 3: %w", validate.ErrOutOfTolerance)
	case scenario && point:
		return fmt.Errorf("%w: give a scenario (--scenario/--builtin) or a response point (--p, --loss-model), not both", errUsage)
	case scenario:
		sc, err := loadScenario(c)
		if err != nil {
			return err
		}
		v, err := validate.Scenario(c.Context, sc, c.Uint64("seed"))
		if err != nil {
			return err
		}
		return reportValidation(c, format, v)
	case point:
		spec, err := pointSpec(c)
		if err != nil {
			return err
		}
		v, err := validate.Point(c.Context, spec)
		if err != nil {
			return settingsError(err)
		}
		return reportValidation(c, format, v)
	}
	return fmt.Errorf("%w: need a scenario (--scenario FILE or --builtin NAME), a response point (--algo A --p P), or --table3", errUsage)
}

// pointSpec reads a response point from the flags.
func pointSpec(c *cli.Context) (validate.PointSpec, error) {
	spec := validate.PointSpec{
		Algorithm: c.String("algo"), LossModel: c.String("loss-model"), Seed: c.Uint64("seed"),
		WarmupLosses: c.Int("warmup-losses"), Losses: c.Int("losses"),
	}
	if spec.Algorithm == "" {
		return spec, fmt.Errorf("%w: a response point needs --algo (see tcpfluid algos)", errUsage)
	}
	if c.String("p") == "" {
		return spec, fmt.Errorf("%w: a response point needs --p, the loss rate per packet (0 < p < 1)", errUsage)
	}
	var err error
	if spec.P, err = parseQuantity(c, "p", model.ParseNumber); err != nil {
		return spec, err
	}
	if spec.RTTS, err = parseQuantity(c, "rtt", model.ParseDuration); err != nil {
		return spec, err
	}
	if spec.MSSBytes, err = parseQuantity(c, "mss", model.ParseSize); err != nil {
		return spec, err
	}
	params, err := paramOverrides(c)
	if err != nil {
		return spec, err
	}
	spec.Params = params[spec.Algorithm]
	return spec, nil
}

// reportValidation prints the comparison and fails with validate.ErrOutOfTolerance (exit
// code 1) when a metric is out of tolerance.
func reportValidation(c *cli.Context, format string, v *validate.Report) error {
	var err error
	if format == formatJSON {
		err = writeJSON(c.App.Writer, v)
	} else {
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
		fmt.Fprintf(w, "validate scenario %s, seed %d, fluid drop rule %s\n", v.Scenario, v.Seed, v.DropRule)
	}
	fmt.Fprintf(w, "fluid form %s: counted as a packet sender counts (recovery hold of one RTT, whole packets in flight)\n", v.Form)
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
			fmt.Fprintf(tw, "%s\t%s\t%.6g\t%.6g\t%s\t%s\t%s\n", m.Metric, v.Subject(m), m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText(), m.Verdict())
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
	if v.NotJudged > 0 {
		verdict += fmt.Sprintf("; %d not judged", v.NotJudged)
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
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
	for _, e := range []struct {
		engine string
		ok     bool
	}{{"fluid", rep.FluidRankingOK}, {"packet", rep.PacketRankingOK}} {
		verb := "ranks"
		if !e.ok {
			verb = "does not rank"
		}
		fmt.Fprintf(w, "the %s engine %s throughput as Table 3 does: %s\n", e.engine, verb, strings.Join(seeds.Table3Ranking, " > "))
	}
	_, err := fmt.Fprintf(w, "checks (each engine): sent and throughput within %g%% of Table 3, no drops where the table has none; drops are not judged (ns-2 itself drops 19–31 with Reno as the CBR phase moves)\n", 100*rep.Tolerance)
	return err
}
