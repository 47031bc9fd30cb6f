package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"
)

// errNotLanded is returned by commands whose capability is registered but not built yet.
var errNotLanded = errors.New("not available in this version yet")

func pending(issue string) cli.ActionFunc {
	return func(c *cli.Context) error {
		return fmt.Errorf("%s: %w (tracked as %s)", c.Command.Name, errNotLanded, issue)
	}
}

func responseCommand() *cli.Command {
	return &cli.Command{
		Name:  "response",
		Usage: "response functions (mean window against loss rate) and their c/p^d fits",
		Description: "For each algorithm and each loss rate on a log grid, runs one long-lived flow " +
			"until its mean window is stable and fits log W = log c - d log p.",
		Flags:  []cli.Flag{formatFlag()},
		Action: pending("issue 4"),
	}
}

func convergeCommand() *cli.Command {
	return &cli.Command{
		Name:   "converge",
		Usage:  "time to fill a link and to recover after a loss",
		Flags:  []cli.Flag{formatFlag()},
		Action: pending("issue 4"),
	}
}

func fairnessCommand() *cli.Command {
	return &cli.Command{
		Name:   "fairness",
		Usage:  "Jain's index, RTT fairness and TCP friendliness",
		Flags:  []cli.Flag{formatFlag()},
		Action: pending("issue 4"),
	}
}

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:   "validate",
		Usage:  "the same scenario in the fluid and the packet engine, side by side",
		Flags:  []cli.Flag{formatFlag()},
		Action: pending("issue 5"),
	}
}
