// Command tcpfluid answers questions about TCP congestion control with fluid models
// cross-checked by a packet-level simulator. Run it without arguments for the default
// study, or see `tcpfluid --help`.
//
// Conventions of every command: exit 0 on success; 2 for a usage error (an unknown flag
// or command, a value that does not parse or is out of range, an option the run would
// ignore, work beyond a bound), printed as one line "tcpfluid: usage: ..."; 1 for a failed
// run or a failed validation, after whatever output there is; 130 when interrupted. Results
// go to stdout as --format table (the default on a terminal), json (the default otherwise)
// or csv, with full precision in JSON and CSV and undefined figures as null there and "-"
// in tables; progress goes to stderr, on a terminal only.
package main

//go:generate go run . man --out ../../docs/tcpfluid.1

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// errUsage marks errors that are the user's input; they exit with code 2.
var errUsage = errors.New("usage")

// errInterrupted is a run ended by Ctrl-C (exit 130).
var errInterrupted = errors.New("interrupted")

// usagef is a usage error: "usage: <message>".
func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, args...)...)
}

// Exit codes.
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitInterrupted = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C ends the process at once
	}()
	err := newApp(os.Stdout, os.Stderr).RunContext(ctx, os.Args)
	if ctx.Err() != nil && err != nil {
		err = fmt.Errorf("%w (%w)", errInterrupted, err)
	}
	code, line := exitStatus(err)
	if line != "" {
		fmt.Fprintln(os.Stderr, line)
	}
	os.Exit(code)
}

// exitStatus is the exit code of err and the line to print for it.
func exitStatus(err error) (int, string) {
	var exit cli.ExitCoder
	switch {
	case err == nil:
		return exitOK, ""
	case errors.Is(err, errInterrupted):
		return exitInterrupted, "tcpfluid: interrupted"
	case errors.As(err, &exit) && !errors.Is(err, errUsage):
		// urfave's own: "No help topic for 'x'" (code 3) and the like are the user's.
		return exitUsage, oneLine("tcpfluid: usage: " + err.Error())
	case errors.Is(err, errUsage):
		return exitUsage, oneLine("tcpfluid: " + err.Error())
	}
	return exitFailed, oneLine("tcpfluid: " + err.Error())
}

// oneLine joins a multi-line message into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ; ")), " ")
}

// commands are the app's commands; each is one line so that others' commands merge as one.
func commands() []*cli.Command {
	return []*cli.Command{
		versionCommand(),
		algosCommand(),
		runCommand(),
		responseCommand(),
		convergeCommand(),
		fairnessCommand(),
		sweepCommand(),
		scenarioCommand(),
		validateCommand(),
		referenceCommand(),
		stabilityCommand(),
		completionCommand(),
		manCommand(),
		flagsCommand(),
	}
}

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:    "tcpfluid",
		Usage:   "TCP congestion control as fluid models, cross-checked by packets",
		Version: version,
		Description: "tcpfluid integrates each congestion-control algorithm as differential and " +
			"difference equations for the window and the bottleneck queue, and derives response " +
			"functions, fill and recovery times and fairness. Without a command it runs the " +
			"default study.\n\n" +
			"Every command exits 0 on success, 2 on a usage error (one line: \"tcpfluid: usage: ...\"), " +
			"1 when a run or a validation fails, 130 when interrupted. Results go to stdout as --format " +
			"table (default on a terminal), json (default otherwise) or csv; progress goes to stderr on a " +
			"terminal. Quantities take units (100ms, 1Gbps, 1460B); a bare number is refused where a unit " +
			"is expected. Work is estimated before it starts and refused beyond the bounds each command's " +
			"--max-* flags document.",
		Writer:               stdout,
		ErrWriter:            stderr,
		Action:               defaultStudy,
		Flags:                studyFlags(),
		Commands:             commands(),
		EnableBashCompletion: true,
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError:         onUsageError,
	}
	for _, cmd := range app.Commands {
		setupCommand(cmd, "tcpfluid")
	}
	app.Action = checkedAction(app.Action, "tcpfluid", "", nil)
	return app
}

// setupCommand gives cmd and its subcommands the CLI's conventions: one-line usage
// errors, no positional arguments unless ArgsUsage names them, and a group's unknown
// subcommand refused.
func setupCommand(cmd *cli.Command, parent string) {
	path := parent + " " + cmd.Name
	cmd.OnUsageError = onUsageError
	for _, f := range cmd.Flags {
		if b, ok := f.(*cli.BoolFlag); ok {
			b.DisableDefaultText = true
		}
	}
	for _, sub := range cmd.Subcommands {
		setupCommand(sub, path)
	}
	if cmd.Action == nil && len(cmd.Subcommands) > 0 {
		cmd.Action = func(c *cli.Context) error {
			if c.Args().Len() == 0 {
				return cli.ShowSubcommandHelp(c)
			}
			var names []string
			for _, s := range cmd.Subcommands {
				if s.Name != "help" {
					names = append(names, s.Name)
				}
			}
			return usagef("unknown command %q for %s; want %s", c.Args().First(), path, oneOf(names))
		}
		return
	}
	cmd.Action = checkedAction(cmd.Action, strings.TrimPrefix(path, "tcpfluid "), cmd.ArgsUsage, cmd.Subcommands)
}

// checkedAction refuses positional arguments of a command that takes none.
// path is the command without the program's name ("sweep merge"); "tcpfluid" is the app.
func checkedAction(action cli.ActionFunc, path, argsUsage string, subs []*cli.Command) cli.ActionFunc {
	return func(c *cli.Context) error {
		if argsUsage == "" && c.Args().Len() > 0 {
			arg := c.Args().First()
			if path == "tcpfluid" {
				return usagef("unknown command %q%s (see tcpfluid --help)", arg, suggestCommand(c.App.Commands, arg))
			}
			takes := "it takes flags only, lists are comma-separated"
			if len(subs) > 0 {
				var names []string
				for _, s := range subs {
					if s.Name != "help" {
						names = append(names, s.Name)
					}
				}
				takes = "it takes flags, or a command: " + strings.Join(names, ", ")
			}
			if strings.HasPrefix(arg, "-") {
				return usagef("%s: flag %s after an argument: flags go before arguments (see tcpfluid %s --help)", path, arg, path)
			}
			return usagef("%s: unexpected argument %q: %s (see tcpfluid %s --help)", path, arg, takes, path)
		}
		return action(c)
	}
}

// Messages of Go's flag package, which urfave/cli passes on.
var (
	reInvalidValue = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (.*)$`)
	reInvalidBool  = regexp.MustCompile(`^invalid boolean value "(.*)" for -(\S+): `)
)

// onUsageError turns a flag-parsing error into the CLI's one-line usage error: an
// unknown flag with the nearest known one, a value with what the flag accepts.
func onUsageError(c *cli.Context, err error, _ bool) error {
	path, prefix := "tcpfluid", ""
	flags := c.App.Flags
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		path, flags = c.Command.HelpName, c.Command.Flags
		if path == "" {
			path = "tcpfluid " + c.Command.Name
		}
		prefix = strings.TrimPrefix(path, "tcpfluid ") + ": "
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return usagef("%sunknown flag %s%s (see %s --help)", prefix, dashed(name), suggestFlag(flags, name), path)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return usagef("%s%s needs a value (see %s --help)", prefix, dashed(name), path)
	}
	if m := reInvalidValue.FindStringSubmatch(msg); m != nil {
		return usagef("%s %s: %s", dashed(m[2]), showValue(m[1]), m[3])
	}
	if m := reInvalidBool.FindStringSubmatch(msg); m != nil {
		return usagef("%s=%s: a switch is true or false (or given alone)", dashed(m[2]), showValue(m[1]))
	}
	return usagef("%s%s (see %s --help)", prefix, msg, path)
}

// dashed writes a flag name as it is typed: -p, --rtt.
func dashed(name string) string {
	name = strings.TrimLeft(name, "-")
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// suggestFlag is "; did you mean --x?" for the known flag nearest to name, if one is near.
func suggestFlag(flags []cli.Flag, name string) string {
	best, score := "", 0.0
	for _, f := range flags {
		for _, n := range f.Names() {
			if s := smetrics.JaroWinkler(n, strings.TrimLeft(name, "-"), 0.7, 4); s > score {
				best, score = n, s
			}
		}
	}
	if score < 0.8 {
		return ""
	}
	return "; did you mean " + dashed(best) + "?"
}

func suggestCommand(cmds []*cli.Command, name string) string {
	best, score := "", 0.0
	for _, cmd := range cmds {
		if cmd.Hidden {
			continue
		}
		if s := smetrics.JaroWinkler(cmd.Name, name, 0.7, 4); s > score {
			best, score = cmd.Name, s
		}
	}
	if score < 0.8 {
		return ""
	}
	return "; did you mean " + best + "?"
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
