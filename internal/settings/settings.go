// Package settings holds the checks and defaults the analyses (packages response,
// validate, sweep) share for their settings, so that each is written once.
package settings

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/tcpfluid/tcpfluid/model"
)

// Default sets *v to d when it is zero (unset).
func Default(v *float64, d float64) {
	if *v == 0 {
		*v = d
	}
}

// RTT defaults a round-trip time to 0.1 s and checks it.
func RTT(rtt *float64) error {
	Default(rtt, 0.1)
	if !(*rtt > 0) || math.IsInf(*rtt, 0) {
		return fmt.Errorf("%w: rtt %v s, want > 0", model.ErrSettings, *rtt)
	}
	return nil
}

// LossModel defaults a loss model to periodic and checks it.
func LossModel(m *string) error {
	switch *m {
	case "":
		*m = "periodic"
	case "periodic", "random":
	default:
		return fmt.Errorf("%w: loss model %q, want periodic or random", model.ErrSettings, *m)
	}
	return nil
}

// MSS defaults a packet size to model.DefaultMSSBytes and checks it.
func MSS(mss *float64) error {
	Default(mss, model.DefaultMSSBytes)
	if !(*mss >= 1) || math.IsInf(*mss, 0) {
		return fmt.Errorf("%w: mss %v bytes, want >= 1", model.ErrSettings, *mss)
	}
	return nil
}

// Workers defaults a worker count to all cores and checks it.
func Workers(w *int) error {
	if *w == 0 {
		*w = runtime.GOMAXPROCS(0)
	}
	if *w < 1 {
		return fmt.Errorf("%w: workers %d, want >= 1", model.ErrSettings, *w)
	}
	return nil
}

// Algorithms builds every algorithm with its parameters (model.Configure), so that
// unknown names and parameters that contradict one another are refused before any run.
func Algorithms(algos []string, params map[string]map[string]float64) error {
	for _, a := range algos {
		if _, err := model.Configure(a, params[a]); err != nil {
			return fmt.Errorf("%w: algorithm: %w", model.ErrSettings, err)
		}
	}
	return nil
}

// PointSeed derives a point's seed from the run's seed and the point, so that a point's
// result does not depend on which worker ran it or on the other points.
func PointSeed(seed uint64, algo string, p, rtt float64) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%g|%g", seed, algo, p, rtt)
	return h.Sum64()
}

// Parallel runs jobs 0 … n−1 on up to workers goroutines and returns the first error; it
// stops handing out jobs once ctx is cancelled or a job failed.
func Parallel(ctx context.Context, workers, n int, job func(context.Context, int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for j := range n {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error { return job(gctx, j) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
