package main

import (
	"context"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// runEngine runs a validated scenario in the named engine, the fluid one in the given
// form; pkt sets the packet engine's options, and its SACK the fluid senders' too (seed and
// sampling come from the other arguments).
func runEngine(ctx context.Context, engine, form string, sc *model.Scenario, seed uint64, sampleS float64, pkt packet.Settings) (*model.Result, error) {
	switch engine {
	case "fluid":
		return fluid.Run(ctx, sc, fluid.Settings{Seed: seed, SampleS: sampleS, Form: form, SACK: pkt.SACK})
	case "packet":
		pkt.Seed, pkt.SampleS = seed, sampleS
		return packet.Run(ctx, sc, pkt)
	}
	return nil, usagef("--engine %s: want fluid or packet", engine)
}
