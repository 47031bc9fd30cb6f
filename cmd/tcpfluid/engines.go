package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// runEngine runs a validated scenario in the named engine: the fluid one with set, whose
// SACK pkt's sets; the packet one with pkt, whose seed and sampling set's are.
func runEngine(ctx context.Context, engine string, set fluid.Settings, sc *model.Scenario, pkt packet.Settings) (*model.Result, error) {
	switch engine {
	case "fluid":
		set.SACK = pkt.SACK
		return fluid.Run(ctx, sc, set)
	case "packet":
		pkt.Seed, pkt.SampleS = set.Seed, set.SampleS
		return packet.Run(ctx, sc, pkt)
	}
	return nil, usagef("--engine %s: want fluid or packet", engine)
}

// foldDelayOf is --fold-delay, 0 where the command has none or it is not given.
func foldDelayOf(c *cli.Context) float64 {
	if !c.IsSet("fold-delay") {
		return 0
	}
	return quantity(c, "fold-delay")
}
