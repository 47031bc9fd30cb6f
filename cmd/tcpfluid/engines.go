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

// foldOf is what --fold-delay sets of the fluid engine's settings: the width, and exact
// copies only for 0; not given (or a command without it), the automatic folding.
func foldOf(c *cli.Context) fluid.Settings {
	if !c.IsSet("fold-delay") {
		return fluid.Settings{Folding: fluid.FoldingAuto}
	}
	if d := quantity(c, "fold-delay"); d > 0 {
		return fluid.Settings{FoldDelay: d}
	}
	return fluid.Settings{Folding: fluid.FoldingCopies}
}
