package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/report"
	"github.com/tcpfluid/tcpfluid/response"
	"github.com/tcpfluid/tcpfluid/seeds"
	"github.com/tcpfluid/tcpfluid/validate"
)

func studyFlags() []cli.Flag {
	return []cli.Flag{
		stringFlag("out", "tcpfluid-report", "write the report into the directory `DIR`"),
		stringFlag("echarts", "inline", "how index.html loads ECharts: `MODE` inline (in the page), local (echarts.min.js next to it) or remote (from the network)"),
		&cli.StringFlag{Name: "echarts-file", EnvVars: []string{report.EChartsEnv}, Usage: "echarts.min.js `FILE` for --echarts inline|local instead of the built-in ECharts " + report.EChartsVersion},
		stringFlag("static", "svg,png,pdf", "`FORMATS` of the static figures, a comma list of svg, png, pdf (\"\" for none)"),
		formatFlag(),
	}
}

// studyStatic are the static figure formats the report writes.
var studyStatic = []string{"svg", "png", "pdf"}

// defaultStudy is what `tcpfluid` does without a command: response functions of every
// algorithm with fits and references, the fill/recovery table, fairness on the seed-000
// dumbbell, and the seed scenarios; it writes the report directory and prints a summary
// (--format table, json or csv). Its options are checked, and the report directory
// created, before anything runs; Ctrl-C ends it in any phase.
func defaultStudy(c *cli.Context) error {
	format := outputFormat(c)
	opts, err := reportOptions(c)
	if err != nil {
		return err
	}
	if f := opts.EChartsFile; f != "" && opts.ECharts != report.EChartsRemote {
		if _, err := os.Stat(f); err != nil {
			return usagef("--echarts-file %s: %v", showValue(f), errors.Unwrap(err))
		}
	}
	dir := c.String("out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("--out %s: %v", showValue(dir), errors.Unwrap(err))
	}
	start := time.Now()
	bar := startProgress(c, "study", studySteps())
	defer bar.done()
	st, err := runStudyWith(c.Context, func(label string) { bar.describe("study: " + label); bar.add() })
	if err != nil {
		return err
	}
	bar.describe("study: writing the report")
	// report.Write takes no context: it runs aside, and Ctrl-C returns at once (the report
	// is then incomplete).
	written := make(chan error, 1)
	go func() { written <- st.write(dir, opts) }()
	select {
	case err = <-written:
	case <-c.Context.Done():
		return fmt.Errorf("writing the report in %s: %w", dir, c.Context.Err())
	}
	if err != nil {
		return err
	}
	bar.done()
	index := filepath.Join(dir, "index.html")
	switch format {
	case formatJSON:
		return writeJSON(c.App.Writer, st.summaryJSON(index, opts, time.Since(start).Seconds()))
	case formatCSV:
		return st.summaryCSV(c.App.Writer)
	}
	st.summary(c.App.Writer)
	fmt.Fprintf(c.App.Writer, "\nreport: %s (ECharts %s), %.1f s\n", index, opts.ECharts, time.Since(start).Seconds())
	return nil
}

func reportOptions(c *cli.Context) (report.Options, error) {
	var o report.Options
	if o.Static = splitList(c.String("static")); o.Static == nil {
		o.Static = []string{} // --static "": none
	}
	for _, f := range o.Static {
		if !slices.Contains(studyStatic, f) {
			return o, usagef("--static %s: %q is not a figure format; want a comma list of svg, png, pdf (\"\" for none)", showValue(c.String("static")), f)
		}
	}
	o.EChartsFile = c.String("echarts-file")
	m, err := report.ParseEChartsMode(c.String("echarts"))
	if err != nil {
		return o, usagef("--echarts %s: want inline, local or remote", showValue(c.String("echarts")))
	}
	o.ECharts = m
	return o, nil
}

// study holds every result of the default study.
type study struct {
	response  *response.ResponseReport
	converge  *response.ConvergeReport
	fairness  []*response.FairnessReport
	scenarios []*model.Result
	// slowStart is seed000-slow-start again, traced finely for the figures of its first
	// seconds.
	slowStart *model.Result
	points    []*validate.Report // one fluid-vs-packet response point per classic algorithm
	table3    *seeds.Table3Report
	// lossResponse is BBR's and CUBIC's utilisation under random loss (study_modern.go).
	lossResponse []lossResponse
}

// studyValidationP is the loss rate of the study's fluid-vs-packet points: every
// high-speed algorithm is in its own regime there (HighSpeed above 38 packets, CUBIC in
// its cubic region, Scalable above its legacy window).
const studyValidationP = 1e-4

// studyFairness are the fairness runs of the study: seed 000's Jain experiment (3 flows
// of each algorithm), its RTT-fairness experiment (50/75/100 ms) and one flow against
// four Reno flows.
var studyFairness = []response.FairnessSettings{
	{Mode: response.ModeSame, Algorithms: []string{"reno", "cubic", "compound", "colo"}, StartGapS: 10},
	{Mode: response.ModeRTT, Algorithms: []string{"reno", "cubic", "colo"}},
	{Mode: response.ModeFriendliness, Algorithms: []string{"cubic", "compound", "colo"}},
}

// studyAlgorithms are the algorithms of the fill/recovery table: the classic set and
// COLO. COLO has no response function on an uncongested path: its decrease factor is
// baseRTT/RTT, 1 without queueing, so a loss leaves its window where it was.
func studyAlgorithms() []string {
	return append(append([]string(nil), response.ClassicAlgorithms...), "colo")
}

func runStudy(ctx context.Context) (*study, error) { return runStudyWith(ctx, func(string) {}) }

// studySteps are the steps runStudyWith reports: response, converge, each fairness mode,
// each validation point, Table 3, each built-in and BBR's response to random loss.
func studySteps() int {
	return 2 + len(studyFairness) + len(response.ClassicAlgorithms) + 1 + len(model.BuiltinNames()) + 1
}

// runStudyWith runs the study, calling done with each step's name as it ends.
func runStudyWith(ctx context.Context, done func(step string)) (*study, error) {
	st := &study{}
	var err error
	if st.response, err = response.Response(ctx, response.Settings{Seed: 1}); err != nil { // the CLI's default seed
		return nil, fmt.Errorf("response functions: %w", err)
	}
	done("response functions")
	if st.converge, err = response.Converge(ctx, response.ConvergeSettings{Algorithms: studyAlgorithms()}); err != nil {
		return nil, fmt.Errorf("fill and recovery: %w", err)
	}
	done("fill and recovery")
	for _, s := range studyFairness {
		rep, err := response.Fairness(ctx, s)
		if err != nil {
			return nil, fmt.Errorf("fairness %s: %w", s.Mode, err)
		}
		st.fairness = append(st.fairness, rep)
		done("fairness " + s.Mode)
	}
	for _, algo := range response.ClassicAlgorithms {
		v, err := validate.Point(ctx, validate.PointSpec{Algorithm: algo, LossModel: "periodic", P: studyValidationP, Seed: 1})
		if err != nil {
			return nil, fmt.Errorf("validation of %s: %w", algo, err)
		}
		st.points = append(st.points, v)
		done("validation of " + algo)
	}
	if st.table3, err = seeds.Table3Experiment(ctx, 1); err != nil {
		return nil, fmt.Errorf("seed 003: %w", err)
	}
	done("seed 003")
	for _, name := range model.BuiltinNames() {
		sc, err := model.Builtin(name)
		if err != nil {
			return nil, err
		}
		res, err := fluid.Run(ctx, sc, fluid.Settings{Seed: 1, SampleS: sc.DurationS / 500})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		st.scenarios = append(st.scenarios, res)
		if name == slowStartScenario {
			if st.slowStart, err = fluid.Run(ctx, sc, fluid.Settings{Seed: 1, SampleS: slowStartSampleS}); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		done(name)
	}
	if st.lossResponse, err = runLossResponse(ctx); err != nil {
		return nil, fmt.Errorf("random loss: %w", err)
	}
	done("BBR under random loss")
	return st, nil
}

// The slow-start experiment's figures show its first seconds, traced every
// slowStartSampleS: its slow starts last a few seconds of its 30.
const (
	slowStartScenario = "seed000-slow-start"
	slowStartSampleS  = 0.01
)

// write writes the report directory: index.html, figures, and the analyses' JSON exactly
// as the commands print them (data/response.json is `tcpfluid response --format json`).
func (st *study) write(dir string, o report.Options) error {
	if err := report.Write(dir, st.page(), o); err != nil {
		return err
	}
	raw := map[string]any{"response.json": st.response, "converge.json": st.converge, "validate-points.json": st.points,
		"validate-table3.json": st.table3, "loss-response.json": st.lossResponse}
	for _, f := range st.fairness {
		raw["fairness-"+f.Mode+".json"] = f
	}
	for _, r := range st.scenarios {
		raw["run-"+r.Scenario+".json"] = r
	}
	for name, v := range raw {
		if err := writeJSONFile(filepath.Join(dir, "data", name), v); err != nil {
			return err
		}
	}
	return nil
}

func writeJSONFile(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = writeJSON(f, v)
	return errors.Join(err, f.Close())
}

func (st *study) page() report.Page {
	p := report.Page{
		Title: "tcpfluid: the default study",
		Intro: fmt.Sprintf("Fluid models (form %s) of %d algorithms: response functions with their fits and "+
			"published references, the time to fill a link and to recover after a loss, fairness on seed 000's "+
			"dumbbell, the seed papers' scenarios, and today's algorithms and queues (BBR, DCTCP, CoDel, PIE, "+
			"FQ-CoDel). Every number here is also in data/ as JSON and CSV.",
			st.response.Form, len(st.response.Results)),
	}
	p.Sections = append(p.Sections, st.responseSection(), st.convergeSection(), st.fairnessSection(), st.validationSection(),
		st.modernSection(), st.scenarioSection())
	return p
}

func (st *study) responseSection() report.Section {
	rep := st.response
	fig := report.Figure{ID: "response", Title: "Response functions (" + rep.LossModel + " loss, RTT " + model.FormatDuration(rep.RTTS) + ")",
		XLabel: "loss rate p (per packet)", YLabel: "mean cwnd (packets)", LogX: true, LogY: true}
	tab := report.Table{ID: "response-fits", Title: "Fits log W = log c − d·log p and references",
		Columns: []string{"algorithm", "c", "d", "R²", "fit p ≤", "reference c·τ^e", "reference d", "source", "friendly p*", "W* (pkts)", "RTT exponent"}}
	drawn := map[string]bool{} // one dashed line per published reference
	for _, r := range rep.Results {
		s := report.Series{Name: r.Algorithm, Points: true}
		// The fit log W = log c − d·log p, drawn over the loss rates it was fitted to.
		fit := report.Series{Name: r.Algorithm + " fit", Of: r.Algorithm, Key: "power-law fit c·p^{-d}"}
		for _, pt := range r.Points {
			s.X, s.Y = append(s.X, pt.P), append(s.Y, pt.MeanCwndPkts)
			if pt.P <= r.FitPMax*(1+1e-9) {
				fit.X, fit.Y = append(fit.X, pt.P), append(fit.Y, r.C*math.Pow(pt.P, -r.D))
			}
		}
		fig.Series = append(fig.Series, s, fit)
		fc, fd, fr2 := fitCells(r)
		row := []string{r.Algorithm, cell("%.4g", fc), cell("%.4f", fd), cell("%.5f", fr2), cell("%.0e", r.FitPMax), "-", "-", "-", "-", "-", "-"}
		if r.Reference != nil {
			row[5], row[6], row[7] = fmt.Sprintf("%.4g", r.RefC), num(r.Reference.D), r.Reference.Source
		}
		if r.Reference != nil && !drawn[r.Reference.Source] {
			drawn[r.Reference.Source] = true
			ref := report.Series{Name: r.Algorithm + " ref. (" + r.Reference.Source + ")", Of: r.Algorithm, Reference: true, Key: "published reference"}
			for _, pt := range r.Points {
				if r.Reference.PMax == 0 || pt.P <= r.Reference.PMax*(1+1e-9) {
					ref.X, ref.Y = append(ref.X, pt.P), append(ref.Y, r.Reference.Window(pt.P, rep.RTTS))
				}
			}
			fig.Series = append(fig.Series, ref)
		}
		if r.Friendly != nil {
			row[8], row[9] = fmt.Sprintf("%.3g", r.Friendly.PStar), fmt.Sprintf("%.1f", r.Friendly.WStarPkts)
		}
		if r.RTTExp != nil {
			row[10] = fixed3(r.RTTExp.E)
		}
		tab.Rows = append(tab.Rows, row)
	}
	var caveats strings.Builder
	writeCaveats(&caveats, rep)
	return report.Section{Title: "Response functions", Figures: []report.Figure{fig}, Tables: []report.Table{tab},
		Text: strings.ReplaceAll(caveats.String(), "\n", "\n\n") + "One long-lived flow per point on an uncongested path; 100 loss events of warm-up, then 50 measured. " +
			"Markers are the model's mean windows; solid lines in the same colour are the power-law fits c·p^−d of the table, over " +
			"the loss rates they were fitted to; dark dashed lines over them are the published references, over the loss rates where they apply " +
			"(Mathis et al. once, for Reno, NewReno and Vegas alike). CUBIC runs with fast convergence, " +
			"compared in whole packets as Linux does, which the RFC 9438 table ignores: its mean window is within 3% of the table " +
			"at p = 1e-4 and 1e-5 and 5–7% below it at 1e-6 and 1e-7."}
}

func (st *study) convergeSection() report.Section {
	tab := report.Table{ID: "converge", Title: "Time to fill a link from W = 1 and to recover after a loss (RTT 100 ms)",
		Columns: []string{"algorithm", "link", "MSS (bytes)", "BDP (pkts)", "fill (s)", "fill closed form (s)", "recovery (s)", "recovery closed form (s)"}}
	secs := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.2f", *p)
	}
	for _, r := range st.converge.Results {
		tab.Rows = append(tab.Rows, []string{r.Algorithm, model.FormatRate(r.BandwidthBps), num(r.MSSBytes), fmt.Sprintf("%.0f", r.BDPPkts),
			secs(r.FillTimeS), secs(r.FillClosedFormS), secs(r.RecoveryTimeS), secs(r.RecoveryClosedFormS)})
	}
	return report.Section{Title: "Fill and recovery times", Tables: []report.Table{tab},
		Text: "NewReno needs 1250 s to fill 1 Gb/s at 100 ms with 1000-byte packets and 625 s to recover: seed 000's " +
			"\"20 minutes / 10 minutes\"."}
}

func (st *study) fairnessSection() report.Section {
	sec := report.Section{Title: "Fairness on seed 000's dumbbell",
		Text: "Access 200 Mb/s 10 ms, bottleneck 100 Mb/s 100 ms, buffer 1 BDP, synchronized drop-tail losses. " +
			"Jain's index over windows of the run; shares measured over its second half."}
	for _, rep := range st.fairness {
		tab := report.Table{ID: "fairness-" + rep.Mode, Title: "Fairness, mode " + rep.Mode,
			Columns: []string{"algorithm", "flows", "Jain", "utilisation", "shares", "extra"}}
		// Jain's index is at most 1: the axis ends there, so values near 1 stay in view.
		fig := report.Figure{ID: "jain-" + rep.Mode, Title: "Jain's index over time, mode " + rep.Mode, XLabel: "time (s)", YLabel: "Jain's index", YMax: 1}
		for _, r := range rep.Results {
			var shares []string
			for _, sh := range r.Shares {
				shares = append(shares, fmt.Sprintf("%s %s: %s", sh.Algorithm, model.FormatDuration(sh.RTTS), model.FormatRate(sh.ThroughputBps)))
			}
			extra := fairnessExtra(rep.Mode, r, "share")
			tab.Rows = append(tab.Rows, []string{r.Algorithm, fmt.Sprint(r.Flows), fmt.Sprintf("%.4f", r.Jain),
				fmt.Sprintf("%.1f%%", 100*r.Utilisation), strings.Join(shares, "; "), extra})
			s := report.Series{Name: r.Algorithm}
			for _, j := range r.JainSeries {
				s.X, s.Y = append(s.X, j.TS), append(s.Y, j.Jain)
			}
			fig.Series = append(fig.Series, s)
		}
		sec.Figures = append(sec.Figures, fig)
		sec.Tables = append(sec.Tables, tab)
	}
	return sec
}

func (st *study) validationSection() report.Section {
	points := report.Table{ID: "validate-points", Title: fmt.Sprintf("One flow, periodic loss p = %g, RTT 100 ms: fluid (%s) against packets", studyValidationP, fluid.FormHybridRecovery),
		Columns: []string{"algorithm", "metric", "fluid", "packet", "error", "tolerance", "verdict"}}
	for _, v := range st.points {
		for _, m := range v.Metrics {
			points.Rows = append(points.Rows, []string{v.Point.Algorithm, m.Metric, fmt.Sprintf("%.5g", m.Fluid), fmt.Sprintf("%.5g", m.Packet),
				m.ErrorText(), m.ToleranceText(), m.Verdict()})
		}
	}
	t3 := report.Table{ID: "validate-table3", Title: "Seed 003, Table 3: dropped / sent / throughput (kb/s)",
		Columns: []string{"algorithm", "Table 3", "packet engine", "fluid engine", "ok"}}
	cell := func(n seeds.Table3Numbers) string {
		return fmt.Sprintf("%.0f / %.0f / %.1f", n.DroppedPkts, n.DeliveredPkts, n.GoodputBps/1e3)
	}
	for _, r := range st.table3.Rows {
		t3.Rows = append(t3.Rows, []string{r.Algorithm, cell(r.Table), cell(r.Packet), cell(r.Fluid), fmt.Sprint(r.OK)})
	}
	return report.Section{Title: "Fluid against packets", Tables: []report.Table{points, t3},
		Text: "Each fluid number checked by the packet-level engine: the same flow and loss process in both, " +
			"and seed 003's ns-2 experiment next to the paper's Table 3 (the packet engine follows ns-2.35's TCP agents). " +
			"BIC's row fails: under periodic loss its sawtooth has two fixed points, the loss falling a hair below W_max at " +
			"the end of the binary search (fast convergence, the lower one) or just past it, and from the same start the " +
			"engines settle on different ones."}
}

func (st *study) scenarioSection() report.Section {
	sec := report.Section{Title: "The seeds' scenarios (fluid engine)"}
	for _, res := range st.scenarios {
		var cwnd, queue report.Figure
		if res.Scenario == slowStartScenario && st.slowStart != nil {
			cwnd, queue = slowStartFigures(st.slowStart)
		} else {
			cwnd, queue = traceFigures(res, math.Inf(1))
		}
		tab := report.Table{ID: "summary-" + res.Scenario, Title: res.Scenario,
			Columns: []string{"flow", "algorithm", "goodput", "mean cwnd (pkts)", "loss events", "delivered", "dropped", "completion (s)"}}
		for _, f := range res.Flows {
			done := "-"
			if f.CompletionTimeS != nil {
				done = fmt.Sprintf("%.2f", *f.CompletionTimeS)
			}
			tab.Rows = append(tab.Rows, []string{f.Name, f.Algorithm, model.FormatRate(f.GoodputBps), fmt.Sprintf("%.1f", f.MeanCwndPkts),
				fmt.Sprint(f.LossEvents), fmt.Sprintf("%.0f", f.DeliveredPkts), fmt.Sprintf("%.0f", f.DroppedPkts), done})
		}
		sec.Figures = append(sec.Figures, cwnd)
		if len(queue.Series) > 0 {
			sec.Figures = append(sec.Figures, queue)
		}
		sec.Tables = append(sec.Tables, tab)
	}
	return sec
}

// A link's queue is drawn when it holds more than queueShownPkts in at least
// queueShownShare of the samples; the others (access links that only see the burst of
// a slow start) are named in the figure's note.
const (
	queueShownPkts  = 0.5
	queueShownShare = 0.01
)

// traceFigures returns the congestion windows and the queues of res's trace up to
// untilS: one series per flow (or subflow), and one per link whose queue is not empty
// in nearly every sample.
func traceFigures(res *model.Result, untilS float64) (cwnd, queue report.Figure) {
	cwnd = report.Figure{ID: "cwnd-" + res.Scenario, Title: res.Scenario + ": congestion windows", XLabel: "time (s)", YLabel: "cwnd (packets)"}
	queue = report.Figure{ID: "queue-" + res.Scenario, Title: res.Scenario + ": queues", XLabel: "time (s)", YLabel: "queue (packets)"}
	flows := map[string]*report.Series{}
	var names []string
	for _, smp := range res.Trace {
		if smp.TS > untilS*(1+1e-9) {
			continue
		}
		var key string
		var v float64
		if smp.Flow >= 0 {
			key, v = "flow "+flowName(res, smp.Flow, smp.Subflow), smp.CwndPkts
		} else {
			key, v = "link "+smp.Link, smp.QueuePkts
		}
		s, ok := flows[key]
		if !ok {
			s = &report.Series{Name: strings.SplitN(key, " ", 2)[1]}
			flows[key] = s
			names = append(names, key)
		}
		s.X, s.Y = append(s.X, smp.TS), append(s.Y, v)
	}
	sort.Strings(names)
	var hidden []string
	for _, k := range names {
		s := flows[k]
		if strings.HasPrefix(k, "flow ") {
			cwnd.Series = append(cwnd.Series, *s)
			continue
		}
		busy, peak, peakT := 0, 0.0, 0.0
		for i, q := range s.Y {
			if q > queueShownPkts {
				busy++
			}
			if q > peak {
				peak, peakT = q, s.X[i]
			}
		}
		switch {
		case float64(busy) >= queueShownShare*float64(len(s.Y)):
			queue.Series = append(queue.Series, *s)
		case peak > queueShownPkts:
			hidden = append(hidden, fmt.Sprintf("%s (%.0f packets at %.3g s)", s.Name, peak, peakT))
		}
	}
	if len(hidden) > 0 {
		queue.Note = fmt.Sprintf("Not drawn: queues empty in over %.0f%% of the samples, whose peaks were %s; every other link's queue stays empty.",
			100*(1-queueShownShare), strings.Join(hidden, ", "))
	} else if len(queue.Series) > 0 {
		queue.Note = "Links whose queue stays empty are not drawn."
	}
	return cwnd, queue
}

// slowStartFigures shows seed 000's slow-start experiment over its first seconds, up
// to a second after the last flow leaves slow start: COLO's concave slow start against
// standard slow start, the windows on a logarithmic axis (slow start is a straight line
// there) with the level where COLO's concave part begins, and the bottleneck queues.
func slowStartFigures(res *model.Result) (cwnd, queue report.Figure) {
	lastSS, concaveAt, coloSSEnd := 0.0, math.NaN(), math.NaN()
	for _, smp := range res.Trace {
		if smp.Flow < 0 {
			continue
		}
		inSS := smp.CwndPkts < smp.Ssthresh*(1-1e-9)
		if inSS {
			lastSS = smp.TS
		}
		if flowAlgorithm(res, smp.Flow) == "colo" {
			if smp.TS == 0 {
				concaveAt = smp.Ssthresh / 2
			}
			if !inSS && math.IsNaN(coloSSEnd) {
				coloSSEnd = smp.TS
			}
		}
	}
	until := math.Min(math.Ceil(lastSS+1), res.DurationS)
	cwnd, queue = traceFigures(res, until)
	cwnd.Title = fmt.Sprintf("%s: congestion windows, first %g s", res.Scenario, until)
	queue.Title = fmt.Sprintf("%s: bottleneck queues, first %g s", res.Scenario, until)
	cwnd.LogY = true
	// The level where COLO's slow start turns concave, drawn while COLO is in slow start.
	if !math.IsNaN(concaveAt) && !math.IsInf(concaveAt, 0) && !math.IsNaN(coloSSEnd) {
		cwnd.Series = append(cwnd.Series, report.Series{Name: "COLO concave from ssthresh/2", Reference: true,
			X: []float64{0, coloSSEnd}, Y: []float64{concaveAt, concaveAt}})
	}
	var drops []string
	for _, f := range res.Flows {
		drops = append(drops, fmt.Sprintf("%s %.0f dropped, %d loss event(s), %d timeout(s)", f.Name, f.DroppedPkts, f.LossEvents, f.Timeouts))
	}
	cwnd.Note = fmt.Sprintf("Traced every %g s. The run lasts %g s; after these seconds both windows grow in congestion avoidance. Over the whole run: %s.",
		slowStartSampleS, res.DurationS, strings.Join(drops, "; "))
	return cwnd, queue
}

func flowAlgorithm(res *model.Result, flow int) string {
	for _, f := range res.Flows {
		if f.Flow == flow {
			return f.Algorithm
		}
	}
	return ""
}

func flowName(res *model.Result, flow, sub int) string {
	for _, f := range res.Flows {
		if f.Flow == flow && f.Subflow == sub {
			return f.Name
		}
	}
	return fmt.Sprint(flow)
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

// summary prints the short table of the study.
func (st *study) summary(w io.Writer) {
	fmt.Fprintln(w, "tcpfluid default study")
	fmt.Fprintln(w)
	writeResponseTable(w, st.response)
	fmt.Fprintln(w)
	tw := newTable(w)
	fmt.Fprintln(tw, "fairness (seed-000 dumbbell)\talgorithm\tJain\textra")
	for _, rep := range st.fairness {
		for _, r := range rep.Results {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", rep.Mode, r.Algorithm, cell("%.4f", r.Jain), fairnessExtra(rep.Mode, r, "share against reno:4"))
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = newTable(w)
	fmt.Fprintf(tw, "fluid vs packet (p = %g)\tmean cwnd fluid\tpacket\terror\ttolerance\tverdict\n", studyValidationP)
	for _, v := range st.points {
		for _, m := range v.Metrics {
			if m.Metric == "mean_cwnd_pkts" {
				fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%s\t%s\t%s\n", v.Point.Algorithm, m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText(), m.Verdict())
			}
		}
	}
	tw.Flush()
	writeDisagreements(w, st.points)
	fmt.Fprintln(w)
	tw = newTable(w)
	fmt.Fprintln(tw, "seed 003 (packet engine)\tdropped\tsent\tkb/s\tTable 3")
	for _, r := range st.table3.Rows {
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%.1f\t%.0f / %.0f / %.1f\n", r.Algorithm, r.Packet.DroppedPkts, r.Packet.DeliveredPkts, r.Packet.GoodputBps/1e3,
			r.Table.DroppedPkts, r.Table.DeliveredPkts, r.Table.GoodputBps/1e3)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = newTable(w)
	fmt.Fprintln(tw, "scenario\tflow\talgorithm\tgoodput\tloss events")
	for _, res := range st.scenarios {
		for _, f := range res.Flows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", res.Scenario, f.Name, f.Algorithm, model.FormatRate(f.GoodputBps), f.LossEvents)
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	st.modernSummary(w)
}

// studySummary is the study's JSON: where the report is, and every analysis as its
// command prints it (the scenarios' results without their traces).
type studySummary struct {
	Report           string                     `json:"report"`
	ECharts          string                     `json:"echarts"`
	ElapsedS         float64                    `json:"elapsed_s"`
	Response         *response.ResponseReport   `json:"response"`
	Converge         *response.ConvergeReport   `json:"converge"`
	Fairness         []*response.FairnessReport `json:"fairness"`
	ValidationPoints []*validate.Report         `json:"validate_points"`
	Table3           *seeds.Table3Report        `json:"validate_table3"`
	Scenarios        []*model.Result            `json:"scenarios"`
	LossResponse     []lossResponse             `json:"loss_response"`
}

func (st *study) summaryJSON(index string, o report.Options, elapsedS float64) studySummary {
	return studySummary{Report: index, ECharts: o.ECharts.String(), ElapsedS: elapsedS, Response: st.response, Converge: st.converge,
		Fairness: st.fairness, ValidationPoints: st.points, Table3: st.table3, Scenarios: st.scenarios, LossResponse: st.lossResponse}
}

// summaryCSV writes the summary's figures in long form: section, subject, metric, value.
func (st *study) summaryCSV(w io.Writer) error {
	cw := newCSV(w, "section", "subject", "metric", "value")
	add := func(section, subject, metric string, v float64) { cw.row(section, subject, metric, full(v)) }
	addPtr := func(section, subject, metric string, v *float64) { cw.row(section, subject, metric, fullPtr(v)) }
	for _, r := range st.response.Results {
		fc, fd, fr2 := fitCells(r)
		add("response", r.Algorithm, "fit_c", fc)
		add("response", r.Algorithm, "fit_d", fd)
		add("response", r.Algorithm, "fit_r2", fr2)
		if r.Reference != nil {
			add("response", r.Algorithm, "reference_c_at_rtt", r.RefC)
			add("response", r.Algorithm, "reference_d", r.Reference.D)
		}
		if r.Friendly != nil {
			add("response", r.Algorithm, "friendly_p_star", r.Friendly.PStar)
		}
		if r.RTTExp != nil {
			add("response", r.Algorithm, "rtt_exponent", r.RTTExp.E)
		}
	}
	for _, r := range st.converge.Results {
		subject := fmt.Sprintf("%s %s %gB", r.Algorithm, model.FormatRate(r.BandwidthBps), r.MSSBytes)
		addPtr("converge", subject, "fill_time_s", r.FillTimeS)
		addPtr("converge", subject, "recovery_time_s", r.RecoveryTimeS)
	}
	for _, rep := range st.fairness {
		for _, r := range rep.Results {
			add("fairness-"+rep.Mode, r.Algorithm, "jain", r.Jain)
			if rep.Mode == response.ModeRTT {
				addPtr("fairness-"+rep.Mode, r.Algorithm, "rtt_unfairness_exponent", r.RTTExponent)
			}
			if r.AlgorithmShare != nil {
				add("fairness-"+rep.Mode, r.Algorithm, "algorithm_share", *r.AlgorithmShare)
			}
		}
	}
	for _, v := range st.points {
		for _, m := range v.Metrics {
			add("validate-point", v.Point.Algorithm, m.Metric+"_fluid", m.Fluid)
			add("validate-point", v.Point.Algorithm, m.Metric+"_packet", m.Packet)
		}
	}
	for _, r := range st.table3.Rows {
		add("seed003-table3", r.Algorithm, "packet_dropped_pkts", r.Packet.DroppedPkts)
		add("seed003-table3", r.Algorithm, "packet_delivered_pkts", r.Packet.DeliveredPkts)
		add("seed003-table3", r.Algorithm, "packet_goodput_bps", r.Packet.GoodputBps)
	}
	for _, res := range st.scenarios {
		for _, f := range res.Flows {
			add("scenario "+res.Scenario, f.Name, "goodput_bps", f.GoodputBps)
			add("scenario "+res.Scenario, f.Name, "loss_events", float64(f.LossEvents))
		}
	}
	return cw.flush()
}
