package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/reference"
)

// The reference command's scenario experiment: one-link tcpfluid scenarios (the modern
// built-ins) in ns-3 beside tcpfluid's two engines, metric by metric.

// referenceScenarios are the scenarios of --builtin (a comma list) or --scenario FILE.
func referenceScenarios(c *cli.Context) ([]*model.Scenario, error) {
	file, names := c.String("scenario"), splitList(c.String("builtin"))
	if (file == "") == (len(names) == 0) {
		return nil, usagef("--experiment scenario needs --builtin NAMES or --scenario FILE (one of them)")
	}
	var out []*model.Scenario
	if file != "" {
		if _, err := os.Stat(file); err != nil {
			return nil, usagef("--scenario %s: %v", showValue(file), err)
		}
		sc, err := model.LoadScenarioFile(file)
		if err != nil {
			return nil, usagef("%s", oneLine(err.Error()))
		}
		out = append(out, sc)
	}
	for _, n := range names {
		if !slices.Contains(model.BuiltinNames(), n) {
			return nil, usagef("--builtin %s: want a comma list of %s", showValue(n), oneOf(model.BuiltinNames()))
		}
		sc, err := model.Builtin(n)
		if err != nil {
			return nil, usagef("%s", oneLine(err.Error()))
		}
		out = append(out, sc)
	}
	for _, sc := range out {
		if c.IsSet("duration") {
			sc.SetDuration(quantity(c, "duration"))
		}
		if err := sc.Validate(); err != nil {
			return nil, usagef("%s", oneLine(err.Error()))
		}
	}
	return out, nil
}

func referenceScenarioAction(c *cli.Context, sims []string, engines map[string]bool, set string, seeds []uint64, format string) error {
	for _, f := range []string{"p", "rtt", "mss", "warmup", "start-ssthresh", "losses", "bandwidth", "mode", "buffer", "against", "jitter", "ca-param"} {
		if c.IsSet(f) {
			return flagErr(c, f, "--experiment scenario takes its settings from the scenario")
		}
	}
	if slices.Contains(sims, reference.NS2) {
		if enumOf(c, "sim") == reference.NS2 {
			return flagErr(c, "sim", "ns-2.35 has no CoDel, PIE, FQ-CoDel, DCTCP or BBR: the scenario experiment runs in ns3")
		}
		sims = []string{reference.NS3}
	}
	if !c.IsSet("tcpfluid-params") {
		set = reference.SetNS3 // like with like: the only simulator here is ns-3
	}
	scs, err := referenceScenarios(c)
	if err != nil {
		return err
	}
	rep := &reference.Report{Kind: reference.KindScenario, Simulators: sims, TcpfluidParams: set, Seeds: seeds}
	type job struct {
		sc   *model.Scenario
		exps []*reference.Experiment
	}
	var jobs []job
	for _, sc := range scs {
		j := job{sc: sc}
		e, err := reference.ScenarioOf(sc)
		if err != nil {
			return fmt.Errorf("%w: %w", errUsage, err)
		}
		for _, seed := range seeds {
			es := *e // one experiment per seed, the rest shared
			es.Seed = seed
			j.exps = append(j.exps, &es)
		}
		jobs = append(jobs, j)
		rep.MSSBytes = j.exps[0].MSSBytes
	}
	if dir := c.String("emit"); dir != "" {
		var all [][]*reference.Experiment
		for _, j := range jobs {
			all = append(all, j.exps)
		}
		return emitExperiments(c, dir, all, seeds, []string{reference.NS3})
	}
	runner, err := simulatorRunner(c, sims)
	if err != nil {
		return err
	}
	bar := startProgress(c, "reference", len(jobs)*len(sims)*len(seeds))
	defer bar.done()
	for _, j := range jobs {
		row := reference.Row{Experiment: j.exps[0].Name, Algorithm: algorithmsOf(j.sc), Quantity: "metrics"}
		if err := runSimulators(c, runner, bar, &row, sims, j.exps); err != nil {
			return err
		}
		bar.describe("tcpfluid " + row.Experiment)
		var ns3 []*reference.ScenarioStats
		for _, m := range row.NS3 {
			ns3 = append(ns3, m.Scenario)
		}
		if len(engines) > 0 {
			fl, pk, err := reference.TcpfluidScenario(c.Context, reference.ScenarioWithParams(j.sc, set), seeds[0])
			if err != nil {
				return settingsError(err)
			}
			if engines["fluid"] {
				row.Fluid = fl
			}
			if engines["packet"] {
				row.Packet = pk
			}
		}
		row.Metrics = reference.CompareScenario(statsOf(row.Fluid), statsOf(row.Packet), ns3)
		rep.Rows = append(rep.Rows, row)
	}
	bar.done()
	switch format {
	case formatJSON:
		return writeJSON(c.App.Writer, rep)
	case formatCSV:
		return writeScenarioCSV(c.App.Writer, rep)
	}
	return writeScenarioTable(c.App.Writer, rep)
}

// simulatorRunner is the runner of --keep, once every simulator of sims is found installed.
func simulatorRunner(c *cli.Context, sims []string) (*reference.Runner, error) {
	runner := reference.DefaultRunner()
	runner.KeepDir = c.String("keep")
	for _, sim := range sims {
		if err := runner.Available(sim); err != nil {
			return nil, err
		}
	}
	return runner, nil
}

func statsOf(st *reference.EngineStats) *reference.ScenarioStats {
	if st == nil {
		return nil
	}
	return st.Scenario
}

// algorithmsOf names a scenario's algorithms, in order of first use.
func algorithmsOf(sc *model.Scenario) string {
	var as []string
	for _, f := range sc.Flows {
		if !slices.Contains(as, f.Algorithm) {
			as = append(as, f.Algorithm)
		}
	}
	return strings.Join(as, "+")
}

// scenarioCell is a metric's value from one source, or "-".
func scenarioCell(m reference.ScenarioMetric, src string) string {
	v, ok := m.Values[src]
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.4g", v)
}

func scenarioErr(m reference.ScenarioMetric, engine string) string {
	d, ok := m.Errors[engine+"/ns3"]
	if !ok {
		return "-"
	}
	if m.Kind == "absolute" {
		return fmt.Sprintf("%+.3f abs %s", d, m.Verdicts[engine])
	}
	return fmt.Sprintf("%+.1f%% %s", 100*d, m.Verdicts[engine])
}

func writeScenarioTable(w io.Writer, rep *reference.Report) error {
	fmt.Fprintf(w, "reference scenario: simulators %s, tcpfluid constants %q, seeds %v\n", strings.Join(rep.Simulators, ", "), rep.TcpfluidParams, rep.Seeds)
	out := 0
	for _, r := range rep.Rows {
		fmt.Fprintf(w, "\n%s (%s)\n", r.Experiment, r.Algorithm)
		tw := newTable(w)
		fmt.Fprintln(tw, "metric\tsubject\tfluid\tpacket\tns-3\tfluid/ns-3\tpacket/ns-3\ttolerance")
		for _, m := range r.Metrics {
			tol := fmt.Sprintf("%g%%", 100*m.Tolerance)
			if m.Kind == "absolute" {
				tol = fmt.Sprintf("%g abs", m.Tolerance)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Metric, m.Subject, scenarioCell(m, "fluid"), scenarioCell(m, "packet"),
				scenarioCell(m, "ns3"), scenarioErr(m, "fluid"), scenarioErr(m, "packet"), tol)
			for _, v := range m.Verdicts {
				if v == "out" {
					out++
				}
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
		ran := r.Fluid // its wall time is both engines'
		if ran == nil {
			ran = r.Packet
		}
		fmt.Fprintf(w, "wall: tcpfluid %s, ns-3 %s\n", engWall(ran), wall(r.NS3))
		for _, m := range r.NS3 {
			if s := m.Scenario; s != nil {
				fmt.Fprintf(w, "ns-3 seed %d: %.4g simulated s, %.0f packets sent, %.0f dropped, %.0f ECN-marked, mean sojourn in the queue disc %.3g ms\n",
					m.Seed, m.SimulatedS, m.SentPkts, s.DroppedPkts, s.MarkedPkts, 1e3*s.MeanSojournS)
			}
		}
	}
	if out > 0 {
		fmt.Fprintf(w, "\n%d engine-metric pairs are out of tolerance against ns-3\n", out)
	}
	return nil
}

func writeScenarioCSV(w io.Writer, rep *reference.Report) error {
	fmt.Fprintln(w, "experiment,metric,subject,fluid,packet,ns3,fluid_vs_ns3,packet_vs_ns3,kind,tolerance,fluid_verdict,packet_verdict")
	for _, r := range rep.Rows {
		for _, m := range r.Metrics {
			cell := func(mp map[string]float64, k string) string {
				if v, ok := mp[k]; ok {
					return num(v)
				}
				return ""
			}
			fmt.Fprintf(w, "%s,%s,%q,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r.Experiment, m.Metric, m.Subject, cell(m.Values, "fluid"), cell(m.Values, "packet"),
				cell(m.Values, "ns3"), cell(m.Errors, "fluid/ns3"), cell(m.Errors, "packet/ns3"), m.Kind, num(m.Tolerance), m.Verdicts["fluid"], m.Verdicts["packet"])
		}
	}
	return nil
}
