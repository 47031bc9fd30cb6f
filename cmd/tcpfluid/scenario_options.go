package main

import (
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// Scenario flags of run, sweep and validate: which scenario, and what to change in it.

func scenarioFlags() []cli.Flag {
	return []cli.Flag{
		stringFlag("scenario", "", "scenario `FILE` (YAML; tcpfluid scenario show NAME prints a built-in one to start from)"),
		enumFlag("builtin", "", model.BuiltinNames(), "built-in scenario"),
		algoFlag("", "set every TCP flow's algorithm"),
		paramFlag("algorithm parameter `algo.name=value` for the flows running that algorithm"),
		func() cli.Flag {
			f := enumFlag("drop-rule", "", model.DropRules, "fluid drop-tail rule (random: proportional with the seed's draws)")
			f.DefaultText = "the scenario's, else synchronized"
			return f
		}(),
		durationFlag("duration", "", positive, "override the scenario's simulated time"),
	}
}

// loadScenario builds the validated scenario named by --scenario or --builtin (def when
// neither is given and def is not "") with the command-line overrides applied; --param
// applies when withParams (sweep's --param is a grid).
func loadScenario(c *cli.Context, def string, withParams bool) (*model.Scenario, error) {
	file, builtin := c.String("scenario"), enumOf(c, "builtin")
	var (
		sc  *model.Scenario
		err error
	)
	switch {
	case file != "" && builtin != "":
		return nil, usagef("give --scenario or --builtin, not both")
	case file != "":
		if _, statErr := os.Stat(file); statErr != nil {
			return nil, usagef("--scenario %s: %v", showValue(file), statErr)
		}
		sc, err = model.LoadScenarioFile(file)
	case builtin != "":
		sc, err = model.Builtin(builtin)
	case def != "":
		sc, err = model.Builtin(def)
	default:
		return nil, usagef("need --scenario FILE or --builtin NAME (%s)", oneOf(model.BuiltinNames()))
	}
	if err != nil {
		return nil, usagef("%s", oneLine(err.Error()))
	}
	if a := algoOf(c); a != "" {
		if err := sc.SetAlgorithm(a); err != nil {
			return nil, usagef("--algo %s: %s", a, strings.TrimPrefix(err.Error(), model.ErrScenario.Error()+": --algo: "))
		}
	}
	if withParams {
		for _, p := range paramsOf(c) {
			var algos []string
			n := 0
			for i := range sc.Flows {
				if a := sc.Flows[i].Algorithm; a != p.algo {
					if !slices.Contains(algos, a) {
						algos = append(algos, a)
					}
					continue
				}
				n++
				if sc.Flows[i].Params == nil {
					sc.Flows[i].Params = map[string]float64{}
				}
				sc.Flows[i].Params[p.name] = p.value
			}
			if n == 0 {
				return nil, usagef("--param %s: no flow of scenario %s runs %s (its flows run %s; --algo %s sets every flow's)", p.text, sc.Name, p.algo, strings.Join(algos, ", "), p.algo)
			}
		}
	}
	if r := enumOf(c, "drop-rule"); r != "" {
		sc.DropRule = model.DropRule(r)
	}
	if c.IsSet("duration") {
		sc.SetDuration(quantity(c, "duration"))
	}
	if err := sc.Validate(); err != nil {
		return nil, usagef("%s", oneLine(err.Error()))
	}
	return sc, nil
}

// Scenario options that run and sweep share beyond scenarioFlags: every flow's delayed ACKs
// and first slow-start threshold, and the engines' options.

func flowOptionFlags() []cli.Flag {
	return []cli.Flag{
		boolFlag("delayed-ack", "every flow's receiver acknowledges every second packet (both engines; a scenario sets it per flow with delayed_ack)"),
		quantityFlag("initial-ssthresh", "", packetsKind, nonNegative, "every flow's first slow-start threshold; 0: the receiver window, a fresh slow start (a scenario sets it per flow with initial_ssthresh)"),
	}
}

// packetOptionFlags are --sack and --jitter; counted says whether the command's fluid
// engine has the counted form, which counts a jittered sender's packets too.
func packetOptionFlags(counted bool) []cli.Flag {
	jitter := "packet engine only: random send delay up to this, to break drop-tail phase effects (a linux variant waits as ns-2's overhead_: each send decision, its module hearing only ACKs that find the window full)"
	if counted {
		jitter = "random send delay up to this, to break drop-tail phase effects, in the packet engine (a linux variant waits as ns-2's overhead_: each send decision, its module hearing only ACKs that find the window full) and in the fluid's hybrid-recovery form (its linux variants count only the ACKs such a sender counts)"
	}
	return []cli.Flag{
		boolFlag("sack", "SACK recovery (Linux's) instead of ns-2's NewReno/Reno/Tahoe: every hole of a window repaired in one round trip (both engines)"),
		durationFlag("jitter", "", nonNegative, jitter),
	}
}

// applyFlowOptions sets --delayed-ack and --initial-ssthresh on every flow of sc.
func applyFlowOptions(c *cli.Context, sc *model.Scenario) error {
	if c.Bool("delayed-ack") {
		for i := range sc.Flows {
			sc.Flows[i].DelayedAck = true
		}
	}
	if c.IsSet("initial-ssthresh") {
		for i := range sc.Flows {
			sc.Flows[i].InitialSsthresh = quantity(c, "initial-ssthresh")
		}
	}
	if err := sc.Validate(); err != nil {
		return usagef("%s", oneLine(err.Error()))
	}
	return nil
}

// packetOptions reads --sack and --jitter for engine and the fluid's form ("" where a
// command has none): --jitter is the packet engine's and the fluid's counted form's
// (fluid.Settings.SendJitterS), an error elsewhere, which would ignore it.
func packetOptions(c *cli.Context, engine, form string) (packet.Settings, error) {
	pkt := packet.Settings{SACK: c.Bool("sack"), JitterS: quantity(c, "jitter")}
	switch {
	case !c.IsSet("jitter") || engine == "packet" || form == fluid.FormHybridRecovery:
	case form == "":
		return pkt, flagErr(c, "jitter", "only the packet engine jitters its senders; add --engine packet")
	default:
		return pkt, flagErr(c, "jitter", "only --engine packet and the fluid's --form %s count a jittered sender's packets (this is the %s form)",
			fluid.FormHybridRecovery, form)
	}
	return pkt, nil
}
