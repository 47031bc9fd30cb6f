package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/sweep"
)

func scenarioCommand() *cli.Command {
	return &cli.Command{
		Name:  "scenario",
		Usage: "list the built-in scenarios, or print one as the YAML that run --scenario reads",
		Subcommands: []*cli.Command{
			{
				Name:      "show",
				Usage:     "print a built-in scenario as YAML (tcpfluid scenario show NAME > my.yaml; edit; tcpfluid run --scenario my.yaml)",
				ArgsUsage: "NAME",
				Description: "Prints the built-in scenario NAME, validated (defaults resolved), as the YAML document that " +
					"'tcpfluid run --scenario' and 'tcpfluid sweep --scenario' read: it reads back as the same scenario.",
				Action: scenarioShowAction,
			},
			{
				Name:   "list",
				Usage:  "list the built-in scenarios and the sweep each built-in experiment runs",
				Flags:  []cli.Flag{formatFlag()},
				Action: scenarioListAction,
			},
		},
	}
}

func scenarioShowAction(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return usagef("scenario show: want one built-in scenario NAME, %s", oneOf(model.BuiltinNames()))
	}
	sc, err := model.Builtin(c.Args().First())
	if err != nil {
		return usagef("scenario show %s: want %s", showValue(c.Args().First()), oneOf(model.BuiltinNames()))
	}
	return model.WriteScenarioYAML(c.App.Writer, sc)
}

// builtinInfo is one line of scenario list.
type builtinInfo struct {
	Name         string   `json:"name"`
	Flows        int      `json:"flows"`
	DurationS    float64  `json:"duration_s"`
	Axes         []string `json:"sweep_params,omitempty"`
	Metrics      []string `json:"sweep_metrics,omitempty"`
	Replications int      `json:"sweep_replications,omitempty"`
}

func scenarioListAction(c *cli.Context) error {
	var infos []builtinInfo
	for _, name := range model.BuiltinNames() {
		sc, err := model.Builtin(name)
		if err != nil {
			return err
		}
		info := builtinInfo{Name: name, Flows: len(sc.Flows), DurationS: sc.DurationS}
		if e, ok := sweep.Experiments[name]; ok {
			info.Axes, info.Metrics, info.Replications = e.Axes, e.Metrics, e.Replications
		}
		infos = append(infos, info)
	}
	w := c.App.Writer
	switch outputFormat(c) {
	case formatJSON:
		return writeJSON(w, map[string]any{"scenarios": infos})
	case formatCSV:
		cw := newCSV(w, "name", "flows", "duration_s", "sweep_params", "sweep_metrics", "sweep_replications")
		for _, i := range infos {
			cw.row(i.Name, strconv.Itoa(i.Flows), full(i.DurationS), strings.Join(i.Axes, " "), strings.Join(i.Metrics, ","), strconv.Itoa(i.Replications))
		}
		return cw.flush()
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "name\tflows\tduration\tsweep (built-in experiments)")
	for _, i := range infos {
		exp := "-"
		if len(i.Axes) > 0 {
			exp = "--param " + strings.Join(i.Axes, " --param ") + " --metric " + strings.Join(i.Metrics, ",")
			if i.Replications > 1 {
				exp += fmt.Sprintf(" --replications %d", i.Replications)
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", i.Name, i.Flows, model.FormatDuration(i.DurationS), exp)
	}
	return tw.Flush()
}
