package main

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/reference"
	"github.com/tcpfluid/tcpfluid/response"
)

func referenceCommand() *cli.Command {
	return &cli.Command{
		Name:  "reference",
		Usage: "the same experiment in ns-2 (TCP/Linux) and ns-3 beside tcpfluid's engines",
		Description: "Writes the experiment as an ns-2.35 Tcl script (Agent/TCP/Linux with the algorithm's " +
			"Linux module via select_ca, Agent/TCPSink/Sack1, timestamps) and an ns-3.37 C++ program " +
			"(TcpSocketBase with the algorithm's TcpCongestionOps, SACK, DelAckCount 1, MTU raised so that " +
			"1460-byte segments with timestamps are not fragmented), runs them when the simulators are " +
			"installed (`apt-get install ns2 libns3-dev g++`), and prints tcpfluid fluid, tcpfluid packet, " +
			"ns-2 and ns-3 side by side with relative errors and each run's wall time. Experiments: " +
			"response (one flow, uniform random loss p on data packets, RTT --rtt, a 10 Gb/s link that never " +
			"queues; the window is time-averaged over whole loss cycles after --warmup loss events), " +
			"converge (one flow from the simulator's own slow start on a --bandwidth link with a 1-BDP " +
			"drop-tail buffer: the first loss and the time until the window is back at the BDP, counted in packets of payload and the simulator's header), fairness " +
			"(seed 000's dumbbell as `tcpfluid fairness` builds it: --mode same|rtt|friendliness (against --against ALGO:COUNT), a --buffer of BDPs, over " +
			"--seeds, ns-2 with a random send jitter --jitter via overhead_; mean and spread), scenario (ns-3 only: " +
			"one-link scenarios, --builtin NAMES or --scenario FILE, with the link's queue as ns-3's queue disc — " +
			"FifoQueueDisc, RedQueueDisc as DCTCP's step at K, CoDelQueueDisc, FqCoDelQueueDisc, PieQueueDisc — and " +
			"every rate scaled so that ns-3's 54 header bytes leave the packet rate tcpfluid's; per algorithm the mean window, " +
			"goodput and loss events, and the queue, queueing delay, utilisation and Jain's index, judged against ns-3). tcpfluid " +
			"runs with the constants of --tcpfluid-params (linux: the modules ns-2 runs, the default; ns3, the default with --sim ns3 alone; default: tcpfluid's own). " +
			"--list prints which module each simulator runs for each algorithm and what each lacks. " +
			"--emit DIR writes the scripts and programs (with build.sh and run.sh for ns-3) without " +
			"running them. A missing simulator is a one-line error and exit code 1; usage errors exit 2. " +
			"The ns-3 program is built once per source version into the user cache dir " +
			"(TCPFLUID_REFERENCE_CACHE=off builds afresh, =DIR caches there).",
		Flags: []cli.Flag{
			enumFlag("sim", "both", []string{reference.NS2, reference.NS3, "both", "none"}, "the simulators to run (none: tcpfluid only)"),
			enumFlag("experiment", reference.KindResponse, []string{reference.KindResponse, reference.KindConverge, reference.KindFairness, reference.KindScenario}, "the experiment"),
			&cli.StringFlag{Name: "builtin", Usage: "scenario: `NAMES`, a comma list of one-link built-in scenarios (modern-bufferbloat-codel, modern-dctcp-2, ...)"},
			stringFlag("scenario", "", "scenario: a one-link scenario `FILE` (YAML)"),
			&cli.StringFlag{Name: "algo", Value: "reno", Usage: "`ALGOS`, a comma list of algorithms; simulator-only modules by name, e.g. westwood"},
			listFlag("p", "1e-3", numberKind, bound{lo: 0, hi: 1, loOpen: true, hiOpen: true}, "response: loss rates per packet"),
			durationFlag("rtt", "100ms", positive, "response, converge: round-trip time"),
			sizeFlag("mss", "", positive, "payload per packet (default: response 1460B, converge 1500B, fairness 1460B)"),
			&cli.IntFlag{Name: "warmup", Usage: "response: `N` loss events discarded", DefaultText: "20"},
			&cli.StringFlag{Name: "start-ssthresh", Value: "fluid", Usage: "response: `SSTHRESH`, the simulators' initial ssthresh in packets (ns-2 max_ssthresh_, ns-3 InitialSlowStartThreshold), so that slow start ends near the mean window: fluid (tcpfluid's fluid mean, when tcpfluid has the law), none, or a number"},
			&cli.IntFlag{Name: "losses", Usage: "response: `N` measured loss events", DefaultText: "2·10^7·p, 60 to 2000"},
			listFlag("bandwidth", "1Gbps", rateKind, positive, "converge: link rates"),
			enumFlag("mode", "same", []string{"same", "rtt", "friendliness"}, "fairness: the mode"),
			quantityFlag("buffer", "1bdp", bdpKind, positive, "fairness: the bottleneck's buffer in bandwidth-delay products"),
			stringFlag("against", "reno:4", "fairness --mode friendliness: the competing flows, `ALGO:COUNT` (bbr --against cubic:1: BBR's share against one CUBIC flow)"),
			&cli.StringFlag{Name: "seeds", Value: "1", Usage: "`SEEDS`, a comma list of seeds, or N for 1..N (fairness: one run each, mean and spread)"},
			durationFlag("jitter", "240us", nonNegative, "fairness: ns-2 overhead_, a uniform random wait before each send (two packet times at the bottleneck)"),
			quantityFlag("initial-cwnd", "1", packetsKind, bound{lo: 1, hi: 1e6}, "fairness: every sender's first window in all engines, a whole number (tcpfluid's default; ns-2 would start at 2, ns-3 at 10)"),
			durationFlag("duration", "1000s", positive, "fairness: simulated time; scenario: overrides the scenario's"),
			enumFlag("tcpfluid-params", reference.SetLinux, []string{reference.SetLinux, reference.SetNS3, reference.SetDefault}, "tcpfluid's constants (with --sim ns3 alone, and in the scenario experiment: ns3 unless given)"),
			&cli.StringFlag{Name: "engines", Value: "fluid,packet", Usage: "`ENGINES`, the tcpfluid engines to run beside the simulators (fluid, packet; empty: none)"},
			&cli.StringSliceFlag{Name: "ca-param", Usage: "`SPEC`, an ns-2 set_ca_param as module.name=integer, e.g. cubic.beta=717 (repeatable)"},
			&cli.StringFlag{Name: "emit", Usage: "write the experiments to the directory `DIR` (one folder each) and run nothing"},
			&cli.StringFlag{Name: "keep", Usage: "keep each simulator run's files under the directory `DIR`"},
			&cli.BoolFlag{Name: "list", Usage: "print the algorithm → module map of both simulators"},
			formatFlag(),
		},
		Action: referenceAction,
	}
}

func parseSeeds(s string) ([]uint64, error) {
	if n, err := strconv.Atoi(s); err == nil && !strings.Contains(s, ",") {
		if n < 1 || n > 1000 {
			return nil, fmt.Errorf("%w: --seeds %d: want 1 to 1000", errUsage, n)
		}
		out := make([]uint64, n)
		for i := range out {
			out[i] = uint64(i + 1)
		}
		return out, nil
	}
	var out []uint64
	for _, v := range splitList(s) {
		x, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: --seeds %q: want N or a comma list of integers", errUsage, s)
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: --seeds: empty", errUsage)
	}
	return out, nil
}

func caParams(c *cli.Context) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	for _, s := range c.StringSlice("ca-param") {
		k, v, ok := strings.Cut(s, "=")
		mod, name, ok2 := strings.Cut(k, ".")
		n, err := strconv.Atoi(v)
		if !ok || !ok2 || err != nil || mod == "" || name == "" {
			return nil, fmt.Errorf("%w: --ca-param %q: want module.name=integer (e.g. cubic.beta=717)", errUsage, s)
		}
		if out[mod] == nil {
			out[mod] = map[string]int{}
		}
		out[mod][name] = n
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func referenceAction(c *cli.Context) error {
	format := outputFormat(c)
	if c.Bool("list") {
		return writeModuleList(c.App.Writer, format)
	}
	var sims []string
	switch s := enumOf(c, "sim"); s {
	case "both":
		sims = []string{reference.NS2, reference.NS3}
	case reference.NS2, reference.NS3:
		sims = []string{s}
	}
	engines := map[string]bool{}
	for _, e := range splitList(c.String("engines")) {
		if e != "fluid" && e != "packet" {
			return fmt.Errorf("%w: --engines %q: want fluid and/or packet", errUsage, e)
		}
		engines[e] = true
	}
	set := enumOf(c, "tcpfluid-params")
	if !c.IsSet("tcpfluid-params") && len(sims) == 1 && sims[0] == reference.NS3 {
		set = reference.SetNS3 // like with like: the only simulator run is ns-3
	}
	algos := splitList(c.String("algo"))
	if len(algos) == 0 {
		algos = []string{"reno"}
	}
	seeds, err := parseSeeds(c.String("seeds"))
	if err != nil {
		return err
	}
	ca, err := caParams(c)
	if err != nil {
		return err
	}
	rtt, mss := quantity(c, "rtt"), quantity(c, "mss")
	kind := enumOf(c, "experiment")
	if kind == reference.KindScenario {
		return referenceScenarioAction(c, sims, engines, set, seeds, format)
	}
	for _, f := range []string{"builtin", "scenario"} {
		if c.IsSet(f) {
			return flagErr(c, f, "only --experiment scenario uses it (this is --experiment %s)", kind)
		}
	}
	if c.IsSet("buffer") && kind != reference.KindFairness {
		return flagErr(c, "buffer", "only --experiment fairness uses it (this is --experiment %s)", kind)
	}
	rep := &reference.Report{Kind: kind, Simulators: sims, TcpfluidParams: set, RTTS: rtt, Seeds: seeds}
	// Build every experiment first: description errors are usage errors, before any run.
	type job struct {
		row  *reference.Row
		exps []*reference.Experiment // one per seed
		// fair is the fairness experiment's spec (its first seed): tcpfluid runs its
		// settings over every seed.
		fair *reference.FairnessSpec
	}
	var jobs []job
	switch kind {
	case reference.KindResponse:
		ps := listOf(c, "p")
		if mss == 0 {
			mss = 1460
		}
		for _, a := range algos {
			for _, p := range ps {
				row := &reference.Row{Algorithm: a, P: p, Quantity: "mean_cwnd_pkts"}
				var exps []*reference.Experiment
				start, err := startWindow(c, a, p, rtt, mss, set, ca)
				if err != nil {
					return err
				}
				for _, seed := range seeds {
					e, err := reference.Response(reference.ResponseSpec{Algorithm: a, P: p, RTTS: rtt, MSSBytes: mss, StartPkts: start,
						WarmupLosses: c.Int("warmup"), Losses: c.Int("losses"), Seed: seed, Params: ca})
					if err != nil {
						return fmt.Errorf("%w: %w", errUsage, err)
					}
					exps = append(exps, e)
				}
				row.Experiment = exps[0].Name
				jobs = append(jobs, job{row: row, exps: exps})
			}
		}
	case reference.KindConverge:
		bws := listOf(c, "bandwidth")
		if mss == 0 {
			mss = 1500
		}
		for _, a := range algos {
			for _, bw := range bws {
				row := &reference.Row{Algorithm: a, Bandwidth: bw, Quantity: "recovery_s"}
				var exps []*reference.Experiment
				for _, seed := range seeds {
					e, err := reference.Converge(reference.ConvergeSpec{Algorithm: a, BandwidthBps: bw, RTTS: rtt, MSSBytes: mss, Seed: seed, Params: ca})
					if err != nil {
						return fmt.Errorf("%w: %w", errUsage, err)
					}
					exps = append(exps, e)
				}
				row.Experiment = exps[0].Name
				jobs = append(jobs, job{row: row, exps: exps})
			}
		}
	case reference.KindFairness:
		jitter, dur := quantity(c, "jitter"), quantity(c, "duration")
		mss = 1460
		mode := enumOf(c, "mode")
		if c.IsSet("against") && mode != response.ModeFriendliness {
			return flagErr(c, "against", "only --mode friendliness uses it (this is --mode %s)", mode)
		}
		against, nAgainst, err := againstFlag(c)
		if err != nil {
			return err
		}
		for _, a := range algos {
			row := &reference.Row{Algorithm: a, Mode: mode, Quantity: "jain"}
			var exps []*reference.Experiment
			spec := reference.FairnessSpec{Mode: mode, Algorithm: a, JitterS: jitter, DurationS: dur, BufferBDP: quantity(c, "buffer"), Params: ca,
				InitialCwndPkts: quantity(c, "initial-cwnd")}
			if mode == response.ModeFriendliness {
				spec.Against, spec.AgainstFlows = against, nAgainst
			}
			for _, seed := range seeds {
				spec.Seed = seed
				e, err := reference.Fairness(spec)
				if err != nil {
					return fmt.Errorf("%w: %w", errUsage, err)
				}
				exps = append(exps, e)
			}
			spec.Seed = seeds[0]
			row.Experiment = exps[0].Name
			jobs = append(jobs, job{row: row, exps: exps, fair: &spec})
		}
	}
	rep.MSSBytes = mss
	if dir := c.String("emit"); dir != "" {
		emitSims := sims
		if len(emitSims) == 0 {
			emitSims = []string{reference.NS2, reference.NS3}
		}
		var all [][]*reference.Experiment
		for _, j := range jobs {
			all = append(all, j.exps)
		}
		return emitExperiments(c, dir, all, seeds, emitSims)
	}
	runner, err := simulatorRunner(c, sims)
	if err != nil {
		return err
	}
	// A simulator run can take minutes (ns-3 at 1 Gb/s: hours): the bar counts them.
	runs := 0
	for _, j := range jobs {
		runs += len(sims) * len(j.exps)
	}
	bar := startProgress(c, "reference", runs)
	defer bar.done()
	for _, j := range jobs {
		row := j.row
		if err := runSimulators(c, runner, bar, row, sims, j.exps); err != nil {
			return err
		}
		row.NS2Fairness = reference.SummarizeFairness(row.NS2)
		row.NS3Fairness = reference.SummarizeFairness(row.NS3)
		// tcpfluid runs after the simulators: its converge run starts from their window at
		// the first loss.
		tf, params := tcpfluidLaw(set, row.Algorithm, ca)
		bar.describe("tcpfluid " + row.Experiment)
		if _, err := model.New(row.Algorithm); err == nil {
			if err := runTcpfluid(c, row, j.exps[0], j.fair, engines, set, tf, params, rtt, mss, seeds); err != nil {
				return err
			}
		} else if len(engines) > 0 {
			row.Notes = append(row.Notes, fmt.Sprintf("tcpfluid has no %s law: simulators only", row.Algorithm))
		}
		row.RelErr = relErrors(row)
		rep.Rows = append(rep.Rows, *row)
	}
	bar.done()
	switch format {
	case formatJSON:
		return writeJSON(c.App.Writer, rep)
	case formatCSV:
		return writeReferenceCSV(c.App.Writer, rep)
	}
	return writeReferenceTable(c.App.Writer, rep)
}

// runSimulators runs each experiment (one per seed) in each simulator into the row's
// measurements, a step of bar each; a simulator that lacks an algorithm is a note.
func runSimulators(c *cli.Context, runner *reference.Runner, bar *progress, row *reference.Row, sims []string, exps []*reference.Experiment) error {
	for _, sim := range sims {
		for k, e := range exps {
			bar.describe(fmt.Sprintf("%s %s seed %d", sim, e.Name, e.Seed))
			m, err := runner.Run(c.Context, sim, e)
			bar.add()
			if errors.Is(err, reference.ErrUnsupported) {
				for range exps[k+1:] {
					bar.add() // the other seeds are not run either
				}
				row.Notes = append(row.Notes, err.Error())
				break
			}
			if err != nil {
				return err
			}
			if sim == reference.NS2 {
				row.NS2 = append(row.NS2, m)
			} else {
				row.NS3 = append(row.NS3, m)
			}
		}
	}
	return nil
}

// emitExperiments writes each job's experiments (one per seed) for the simulators into a
// folder each under dir, saying what it wrote and what a simulator lacks.
func emitExperiments(c *cli.Context, dir string, jobs [][]*reference.Experiment, seeds []uint64, sims []string) error {
	for _, exps := range jobs {
		for k, e := range exps {
			sub := filepath.Join(dir, e.Name)
			if len(exps) > 1 {
				sub += fmt.Sprintf("-seed%d", seeds[k])
			}
			var files []string
			for _, sim := range sims {
				fs, err := reference.Emit(sub, e, []string{sim})
				if errors.Is(err, reference.ErrUnsupported) {
					fmt.Fprintf(c.App.Writer, "skipped %s for %s: %v\n", sim, e.Name, err)
					continue
				}
				if err != nil {
					return err
				}
				files = append(files, fs...)
			}
			for _, f := range files {
				fmt.Fprintln(c.App.Writer, "wrote", f)
			}
		}
	}
	return nil
}

// tcpfluidLaw is the algorithm tcpfluid runs beside the simulators for algo under the
// parameter set set: its variant of that name when it has one ("cubic@linux"), else algo;
// with ns-2's set_ca_param cubic beta (in 1/1024) as the same β.
func tcpfluidLaw(set, algo string, ca map[string]map[string]int) (string, map[string]float64) {
	tf := reference.TcpfluidAlgorithm(set, algo)
	if b, ok := ca["cubic"]["beta"]; ok && algo == "cubic" {
		return tf, map[string]float64{"beta": float64(b) / 1024}
	}
	return tf, nil
}

// fluidAtLoss runs the counted fluid at the loss rate each simulator realized over its
// runs of the response point, which its window is compared with (Row.FluidAtLoss), and notes
// it: a run's losses fall short of p or beyond it by chance, and the window moves with them.
func fluidAtLoss(c *cli.Context, row *reference.Row, tf string, params map[string]float64, rtt, mss float64, seed uint64) error {
	for _, sim := range []struct {
		name, shown string
		runs        []*reference.Measurement
	}{{reference.NS2, "ns-2", row.NS2}, {reference.NS3, "ns-3", row.NS3}} {
		at := reference.PooledLossRate(sim.runs)
		if !(at > 0) {
			continue
		}
		st, err := reference.CountedResponse(c.Context, tf, at, rtt, mss, params, seed)
		if err != nil {
			return settingsError(err)
		}
		if row.FluidAtLoss == nil {
			row.FluidAtLoss = map[string]*reference.EngineStats{}
		}
		row.FluidAtLoss[sim.name] = st
		if v, ok := simValue(row, sim.runs, nil); ok && v > 0 {
			row.Notes = append(row.Notes, fmt.Sprintf("%s lost %.4g·p of its packets: the counted fluid at that rate %.4g ± %.2g packets, %+.1f%% of %s's",
				sim.shown, at/row.P, st.MeanCwndPkts, st.CI95Pkts, 100*(st.MeanCwndPkts/v-1), sim.shown))
		}
	}
	return nil
}

func runTcpfluid(c *cli.Context, row *reference.Row, e *reference.Experiment, fair *reference.FairnessSpec, engines map[string]bool, set, tf string,
	params map[string]float64, rtt, mss float64, seeds []uint64) error {
	seed := seeds[0]
	var err error
	switch e.Kind {
	case reference.KindResponse:
		if engines["fluid"] {
			if row.Fluid, err = reference.FluidResponse(c.Context, tf, row.P, rtt, mss, params, seed); err != nil {
				return settingsError(err)
			}
		}
		if engines["packet"] {
			if row.Packet, row.FluidRecovery, err = reference.PacketResponse(c.Context, tf, row.P, rtt, mss, params, seed); err != nil {
				return settingsError(err)
			}
		}
		if engines["fluid"] {
			return fluidAtLoss(c, row, tf, params, rtt, mss, seed)
		}
	case reference.KindConverge:
		if engines["fluid"] {
			// tcpfluid's link carries the payload at the rate the simulator's does, so that
			// its BDP is the simulator's pipe of payload and header.
			lw, from := row.LossWindow()
			bw, pipe := e.PayloadBps(from), e.PipePkts(from)
			if lw > 0 {
				row.Notes = append(row.Notes, fmt.Sprintf("tcpfluid loses at %s's window at its first loss, %.0f packets (BDP %.0f packets of %g + %g bytes)", from, lw, pipe, mss, e.WireHeaderBytes(from)))
			} else {
				row.Notes = append(row.Notes, fmt.Sprintf("no simulator loss window: tcpfluid loses at the BDP, %.0f packets of %g + %g bytes", pipe, mss, e.WireHeaderBytes(from)))
			}
			if row.Fluid, err = reference.FluidConverge(c.Context, tf, fluid.FormHybrid, bw, rtt, mss, lw, params); err != nil {
				return settingsError(err)
			}
			if row.FluidRecovery, err = reference.FluidConverge(c.Context, tf, fluid.FormHybridRecovery, bw, rtt, mss, lw, params); err != nil {
				return settingsError(err)
			}
		}
	case reference.KindFairness:
		// The competitors of the friendliness mode run tcpfluid's variant of the same set.
		against := reference.TcpfluidAlgorithm(set, cmp.Or(fair.Against, "reno"))
		for _, run := range []struct {
			engine, form string
			into         **reference.EngineStats
		}{
			{response.EngineFluid, fluid.FormHybrid, &row.Fluid},
			{response.EngineFluid, fluid.FormHybridRecovery, &row.FluidRecovery},
			{response.EnginePacket, "", &row.Packet},
		} {
			if !engines[run.engine] {
				continue
			}
			st, err := reference.TcpfluidFairness(c.Context, run.engine, run.form, *fair, tf, against, params, seeds)
			if err != nil {
				return settingsError(err)
			}
			*run.into = st
			en := cmp.Or(run.form, run.engine)
			for _, sim := range []struct {
				name string
				sum  *reference.FairnessSummary
			}{{"ns-2", row.NS2Fairness}, {"ns-3", row.NS3Fairness}} {
				if dj, ds, v, ok := reference.CompareSummary(st, sim.sum); ok {
					jhw, shw, decided := reference.SummaryNoise(st, sim.sum)
					undecided := ""
					if !decided {
						undecided = ", undecided by the seeds"
					}
					row.Notes = append(row.Notes, fmt.Sprintf("%s vs %s: Jain %+.3f ± %.3f, largest share difference %.3f ± %.3f (95%%): %s %g%s; loss events/timeouts a flow %s against %s",
						en, sim.name, dj, jhw, ds, shw, v, reference.FairnessTolerance, undecided, flowCounts(st.FlowLossEvents, st.FlowTimeouts), flowCounts(sim.sum.CountMeans())))
				}
			}
		}
	}
	return nil
}

// value is the compared quantity of a row's simulator measurements (the mean over seeds).
func simValue(row *reference.Row, ms []*reference.Measurement, fs *reference.FairnessSummary) (float64, bool) {
	if len(ms) == 0 {
		return 0, false
	}
	switch row.Quantity {
	case "mean_cwnd_pkts":
		var s float64
		for _, m := range ms {
			if m.Response == nil {
				return 0, false
			}
			s += m.Response.MeanCwndPkts
		}
		return s / float64(len(ms)), true
	case "recovery_s":
		var s float64
		for _, m := range ms {
			if m.Converge == nil || m.Converge.RecoveryS == nil {
				return 0, false
			}
			s += *m.Converge.RecoveryS
		}
		return s / float64(len(ms)), true
	case "jain":
		if fs == nil {
			return 0, false
		}
		return fs.Jain.Mean, true
	}
	return 0, false
}

func engineValue(row *reference.Row, st *reference.EngineStats) (float64, bool) {
	if st == nil {
		return 0, false
	}
	switch row.Quantity {
	case "mean_cwnd_pkts":
		return st.MeanCwndPkts, st.MeanCwndPkts > 0
	case "recovery_s":
		if st.RecoveryS == nil {
			return 0, false
		}
		return *st.RecoveryS, true
	case "jain":
		return st.Jain, st.Jain > 0
	}
	return 0, false
}

func relErrors(row *reference.Row) map[string]float64 {
	out := map[string]float64{}
	ns2, ok2 := simValue(row, row.NS2, row.NS2Fairness)
	ns3, ok3 := simValue(row, row.NS3, row.NS3Fairness)
	cmp := func(a, b float64) float64 {
		if row.Quantity == "jain" {
			return a - b
		}
		return a/b - 1
	}
	for name, st := range map[string]*reference.EngineStats{"fluid": row.Fluid, "packet": row.Packet, "fluid_recovery": row.FluidRecovery} {
		v, ok := engineValue(row, st)
		if !ok {
			continue
		}
		if ok2 && ns2 != 0 {
			out[name+"/ns2"] = cmp(v, ns2)
		}
		if ok3 && ns3 != 0 {
			out[name+"/ns3"] = cmp(v, ns3)
		}
	}
	if ok2 && ok3 && ns2 != 0 {
		out["ns3/ns2"] = cmp(ns3, ns2)
	}
	for sim, v := range map[string]float64{"ns2": ns2, "ns3": ns3} {
		if st := row.FluidAtLoss[sim]; st != nil && v > 0 {
			out["fluid_at_loss/"+sim] = st.MeanCwndPkts/v - 1
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func copyParams(p map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range p {
		out[k] = v
	}
	return out
}

// startWindow is the response point's initial ssthresh for the simulators (packets; 0: none).
func startWindow(c *cli.Context, algo string, p, rtt, mss float64, set string, ca map[string]map[string]int) (float64, error) {
	switch v := c.String("start-ssthresh"); v {
	case "none":
		return 0, nil
	case "fluid", "":
		if _, err := model.New(algo); err != nil {
			return 0, nil
		}
		tf, params := tcpfluidLaw(set, algo, ca)
		st, err := reference.FluidResponse(c.Context, tf, p, rtt, mss, params, 1)
		if err != nil {
			return 0, settingsError(err)
		}
		return st.MeanCwndPkts, nil
	default:
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%w: --start-ssthresh %q: want fluid, none or a number of packets", errUsage, v)
		}
		return n, nil
	}
}
