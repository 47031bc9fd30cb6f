package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/reference"
	"github.com/tcpfluid/tcpfluid/response"
)

// settingsError marks analysis-settings errors as the user's.
func settingsError(err error) error {
	if err != nil && strings.Contains(err.Error(), model.ErrSettings.Error()) {
		return usagef("%s", oneLine(err.Error()))
	}
	return err
}

// Ranges of the analyses' inputs. Loss rates below minLossRate give windows beyond 10^6
// packets, where the fluid solver's step sizes underflow; RTTs outside [minRTT, maxRTT]
// are not networks.
const (
	minLossRate = 1e-12
	minRTT      = 1e-6
	maxRTT      = 3600
)

var (
	lossRate  = bound{lo: minLossRate, hi: 1, hiOpen: true}
	rttRange  = closed(minRTT, maxRTT)
	mssRange  = bound{lo: 1, hi: math.Inf(1), hiOpen: true}
	lossModel = []string{"periodic", "random"}
)

func classicDefault(usage string) string {
	return usage + "; default: the classic set, " + strings.Join(response.ClassicAlgorithms, ",")
}

func responseCommand() *cli.Command {
	cycles := intFlag("max-cycles", fmt.Sprint(defaultMaxCycles), 1, math.MaxInt64,
		"refuse more loss cycles than this over all points: algorithms × (points + 5 RTT-exponent points) × (warm-up + measured losses: periodic 50, random up to 25600; an automatic warm-up counted as 100 + as many as are measured); about 10^4 a second")
	warmup := intFlag("warmup-losses", "", 1, 1_000_000, "loss events discarded before measuring")
	warmup.DefaultText = "automatic: until the loss cycles show no trend, 100 to 10000"
	return &cli.Command{
		Name:  "response",
		Usage: "response functions (mean window against loss rate) and their c/p^d fits",
		Description: "For each algorithm and each loss rate on a log grid, runs one long-lived flow on an " +
			"uncongested path until its mean window is stable, and fits log W = log c - d log p " +
			"(gonum/stat) over the points where the published reference applies. Each fit is shown " +
			"next to its reference, with the TCP-friendliness crossing point against Reno and the " +
			"RTT exponent e of W ∝ RTT^e fitted at p = 1e-6. A fit of fewer than two points is null " +
			"(JSON, CSV) or - (table). --format csv has a row per point with its algorithm's fit.",
		Flags: []cli.Flag{
			algosFlag("", classicDefault("algorithms")),
			enumFlag("loss-model", "periodic", lossModel, "loss process"),
			numberFlag("p-min", "1e-7", lossRate, "smallest loss rate per packet"),
			numberFlag("p-max", "1e-2", lossRate, "largest loss rate per packet"),
			intFlag("points", "11", 1, 1000, "log-spaced loss rates (1 when --p-min = --p-max)"),
			durationFlag("rtt", "100ms", rttRange, "round-trip time"),
			sizeFlag("mss", "1460B", mssRange, "packet size"),
			warmup,
			enumFlag("form", fluid.FormHybrid, []string{fluid.FormHybrid, fluid.FormHybridRecovery}, "fluid form (hybrid-recovery: counted as a packet sender counts, with each implementation's recovery exit)"),
			seedFlag("seed of the random loss"),
			paramFlag("algorithm parameter `algo.name=value` of one of the algorithms"), workersFlag(), formatFlag(), cycles,
		},
		Action: responseAction,
	}
}

func responseAction(c *cli.Context) error {
	format := outputFormat(c)
	s := response.Settings{
		Algorithms: algosOf(c), LossModel: enumOf(c, "loss-model"),
		PMin: quantity(c, "p-min"), PMax: quantity(c, "p-max"), Points: intOf(c, "points"),
		RTTS: quantity(c, "rtt"), MSSBytes: quantity(c, "mss"),
		Seed: seedOf(c), Workers: intOf(c, "workers"), WarmupLosses: intOf(c, "warmup-losses"),
		Params: paramMap(c), Form: enumOf(c, "form"),
	}
	algos := s.Algorithms
	if len(algos) == 0 {
		algos = response.ClassicAlgorithms
	}
	if err := checkParamTargets(c, algos); err != nil {
		return err
	}
	if s.PMin > s.PMax {
		return usagef("--p-min %s above --p-max %s", full(s.PMin), full(s.PMax))
	}
	if s.Points == 1 && s.PMin != s.PMax {
		return usagef("--points 1 with --p-min %s != --p-max %s: one point needs one loss rate", full(s.PMin), full(s.PMax))
	}
	if s.Points > 1 && s.PMin == s.PMax {
		return usagef("--points %d with --p-min = --p-max = %s: give --points 1 or a range", s.Points, full(s.PMin))
	}
	measured := map[string]int{"periodic": 50, "random": 25600}[s.LossModel]
	warm := s.WarmupLosses
	if warm == 0 {
		warm = 100 + measured
	}
	need := float64(len(algos)) * float64(s.Points+5) * float64(warm+measured)
	if err := beyond(c, fmt.Sprintf("loss cycles (%d algorithms × %d points × %d losses)", len(algos), s.Points+5, warm+measured),
		need, "max-cycles", "fewer algorithms, points or warm-up losses"); err != nil {
		return err
	}
	bar := startProgress(c, "response", 0)
	rep, err := response.Response(c.Context, s)
	bar.done()
	if err != nil {
		return settingsError(err)
	}
	w := c.App.Writer
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		return writeResponseCSV(w, rep)
	}
	return writeResponseTable(w, rep)
}

// fitCells are an algorithm's fit, or nothing when it is undefined (fewer than two points).
func fitCells(r response.AlgorithmResponse) (c, d, r2 float64) {
	if r.FitPoints < 2 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return r.C, r.D, r.R2
}

func writeResponseCSV(w io.Writer, rep *response.ResponseReport) error {
	cw := newCSV(w, "algorithm", "p", "mean_cwnd_pkts", "ci95_pkts", "throughput_bps", "loss_events", "warmup_losses", "simulated_s",
		"fit_c", "fit_d", "fit_r2", "fit_p_max", "fit_points", "reference_c_at_rtt", "reference_d", "reference_source",
		"friendly_p_star", "friendly_w_star_pkts", "rtt_exponent", "rtt_exponent_r2")
	for _, r := range rep.Results {
		fc, fd, fr2 := fitCells(r)
		refC, refD, src := "", "", ""
		if r.Reference != nil {
			refC, refD, src = full(r.RefC), full(r.Reference.D), r.Reference.Source
		}
		pStar, wStar := "", ""
		if r.Friendly != nil {
			pStar, wStar = full(r.Friendly.PStar), full(r.Friendly.WStarPkts)
		}
		e, er2 := "", ""
		if r.RTTExp != nil {
			e, er2 = full(r.RTTExp.E), full(r.RTTExp.R2)
		}
		for _, p := range r.Points {
			cw.row(r.Algorithm, full(p.P), full(p.MeanCwndPkts), full(p.CI95Pkts), full(p.ThroughputBps), strconv.Itoa(p.LossEvents), strconv.Itoa(p.WarmupLosses), full(p.SimulatedS),
				full(fc), full(fd), full(fr2), full(r.FitPMax), strconv.Itoa(r.FitPoints), refC, refD, src, pStar, wStar, e, er2)
		}
	}
	return cw.flush()
}

func writeResponseTable(w io.Writer, rep *response.ResponseReport) error {
	fmt.Fprintf(w, "response functions: %s loss, RTT %s, MSS %g bytes, %s fluid form\n", rep.LossModel,
		model.FormatDuration(rep.RTTS), rep.MSSBytes, rep.Form)
	tw := newTable(w)
	fmt.Fprintln(tw, "algorithm\tc\td\tR²\tfit p ≤\treference c·τ^e\td\tsource\tfriendly p*\tW* (pkts)\tRTT exp")
	for _, r := range rep.Results {
		ref, refD, src := "-", "-", "-"
		if r.Reference != nil {
			ref, refD, src = cell("%.4g", r.RefC), cell("%g", r.Reference.D), r.Reference.Source
		}
		pStar, wStar := "-", "-"
		if r.Friendly != nil {
			pStar, wStar = cell("%.3g", r.Friendly.PStar), cell("%.1f", r.Friendly.WStarPkts)
		}
		exp := "-"
		if r.RTTExp != nil {
			exp = fixed3(r.RTTExp.E)
		}
		fc, fd, fr2 := fitCells(r)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Algorithm, cell("%.4g", fc), cell("%.4f", fd), cell("%.5f", fr2),
			cell("%.0e", r.FitPMax), ref, refD, src, pStar, wStar, exp)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeCaveats(w, rep)
	return nil
}

func convergeCommand() *cli.Command {
	return &cli.Command{
		Name:  "converge",
		Usage: "time to fill a link and to recover after a loss",
		Description: "fill_time_s: from W = 1 in congestion avoidance (no slow start) until W reaches " +
			"the BDP; recovery_time_s: from the window just after a loss at W = --loss-window (default " +
			"the BDP; a simulator sees its first loss a round trip after slow start ends, above the BDP: " +
			"ns-2's CUBIC at 1.0385bdp, BIC at 1.0909bdp) back to the BDP. --form hybrid-recovery holds " +
			"the window for the recovery round trip, as a packet sender does. " +
			"Closed forms are shown where they exist (docs/references.md), with the relative difference; the " +
			"recovery's only for a loss at the BDP. " +
			"A time is null (JSON, CSV) or - (table) when the window never reaches the BDP: a law that " +
			"settles below it (Vegas), or a BDP beyond the largest receiver window (2^30 bytes).",
		Flags: []cli.Flag{
			algosFlag("", classicDefault("algorithms")),
			listFlag("bandwidth", "1Gbps,10Gbps", rateKind, positive, "link rates"),
			durationFlag("rtt", "100ms", rttRange, "round-trip time"),
			listFlag("mss", "1000B,1500B", sizeKind, mssRange, "packet sizes"),
			boolFlag("slow-start", "add the fill time with slow start from the initial window"),
			quantityFlag("loss-window", "1bdp", bdpKind, bound{lo: 0, hi: 2, loOpen: true}, "window at the recovery run's loss, in bandwidth-delay products of each link"),
			enumFlag("form", fluid.FormHybrid, []string{fluid.FormHybrid, fluid.FormHybridRecovery}, "fluid form (hybrid-recovery: the window holds for the recovery round trip)"),
			paramFlag("algorithm parameter `algo.name=value` of one of the algorithms"), workersFlag(), formatFlag(),
		},
		Action: convergeAction,
	}
}

// maxRwndBytes is the largest receiver window, with window scaling (RFC 7323).
const maxRwndBytes = 1 << 30

func convergeAction(c *cli.Context) error {
	format := outputFormat(c)
	s := response.ConvergeSettings{Algorithms: algosOf(c), SlowStart: c.Bool("slow-start"), Workers: intOf(c, "workers"),
		BandwidthsBps: listOf(c, "bandwidth"), MSSBytes: listOf(c, "mss"), RTTS: quantity(c, "rtt"), Params: paramMap(c),
		LossWindowBDP: quantity(c, "loss-window"), Form: enumOf(c, "form")}
	algos := s.Algorithms
	if len(algos) == 0 {
		algos = response.ClassicAlgorithms
	}
	if err := checkParamTargets(c, algos); err != nil {
		return err
	}
	var notes []string
	for _, bw := range s.BandwidthsBps {
		for _, mss := range s.MSSBytes {
			bdp := bw * s.RTTS / (8 * mss)
			if bdp < 1 {
				return usagef("--bandwidth %s with --rtt %s and --mss %s: a bandwidth-delay product of %.3g packets, want at least 1 (a window of one packet already fills the link)",
					model.FormatRate(bw), model.FormatDuration(s.RTTS), num(mss)+"B", bdp)
			}
			if rwnd := maxRwndBytes / mss; bdp > rwnd {
				notes = append(notes, fmt.Sprintf("%s with %gB packets: the BDP, %.4g packets, is beyond the largest receiver window (2^30 bytes, %.4g packets): the window never reaches it", model.FormatRate(bw), mss, bdp, rwnd))
			}
		}
	}
	bar := startProgress(c, "converge", 0)
	rep, err := response.Converge(c.Context, s)
	bar.done()
	if err != nil {
		return settingsError(err)
	}
	w := c.App.Writer
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		cw := newCSV(w, "algorithm", "bandwidth_bps", "rtt_s", "mss_bytes", "bdp_pkts", "loss_window_pkts", "fill_time_s", "recovery_time_s", "fill_slow_start_s",
			"fill_closed_form_s", "recovery_closed_form_s", "fill_rel_diff", "recovery_rel_diff")
		for _, r := range rep.Results {
			cw.row(r.Algorithm, full(r.BandwidthBps), full(r.RTTS), full(r.MSSBytes), full(r.BDPPkts), full(r.LossWindowPkts), fullPtr(r.FillTimeS), fullPtr(r.RecoveryTimeS),
				fullPtr(r.FillSlowStartS), fullPtr(r.FillClosedFormS), fullPtr(r.RecoveryClosedFormS), fullPtr(r.FillRelDiff), fullPtr(r.RecoveryRelDiff))
		}
		return cw.flush()
	}
	pct := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return cell("%+.2f%%", 100**p)
	}
	fmt.Fprintf(w, "converge: RTT %s, loss at %gbdp, %s fluid form\n", model.FormatDuration(s.RTTS), s.LossWindowBDP, rep.Form)
	tw := newTable(w)
	header := "algorithm\tlink\tMSS\tBDP (pkts)\tloss at (pkts)\tfill (s)\tclosed form\tdiff\trecovery (s)\tclosed form\tdiff"
	if s.SlowStart {
		header += "\tfill with slow start (s)"
	}
	fmt.Fprintln(tw, header)
	for _, r := range rep.Results {
		fmt.Fprintf(tw, "%s\t%s\t%gB\t%.0f\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s", r.Algorithm, model.FormatRate(r.BandwidthBps), r.MSSBytes, r.BDPPkts, r.LossWindowPkts,
			cellPtr("%.2f", r.FillTimeS), cellPtr("%.2f", r.FillClosedFormS), pct(r.FillRelDiff), cellPtr("%.2f", r.RecoveryTimeS),
			cellPtr("%.2f", r.RecoveryClosedFormS), pct(r.RecoveryRelDiff))
		if s.SlowStart {
			fmt.Fprintf(tw, "\t%s", cellPtr("%.2f", r.FillSlowStartS))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, "note:", n)
	}
	return nil
}

var fairnessModes = []string{response.ModeSame, response.ModeRTT, response.ModeFriendliness}

func fairnessCommand() *cli.Command {
	return &cli.Command{
		Name:  "fairness",
		Usage: "Jain's index, RTT fairness and TCP friendliness",
		Description: "Runs flows on seed 000's dumbbell (access 200 Mb/s 10 ms, bottleneck 100 Mb/s 100 ms, " +
			"buffer 1 BDP, 1460-byte packets, a 1 GiB receiver window): --mode same (N flows of one algorithm, " +
			"starts 10 s apart), --mode rtt (one flow per RTT; the bottleneck's delay is a quarter of the smallest " +
			"RTT unless --bottleneck-delay says, and each access delay makes up the rest of its RTT; the " +
			"RTT-unfairness exponent is fitted from the shares, null when the RTTs are all equal) or --mode " +
			"friendliness (the algorithm against --against reno:4). --start-gap staggers the starts in every " +
			"mode (rtt: in the order of --rtts; friendliness: the tested flow first). Shares and Jain's index " +
			"are measured from --measure-from (default: half the run) to the end, which must span two " +
			"--window lengths; jain_series over windows. The table's experiment line and the JSON's " +
			"experiment state what ran: packets and headers, receiver window, every buffer in packets, each " +
			"flow's start, access delay and RTT, the engine, SACK, jitter and seeds.",
		Flags: []cli.Flag{
			enumFlag("mode", response.ModeSame, fairnessModes, "experiment"),
			algosFlag("reno", "algorithms, one run each"),
			intFlag("flows", "3", 1, 10000, "same mode: number of flows"),
			func() cli.Flag {
				f := durationFlag("start-gap", "", nonNegative, "time between flow starts")
				f.DefaultText = "10s in the same mode, 0s in the others"
				return f
			}(),
			listFlag("rtts", "50ms,75ms,100ms", durationKind, rttRange, "rtt mode: one flow per round-trip time"),
			stringFlag("against", "reno:4", "friendliness mode: the competing flows, `ALGO:COUNT`"),
			rateFlag("bottleneck", "100Mbps", positive, "bottleneck rate"),
			func() cli.Flag {
				f := durationFlag("bottleneck-delay", "", bound{lo: 0, hi: maxRTT, loOpen: true}, "bottleneck one-way delay")
				f.DefaultText = "100ms; rtt mode: a quarter of the smallest RTT, at most half of it"
				return f
			}(),
			rateFlag("access", "200Mbps", positive, "access link rate"),
			durationFlag("access-delay", "10ms", bound{lo: 0, hi: maxRTT, loOpen: true}, "access link one-way delay (same and friendliness modes)"),
			bufferFlag("buffer", "1bdp", "bottleneck buffer"),
			sizeFlag("mss", "1460B", positive, "payload per packet"),
			sizeFlag("rwnd", "1GiB", bound{lo: 0, hi: model.DefaultScaledRwndBytes, loOpen: true}, "every receiver's window (window scaling on)"),
			quantityFlag("initial-cwnd", "1", packetsKind, bound{lo: 1, hi: 1e6}, "every sender's first window (ns-2's windowInit_; ns-3 starts at 10)"),
			numberFlag("p", "0", probability, "random loss rate on the bottleneck (0: none)"),
			enumFlag("drop-rule", string(model.DropSynchronized), model.DropRules, "drop-tail loss rule (random: proportional with the seed's draws)"),
			durationFlag("duration", "1000s", positive, "simulated time"),
			func() cli.Flag {
				f := durationFlag("measure-from", "", positive, "start of the measurement, before --duration")
				f.DefaultText = "half the duration"
				return f
			}(),
			func() cli.Flag {
				f := durationFlag("window", "", positive, "window of the Jain series, at most half the measured time")
				f.DefaultText = "duration/30"
				return f
			}(),
			seedFlag("seed of random draws"),
			stringFlag("seeds", "", "run once per seed, `N` for 1..N or a comma list, and report the mean and spread (default: --seed alone)"),
			sizeFlag("header", "0B", nonNegative, "TCP/IP header on the wire per packet on top of --mss (ns-2's TCP/Linux with timestamps: 50B)"),
			boolFlag("sack", "senders with selective acknowledgements, as ns-2's TCP/Linux and ns-3's"),
			enumFlag("engine", response.EngineFluid, []string{response.EngineFluid, response.EnginePacket}, "tcpfluid engine"),
			enumFlag("form", fluid.FormHybrid, []string{fluid.FormHybrid, fluid.FormHybridRecovery}, "fluid engine's form (hybrid-recovery: counted as a packet sender counts, what validate runs)"),
			durationFlag("jitter", "0s", nonNegative, "senders' jitter, ns-2's overhead_ (the reference set's 240us): in the packet engine each data packet waits a further uniform random time up to this (the linux variants: each send, as ns-2's delayed send, and their module hears only the ACKs that find the window full); in the fluid's hybrid-recovery form the linux variants count only the ACKs ns-2's jittered sender counts"),
			boolFlag("compare-ns2", "set each result beside the stored ns-2 run of the same experiment (testdata/reference/ns2/fairness-MODE-ALGO.json, "+
				"embedded): Jain's index and shares over its seeds, the differences of the means and a verdict against the 0.05 target; "+
				"the stored experiment is --mss 1460B --header 50B --sack with the default links and flows"),
			paramFlag("algorithm parameter `algo.name=value` of one of the algorithms"), workersFlag(), formatFlag(),
			maxSamplesFlag(), maxRoundsFlag(),
		},
		Action: fairnessAction,
	}
}

func fairnessAction(c *cli.Context) error {
	format := outputFormat(c)
	s := response.FairnessSettings{
		Mode: enumOf(c, "mode"), Algorithms: algosOf(c), Flows: intOf(c, "flows"),
		DropRule: model.DropRule(enumOf(c, "drop-rule")), Seed: seedOf(c), Workers: intOf(c, "workers"),
		StartGapS: quantity(c, "start-gap"), BottleneckBps: quantity(c, "bottleneck"), BottleneckDelayS: quantity(c, "bottleneck-delay"),
		AccessBps: quantity(c, "access"), AccessDelayS: quantity(c, "access-delay"),
		MSSBytes: quantity(c, "mss"), RwndBytes: quantity(c, "rwnd"), InitialCwndPkts: quantity(c, "initial-cwnd"),
		LossP: quantity(c, "p"), DurationS: quantity(c, "duration"), RTTsS: listOf(c, "rtts"), Params: paramMap(c),
		HeaderBytes: quantity(c, "header"), SACK: c.Bool("sack"), Engine: enumOf(c, "engine"), JitterS: quantity(c, "jitter"),
	}
	s.BufferPkts, s.BufferBDP = bufferOf(c, "buffer")
	if !c.IsSet("start-gap") && s.Mode == response.ModeSame {
		s.StartGapS = 10
	}
	if s.Mode == response.ModeRTT && c.IsSet("access-delay") {
		return flagErr(c, "access-delay", "the rtt mode makes each access delay up from --rtts and --bottleneck-delay; drop it")
	}
	if !c.IsSet("bottleneck-delay") && s.Mode != response.ModeRTT {
		s.BottleneckDelayS = 0.1
	}
	if s.Engine == response.EngineFluid {
		s.Form = enumOf(c, "form")
	} else if c.IsSet("form") {
		return flagErr(c, "form", "the packet engine has no forms; drop --form or use --engine %s", response.EngineFluid)
	}
	if s.JitterS > 0 && s.Engine == response.EngineFluid && s.Form != fluid.FormHybridRecovery {
		return flagErr(c, "jitter", "only --engine %s and the fluid's --form %s count a jittered sender's packets (this is the %s form)",
			response.EnginePacket, fluid.FormHybridRecovery, s.Form)
	}
	if c.IsSet("seeds") {
		seeds, err := parseSeeds(c.String("seeds"))
		if err != nil {
			return err
		}
		s.Seeds = seeds
	}
	for _, fm := range [][2]string{{"flows", response.ModeSame}, {"rtts", response.ModeRTT}, {"against", response.ModeFriendliness}} {
		if c.IsSet(fm[0]) && s.Mode != fm[1] {
			return flagErr(c, fm[0], "only --mode %s uses it (this is --mode %s)", fm[1], s.Mode)
		}
	}
	against, n, err := againstFlag(c)
	if err != nil {
		return err
	}
	s.Against, s.AgainstFlows = against, n
	s.MeasureFromS, s.WindowS = s.DurationS/2, s.DurationS/30
	if c.IsSet("measure-from") {
		if s.MeasureFromS = quantity(c, "measure-from"); s.MeasureFromS >= s.DurationS {
			return flagErr(c, "measure-from", "want a time before --duration %s", model.FormatDuration(s.DurationS))
		}
	}
	if c.IsSet("window") {
		s.WindowS = quantity(c, "window")
	}
	if span := s.DurationS - s.MeasureFromS; s.WindowS > span/2 {
		return flagErr(c, "window", "want at most half the measured %s (from %s to --duration %s), so that the shares span two windows",
			model.FormatDuration(span), model.FormatDuration(s.MeasureFromS), model.FormatDuration(s.DurationS))
	}
	flows := map[string]int{response.ModeSame: s.Flows, response.ModeRTT: len(s.RTTsS), response.ModeFriendliness: 1 + s.AgainstFlows}[s.Mode]
	if last := float64(flows-1) * s.StartGapS; last >= s.DurationS {
		return usagef("%d flows with --start-gap %s: the last would start at %s, not before --duration %s", flows,
			model.FormatDuration(s.StartGapS), model.FormatDuration(last), model.FormatDuration(s.DurationS))
	}
	if least := slices.Min(s.RTTsS); s.Mode == response.ModeRTT && s.BottleneckDelayS > least/2 {
		return flagErr(c, "bottleneck-delay", "want at most half the smallest of --rtts (%s): each access link makes up the rest of its round trip",
			model.FormatDuration(least))
	}
	algos := slices.Clone(s.Algorithms)
	if s.Mode == response.ModeFriendliness {
		algos = append(algos, s.Against)
	}
	if err := checkParamTargets(c, algos); err != nil {
		return err
	}
	// Work: every flow's round trips, and the trace the measurement samples every window.
	var rtts []float64
	switch s.Mode {
	case response.ModeSame:
		for range s.Flows {
			rtts = append(rtts, 2*(2*s.AccessDelayS+s.BottleneckDelayS))
		}
	case response.ModeRTT:
		rtts = s.RTTsS
	case response.ModeFriendliness:
		for range 1 + s.AgainstFlows {
			rtts = append(rtts, 2*(2*s.AccessDelayS+s.BottleneckDelayS))
		}
	}
	rounds := 0.0
	for _, r := range rtts {
		rounds += s.DurationS / r
	}
	rows := (math.Floor(s.DurationS/s.WindowS) + 1) * float64(2*len(rtts)+2)
	if err := beyond(c, fmt.Sprintf("trace rows (%s in windows of %s, %s)", model.FormatDuration(s.DurationS), model.FormatDuration(s.WindowS), plural(len(rtts), "flow")),
		rows, "max-samples", "a longer --window"); err != nil {
		return err
	}
	if err := beyond(c, fmt.Sprintf("round trips of the fluid engine per algorithm (%s over %s)", plural(len(rtts), "flow"), model.FormatDuration(s.DurationS)),
		rounds, "max-rounds", "a shorter --duration"); err != nil {
		return err
	}
	bar := startProgress(c, "fairness", 0)
	rep, err := response.Fairness(c.Context, s)
	bar.done()
	if err != nil {
		return settingsError(err)
	}
	w := c.App.Writer
	if c.Bool("compare-ns2") {
		stored, err := reference.Stored()
		if err != nil {
			return err
		}
		rep.Notes = reference.CompareFairness(rep, stored)
	}
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		cw := newCSV(w, "algorithm", "flow", "flow_algorithm", "rtt_s", "throughput_bps", "fraction", "jain", "utilisation",
			"rtt_unfairness_exponent", "rtt_unfairness_r2", "algorithm_share", "loss_events", "timeouts")
		for _, r := range rep.Results {
			for _, sh := range r.Shares {
				cw.row(r.Algorithm, strconv.Itoa(sh.Flow), sh.Algorithm, full(sh.RTTS), full(sh.ThroughputBps), full(sh.Fraction), full(r.Jain),
					full(r.Utilisation), fullPtr(r.RTTExponent), fullPtr(r.RTTExpR2), fullPtr(r.AlgorithmShare),
					strconv.Itoa(sh.LossEvents), strconv.Itoa(sh.Timeouts))
			}
		}
		return cw.flush()
	}
	engine := rep.Form + " fluid form"
	if rep.Engine == response.EnginePacket {
		engine = "packet engine"
	}
	fmt.Fprintf(w, "fairness, mode %s, %s loss, drop rule %s, %s", rep.Mode, rep.LossModel, rep.DropRule, engine)
	if len(rep.Seeds) > 1 {
		fmt.Fprintf(w, ", means over seeds %v", rep.Seeds)
	}
	fmt.Fprintln(w)
	if len(rep.Results) > 0 {
		fmt.Fprintln(w, "experiment:", fairnessExperimentLine(rep.Results[0].Experiment))
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "algorithm\tflows\tJain\tmin Jain (windows)\tutilisation\tshares (flow: algo, RTT, throughput, loss events/timeouts)\textra")
	for _, r := range rep.Results {
		minJ := math.NaN()
		for _, j := range r.JainSeries {
			if math.IsNaN(minJ) || j.Jain < minJ {
				minJ = j.Jain
			}
		}
		var shares []string
		losses, timeouts := r.LossMeans()
		fractions := r.ShareMeans() // over the seeds, as Jain's index is
		for i, sh := range r.Shares {
			shares = append(shares, fmt.Sprintf("%d: %s %s %s %.3g/%.3g", sh.Flow, sh.Algorithm, model.FormatDuration(sh.RTTS),
				model.FormatRate(fractions[i]*r.Experiment.BottleneckBps), losses[i], timeouts[i]))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s%%\t%s\t%s\n", r.Algorithm, r.Flows, cell("%.4f", r.JainMean()), cell("%.4f", minJ), cell("%.1f", 100*r.Utilisation),
			strings.Join(shares, "; "), fairnessExtra(rep.Mode, r, "share"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeFairnessReferences(w, rep)
}

// fairnessExperimentLine states a fairness experiment on one line, as a simulator would
// need it: packets and header, receiver window, links with their buffers in packets, and
// each flow's start, access delay and round trip.
func fairnessExperimentLine(e response.FairnessExperiment) string {
	var flows []string
	for i, f := range e.Flows {
		flows = append(flows, fmt.Sprintf("%d at %s, access %s, RTT %s", i, model.FormatDuration(f.StartS),
			model.FormatDuration(f.AccessDelayS), model.FormatDuration(f.RTTS)))
	}
	line := fmt.Sprintf("%s B payload + %s B header a packet, initial window %s packets, receiver window %s packets; bottleneck %s %s, buffer %s packets; "+
		"to the receiver %s %s, buffer %s packets; access %s, buffer %s packets; flows %s; measured %s to %s",
		num(e.MSSBytes), num(e.HeaderBytes), num(e.InitialCwndPkts), num(e.RwndPkts), model.FormatRate(e.BottleneckBps),
		model.FormatDuration(e.BottleneckDelayS), num(e.BottleneckBufferPkts), model.FormatRate(e.OutBps), model.FormatDuration(e.OutDelayS),
		num(e.OutBufferPkts), model.FormatRate(e.Flows[0].AccessBps), num(e.Flows[0].AccessBufferPkts), strings.Join(flows, "; "),
		model.FormatDuration(e.MeasureFromS), model.FormatDuration(e.DurationS))
	if e.SACK {
		line += "; SACK"
	}
	if e.JitterS > 0 {
		line += "; send jitter " + model.FormatDuration(e.JitterS)
	}
	return line
}

// writeFairnessReferences prints, under a fairness table, each result's stored simulator
// run beside it (--compare-ns2): Jain's index and shares, the differences and the verdict.
func writeFairnessReferences(w io.Writer, rep *response.FairnessReport) error {
	tw := newTable(w)
	header := false
	for _, r := range rep.Results {
		ref := r.Reference
		if ref == nil {
			continue
		}
		if !header {
			fmt.Fprintln(tw, "\nalgorithm\tns-2 run\tns-2 Jain (seeds)\tJain − ns-2\tshares − ns-2\tns-2 loss events/timeouts\tverdict (±tolerance)\tnot the same")
			header = true
		}
		var diffs []string
		for _, d := range ref.ShareDiffs {
			diffs = append(diffs, fmt.Sprintf("%+.3f", d))
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f ± %.3f (%d)\t%+.3f\t%s\t%s\t%s\t%s\n", r.Algorithm, ref.Source, ref.Jain.Mean, ref.Jain.SD, ref.Jain.N,
			ref.JainDiff, strings.Join(diffs, " / "), flowCounts(ref.CountMeans()), fairnessVerdictText(ref), strings.Join(ref.Differences, "; "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
	return nil
}

// fairnessVerdictText is a reference's verdict with its tolerance, and, where the seeds'
// spread leaves it undecided, the widest of the differences' 95% intervals.
func fairnessVerdictText(ref *response.FairnessReference) string {
	text := fmt.Sprintf("%s (±%g)", ref.Verdict, ref.Tolerance)
	if !ref.Decided {
		text += fmt.Sprintf(", undecided by the seeds (95%% ±%.3f)", slices.Max(append([]float64{ref.JainDiffCI95}, ref.ShareDiffsCI95...)))
	}
	return text
}

// flowCounts is each flow's loss events/timeouts, "L/T / L/T / …".
func flowCounts(losses, timeouts []float64) string {
	var counts []string
	for i := range losses {
		counts = append(counts, fmt.Sprintf("%.3g/%.3g", losses[i], timeouts[i]))
	}
	return strings.Join(counts, " / ")
}

// fairnessExtra is the mode's own figure for a table: the RTT exponent, "-" when it is
// undefined (equal RTTs), or the tested algorithm's share.
func fairnessExtra(mode string, r response.FairnessResult, shareLabel string) string {
	switch mode {
	case response.ModeRTT:
		return "RTT exponent " + cellPtr("%.2f", r.RTTExponent)
	case response.ModeFriendliness:
		if r.AlgorithmShare != nil {
			return shareLabel + " " + cell("%.1f", 100**r.AlgorithmShare) + "%"
		}
	}
	return ""
}

// againstFlag reads --against ALGO:COUNT, the friendliness mode's competitors.
func againstFlag(c *cli.Context) (string, int, error) {
	against, count, ok := strings.Cut(c.String("against"), ":")
	n, convErr := strconv.Atoi(count)
	if _, err := model.New(against); err != nil || !ok || convErr != nil || n < 1 || n > 10000 {
		return "", 0, flagErr(c, "against", "want ALGO:COUNT with an algorithm tcpfluid algos lists and 1 to 10000 flows, such as reno:4")
	}
	return against, n, nil
}
