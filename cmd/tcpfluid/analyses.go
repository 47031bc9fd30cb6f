package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
)

func algoListFlag(usage string) *cli.StringFlag {
	return &cli.StringFlag{Name: "algo", Usage: usage}
}

func workersFlag() *cli.IntFlag {
	return &cli.IntFlag{Name: "workers", Usage: "points run at once (default: all cores)"}
}

// splitList splits a comma list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// parseQuantities parses a comma list with one of model's unit parsers.
func parseQuantities(flag, s string, parse func(string) (float64, error)) ([]float64, error) {
	var out []float64
	for _, item := range splitList(s) {
		v, err := parse(item)
		if err != nil {
			return nil, fmt.Errorf("%w: --%s: %w", errUsage, flag, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// quantityFlag is a flag with units and where its value goes.
type quantityFlag struct {
	flag  string
	dst   *float64
	parse func(string) (float64, error)
}

// parseFlags parses each set flag into its destination; unset flags leave it as it is.
func parseFlags(c *cli.Context, flags []quantityFlag) error {
	for _, q := range flags {
		v, err := parseQuantity(c, q.flag, q.parse)
		if err != nil {
			return err
		}
		if c.String(q.flag) != "" {
			*q.dst = v
		}
	}
	return nil
}

func parseQuantity(c *cli.Context, flag string, parse func(string) (float64, error)) (float64, error) {
	s := c.String(flag)
	if s == "" {
		return 0, nil
	}
	v, err := parse(s)
	if err != nil {
		return 0, fmt.Errorf("%w: --%s: %w", errUsage, flag, err)
	}
	return v, nil
}

// paramOverrides turns repeated --param algo.name=value flags into a per-algorithm map.
func paramOverrides(c *cli.Context) (map[string]map[string]float64, error) {
	out := map[string]map[string]float64{}
	for _, p := range c.StringSlice("param") {
		algo, name, v, err := parseParam(p)
		if err != nil {
			return nil, err
		}
		if out[algo] == nil {
			out[algo] = map[string]float64{}
		}
		out[algo][name] = v
	}
	return out, nil
}

func paramFlag() *cli.StringSliceFlag {
	return &cli.StringSliceFlag{Name: "param", Usage: "algorithm parameter `algo.name=value` (repeatable)"}
}

// settingsError marks analysis-settings errors as the user's.
func settingsError(err error) error {
	if err != nil && strings.Contains(err.Error(), model.ErrSettings.Error()) {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	return err
}

func responseCommand() *cli.Command {
	return &cli.Command{
		Name:  "response",
		Usage: "response functions (mean window against loss rate) and their c/p^d fits",
		Description: "For each algorithm and each loss rate on a log grid, runs one long-lived flow on an " +
			"uncongested path until its mean window is stable, and fits log W = log c - d log p " +
			"(gonum/stat) over the points where the published reference applies. Each fit is shown " +
			"next to its reference, with the TCP-friendliness crossing point against Reno and the " +
			"RTT exponent e of W ∝ RTT^e fitted at p = 1e-6.",
		Flags: []cli.Flag{
			algoListFlag("comma list of algorithms (default: the classic set)"),
			&cli.StringFlag{Name: "loss-model", Value: "periodic", Usage: "periodic or random"},
			&cli.StringFlag{Name: "p-min", Value: "1e-7", Usage: "smallest loss rate per packet"},
			&cli.StringFlag{Name: "p-max", Value: "1e-2", Usage: "largest loss rate per packet"},
			&cli.IntFlag{Name: "points", Value: 11, Usage: "log-spaced loss rates"},
			&cli.StringFlag{Name: "rtt", Value: "100ms", Usage: "round-trip time"},
			&cli.StringFlag{Name: "mss", Value: "1460B", Usage: "packet size"},
			&cli.IntFlag{Name: "warmup-losses", Usage: "loss events discarded before measuring (default 100)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random loss"},
			paramFlag(), workersFlag(), formatFlag(),
		},
		Action: responseAction,
	}
}

func responseAction(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	s := response.Settings{
		Algorithms: splitList(c.String("algo")), LossModel: c.String("loss-model"),
		Points: c.Int("points"), Seed: c.Uint64("seed"), Workers: c.Int("workers"),
		WarmupLosses: c.Int("warmup-losses"),
	}
	if err := parseFlags(c, []quantityFlag{
		{"p-min", &s.PMin, model.ParseNumber},
		{"p-max", &s.PMax, model.ParseNumber},
		{"rtt", &s.RTTS, model.ParseDuration},
		{"mss", &s.MSSBytes, model.ParseSize},
	}); err != nil {
		return err
	}
	if s.Params, err = paramOverrides(c); err != nil {
		return err
	}
	rep, err := response.Response(c.Context, s)
	if err != nil {
		return settingsError(err)
	}
	w := c.App.Writer
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		fmt.Fprintln(w, "algorithm,p,mean_cwnd_pkts,ci95_pkts,throughput_bps,loss_events")
		for _, r := range rep.Results {
			for _, p := range r.Points {
				fmt.Fprintf(w, "%s,%s,%s,%s,%s,%d\n", r.Algorithm, num(p.P), num(p.MeanCwndPkts), num(p.CI95Pkts), num(p.ThroughputBps), p.LossEvents)
			}
		}
		return nil
	}
	return writeResponseTable(w, rep)
}

func writeResponseTable(w io.Writer, rep *response.ResponseReport) error {
	fmt.Fprintf(w, "response functions: %s loss, RTT %s, MSS %g bytes, %s fluid form\n", rep.LossModel,
		model.FormatDuration(rep.RTTS), rep.MSSBytes, rep.Form)
	tw := newTable(w)
	fmt.Fprintln(tw, "algorithm\tc\td\tR²\tfit p ≤\treference c·τ^e\td\tsource\tfriendly p*\tW* (pkts)\tRTT exp")
	for _, r := range rep.Results {
		ref, refD, src := "-", "-", "-"
		if r.Reference != nil {
			ref, refD, src = fmt.Sprintf("%.4g", r.RefC), num(r.Reference.D), r.Reference.Source
		}
		pStar, wStar := "-", "-"
		if r.Friendly != nil {
			pStar, wStar = fmt.Sprintf("%.3g", r.Friendly.PStar), fmt.Sprintf("%.1f", r.Friendly.WStarPkts)
		}
		exp := "-"
		if r.RTTExp != nil {
			exp = fixed3(r.RTTExp.E)
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%.4f\t%.5f\t%.0e\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Algorithm, r.C, r.D, r.R2, r.FitPMax,
			ref, refD, src, pStar, wStar, exp)
	}
	return tw.Flush()
}

func convergeCommand() *cli.Command {
	return &cli.Command{
		Name:  "converge",
		Usage: "time to fill a link and to recover after a loss",
		Description: "fill_time_s: from W = 1 in congestion avoidance (no slow start) until W reaches " +
			"the BDP; recovery_time_s: from the window just after a loss at W = BDP back to the BDP. " +
			"Closed forms are shown where they exist (REFERENCE.md), with the relative difference.",
		Flags: []cli.Flag{
			algoListFlag("comma list of algorithms (default: the classic set)"),
			&cli.StringFlag{Name: "bandwidth", Value: "1Gbps,10Gbps", Usage: "comma list of link rates"},
			&cli.StringFlag{Name: "rtt", Value: "100ms", Usage: "round-trip time"},
			&cli.StringFlag{Name: "mss", Value: "1000B,1500B", Usage: "comma list of packet sizes"},
			&cli.BoolFlag{Name: "slow-start", Usage: "add the fill time with slow start from the initial window"},
			paramFlag(), workersFlag(), formatFlag(),
		},
		Action: convergeAction,
	}
}

func convergeAction(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	s := response.ConvergeSettings{Algorithms: splitList(c.String("algo")), SlowStart: c.Bool("slow-start"), Workers: c.Int("workers")}
	if s.BandwidthsBps, err = parseQuantities("bandwidth", c.String("bandwidth"), model.ParseRate); err != nil {
		return err
	}
	if s.MSSBytes, err = parseQuantities("mss", c.String("mss"), model.ParseSize); err != nil {
		return err
	}
	if s.RTTS, err = parseQuantity(c, "rtt", model.ParseDuration); err != nil {
		return err
	}
	if s.Params, err = paramOverrides(c); err != nil {
		return err
	}
	rep, err := response.Converge(c.Context, s)
	if err != nil {
		return settingsError(err)
	}
	w := c.App.Writer
	opt := func(p *float64) string {
		if p == nil {
			return ""
		}
		return num(*p)
	}
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		fmt.Fprintln(w, "algorithm,bandwidth_bps,rtt_s,mss_bytes,bdp_pkts,fill_time_s,recovery_time_s,fill_closed_form_s,recovery_closed_form_s")
		for _, r := range rep.Results {
			fmt.Fprintf(w, "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r.Algorithm, num(r.BandwidthBps), num(r.RTTS), num(r.MSSBytes), num(r.BDPPkts),
				opt(r.FillTimeS), opt(r.RecoveryTimeS), opt(r.FillClosedFormS), opt(r.RecoveryClosedFormS))
		}
		return nil
	}
	secs := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatFloat(*p, 'f', 2, 64)
	}
	pct := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%+.2f%%", 100**p)
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "algorithm\tlink\tMSS\tBDP (pkts)\tfill (s)\tclosed form\tdiff\trecovery (s)\tclosed form\tdiff")
	for _, r := range rep.Results {
		fmt.Fprintf(tw, "%s\t%s\t%gB\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Algorithm, model.FormatRate(r.BandwidthBps), r.MSSBytes, r.BDPPkts,
			secs(r.FillTimeS), secs(r.FillClosedFormS), pct(r.FillRelDiff), secs(r.RecoveryTimeS), secs(r.RecoveryClosedFormS), pct(r.RecoveryRelDiff))
	}
	return tw.Flush()
}

func fairnessCommand() *cli.Command {
	return &cli.Command{
		Name:  "fairness",
		Usage: "Jain's index, RTT fairness and TCP friendliness",
		Description: "Runs flows on seed 000's dumbbell (access 200 Mb/s 10 ms, bottleneck 100 Mb/s 100 ms, " +
			"buffer 1 BDP): --mode same (N flows of one algorithm, staggered starts), --mode rtt (one flow " +
			"per RTT; the bottleneck's delay becomes a quarter of the smallest RTT and access delays make " +
			"up the rest; the RTT-unfairness exponent is fitted from the shares) or --mode friendliness " +
			"(the algorithm against --against reno:4). Shares and Jain's index are measured from " +
			"--measure-from (default: half the run) to the end; jain_series over windows.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "mode", Value: "same", Usage: "same, rtt or friendliness"},
			algoListFlag("comma list of algorithms, one run each (default reno)"),
			&cli.IntFlag{Name: "flows", Value: 3, Usage: "same mode: number of flows"},
			&cli.StringFlag{Name: "start-gap", Value: "10s", Usage: "same mode: time between flow starts"},
			&cli.StringFlag{Name: "rtts", Value: "50ms,75ms,100ms", Usage: "rtt mode: one flow per round-trip time"},
			&cli.StringFlag{Name: "against", Value: "reno:4", Usage: "friendliness mode: algo:count"},
			&cli.StringFlag{Name: "bottleneck", Value: "100Mbps", Usage: "bottleneck rate"},
			&cli.StringFlag{Name: "bottleneck-delay", Value: "100ms", Usage: "bottleneck one-way delay"},
			&cli.StringFlag{Name: "access", Value: "200Mbps", Usage: "access link rate"},
			&cli.StringFlag{Name: "access-delay", Value: "10ms", Usage: "access link one-way delay"},
			&cli.StringFlag{Name: "buffer", Value: "1bdp", Usage: "bottleneck buffer in BDP multiples (e.g. 0.5bdp)"},
			&cli.StringFlag{Name: "p", Value: "0", Usage: "random loss rate on the bottleneck"},
			&cli.StringFlag{Name: "drop-rule", Value: "synchronized", Usage: "drop-tail loss rule: synchronized or proportional"},
			&cli.StringFlag{Name: "duration", Value: "1000s", Usage: "simulated time"},
			&cli.StringFlag{Name: "measure-from", Usage: "start of the measurement (default: half the duration)"},
			&cli.StringFlag{Name: "window", Usage: "window of the Jain series (default: duration/30)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of random draws"},
			paramFlag(), workersFlag(), formatFlag(),
		},
		Action: fairnessAction,
	}
}

func fairnessAction(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	s := response.FairnessSettings{
		Mode: c.String("mode"), Algorithms: splitList(c.String("algo")), Flows: c.Int("flows"),
		DropRule: model.DropRule(c.String("drop-rule")), Seed: c.Uint64("seed"), Workers: c.Int("workers"),
	}
	if s.DropRule != model.DropSynchronized && s.DropRule != model.DropProportional {
		return fmt.Errorf("%w: --drop-rule %q: want synchronized or proportional", errUsage, s.DropRule)
	}
	if err := parseFlags(c, []quantityFlag{
		{"start-gap", &s.StartGapS, model.ParseDuration},
		{"bottleneck", &s.BottleneckBps, model.ParseRate},
		{"bottleneck-delay", &s.BottleneckDelayS, model.ParseDuration},
		{"access", &s.AccessBps, model.ParseRate},
		{"access-delay", &s.AccessDelayS, model.ParseDuration},
		{"p", &s.LossP, model.ParseNumber},
		{"duration", &s.DurationS, model.ParseDuration},
		{"measure-from", &s.MeasureFromS, model.ParseDuration},
		{"window", &s.WindowS, model.ParseDuration},
	}); err != nil {
		return err
	}
	pkts, bdp, err := model.ParseBuffer(c.String("buffer"))
	if err != nil || pkts > 0 {
		return fmt.Errorf("%w: --buffer %q: want a BDP multiple such as 1bdp", errUsage, c.String("buffer"))
	}
	s.BufferBDP = bdp
	if s.RTTsS, err = parseQuantities("rtts", c.String("rtts"), model.ParseDuration); err != nil {
		return err
	}
	against, count, ok := strings.Cut(c.String("against"), ":")
	n, convErr := strconv.Atoi(count)
	if !ok || convErr != nil || n < 1 {
		return fmt.Errorf("%w: --against %q: want algo:count, e.g. reno:4", errUsage, c.String("against"))
	}
	s.Against, s.AgainstFlows = against, n
	if s.Params, err = paramOverrides(c); err != nil {
		return err
	}
	rep, err := response.Fairness(c.Context, s)
	if err != nil {
		return settingsError(err)
	}
	w := c.App.Writer
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		fmt.Fprintln(w, "algorithm,flow,flow_algorithm,rtt_s,throughput_bps,fraction,jain")
		for _, r := range rep.Results {
			for _, sh := range r.Shares {
				fmt.Fprintf(w, "%s,%d,%s,%s,%s,%s,%s\n", r.Algorithm, sh.Flow, sh.Algorithm, num(sh.RTTS), num(sh.ThroughputBps), num(sh.Fraction), num(r.Jain))
			}
		}
		return nil
	}
	fmt.Fprintf(w, "fairness, mode %s, %s loss, drop rule %s, %s fluid form\n", rep.Mode, rep.LossModel, rep.DropRule, rep.Form)
	tw := newTable(w)
	fmt.Fprintln(tw, "algorithm\tflows\tJain\tmin Jain (windows)\tutilisation\tshares (flow: algo, RTT, throughput)\textra")
	for _, r := range rep.Results {
		minJ := 1.0
		for _, j := range r.JainSeries {
			minJ = min(minJ, j.Jain)
		}
		var shares []string
		for _, sh := range r.Shares {
			shares = append(shares, fmt.Sprintf("%d: %s %s %s", sh.Flow, sh.Algorithm, model.FormatDuration(sh.RTTS), model.FormatRate(sh.ThroughputBps)))
		}
		extra := ""
		if r.RTTExponent != nil {
			extra = fmt.Sprintf("RTT exponent %.2f", *r.RTTExponent)
		}
		if r.AlgorithmShare != nil {
			extra = fmt.Sprintf("share %.1f%%", 100**r.AlgorithmShare)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.1f%%\t%s\t%s\n", r.Algorithm, r.Flows, r.Jain, minJ, 100*r.Utilisation, strings.Join(shares, "; "), extra)
	}
	return tw.Flush()
}
