package main

import (
	"fmt"
	"math"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// Scenario options that run and sweep share beyond scenarioFlags: every flow's delayed ACKs
// and first slow-start threshold, and the packet engine's options.

func flowOptionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "delayed-ack", Usage: "every flow's receiver acknowledges every second packet (both engines; a scenario sets it per flow with delayed_ack)"},
		&cli.Float64Flag{Name: "initial-ssthresh", Usage: "every flow's first slow-start threshold, packets; 0: the receiver window, a fresh slow start (a scenario sets it per flow with initial_ssthresh)"},
	}
}

func packetOptionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "sack", Usage: "SACK recovery (Linux's) instead of ns-2's NewReno/Reno/Tahoe: every hole of a window repaired in one round trip (both engines)"},
		&cli.StringFlag{Name: "jitter", Usage: "packet engine: random send delay up to this (e.g. 1ms), to break drop-tail phase effects"},
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
		v := c.Float64("initial-ssthresh")
		if !(v >= 0) || math.IsInf(v, 1) {
			return fmt.Errorf("%w: --initial-ssthresh %v packets, want a finite number >= 0 (0: the receiver window)", errUsage, v)
		}
		for i := range sc.Flows {
			sc.Flows[i].InitialSsthresh = v
		}
	}
	return nil
}

// packetOptions reads --sack and --jitter.
func packetOptions(c *cli.Context) (packet.Settings, error) {
	pkt := packet.Settings{SACK: c.Bool("sack")}
	if j := c.String("jitter"); j != "" {
		var err error
		if pkt.JitterS, err = model.ParseDuration(j); err != nil || pkt.JitterS < 0 {
			return pkt, fmt.Errorf("%w: --jitter %q: want a duration >= 0 such as 1ms", errUsage, j)
		}
	}
	return pkt, nil
}
