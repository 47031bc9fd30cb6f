package main

import "github.com/urfave/cli/v2"

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:   "sweep",
		Usage:  "parameter grid over any algorithm or scenario parameter",
		Flags:  []cli.Flag{formatFlag()},
		Action: pending("issue 7"),
	}
}
