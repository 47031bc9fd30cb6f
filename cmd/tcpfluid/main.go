// Command tcpfluid answers questions about TCP congestion control with fluid models
// cross-checked by a packet-level simulator. Run it without arguments for the default
// study, or see `tcpfluid --help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// errUsage marks errors that are the user's input; they exit with code 2.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := newApp(os.Stdout, os.Stderr).RunContext(ctx, os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "tcpfluid:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:    "tcpfluid",
		Usage:   "TCP congestion control as fluid models, cross-checked by packets",
		Version: version,
		Description: "tcpfluid integrates each congestion-control algorithm as differential and " +
			"difference equations for the window and the bottleneck queue, and derives response " +
			"functions, fill and recovery times and fairness. Without a command it runs the " +
			"default study.",
		Writer:    stdout,
		ErrWriter: stderr,
		Action:    defaultStudy,
		Flags:     studyFlags(),
		Commands: []*cli.Command{
			versionCommand(),
			algosCommand(),
			runCommand(),
			responseCommand(),
			convergeCommand(),
			fairnessCommand(),
			sweepCommand(),
			validateCommand(),
			referenceCommand(),
		},
		HideHelpCommand: false,
		ExitErrHandler:  func(*cli.Context, error) {},
	}
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version",
		Action: func(c *cli.Context) error {
			_, err := fmt.Fprintln(c.App.Writer, "tcpfluid", version)
			return err
		},
	}
}
