package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/meanfield"
	"github.com/tcpfluid/tcpfluid/model"
)

const stabilityDescription = `Linear stability of the mean-field form (Misra, Gong and Towsley's delay equations,
generalised to every algorithm whose window law is a function of the window: reno,
newreno, scalable, highspeed) for N flows over one bottleneck, on a grid of propagation
RTTs and flow counts. Each point reports the equilibrium (window W0, queue q0, RTT R0,
loss p0), the verdict from the rightmost characteristic root of the linearised delay
equation (stable, or oscillating: a Hopf bifurcation into a limit cycle), its decay rate
and period, and, with RED in its linear range, the loop's phase, delay and gain margins;
for Reno also those of the simplified loop of Hollot, Misra, Towsley and Gong (INFOCOM
2001). --critical adds, per flow count, the propagation RTT at which stability is lost;
--simulate DURATION integrates the delay equation from the equilibrium (windows perturbed
by --perturb) and reports what the run does; with one point, --series INTERVAL prints
that run's time series instead.

The defaults are HMTG's example: 60 flows of 500-byte packets at 15 Mb/s (3750
packets/s), 200 ms of propagation RTT, RED designed by their rule (K = 0.005/s,
max_p = 0.1 from 130 to 650 packets), equilibrium q0 ≈ 175 packets.

Grids (--rtt, --flows) are min:max:count, min:max:count:log or a comma list.`

func stabilityCommand() *cli.Command {
	return &cli.Command{
		Name:        "stability",
		Usage:       "mean-field equilibrium and linear stability (verdict, delay margin) over RTT and flow count",
		Description: stabilityDescription,
		Flags: []cli.Flag{
			algoFlag("reno", "algorithm with a mean-field form (reno, newreno, scalable, highspeed)"),
			paramFlag("parameter `algo.name=value` of --algo"),
			rateFlag("bandwidth", "15Mbps", positive, "bottleneck rate"),
			sizeFlag("mss", "500B", positive, "packet size on the wire"),
			stringFlag("rtt", "200ms", "propagation RTT `GRID` of durations, e.g. 100ms:1s:10"),
			stringFlag("flows", "60", "flow-count `GRID`, e.g. 10,60,1e6"),
			enumFlag("queue", "red", []string{"red", "droptail"}, "queue (droptail has no linearisation: the queue sits at its buffer)"),
			quantityFlag("buffer", "0", packetsKind, nonNegative, "buffer; 0: none"),
			numberFlag("loss", "0", probability, "random loss probability per packet"),
			quantityFlag("red-min", "130", packetsKind, nonNegative, "RED min_thresh"),
			quantityFlag("red-max", "650", packetsKind, positive, "RED max_thresh, above --red-min"),
			numberFlag("red-maxp", "0.1", bound{lo: 0, hi: 1, loOpen: true}, "RED max_p"),
			func() cli.Flag {
				f := numberFlag("red-k", "", positive, "RED averaging pole K, 1/s (weight = 1 − e^(−K/C))")
				f.DefaultText = "0.005"
				return f
			}(),
			numberFlag("red-weight", "", bound{lo: 0, hi: 1, loOpen: true}, "RED per-packet EWMA weight q_weight instead of --red-k"),
			boolFlag("critical", "add the critical propagation RTT of each flow count"),
			durationFlag("simulate", "0", nonNegative, "integrate the delay equation this long from the perturbed equilibrium (0: no)"),
			numberFlag("perturb", "0.01", bound{lo: -1, hi: 1, loOpen: true, hiOpen: true}, "with --simulate: relative perturbation of the windows at the start"),
			durationFlag("series", "0", nonNegative, "with one point and --simulate: print the run's time series at this interval (0: no)"),
			formatFlag(),
			maxRoundsFlag(),
		},
		Action: stabilityAction,
	}
}

// stabilityReport is the command's JSON output.
type stabilityReport struct {
	Algorithm        string            `json:"algorithm"`
	CapacityPktsPerS float64           `json:"capacity_pkts_per_s"`
	PacketBytes      float64           `json:"packet_bytes"`
	Queue            string            `json:"queue"`
	RED              *stabilityREDOut  `json:"red,omitempty"`
	BufferPkts       float64           `json:"buffer_pkts"`
	LossP            float64           `json:"loss_p"`
	Points           []stabilityPoint  `json:"points"`
	Series           []stabilitySample `json:"series,omitempty"`
}

// stabilityREDOut is RED's settings in the output's units; KPerS is absent (∞) without
// averaging.
type stabilityREDOut struct {
	MinThPkts float64  `json:"min_thresh_pkts"`
	MaxThPkts float64  `json:"max_thresh_pkts"`
	MaxP      float64  `json:"max_p"`
	Weight    float64  `json:"q_weight"`
	KPerS     *float64 `json:"k_per_s,omitempty"`
	LRedPerPk float64  `json:"l_red_per_pkt"`
}

type stabilityPoint struct {
	PropRTTS float64 `json:"prop_rtt_s"`
	Flows    float64 `json:"flows"`
	// The equilibrium; nil fields when there is none.
	CwndPkts  *float64 `json:"cwnd_pkts"`
	QueuePkts *float64 `json:"queue_pkts"`
	RTTS      *float64 `json:"rtt_s"`
	LossP     *float64 `json:"loss_p"`
	Regime    string   `json:"regime,omitempty"`
	// Verdict is stable, oscillating or unstable; "none" without a linearisation (Note).
	Verdict          string             `json:"verdict"`
	Note             string             `json:"note,omitempty"`
	DecayRatePerS    *float64           `json:"decay_rate_per_s,omitempty"`
	FrequencyRadPerS *float64           `json:"frequency_rad_per_s,omitempty"`
	PeriodS          *float64           `json:"period_s,omitempty"`
	Loop             *meanfield.Margins `json:"loop,omitempty"`
	HMTG             *hmtgPoint         `json:"hmtg,omitempty"`
	CriticalPropRTTS *float64           `json:"critical_prop_rtt_s,omitempty"`
	Simulation       *simPoint          `json:"simulation,omitempty"`
}

type hmtgPoint struct {
	Verdict string            `json:"verdict"`
	Margins meanfield.Margins `json:"margins"`
}

// simPoint is a run's summary; a figure the run leaves undefined is null.
type simPoint struct {
	DurationS        float64  `json:"duration_s"`
	Behaviour        string   `json:"behaviour"`
	AmplitudeEarly   *float64 `json:"amplitude_early"`
	AmplitudeLate    *float64 `json:"amplitude_late"`
	EnvelopeRatePerS *float64 `json:"envelope_rate_per_s"`
	MeanCwndPkts     *float64 `json:"mean_cwnd_pkts"`
	MeanQueuePkts    *float64 `json:"mean_queue_pkts"`
	Steps            int      `json:"steps"`
}

type stabilitySample struct {
	TS           float64 `json:"t_s"`
	CwndPkts     float64 `json:"cwnd_pkts"`
	RTTS         float64 `json:"rtt_s"`
	LossP        float64 `json:"loss_p"`
	QueuePkts    float64 `json:"queue_pkts"`
	AvgQueuePkts float64 `json:"avg_queue_pkts"`
}

// stabilityGrid parses a grid flag: min:max:count[:log] or a comma list, every value
// finite and > 0.
func stabilityGrid(flag, s string, parse func(string) (float64, error), unit string) ([]float64, error) {
	bad := func(format string, args ...any) error {
		return usagef("--%s %s: "+format, append([]any{flag, showValue(s)}, args...)...)
	}
	var vals []float64
	if parts := strings.Split(s, ":"); len(parts) > 1 {
		if len(parts) > 4 || (len(parts) == 4 && parts[3] != "log") || len(parts) < 3 {
			return nil, bad("want min:max:count, min:max:count:log or a comma list")
		}
		lo, err1 := parse(parts[0])
		hi, err2 := parse(parts[1])
		n, err3 := strconv.Atoi(strings.TrimSpace(parts[2]))
		switch {
		case err1 != nil:
			return nil, bad("min: %v", problem(err1))
		case err2 != nil:
			return nil, bad("max: %v", problem(err2))
		case err3 != nil || n < 2 || n > 1000:
			return nil, bad("count must be a whole number from 2 to 1000")
		case !(lo > 0) || !(hi > lo):
			return nil, bad("want 0 < min < max")
		}
		for k := range n {
			f := float64(k) / float64(n-1)
			if len(parts) == 4 {
				vals = append(vals, lo*math.Pow(hi/lo, f))
			} else {
				vals = append(vals, lo+(hi-lo)*f)
			}
		}
		return vals, nil
	}
	for _, item := range splitList(s) {
		v, err := parse(item)
		if err != nil {
			return nil, bad("%v", problem(err))
		}
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, bad("%s, want a finite value > 0", strings.TrimSpace(item))
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 || len(vals) > 1000 {
		return nil, bad("want 1 to 1000 values")
	}
	return vals, nil
}

func stabilityAction(c *cli.Context) error {
	format := outputFormat(c)
	bw, mss := quantity(c, "bandwidth"), quantity(c, "mss")
	capacity := bw / (8 * mss)
	rtts, err := stabilityGrid("rtt", c.String("rtt"), model.ParseDurationUnit, "a duration with its unit such as 200ms")
	if err != nil {
		return err
	}
	flows, err := stabilityGrid("flows", c.String("flows"), model.ParseNumber, "a number")
	if err != nil {
		return err
	}
	buffer, loss := quantity(c, "buffer"), quantity(c, "loss")
	simS, perturb, seriesS := quantity(c, "simulate"), quantity(c, "perturb"), quantity(c, "series")
	if c.IsSet("perturb") && simS == 0 {
		return flagErr(c, "perturb", "perturbs the start of --simulate, which is not given")
	}
	if seriesS > 0 && (simS == 0 || len(rtts)*len(flows) != 1) {
		return usagef("--series %s: needs --simulate and a single point (one --rtt, one --flows), not %d", c.String("series"), len(rtts)*len(flows))
	}
	if seriesS > 0 && simS/seriesS > 1e6 {
		return usagef("--series %s: at most 10^6 samples over --simulate %s", c.String("series"), c.String("simulate"))
	}
	if simS > 0 {
		rounds := 0.0
		for _, r := range rtts {
			rounds += float64(len(flows)) * simS / r
		}
		if err := beyond(c, fmt.Sprintf("round trips of the delay equation (--simulate %s over %d points)", model.FormatDuration(simS), len(rtts)*len(flows)),
			rounds, "max-rounds", "a shorter --simulate or fewer points"); err != nil {
			return err
		}
	}
	params := paramMap(c)
	algo := algoOf(c)
	for a := range params {
		if a != algo {
			return usagef("--param %s.*: want parameters of --algo %s", a, algo)
		}
	}
	if _, err := meanfield.LawOf(algo, params[algo]); err != nil {
		switch {
		case errors.Is(err, meanfield.ErrNoMeanField), errors.Is(err, model.ErrUnknownAlgorithm), errors.Is(err, model.ErrParam):
			return usagef("--algo %s: %s", algo, oneLine(err.Error()))
		}
		return err
	}
	rep := &stabilityReport{Algorithm: algo, CapacityPktsPerS: capacity, PacketBytes: mss, Queue: enumOf(c, "queue"), BufferPkts: buffer, LossP: loss}
	link := meanfield.Link{Name: "bottleneck", CapacityPktsPerS: capacity, BufferPkts: buffer, LossP: loss}
	switch rep.Queue {
	case "red":
		red, k, err := stabilityRED(c, capacity)
		if err != nil {
			return err
		}
		link.RED = red
		rep.RED = &stabilityREDOut{MinThPkts: red.MinThPkts, MaxThPkts: red.MaxThPkts, MaxP: red.MaxP, Weight: red.Weight, LRedPerPk: meanfield.REDSlope(red)}
		if !math.IsInf(k, 1) {
			rep.RED.KPerS = &k
		}
	case "droptail":
		for _, f := range []string{"red-k", "red-weight", "red-min", "red-max", "red-maxp"} {
			if c.IsSet(f) {
				return flagErr(c, f, "only with --queue red")
			}
		}
	}
	network := func(rtt, n float64) (*meanfield.Network, error) {
		law, err := meanfield.LawOf(algo, params[algo])
		if err != nil {
			return nil, err
		}
		return &meanfield.Network{Links: []meanfield.Link{link},
			Classes: []meanfield.Class{{Name: algo, Law: law, Flows: n, PropRTTS: rtt, Links: []int{0}}}}, nil
	}
	bar := startProgress(c, "stability", len(rtts)*len(flows))
	defer bar.done()
	for _, n := range flows {
		var critical *float64
		if c.Bool("critical") {
			net, err := network(rtts[0], n)
			if err != nil {
				return err
			}
			f, found, err := meanfield.FindCritical(c.Context, net, meanfield.KnobPropRTT, 1024)
			if err := c.Context.Err(); err != nil {
				return err
			}
			if err == nil && found {
				critical = ptrTo(f * rtts[0])
			}
		}
		for _, rtt := range rtts {
			if err := c.Context.Err(); err != nil {
				return err
			}
			net, err := network(rtt, n)
			if err != nil {
				return err
			}
			pt, series, err := stabilityAt(c, net, simS, perturb, seriesS)
			if err != nil {
				return err
			}
			pt.CriticalPropRTTS = critical
			rep.Points = append(rep.Points, pt)
			rep.Series = series
			bar.add()
		}
	}
	bar.done()
	w := c.App.Writer
	if seriesS > 0 {
		return writeStabilitySeries(w, format, rep)
	}
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		return writeStabilityCSV(w, rep)
	}
	return writeStabilityTable(w, rep)
}

// stabilityRED builds RED from the flags; K and the weight are two forms of one setting.
func stabilityRED(c *cli.Context, capacity float64) (*model.RED, float64, error) {
	lo, hi := quantity(c, "red-min"), quantity(c, "red-max")
	if hi <= lo {
		return nil, 0, flagErr(c, "red-max", "want more packets than --red-min %s", num(lo))
	}
	red := &model.RED{MinThPkts: lo, MaxThPkts: hi, MaxP: quantity(c, "red-maxp")}
	var k float64
	switch {
	case c.IsSet("red-k") && c.IsSet("red-weight"):
		return nil, 0, usagef("--red-k and --red-weight: give one (the weight is 1 − e^(−K/C))")
	case c.IsSet("red-weight"):
		red.Weight = quantity(c, "red-weight")
		k = -capacity * math.Log1p(-red.Weight)
	default:
		k = 0.005
		if c.IsSet("red-k") {
			k = quantity(c, "red-k")
		}
		red.Weight = -math.Expm1(-k / capacity)
	}
	return red, k, nil // K = ∞ without averaging (weight 1)
}

func ptrTo(v float64) *float64 { return &v }

// stabilityAt analyses one network and, when asked, runs it.
func stabilityAt(c *cli.Context, net *meanfield.Network, simS, perturb, seriesS float64) (stabilityPoint, []stabilitySample, error) {
	cl := net.Classes[0]
	pt := stabilityPoint{PropRTTS: cl.PropRTTS, Flows: cl.Flows, Verdict: "none"}
	eq, err := net.Equilibrium()
	if err != nil {
		if !errors.Is(err, meanfield.ErrNetwork) {
			return pt, nil, err
		}
		pt.Note = strings.TrimPrefix(err.Error(), meanfield.ErrNetwork.Error()+": ")
	} else {
		ce, le := eq.Classes[0], eq.Links[0]
		pt.CwndPkts, pt.QueuePkts, pt.RTTS, pt.LossP, pt.Regime = &ce.CwndPkts, &le.QueuePkts, &ce.RTTS, &ce.LossP, le.Regime
		st, err := meanfield.Analyze(net)
		switch {
		case err == nil:
			pt.Verdict, pt.Loop = st.Verdict, st.Loop
			pt.DecayRatePerS, pt.FrequencyRadPerS = ptrTo(st.DecayRatePerS), ptrTo(st.FrequencyRadPerS)
			if st.FrequencyRadPerS > 0 {
				pt.PeriodS = ptrTo(2 * math.Pi / st.FrequencyRadPerS)
			}
		case errors.Is(err, meanfield.ErrNetwork):
			pt.Note = strings.TrimPrefix(err.Error(), meanfield.ErrNetwork.Error()+": ")
		default:
			return pt, nil, err
		}
		if h, err := meanfield.HMTGOf(net); err == nil {
			v := meanfield.VerdictOscillating
			if h.Stable() {
				v = meanfield.VerdictStable
			}
			pt.HMTG = &hmtgPoint{Verdict: v, Margins: h.Margins()}
		}
	}
	if simS == 0 {
		return pt, nil, nil
	}
	set := meanfield.Settings{DurationS: simS, SampleS: seriesS, FromEquilibrium: eq != nil, Perturb: perturb}
	if eq == nil {
		set.Perturb = 0 // from an empty network
	}
	res, err := meanfield.Simulate(c.Context, net, set)
	if err != nil {
		return pt, nil, err
	}
	pt.Simulation = &simPoint{DurationS: simS, Behaviour: res.Behaviour, AmplitudeEarly: finite(res.AmplitudeEarly), AmplitudeLate: finite(res.AmplitudeLate),
		EnvelopeRatePerS: finite(res.EnvelopeRatePerS), MeanCwndPkts: finite(res.Classes[0].MeanCwndPkts), MeanQueuePkts: finite(res.Links[0].MeanQueuePkts), Steps: res.Steps}
	var series []stabilitySample
	for _, s := range res.Series {
		series = append(series, stabilitySample{TS: s.TS, CwndPkts: s.CwndPkts[0], RTTS: s.RTTS[0], LossP: s.LossP[0], QueuePkts: s.QueuePkts[0], AvgQueuePkts: s.AvgQueuePkts[0]})
	}
	return pt, series, nil
}

// opt formats an optional value, "-" (table) or "" (CSV) when absent.
func opt(v *float64, none string) string {
	if v == nil {
		return none
	}
	return num(*v)
}

// optFull writes an optional value at full precision for CSV, none when absent.
func optFull(v *float64, none string) string {
	if v == nil {
		return none
	}
	return full(*v)
}

func writeStabilityTable(w io.Writer, rep *stabilityReport) error {
	fmt.Fprintf(w, "mean-field stability: %s, C = %s packets/s of %g bytes, %s queue", rep.Algorithm, num(rep.CapacityPktsPerS), rep.PacketBytes, rep.Queue)
	if rep.RED != nil {
		fmt.Fprintf(w, " (RED %g–%g packets, max_p %g, K = %s /s)", rep.RED.MinThPkts, rep.RED.MaxThPkts, rep.RED.MaxP, opt(rep.RED.KPerS, "∞"))
	}
	fmt.Fprintln(w)
	tw := newTable(w)
	fmt.Fprintln(tw, "prop RTT (s)\tflows\tW0 (pkts)\tq0 (pkts)\tR0 (s)\tp0\tverdict\tdecay (1/s)\tperiod (s)\tPM (°)\tdelay margin (s)\tHMTG PM (°)\tcritical RTT (s)\trun")
	for _, p := range rep.Points {
		pm, dm, hpm, run := "-", "-", "-", "-"
		if p.Loop != nil {
			pm, dm = opt(p.Loop.PhaseMarginDeg, "-"), opt(p.Loop.DelayMarginS, "-")
		}
		if p.HMTG != nil {
			hpm = opt(p.HMTG.Margins.PhaseMarginDeg, "-")
		}
		if p.Simulation != nil {
			run = fmt.Sprintf("%s (amplitude %s)", p.Simulation.Behaviour, cellPtr("%.3g", p.Simulation.AmplitudeLate))
		}
		verdict := p.Verdict
		if p.Note != "" {
			verdict += ": " + p.Note
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", num(p.PropRTTS), num(p.Flows),
			opt(p.CwndPkts, "-"), opt(p.QueuePkts, "-"), opt(p.RTTS, "-"), opt(p.LossP, "-"), verdict,
			opt(p.DecayRatePerS, "-"), opt(p.PeriodS, "-"), pm, dm, hpm, opt(p.CriticalPropRTTS, "-"), run)
	}
	return tw.Flush()
}

func writeStabilityCSV(w io.Writer, rep *stabilityReport) error {
	fmt.Fprintln(w, "prop_rtt_s,flows,cwnd_pkts,queue_pkts,rtt_s,loss_p,regime,verdict,decay_rate_per_s,frequency_rad_per_s,period_s,"+
		"crossover_rad_per_s,phase_margin_deg,delay_margin_s,gain_margin,hmtg_verdict,hmtg_phase_margin_deg,hmtg_delay_margin_s,critical_prop_rtt_s,run_behaviour,run_amplitude")
	for _, p := range rep.Points {
		var wc, pm, dm, gm, hv, hpm, hdm, rb, ra string
		if p.Loop != nil {
			wc, pm, dm, gm = optFull(p.Loop.CrossoverRadPerS, ""), optFull(p.Loop.PhaseMarginDeg, ""), optFull(p.Loop.DelayMarginS, ""), optFull(p.Loop.GainMargin, "")
		}
		if p.HMTG != nil {
			hv, hpm, hdm = p.HMTG.Verdict, optFull(p.HMTG.Margins.PhaseMarginDeg, ""), optFull(p.HMTG.Margins.DelayMarginS, "")
		}
		if p.Simulation != nil {
			rb, ra = p.Simulation.Behaviour, fullPtr(p.Simulation.AmplitudeLate)
		}
		fmt.Fprintf(w, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", full(p.PropRTTS), full(p.Flows),
			optFull(p.CwndPkts, ""), optFull(p.QueuePkts, ""), optFull(p.RTTS, ""), optFull(p.LossP, ""), p.Regime, p.Verdict,
			optFull(p.DecayRatePerS, ""), optFull(p.FrequencyRadPerS, ""), optFull(p.PeriodS, ""), wc, pm, dm, gm, hv, hpm, hdm,
			optFull(p.CriticalPropRTTS, ""), rb, ra)
	}
	return nil
}

func writeStabilitySeries(w io.Writer, format string, rep *stabilityReport) error {
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		cw := newCSV(w, "t_s", "cwnd_pkts", "rtt_s", "loss_p", "queue_pkts", "avg_queue_pkts")
		for _, s := range rep.Series {
			cw.row(full(s.TS), full(s.CwndPkts), full(s.RTTS), full(s.LossP), full(s.QueuePkts), full(s.AvgQueuePkts))
		}
		return cw.flush()
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "t (s)\tW (pkts)\tRTT (s)\tp\tq (pkts)\tRED avg (pkts)")
	for _, s := range rep.Series {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", num(s.TS), num(s.CwndPkts), num(s.RTTS), num(s.LossP), num(s.QueuePkts), num(s.AvgQueuePkts))
	}
	return tw.Flush()
}
