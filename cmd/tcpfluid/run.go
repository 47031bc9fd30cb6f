package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

var engines = []string{"fluid", "packet"}

// reactionModes are --reactions' values, in fluid.Reactions order.
var reactionModes = []string{"auto", "exact", "merged"}

// reactionsOf is --reactions as the fluid engine's setting.
func reactionsOf(c *cli.Context) fluid.Reactions {
	return fluid.Reactions(slices.Index(reactionModes, enumOf(c, "reactions")))
}

func runCommand() *cli.Command {
	flags := append(scenarioFlags(),
		enumFlag("engine", "fluid", engines, "engine"),
		enumFlag("form", fluid.FormHybrid, []string{fluid.FormHybrid, fluid.FormHybridRecovery, fluid.FormMeanField},
			"fluid engine's form: hybrid (the textbook sawtooth), hybrid-recovery (counted as a packet sender counts, what validate runs) or meanfield (classes of identical flows as delay-differential equations of the mean window)"),
		seedFlag("seed of every random draw"),
		func() cli.Flag {
			f := numberFlag("fold-delay", "", closed(0, 0.5), "fluid engine: fold flows that differ only in private links (a dumbbell's access links) "+
				"whose delays share a bin of this relative width into one class, on links of their mean delay — an approximation that moves each "+
				"flow's propagation delay by less than the bin and runs a dumbbell of distinct round trips at the cost of its bins (0.02: 2%; 0 "+
				"folds exact copies only; not given, a run of 200 classes or more that 0.02 would halve folds at 0.02 and says so on standard error)")
			f.DefaultText = "auto"
			return f
		}(),
		enumFlag("reactions", "auto", reactionModes, "fluid engine: how the flows' reactions to drop-tail losses meet the solver: "+
			"exact (a stop at each, and at each drop of the proportional rules, at its own time), merged (a reaction may wait a quarter "+
			"of its flow's ACK spacing to share a stop with others': a packet sender reacts on an ACK, so it cannot place its reaction "+
			"finer either; the proportional rules' drops are found after the solver steps that hold them) or auto (merged from "+
			"50 classes of flows on, exact below)"),
		stringFlag("trace", "", "write the time series as CSV to `FILE`"),
		func() cli.Flag {
			f := durationFlag("sample", "", positive, "interval of the time series (--trace, --format csv)")
			f.DefaultText = "duration/1000"
			return f
		}(),
	)
	flags = append(append(append(flags, packetOptionFlags(true)...), flowOptionFlags()...), formatFlag(),
		maxSamplesFlag(), maxRoundsFlag(), maxPacketsFlag())
	return &cli.Command{
		Name:  "run",
		Usage: "run one scenario: summary and time series of every flow and queue",
		Description: "Runs a scenario file or a built-in scenario in the fluid (default) or the packet " +
			"engine. --format json prints the summary; --format csv prints the time series " +
			"(columns t_s,flow,subflow,link,cwnd_pkts,ssthresh_pkts,rate_bps,rtt_s,queue_pkts,delivered_pkts: " +
			"one row per flow (or MPTCP subflow) per sample with the queue summed over its path and " +
			"the cumulative delivered packets, and one row per link per sample with flow = -1). " +
			"Before it starts, the run's work is estimated and refused beyond --max-samples (trace rows), " +
			"--max-rounds (fluid) or --max-packets (packet engine).",
		Flags:  flags,
		Action: runAction,
	}
}

func runAction(c *cli.Context) error {
	format := outputFormat(c)
	sc, err := loadScenario(c, "", true)
	if err != nil {
		return err
	}
	if err := applyFlowOptions(c, sc); err != nil {
		return err
	}
	engine, form := enumOf(c, "engine"), enumOf(c, "form")
	if engine == "packet" && c.IsSet("form") {
		return flagErr(c, "form", "the packet engine has no forms; drop --form or use --engine fluid")
	}
	if engine == "packet" && c.IsSet("fold-delay") {
		return flagErr(c, "fold-delay", "the packet engine runs every flow; drop --fold-delay or use --engine fluid")
	}
	if engine == "packet" && c.IsSet("reactions") {
		return flagErr(c, "reactions", "the packet engine reacts at each ACK; drop --reactions or use --engine fluid")
	}
	pkt, err := packetOptions(c, engine, form)
	if err != nil {
		return err
	}
	tracePath := c.String("trace")
	series := format == formatCSV || tracePath != ""
	sample := 0.0
	switch {
	case c.IsSet("sample") && !series:
		return flagErr(c, "sample", "the interval of the time series, which only --trace FILE and --format csv write")
	case c.IsSet("sample"):
		sample = quantity(c, "sample")
	case series:
		sample = sc.DurationS / 1000
	}
	if err := checkScenarioWork(c, sc, engine, form, sample); err != nil {
		return err
	}
	if engine == "fluid" && form != fluid.FormMeanField {
		fmt.Fprint(c.App.ErrWriter, foldNote(c, sc))
	}
	var trace *os.File
	if tracePath != "" {
		if trace, err = os.Create(tracePath); err != nil {
			return usagef("--trace %s: %v", showValue(tracePath), errors.Unwrap(err))
		}
		defer trace.Close()
	}
	bar := startProgress(c, fmt.Sprintf("run %s (%s)", sc.Name, engine), 0)
	set := foldOf(c)
	set.Seed, set.SampleS, set.Form, set.Reactions = seedOf(c), sample, form, reactionsOf(c)
	set.SendJitterS = pkt.JitterS
	res, err := runEngine(c.Context, engine, set, sc, pkt)
	bar.done()
	if err != nil {
		if trace != nil {
			trace.Close()
			os.Remove(tracePath)
		}
		return err
	}
	if trace != nil {
		if err := writeTraceCSV(trace, res); err != nil {
			return err
		}
		if err := trace.Close(); err != nil {
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
	cw := newCSV(w, "t_s", "flow", "subflow", "link", "cwnd_pkts", "ssthresh_pkts", "rate_bps", "rtt_s", "queue_pkts", "delivered_pkts")
	for _, s := range res.Trace {
		cw.row(full(s.TS), strconv.Itoa(s.Flow), strconv.Itoa(s.Subflow), s.Link, full(s.CwndPkts), full(s.Ssthresh), full(s.RateBps),
			full(s.RTTS), full(s.QueuePkts), full(s.DeliveredPkts))
	}
	return cw.flush()
}

func writeRunTable(w io.Writer, res *model.Result) error {
	folded := ""
	if res.FoldDelay > 0 {
		folded = fmt.Sprintf(", flows of private links' delays within %g%% folded", 100*res.FoldDelay)
	}
	fmt.Fprintf(w, "scenario %s, %s engine, %s, seed %d%s\n", res.Scenario, res.Engine, model.FormatDuration(res.DurationS), res.Seed, folded)
	tw := newTable(w)
	fmt.Fprintln(tw, "flow\tname\talgorithm\tpath\tthroughput\tgoodput\tmean cwnd (pkts)\tloss events\tsent\tdelivered\tdropped\tcompletion")
	for _, f := range res.Flows {
		done := "-"
		if f.CompletionTimeS != nil {
			done = model.FormatDuration(*f.CompletionTimeS)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", f.Flow, f.Name, f.Algorithm, f.Path,
			model.FormatRate(f.MeanThroughputBps), model.FormatRate(f.GoodputBps), cell("%.1f", f.MeanCwndPkts), f.LossEvents,
			cell("%.0f", f.SentPkts), cell("%.0f", f.DeliveredPkts), cell("%.0f", f.DroppedPkts), done)
	}
	tw.Flush()
	tw = newTable(w)
	fmt.Fprintln(tw, "link\tmean queue (pkts)\tqueue sd (pkts)\tutilisation\tdropped (pkts)")
	for _, l := range res.Links {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%%\t%s\n", l.Link, cell("%.2f", l.MeanQueuePkts), cell("%.2f", l.QueueSDPkts),
			cell("%.1f", 100*l.Utilisation), cell("%.0f", l.DroppedPkts))
	}
	return tw.Flush()
}
