package main

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// runEngine runs a validated scenario in the named engine.
func runEngine(ctx context.Context, engine string, sc *model.Scenario, seed uint64, sampleS float64) (*model.Result, error) {
	switch engine {
	case "fluid":
		return model.RunFluid(ctx, sc, model.FluidSettings{Seed: seed, SampleS: sampleS})
	case "packet":
		return packet.Run(ctx, sc, packet.Settings{Seed: seed, SampleS: sampleS})
	}
	return nil, fmt.Errorf("%w: --engine %q: want fluid or packet", errUsage, engine)
}
