package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/report"
	"github.com/tcpfluid/tcpfluid/sweep"
)

// Environment variables that choose a shard on a cluster when --shard is not given.
const (
	// Slurm job arrays (sbatch --array=0-7): the task's index, and the array's count, min,
	// max and step.
	envSlurmTaskID    = "SLURM_ARRAY_TASK_ID"
	envSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT"
	envSlurmTaskMin   = "SLURM_ARRAY_TASK_MIN"
	envSlurmTaskMax   = "SLURM_ARRAY_TASK_MAX"
	envSlurmTaskStep  = "SLURM_ARRAY_TASK_STEP"
	// Kubernetes Indexed Jobs set the pod's completion index; they publish no count, so
	// --shards must give spec.completions.
	envJobCompletionIndex = "JOB_COMPLETION_INDEX"
)

const sweepDescription = `Runs a scenario (--scenario FILE or --builtin NAME; default seed000-dumbbell) at every
point of a parameter grid and prints one row per point: point, the parameters, the metrics.
The scenario options of 'tcpfluid run' apply to the base: --algo, --drop-rule, --duration,
--delayed-ack, --initial-ssthresh, and with --engine packet --sack and --jitter.

Built-in experiments carry their own sweep, run when --param (and --metric, --replications)
are not given; 'tcpfluid scenario list' shows them, 'tcpfluid scenario show NAME' prints any
built-in as YAML to edit and pass back with --scenario:
  seed000-colo-gamma  γ on slow start: drops before the first loss, peak queue, time to 90%
  seed000-colo-alpha  α_max on queueing after random losses (8 replications)
  seed000-colo-beta   β_min on friendliness against 4 Reno, with and without random loss

--param name=grid (repeatable) names an algorithm parameter algo.param, set on every flow
running that algorithm (colo.gamma, colo.alpha_max, colo.beta_min, cubic.beta; see
tcpfluid algos; use --algo to choose the flows' algorithm), or a scenario parameter:
  buffer    bottleneck buffer, multiples of its bandwidth-delay product (0.5 or 0.5bdp)
  rtt       round trip of flow 0's path (every link delay scaled in proportion), e.g. 50ms
  p         random loss rate per packet on the bottleneck (periodic if the scenario's is); 0: none
  capacity  bottleneck capacity, e.g. 100Mbps
  flows     number of copies of flow 0
  duration  simulated time, e.g. 30s
The bottleneck is --bottleneck, by default the link with the lowest capacity. A grid is
min:max:count (linear), min:max:count:log, or a comma list: colo.gamma=0.5:3:6,
p=1e-6:1e-2:5:log, rtt=50ms,100ms,200ms. Points run in row-major order (the first --param
varies slowest) on --workers goroutines.

--metric (comma list): throughput_bps, goodput_bps (sums over flows), utilisation,
mean_queue_pkts (bottleneck), mean_cwnd_pkts (mean over flows), loss_events, dropped_pkts
(sums), loss_rate (loss events / sent packets), jain (Jain's index of the flows'
throughputs; null with one flow), completion_time_s (latest finite flow; null if none or
unfinished); queue_sd_pkts (the bottleneck queue's standard deviation over time); slow start
(flow 0's first loss event ends it): first_loss_s, first_loss_drops_pkts (packets dropped
until then: the overshoot), peak_queue_pkts and time_to_90pct_s (first time the bottleneck
delivers 90% of its capacity; both sampled every min(RTT/10, duration/100)); per flow:
throughput_bps:FLOW, share:FLOW (of the total throughput), mean_cwnd_pkts:FLOW.
Default: the first ten without jain for one flow, and the per-flow three for 2 to 8 flows.

--replications N runs each point N times with seeds derived from --seed, the point and the
replicate, and reports each metric's mean with METRIC_sd (standard deviation) and
METRIC_ci95 (half width of the 95% confidence interval of the mean, Student's t); a metric
some replicate lacks is null. Tables show mean ± ci95, charts the band mean ± ci95.

A point whose run fails keeps its row, with the error and null metrics; the sweep goes on,
prints every row, and exits 1. Undefined figures are null in JSON and CSV, - in tables; the
notes (JSON "notes", CSV "# note:" lines, lines after the table) say which metrics are null
or unchanged everywhere, and when no metric changed, that the parameter had no effect and
why when the scenario shows it (colo.gamma when the first ssthresh is above the overflow).

Sharding: --shard k/n runs the points i with i mod n = k. Without --shard, the shard comes
from SLURM_ARRAY_TASK_ID (k = (ID - SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP, n =
SLURM_ARRAY_TASK_COUNT, else (MAX - MIN) / STEP + 1, or --shards N) or from a Kubernetes
Indexed Job's JOB_COMPLETION_INDEX (k; n = --shards N, the Job's spec.completions).
Each run's seed is derived from --seed, the point's parameters and the replicate, so results
do not depend on sharding or workers, and 'tcpfluid sweep merge' of the shards' outputs
equals the unsharded output byte for byte (in the same --format). Every output names its
sweep (JSON "spec"; CSV a first line "# tcpfluid sweep {...}"): merge refuses, with exit 1
naming the file, parts of another sweep (scenario, algorithm and parameters, engine and
options, seed, replications, axes, metrics), of another format, overlapping, or incomplete.

--out DIR writes a chart of the sweep (lines for one parameter, heatmaps and lines for
two; a table only for more) as DIR/index.html, SVG figures and CSV/JSON data.`

// gridFlag collects repeated --param values whole: a grid's comma list must not be split
// the way a string-slice flag splits its values.
type gridFlag struct{ values []string }

func (g *gridFlag) Set(s string) error { g.values = append(g.values, s); return nil }
func (g *gridFlag) String() string     { return strings.Join(g.values, " ") }

func sweepOutFlag() cli.Flag {
	return stringFlag("out", "", "write a chart and the data of the sweep to `DIR` (index.html, figures/*.svg, data/*)")
}

func sweepCommand() *cli.Command {
	var flags []cli.Flag
	for _, f := range scenarioFlags() {
		if f.Names()[0] != "param" { // the sweep's --param is a grid
			flags = append(flags, f)
		}
	}
	replications := intFlag("replications", "1", 1, sweep.MaxReplications, "runs per point, each with its own seed: each metric's mean, _sd and _ci95 (95% confidence interval)")
	replications.DefaultText = "1, or a built-in experiment's own"
	shards := intFlag("shards", "", 1, sweep.MaxPoints, "number of shards for an index taken from JOB_COMPLETION_INDEX (required) or SLURM_ARRAY_TASK_ID (overrides the array's count)")
	shards.DefaultText = "none"
	flags = append(append(append(flags, flowOptionFlags()...), packetOptionFlags(false)...),
		&cli.GenericFlag{Name: "param", Value: &gridFlag{}, Usage: "swept parameter `name=grid` (repeatable), e.g. colo.gamma=0.5:3:6, rtt=50ms,100ms, p=1e-6:1e-2:5:log"},
		&cli.StringSliceFlag{Name: "metric", Usage: "`METRICS`, comma-separated (default: the basic ones, per-flow ones for 2 to 8 flows, a built-in experiment's own): " +
			strings.Join(sweep.AllMetrics, ", ") + ", and per flow " + strings.Join(sweep.PerFlowMetrics, ":FLOW, ") + ":FLOW"},
		replications,
		stringFlag("bottleneck", "", "link `NAME` that buffer, p and capacity change and whose queue is measured (default: the lowest capacity)"),
		stringFlag("shard", "", "run shard `k/n`: the points i with i mod n = k (default: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX, else 0/1)"),
		shards,
		seedFlag("seed of the sweep; each point derives its own from it and its parameters"),
		workersFlag(),
		enumFlag("engine", "fluid", engines, "engine"),
		sweepOutFlag(),
		formatFlag(),
		maxRoundsFlag(), maxPacketsFlag(),
	)
	return &cli.Command{
		Name:        "sweep",
		Usage:       "parameter grid over any algorithm or scenario parameter",
		Description: sweepDescription,
		Flags:       flags,
		Action:      sweepAction,
		Subcommands: []*cli.Command{{
			Name:      "merge",
			Usage:     "merge the outputs of a sweep's shards into the output of the whole sweep",
			ArgsUsage: "FILE...",
			Description: "Reads the JSON or CSV outputs of 'tcpfluid sweep --shard k/n' (told apart by content), " +
				"checks that they come from one sweep (scenario, algorithms and parameters, engine and options, seed, " +
				"replications, axes, metrics, format) and that together they hold every point exactly once, and writes " +
				"the rows sorted by point; otherwise it exits 1 naming the file and what differs. Exits 1 too, after " +
				"the output, when the merged sweep has failed points.",
			Flags:  []cli.Flag{sweepOutFlag(), formatFlag()},
			Action: sweepMergeAction,
		}},
	}
}

func sweepAction(c *cli.Context) error {
	format := outputFormat(c)
	spec := sweep.Spec{Bottleneck: c.String("bottleneck"), Seed: seedOf(c), Workers: intOf(c, "workers"),
		Replications: intOf(c, "replications"), Engine: enumOf(c, "engine")}
	var err error
	if spec.Base, err = sweepBase(c); err != nil {
		return err
	}
	grids := c.Generic("param").(*gridFlag).values
	exp, isExp := sweep.Experiments[enumOf(c, "builtin")]
	if len(grids) == 0 && isExp {
		grids = exp.Axes
	}
	for _, p := range grids {
		axis, err := sweep.ParseAxis(p)
		if err != nil {
			return usagef("--param %s: %s", showValue(p), strings.TrimPrefix(oneLine(err.Error()), model.ErrSettings.Error()+": "))
		}
		if err := checkAxisTarget(spec.Base, axis); err != nil {
			return err
		}
		spec.Axes = append(spec.Axes, axis)
	}
	for _, m := range c.StringSlice("metric") {
		spec.Metrics = append(spec.Metrics, strings.TrimSpace(m))
	}
	if len(spec.Metrics) == 0 && isExp {
		spec.Metrics = exp.Metrics
	}
	if !c.IsSet("replications") && isExp && exp.Replications > 0 {
		spec.Replications = exp.Replications
	}
	if spec.Shard, spec.Shards, err = resolveShard(c.String("shard"), intOf(c, "shards"), os.Getenv); err != nil {
		return err
	}
	if spec.Packet, err = packetOptions(c, spec.Engine, ""); err != nil {
		return err
	}
	if err := checkSweepWork(c, spec); err != nil {
		return err
	}
	bar := startProgress(c, "sweep", 0)
	spec.Progress = bar.set
	t, err := sweep.Run(c.Context, spec)
	bar.done()
	if errors.Is(err, model.ErrSettings) {
		return usagef("%s", oneLine(err.Error()))
	}
	if err != nil {
		return err
	}
	if err := writeSweep(c, format, t); err != nil {
		return err
	}
	return failedPoints(t)
}

// checkAxisTarget refuses an algorithm-parameter axis (algo.param) of an algorithm that no
// flow of the base scenario runs: every point would be the same run.
func checkAxisTarget(base *model.Scenario, axis sweep.Axis) error {
	algo, _, ok := strings.Cut(axis.Name, ".")
	if !ok {
		return nil
	}
	var algos []string
	for _, f := range base.Flows {
		if f.Algorithm == algo {
			return nil
		}
		if !slices.Contains(algos, f.Algorithm) {
			algos = append(algos, f.Algorithm)
		}
	}
	return usagef("--param %s: no flow of scenario %s runs %s (its flows run %s; --algo %s sets every flow's)", axis.Name, base.Name, algo, strings.Join(algos, ", "), algo)
}

// checkSweepWork bounds the work of the sweep's costliest point: the base scenario's,
// scaled by the axes' extremes (the longest duration, the most copies of flow 0, the
// shortest RTT, the largest capacity).
func checkSweepWork(c *cli.Context, spec sweep.Spec) error {
	w := estimateScenario(spec.Base)
	dur, rtt, flows, capacity := 1.0, 1.0, 1.0, 1.0
	for _, a := range spec.Axes {
		hi, lo := slices.Max(a.Values), slices.Min(a.Values)
		switch a.Name {
		case sweep.ParamDuration:
			dur = hi / spec.Base.DurationS
		case sweep.ParamRTT:
			if base := spec.Base.PathRTTS(spec.Base.PathIndex(spec.Base.Flows[0].PathNames()[0])); lo > 0 && base > 0 {
				rtt = math.Max(1, base/lo)
			}
		case sweep.ParamFlows:
			flows = hi
		case sweep.ParamCapacity:
			capacity = math.Max(1, hi/minCapacity(spec.Base))
		}
	}
	rounds := (w.rounds + (flows-1)*w.flowRounds[0]) * dur * rtt
	packets := w.packets * dur * capacity * flows
	what := fmt.Sprintf("for the costliest point (base %s, %s)", spec.Base.Name, model.FormatDuration(spec.Base.DurationS*dur))
	if spec.Engine == sweep.EnginePacket {
		return beyond(c, "packet transmissions of the packet engine "+what, packets, "max-packets", "fewer flows or a shorter duration")
	}
	return beyond(c, "round trips of the fluid engine "+what, rounds, "max-rounds", "fewer flows, a shorter duration or longer RTTs")
}

func minCapacity(sc *model.Scenario) float64 {
	m := math.Inf(1)
	for _, l := range sc.Links {
		m = math.Min(m, l.CapacityBps)
	}
	return m
}

// failedPoints is the error of a table with failed points (exit 1, after the output).
func failedPoints(t *sweep.Table) error {
	if n := t.Failed(); n > 0 {
		for _, r := range t.Rows {
			if r.Error != "" {
				return fmt.Errorf("%d of %d points failed; the first, point %d: %s", n, len(t.Rows), r.Point, r.Error)
			}
		}
	}
	return nil
}

// sweepBase loads the base scenario with run's loader and its flags, leaving out --param
// (here a grid, applied by the sweep) and defaulting to the sweep's built-in scenario.
func sweepBase(c *cli.Context) (*model.Scenario, error) {
	sc, err := loadScenario(c, sweep.DefaultScenario, false)
	if err != nil {
		return nil, err
	}
	if err := applyFlowOptions(c, sc); err != nil {
		return nil, err
	}
	return sc, nil
}

// resolveShard chooses the shard k of n: --shard k/n; else a Slurm array task (k = (ID -
// MIN) / STEP with MIN 0 and STEP 1 when unset, n = --shards, else COUNT, else (MAX - MIN)
// / STEP + 1); else a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (k; n = --shards,
// required); else 0 of 1.
func resolveShard(shard string, shards int, getenv func(string) string) (k, n int, err error) {
	if shard != "" {
		if shards != 0 {
			return 0, 0, fmt.Errorf("%w: --shard %s with --shards %d: give one of them", errUsage, shard, shards)
		}
		if k, n, err = sweep.ParseShard(shard); err != nil {
			return 0, 0, fmt.Errorf("%w: --shard: %w", errUsage, err)
		}
		return k, n, nil
	}
	envInt := func(name string, def int) (int, error) {
		s := strings.TrimSpace(getenv(name))
		if s == "" {
			return def, nil
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("%w: $%s = %q, want a whole number >= 0", errUsage, name, s)
		}
		return v, nil
	}
	if getenv(envSlurmTaskID) != "" {
		id, err := envInt(envSlurmTaskID, 0)
		if err != nil {
			return 0, 0, err
		}
		lo, err := envInt(envSlurmTaskMin, 0)
		if err != nil {
			return 0, 0, err
		}
		step, err := envInt(envSlurmTaskStep, 1)
		if err != nil {
			return 0, 0, err
		}
		if step < 1 {
			step = 1
		}
		n = shards
		if n == 0 {
			if n, err = envInt(envSlurmTaskCount, 0); err != nil {
				return 0, 0, err
			}
		}
		if n == 0 && getenv(envSlurmTaskMax) != "" {
			hi, err := envInt(envSlurmTaskMax, 0)
			if err != nil {
				return 0, 0, err
			}
			n = (hi-lo)/step + 1
		}
		if n == 0 {
			return 0, 0, fmt.Errorf("%w: $%s = %d but neither $%s nor $%s is set: give --shards N", errUsage, envSlurmTaskID, id, envSlurmTaskCount, envSlurmTaskMax)
		}
		k = (id - lo) / step
		if id < lo || (id-lo)%step != 0 || k >= n {
			return 0, 0, fmt.Errorf("%w: Slurm array task %d (min %d, step %d) is not one of %d evenly spaced tasks, want --array=MIN-MAX[:STEP] or --shard k/n", errUsage, id, lo, step, n)
		}
		return k, n, nil
	}
	if getenv(envJobCompletionIndex) != "" {
		k, err := envInt(envJobCompletionIndex, 0)
		if err != nil {
			return 0, 0, err
		}
		if shards == 0 {
			return 0, 0, fmt.Errorf("%w: $%s = %d but the number of shards is unknown: give --shards N (the Job's spec.completions)", errUsage, envJobCompletionIndex, k)
		}
		if k >= shards {
			return 0, 0, fmt.Errorf("%w: $%s = %d with --shards %d, want an index < %d", errUsage, envJobCompletionIndex, k, shards, shards)
		}
		return k, shards, nil
	}
	if shards > 1 {
		return 0, 0, fmt.Errorf("%w: --shards %d without $%s or $%s: use --shard k/n", errUsage, shards, envSlurmTaskID, envJobCompletionIndex)
	}
	return 0, 1, nil
}

// sweepMergeAction merges shard files. Parts that are not one sweep's, overlap or leave
// points missing are errors naming the file (exit 1, not a usage error: the command was
// right, the files were not); so is a merged table with failed points, after its output.
func sweepMergeAction(c *cli.Context) error {
	format := outputFormat(c)
	if c.Args().Len() == 0 {
		return usagef("sweep merge: no files, want the shards' outputs (JSON or CSV)")
	}
	for _, a := range c.Args().Slice() {
		if strings.HasPrefix(a, "-") {
			return usagef("sweep merge: flag %s after the files: flags go first (tcpfluid sweep merge --format csv FILE...)", a)
		}
	}
	var parts []*sweep.Table
	for _, path := range c.Args().Slice() {
		t, err := readSweepFile(path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		t.Source = path
		parts = append(parts, t)
	}
	merged, err := sweep.Merge(parts...)
	if err != nil {
		return err
	}
	if err := writeSweep(c, format, merged); err != nil {
		return err
	}
	return failedPoints(merged)
}

func readSweepFile(path string) (*sweep.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sweep.Read(f)
}

// writeSweep prints the table in the chosen format and writes the chart under --out.
func writeSweep(c *cli.Context, format string, t *sweep.Table) error {
	w := c.App.Writer
	var err error
	switch format {
	case formatJSON:
		err = writeJSON(w, t)
	case formatCSV:
		err = t.WriteCSV(w)
	default:
		err = writeSweepTable(w, t)
	}
	if err != nil {
		return err
	}
	if dir := c.String("out"); dir != "" {
		return writeSweepChart(dir, t)
	}
	return nil
}

func writeSweepTable(w io.Writer, t *sweep.Table) error {
	if t.Fingerprint != "" {
		fmt.Fprintf(w, "sweep of %s, %s engine", t.Scenario, t.Engine)
		if t.Options != "" {
			fmt.Fprintf(w, " (%s)", t.Options)
		}
		fmt.Fprintf(w, ", seed %d", t.Seed)
		if t.Replications > 1 {
			fmt.Fprintf(w, ", %d replications per point (mean ± 95%% CI)", t.Replications)
		}
		if t.Shards > 1 {
			fmt.Fprintf(w, ", shard %d/%d", t.Shard, t.Shards)
		}
		fmt.Fprintf(w, ": %d of %d points\n", len(t.Rows), t.Points())
	}
	tw := newTable(w)
	cols := []string{"point"}
	for _, a := range t.Axes {
		cols = append(cols, a.Name)
	}
	cols = append(cols, t.Metrics...)
	if t.Failed() > 0 {
		cols = append(cols, "error")
	}
	fmt.Fprintln(tw, strings.Join(cols, "\t"))
	for _, r := range t.Rows {
		row := []string{strconv.Itoa(r.Point)}
		for _, v := range r.Params {
			row = append(row, fmt.Sprintf("%.4g", v))
		}
		for k, v := range r.Metrics {
			cell := "-"
			if v != nil {
				cell = fmt.Sprintf("%.4g", *v)
				if r.CI95 != nil && r.CI95[k] != nil {
					cell += fmt.Sprintf(" ± %.2g", *r.CI95[k])
				}
			}
			row = append(row, cell)
		}
		if t.Failed() > 0 {
			row = append(row, r.Error)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range t.Notes() {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

// sweepCells are the rows' cells in Columns order for the chart page's table, with verb for
// numbers and null for a missing value.
func sweepCells(t *sweep.Table, verb, null string) [][]string {
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		row := []string{strconv.Itoa(r.Point)}
		for _, v := range r.Params {
			row = append(row, fmt.Sprintf(verb, v))
		}
		for k, v := range r.Metrics {
			cells := []*float64{v}
			if t.Replications > 1 {
				var sd, ci *float64
				if r.SD != nil {
					sd, ci = r.SD[k], r.CI95[k]
				}
				cells = append(cells, sd, ci)
			}
			for _, x := range cells {
				if x == nil {
					row = append(row, null)
				} else {
					row = append(row, fmt.Sprintf(verb, *x))
				}
			}
		}
		rows[i] = append(row, r.Error)
	}
	return rows
}

// writeSweepChart writes the sweep as a report page: for one axis a line chart per metric;
// for two a heatmap per metric (first axis vertical) and a line chart per metric with one
// line per value of the first axis; for more, the table only. ECharts is copied next to
// the page when report.FindECharts finds it, so the page works offline; else it is loaded
// from the network.
func writeSweepChart(dir string, t *sweep.Table) error {
	sec := report.Section{Title: "Sweep"}
	axisIndex := make([]map[float64]int, len(t.Axes))
	for k, a := range t.Axes {
		axisIndex[k] = map[float64]int{}
		for i, v := range a.Values {
			axisIndex[k][v] = i
		}
	}
	// at returns metric m (or, with ci, its 95% interval's half width) on the grid of the
	// last one or two axes: z[iy][ix], NaN where the rows have no value.
	at := func(m int, ci bool) [][]float64 {
		ny, nx := 1, len(t.Axes[len(t.Axes)-1].Values)
		if len(t.Axes) == 2 {
			ny = len(t.Axes[0].Values)
		}
		z := make([][]float64, ny)
		for iy := range z {
			z[iy] = make([]float64, nx)
			for ix := range z[iy] {
				z[iy][ix] = math.NaN()
			}
		}
		for _, r := range t.Rows {
			iy, ix := 0, axisIndex[len(t.Axes)-1][r.Params[len(t.Axes)-1]]
			if len(t.Axes) == 2 {
				iy = axisIndex[0][r.Params[0]]
			}
			v := r.Metrics[m]
			if ci {
				v = nil
				if r.CI95 != nil {
					v = r.CI95[m]
				}
			}
			if v != nil {
				z[iy][ix] = *v
			}
		}
		return z
	}
	switch len(t.Axes) {
	case 1, 2:
		x := t.Axes[len(t.Axes)-1]
		for m, metric := range t.Metrics {
			z, ci := at(m, false), at(m, true)
			fig := report.Figure{
				ID: "lines-" + metric, Title: metric + " against " + x.Name,
				XLabel: axisLabel(x.Name), YLabel: metricLabel(metric), LogX: geometric(x.Values),
			}
			for iy, ys := range z {
				name := metric
				if len(t.Axes) == 2 {
					name = fmt.Sprintf("%s = %g", t.Axes[0].Name, t.Axes[0].Values[iy])
				}
				fig.Series = append(fig.Series, report.Series{Name: name, X: x.Values, Y: ys})
				if t.Replications > 1 {
					// Error bars as the band mean ± CI95, dashed (report draws no bars).
					lo, hi := make([]float64, len(ys)), make([]float64, len(ys))
					for ix, y := range ys {
						lo[ix], hi[ix] = y-ci[iy][ix], y+ci[iy][ix]
					}
					fig.Series = append(fig.Series,
						report.Series{Name: name + " − 95% CI", X: x.Values, Y: lo, Reference: true},
						report.Series{Name: name + " + 95% CI", X: x.Values, Y: hi, Reference: true})
				}
			}
			sec.Figures = append(sec.Figures, fig)
			if len(t.Axes) == 2 {
				y := t.Axes[0]
				sec.Heatmaps = append(sec.Heatmaps, report.Heatmap{
					ID: "heatmap-" + metric, Title: metric + " over " + y.Name + " and " + x.Name,
					XLabel: axisLabel(x.Name), YLabel: axisLabel(y.Name), ZLabel: metricLabel(metric),
					X: x.Values, Y: y.Values, Z: z,
				})
			}
		}
	default:
		sec.Text = fmt.Sprintf("Charts show sweeps of one or two parameters; this one has %d.", len(t.Axes))
	}
	sec.Tables = []report.Table{{ID: "sweep-rows", Title: "Points", Columns: t.Columns(), Rows: sweepCells(t, "%.6g", "")}}
	if notes := t.Notes(); len(notes) > 0 {
		sec.Text = strings.TrimSpace(sec.Text + " " + strings.Join(notes, ". ") + ".")
	}
	page := report.Page{Title: "tcpfluid sweep", Intro: sweepIntro(t), Sections: []report.Section{sec}}
	opts := report.Options{Static: []string{"svg"}}
	if _, err := report.FindECharts(); err == nil {
		opts.ECharts = report.EChartsLocal
	}
	return report.Write(dir, page, opts)
}

func sweepIntro(t *sweep.Table) string {
	var b strings.Builder
	if t.Fingerprint != "" {
		fmt.Fprintf(&b, "Scenario %s, %s engine, seed %d. ", t.Scenario, t.Engine, t.Seed)
	}
	fmt.Fprintf(&b, "%d of %d points", len(t.Rows), t.Points())
	if t.Shards > 1 {
		fmt.Fprintf(&b, " (shard %d/%d)", t.Shard, t.Shards)
	}
	for k, a := range t.Axes {
		sep := "; "
		if k == 0 {
			sep = " over "
		}
		fmt.Fprintf(&b, "%s%s = %v", sep, a.Name, a.Values)
	}
	b.WriteString(".")
	return b.String()
}

// geometric reports values evenly spaced on a log scale (at least 3, all positive), which
// a log axis shows evenly.
func geometric(v []float64) bool {
	if len(v) < 3 || v[0] <= 0 {
		return false
	}
	r := v[1] / v[0]
	for i := 2; i < len(v); i++ {
		if v[i] <= 0 || math.Abs(v[i]/v[i-1]/r-1) > 1e-6 {
			return false
		}
	}
	return math.Abs(r-1) > 1e-6
}

func axisLabel(name string) string {
	switch name {
	case sweep.ParamBuffer:
		return "bottleneck buffer (BDP)"
	case sweep.ParamRTT:
		return "round-trip propagation delay (s)"
	case sweep.ParamLoss:
		return "loss rate p (per packet)"
	case sweep.ParamCapacity:
		return "bottleneck capacity (bit/s)"
	case sweep.ParamFlows:
		return "flows"
	case sweep.ParamDuration:
		return "duration (s)"
	}
	algo, param, _ := strings.Cut(name, ".")
	if a, err := model.New(algo); err == nil {
		for _, p := range a.Params() {
			if p.Name == param && p.Unit != "1" && p.Unit != "" {
				return fmt.Sprintf("%s (%s)", name, p.Unit)
			}
		}
	}
	return name
}

func metricLabel(metric string) string {
	switch metric {
	case sweep.MetricThroughput:
		return "throughput (bit/s)"
	case sweep.MetricGoodput:
		return "goodput (bit/s)"
	case sweep.MetricUtilisation:
		return "bottleneck utilisation"
	case sweep.MetricMeanCwnd:
		return "mean cwnd (packets)"
	case sweep.MetricLossEvents:
		return "loss events"
	case sweep.MetricLossRate:
		return "loss events per packet sent"
	case sweep.MetricDropped:
		return "dropped (packets)"
	case sweep.MetricMeanQueue:
		return "mean bottleneck queue (packets)"
	case sweep.MetricJain:
		return "Jain's index"
	case sweep.MetricCompletion:
		return "completion time (s)"
	}
	return metric
}
