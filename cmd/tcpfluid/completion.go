package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
)

// Shell completion: urfave/cli answers --generate-bash-completion with the commands or
// flags that may follow; these scripts (urfave/cli's autocomplete/, for this program) ask it.

const bashCompletion = `# bash completion for tcpfluid: source <(tcpfluid completion bash)
_tcpfluid_bash_autocomplete() {
  if [[ "${COMP_WORDS[0]}" != "source" ]]; then
    local cur opts base words cword
    COMPREPLY=()
    cur="${COMP_WORDS[COMP_CWORD]}"
    if declare -F _init_completion >/dev/null 2>&1; then
      _init_completion -n "=:" || return
    else
      COMPREPLY=()
      _get_comp_words_by_ref -n "=:" cur prev words cword
    fi
    words=("${words[@]:0:$cword}")
    if [[ "$cur" == "-"* ]]; then
      requestComp="${words[*]} ${cur} --generate-bash-completion"
    else
      requestComp="${words[*]} --generate-bash-completion"
    fi
    opts=$(eval "${requestComp}" 2>/dev/null)
    COMPREPLY=($(compgen -W "${opts}" -- ${cur}))
    return 0
  fi
}
complete -o bashdefault -o default -o nospace -F _tcpfluid_bash_autocomplete tcpfluid
`

const zshCompletion = `#compdef tcpfluid
# zsh completion for tcpfluid: source <(tcpfluid completion zsh)
_tcpfluid_zsh_autocomplete() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _tcpfluid_zsh_autocomplete tcpfluid
`

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: "Prints a script that completes tcpfluid's commands and flags. Load it with\n" +
			"  bash: source <(tcpfluid completion bash)   (or save it in /etc/bash_completion.d/tcpfluid)\n" +
			"  zsh:  source <(tcpfluid completion zsh)\n" +
			"  fish: tcpfluid completion fish > ~/.config/fish/completions/tcpfluid.fish",
		Action: func(c *cli.Context) error {
			if c.Args().Len() != 1 {
				return usagef("completion: want one shell: bash, zsh or fish")
			}
			w := c.App.Writer
			switch sh := c.Args().First(); sh {
			case "bash":
				_, err := fmt.Fprint(w, bashCompletion)
				return err
			case "zsh":
				_, err := fmt.Fprint(w, zshCompletion)
				return err
			case "fish":
				s, err := fishCompletion()
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(w, s)
				return err
			default:
				return usagef("completion %q: want bash, zsh or fish", sh)
			}
		},
	}
}

// manCommand writes the manual page generated from the commands and flags (go generate
// ./cmd/tcpfluid writes docs/tcpfluid.1 with it).
func manCommand() *cli.Command {
	return &cli.Command{
		Name:   "man",
		Usage:  "print the manual page (roff), generated from the commands and flags",
		Hidden: true,
		Flags:  []cli.Flag{stringFlag("out", "", "write it to `FILE` instead of stdout")},
		Action: func(c *cli.Context) error {
			page, err := manPage()
			if err != nil {
				return err
			}
			if out := c.String("out"); out != "" {
				return os.WriteFile(out, []byte(page), 0o644)
			}
			_, err = fmt.Fprint(c.App.Writer, page)
			return err
		},
	}
}

// manPage is the app's manual page in section 1.
func manPage() (string, error) {
	return docApp().ToManWithSection(1)
}

// fishCompletion is urfave/cli's fish script of a fresh app without help commands: on an
// app that has run, the shared help command lists itself as a subcommand and
// ToFishCompletion recurses without end.
func fishCompletion() (string, error) {
	return docApp().ToFishCompletion()
}

// docApp is a fresh app for generated documents: no help commands, as they are shared
// between apps and, once an app has run, list themselves as subcommands.
func docApp() *cli.App {
	app := newApp(io.Discard, io.Discard)
	app.HideHelpCommand = true
	var hide func([]*cli.Command)
	hide = func(cmds []*cli.Command) {
		for _, cmd := range cmds {
			cmd.HideHelpCommand = true
			hide(cmd.Subcommands)
		}
	}
	hide(app.Commands)
	return app
}

// flagInfo is one flag in `tcpfluid flags`: what it reads, and the unit a plain number in
// base units must be given with (bindings such as the Python package append it).
type flagInfo struct {
	Kind     string   `json:"kind"`           // duration, rate, size, buffer, number, number of packets, integer, seed, choice, algorithms, param, switch, text
	BaseUnit string   `json:"base_unit"`      // "s", "bps", "B", "bdp"; "" when a bare number is right
	List     bool     `json:"list,omitempty"` // a comma list
	Default  string   `json:"default,omitempty"`
	Choices  []string `json:"choices,omitempty"`
}

// baseUnits are the units a plain number in the CLI's base units takes.
var baseUnits = map[string]string{durationKind.noun: "s", rateKind.noun: "bps", sizeKind.noun: "B", bdpKind.noun: "bdp"}

func describeFlag(f cli.Flag) flagInfo {
	g, ok := f.(*cli.GenericFlag)
	if !ok {
		if _, ok := f.(*cli.BoolFlag); ok {
			return flagInfo{Kind: "switch"}
		}
		return flagInfo{Kind: "text"}
	}
	switch v := g.Value.(type) {
	case *quantityValue:
		return flagInfo{Kind: v.kind.noun, BaseUnit: baseUnits[v.kind.noun], Default: v.text}
	case *listValue:
		return flagInfo{Kind: v.kind.noun, BaseUnit: baseUnits[v.kind.noun], List: true, Default: v.text}
	case *bufferValue:
		return flagInfo{Kind: "buffer", BaseUnit: "bdp", Default: v.text}
	case *intValue:
		return flagInfo{Kind: "integer", Default: v.text}
	case *seedValue:
		return flagInfo{Kind: "seed", Default: v.text}
	case *enumValue:
		return flagInfo{Kind: "choice", Default: v.v, Choices: v.choices}
	case *algoListValue:
		return flagInfo{Kind: "algorithms", List: !v.one, Default: v.text}
	case *paramsValue:
		return flagInfo{Kind: "param"}
	}
	return flagInfo{Kind: "text"}
}

// flagsCommand prints every command's flags with what they read (JSON), so that bindings
// can give plain numbers their base unit without a table of their own.
func flagsCommand() *cli.Command {
	return &cli.Command{
		Name:   "flags",
		Usage:  "print every command's flags with their kind and base unit (JSON, for bindings)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			out := map[string]map[string]flagInfo{}
			var walk func(prefix string, cmds []*cli.Command)
			walk = func(prefix string, cmds []*cli.Command) {
				for _, cmd := range cmds {
					name := strings.TrimSpace(prefix + " " + cmd.Name)
					if cmd.Name == "help" {
						continue
					}
					flags := map[string]flagInfo{}
					for _, f := range cmd.Flags {
						flags[f.Names()[0]] = describeFlag(f)
					}
					out[name] = flags
					walk(name, cmd.Subcommands)
				}
			}
			app := docApp()
			root := map[string]flagInfo{}
			for _, f := range app.Flags {
				root[f.Names()[0]] = describeFlag(f)
			}
			out[""] = root
			walk("", app.Commands)
			return writeJSON(c.App.Writer, out)
		},
	}
}
