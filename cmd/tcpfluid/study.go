package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
)

// defaultStudy is what `tcpfluid` does without a command: every built-in scenario in the
// fluid engine, summarised.
func defaultStudy(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return fmt.Errorf("%w: unknown command %q (see tcpfluid --help)", errUsage, c.Args().First())
	}
	w := c.App.Writer
	fmt.Fprintln(w, "tcpfluid default study: the built-in scenarios in the fluid engine")
	for _, name := range model.BuiltinNames() {
		sc, err := model.Builtin(name)
		if err != nil {
			return err
		}
		res, err := model.RunFluid(c.Context, sc, model.FluidSettings{Seed: 1})
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintln(w)
		if err := writeRunTable(w, res); err != nil {
			return err
		}
	}
	return nil
}
