package main

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
	"github.com/tcpfluid/tcpfluid/validate"
)

// wrapped is NewReno as any algorithm outside package model looks to the engines: a type
// of another package that forwards the contract, optional capabilities included.
type wrapped struct{ inner model.Algorithm }

func (w wrapped) Name() string                     { return "wrapped-newreno" }
func (w wrapped) Describe() string                 { return "NewReno behind a wrapper of another package" }
func (w wrapped) Params() []model.Param            { return w.inner.Params() }
func (w wrapped) Set(name string, v float64) error { return w.inner.Set(name, v) }
func (w wrapped) Recovery() model.Recovery         { return model.RecoveryOf(w.inner) }
func (w wrapped) NewFluid(c model.FlowConfig) model.FluidLaw {
	return wrappedFluid{w.inner.NewFluid(c)}
}
func (w wrapped) NewEvent(c model.FlowConfig) model.EventLaw { return w.inner.NewEvent(c) }

type wrappedFluid struct{ model.FluidLaw }

func (f wrappedFluid) AckIncrement(x []float64, o model.Observation) float64 {
	if i, ok := f.FluidLaw.(model.AckIncrement); ok {
		return i.AckIncrement(x, o)
	}
	return 0
}

var (
	_ model.RecoveryStyle = wrapped{}
	_ model.AckIncrement  = wrappedFluid{}
)

var register = sync.OnceFunc(func() {
	model.Register("aimd", newAIMD)
	model.Register("wrapped-newreno", func() model.Algorithm {
		a, _ := model.New("newreno")
		return wrapped{a}
	})
})

// The contract is complete: NewReno wrapped in another package and the example's
// AIMD(1, ½) — Reno's law written with the kit — validate fluid against packets within the
// error of the built-in NewReno at periodic p = 1e-2 (W̄ ≈ 11 packets, where the
// hybrid-recovery form's whole-packet corrections matter most), and within 1%.
func TestOutsideAlgorithmsValidateAsBuiltin(t *testing.T) {
	register()
	ctx := context.Background()
	errOf := func(algo string) float64 {
		v, err := validate.Point(ctx, validate.PointSpec{Algorithm: algo, LossModel: "periodic", P: 1e-2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range v.Metrics {
			if m.Metric == "mean_cwnd_pkts" {
				t.Logf("%-16s mean cwnd fluid %.4f, packet %.4f, %.3f%%", algo, m.Fluid, m.Packet, 100*m.Error)
				return m.Error
			}
		}
		t.Fatalf("%s: no mean_cwnd_pkts metric in %+v", algo, v.Metrics)
		return 0
	}
	builtin := errOf("newreno")
	for _, algo := range []string{"wrapped-newreno", "aimd"} {
		e := errOf(algo)
		if math.Abs(e) > 0.01 || math.Abs(e-builtin) > 1e-9 {
			t.Errorf("%s: mean cwnd error %+.3f%%, want the built-in NewReno's %+.3f%% (and within 1%%)", algo, 100*e, 100*builtin)
		}
	}
}

// The example's reference is what the response analysis fits against: AIMD(2, 0.8)'s
// fitted constant is the deterministic AIMD law's sqrt(a(1+b)/(2(1−b))) = 3 within 1%.
func TestAIMDResponseReference(t *testing.T) {
	register()
	rep, err := response.Response(context.Background(), response.Settings{Algorithms: []string{"aimd"}, PMin: 1e-5, PMax: 1e-3, Points: 3,
		Params: map[string]map[string]float64{"aimd": {"a": 2, "b": 0.8}}})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Reference == nil || math.Abs(r.Reference.C-3) > 1e-12 || math.Abs(r.C/3-1) > 0.01 || math.Abs(r.D-0.5) > 0.01 {
		t.Errorf("AIMD(2, 0.8): c = %g, d = %g, reference %+v; want c = 3, d = 0.5", r.C, r.D, r.Reference)
	}
}
