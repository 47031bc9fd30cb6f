package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

func scenarioFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "scenario", Usage: "scenario `FILE` (YAML; see testdata/scenarios/example.yaml)"},
		&cli.StringFlag{Name: "builtin", Usage: "built-in scenario `NAME`: " + strings.Join(model.BuiltinNames(), ", ")},
		&cli.StringFlag{Name: "algo", Usage: "set every TCP flow's algorithm (see `tcpfluid algos`)"},
		&cli.StringSliceFlag{Name: "param", Usage: "algorithm parameter `algo.name=value` for flows of that algorithm (repeatable)"},
		&cli.StringFlag{Name: "drop-rule", Usage: "fluid drop-tail rule: synchronized or proportional (default: the scenario's, else synchronized)"},
		&cli.StringFlag{Name: "duration", Usage: "override the scenario's duration (e.g. 30s)"},
	}
}

// loadScenario builds the validated scenario named by --scenario or --builtin with the
// command-line overrides applied.
func loadScenario(c *cli.Context) (*model.Scenario, error) {
	file, builtin := c.String("scenario"), c.String("builtin")
	var (
		sc  *model.Scenario
		err error
	)
	switch {
	case file != "" && builtin != "":
		return nil, fmt.Errorf("%w: give --scenario or --builtin, not both", errUsage)
	case file != "":
		sc, err = model.LoadScenarioFile(file)
	case builtin != "":
		sc, err = model.Builtin(builtin)
	default:
		return nil, fmt.Errorf("%w: need --scenario FILE or --builtin NAME (one of %s)", errUsage, strings.Join(model.BuiltinNames(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, err)
	}
	if a := c.String("algo"); a != "" {
		if err := sc.SetAlgorithm(a); err != nil {
			return nil, fmt.Errorf("%w: --algo: %w", errUsage, err)
		}
	}
	for _, p := range c.StringSlice("param") {
		algo, name, value, err := parseParam(p)
		if err != nil {
			return nil, err
		}
		for i := range sc.Flows {
			if sc.Flows[i].Algorithm != algo {
				continue
			}
			if sc.Flows[i].Params == nil {
				sc.Flows[i].Params = map[string]float64{}
			}
			sc.Flows[i].Params[name] = value
		}
	}
	if r := c.String("drop-rule"); r != "" {
		sc.DropRule = model.DropRule(r)
	}
	if d := c.String("duration"); d != "" {
		v, err := model.ParseDuration(d)
		if err != nil {
			return nil, fmt.Errorf("%w: --duration: %w", errUsage, err)
		}
		sc.SetDuration(v)
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, err)
	}
	return sc, nil
}

// parseParam splits "algo.name=value".
func parseParam(s string) (algo, name string, value float64, err error) {
	key, val, ok := strings.Cut(s, "=")
	algo, name, ok2 := strings.Cut(key, ".")
	if !ok || !ok2 || algo == "" || name == "" {
		return "", "", 0, fmt.Errorf("%w: --param %q: want algo.name=value, e.g. cubic.beta=0.7", errUsage, s)
	}
	value, err = strconv.ParseFloat(strings.TrimSpace(val), 64)
	if err != nil {
		return "", "", 0, fmt.Errorf("%w: --param %q: value %q is not a number", errUsage, s, val)
	}
	return algo, name, value, nil
}

func runCommand() *cli.Command {
	flags := append(scenarioFlags(),
		&cli.StringFlag{Name: "engine", Value: "fluid", Usage: "fluid or packet"},
		&cli.StringFlag{Name: "form", Value: fluid.FormHybrid, Usage: "fluid engine: hybrid (the textbook sawtooth), hybrid-recovery (counted as a packet sender counts, what validate runs) or meanfield (classes of identical flows as delay-differential equations of the mean window)"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of every random draw"},
		&cli.StringFlag{Name: "trace", Usage: "write the time series as CSV to `FILE`"},
		&cli.StringFlag{Name: "sample", Value: "", Usage: "trace interval (default: duration/1000)"},
	)
	flags = append(append(append(flags, packetOptionFlags()...), flowOptionFlags()...), formatFlag())
	return &cli.Command{
		Name:  "run",
		Usage: "run one scenario: summary and time series of every flow and queue",
		Description: "Runs a scenario file or a built-in scenario in the fluid (default) or the packet " +
			"engine. --format json prints the summary; --format csv prints the time series " +
			"(columns t_s,flow,subflow,link,cwnd_pkts,ssthresh_pkts,rate_bps,rtt_s,queue_pkts,delivered_pkts: " +
			"one row per flow (or MPTCP subflow) per sample with the queue summed over its path and " +
			"the cumulative delivered packets, and one row per link per sample with flow = -1).",
		Flags:  flags,
		Action: runAction,
	}
}

func runAction(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	sc, err := loadScenario(c)
	if err != nil {
		return err
	}
	sample := sc.DurationS / 1000
	if s := c.String("sample"); s != "" {
		if sample, err = model.ParseDuration(s); err != nil || sample <= 0 {
			return fmt.Errorf("%w: --sample %q: want a positive duration such as 10ms", errUsage, s)
		}
	}
	if format != formatCSV && c.String("trace") == "" {
		sample = 0
	}
	if err := applyFlowOptions(c, sc); err != nil {
		return err
	}
	pkt, err := packetOptions(c)
	if err != nil {
		return err
	}
	form := c.String("form")
	if form != fluid.FormHybrid && form != fluid.FormHybridRecovery && form != fluid.FormMeanField {
		return fmt.Errorf("%w: --form %q: want %s, %s or %s", errUsage, form, fluid.FormHybrid, fluid.FormHybridRecovery, fluid.FormMeanField)
	}
	res, err := runEngine(c.Context, c.String("engine"), form, sc, c.Uint64("seed"), sample, pkt)
	if err != nil {
		return err
	}
	if path := c.String("trace"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := writeTraceCSV(f, res); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	w := c.App.Writer
	switch format {
	case formatJSON:
		return writeJSON(w, res)
	case formatCSV:
		return writeTraceCSV(w, res)
	}
	return writeRunTable(w, res)
}

func writeTraceCSV(w io.Writer, res *model.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"t_s", "flow", "subflow", "link", "cwnd_pkts", "ssthresh_pkts", "rate_bps", "rtt_s", "queue_pkts", "delivered_pkts"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	for _, s := range res.Trace {
		cw.Write([]string{g(s.TS), strconv.Itoa(s.Flow), strconv.Itoa(s.Subflow), s.Link, g(s.CwndPkts), g(s.Ssthresh), g(s.RateBps), g(s.RTTS), g(s.QueuePkts), g(s.DeliveredPkts)})
	}
	cw.Flush()
	return cw.Error()
}

func writeRunTable(w io.Writer, res *model.Result) error {
	fmt.Fprintf(w, "scenario %s, %s engine, %g s, seed %d\n", res.Scenario, res.Engine, res.DurationS, res.Seed)
	tw := newTable(w)
	fmt.Fprintln(tw, "flow\tname\talgorithm\tpath\tthroughput\tgoodput\tmean cwnd (pkts)\tloss events\tsent\tdelivered\tdropped\tcompletion")
	for _, f := range res.Flows {
		done := "-"
		if f.CompletionTimeS != nil {
			done = model.FormatDuration(*f.CompletionTimeS)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%.1f\t%d\t%.0f\t%.0f\t%.0f\t%s\n", f.Flow, f.Name, f.Algorithm, f.Path,
			model.FormatRate(f.MeanThroughputBps), model.FormatRate(f.GoodputBps), f.MeanCwndPkts, f.LossEvents,
			f.SentPkts, f.DeliveredPkts, f.DroppedPkts, done)
	}
	tw.Flush()
	tw = newTable(w)
	fmt.Fprintln(tw, "link\tmean queue (pkts)\tutilisation\tdropped (pkts)")
	for _, l := range res.Links {
		fmt.Fprintf(tw, "%s\t%.2f\t%.1f%%\t%.0f\n", l.Link, l.MeanQueuePkts, 100*l.Utilisation, l.DroppedPkts)
	}
	return tw.Flush()
}
