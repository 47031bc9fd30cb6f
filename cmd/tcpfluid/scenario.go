package main

import (
	"fmt"
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
				Action: scenarioListAction,
			},
		},
	}
}

func scenarioShowAction(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return fmt.Errorf("%w: scenario show: want one built-in scenario NAME, one of %s", errUsage, strings.Join(model.BuiltinNames(), ", "))
	}
	sc, err := model.Builtin(c.Args().First())
	if err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	return model.WriteScenarioYAML(c.App.Writer, sc)
}

func scenarioListAction(c *cli.Context) error {
	tw := newTable(c.App.Writer)
	fmt.Fprintln(tw, "name\tflows\tduration\tsweep (built-in experiments)")
	for _, name := range model.BuiltinNames() {
		sc, err := model.Builtin(name)
		if err != nil {
			return err
		}
		exp := "-"
		if e, ok := sweep.Experiments[name]; ok {
			exp = "--param " + strings.Join(e.Axes, " --param ") + " --metric " + strings.Join(e.Metrics, ",")
			if e.Replications > 1 {
				exp += fmt.Sprintf(" --replications %d", e.Replications)
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", name, len(sc.Flows), model.FormatDuration(sc.DurationS), exp)
	}
	return tw.Flush()
}
