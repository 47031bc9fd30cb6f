package main

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/model"
)

// runEngine runs a validated scenario in the named engine.
func runEngine(ctx context.Context, engine string, sc *model.Scenario, seed uint64, sampleS float64) (*model.Result, error) {
	switch engine {
	case "fluid":
		return model.RunFluid(ctx, sc, model.FluidSettings{Seed: seed, SampleS: sampleS})
	case "packet":
		return nil, fmt.Errorf("--engine packet: %w (tracked as issue 5)", errNotLanded)
	}
	return nil, fmt.Errorf("%w: --engine %q: want fluid or packet", errUsage, engine)
}
