package sweep

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
)

// Scenario parameters a sweep axis may name. An axis may also name an algorithm parameter
// as algo.param (colo.gamma, cubic.beta), which is set on every flow running that
// algorithm. "The bottleneck" is Spec.Bottleneck, by default the link with the lowest
// capacity (the first of them in the scenario's order).
const (
	// ParamBuffer is the bottleneck's buffer in multiples of its bandwidth-delay product,
	// > 0, resolved as a scenario's "1bdp" is: capacity × the longest round-trip propagation
	// delay of the paths crossing it, in packets of the largest MSS on them, rounded up.
	ParamBuffer = "buffer"
	// ParamRTT is the round-trip propagation delay of flow 0's path in seconds, > 0. Every
	// link delay (and every timed delay change) is multiplied by rtt / (that path's round
	// trip in the base scenario), so the other paths keep their ratio to flow 0's, and
	// buffers given in BDP multiples follow the new delays.
	ParamRTT = "rtt"
	// ParamLoss is the bottleneck's non-congestion loss rate per packet, 0 <= p < 1: random
	// loss, or periodic loss when the base scenario's bottleneck has periodic loss; 0 means
	// no such loss.
	ParamLoss = "p"
	// ParamCapacity is the bottleneck's capacity in bit/s, > 0.
	ParamCapacity = "capacity"
	// ParamFlows is the number of copies of flow 0 (itself included), a whole number from
	// 1 to 1000; the copies are named <name>-2, <name>-3, ... and the other flows follow
	// them unchanged.
	ParamFlows = "flows"
	// ParamDuration is the simulated time in seconds, > 0. What lies beyond the new end is
	// cut: a flow's or CBR's stop after it becomes the end, events after it are dropped (a
	// flow starting at or after it is an error).
	ParamDuration = "duration"
)

// ScenarioParams lists the scenario parameters a sweep axis may name.
var ScenarioParams = []string{ParamBuffer, ParamRTT, ParamLoss, ParamCapacity, ParamFlows, ParamDuration}

// Sweep limits and defaults.
const (
	// DefaultScenario is the built-in scenario a sweep runs when Spec.Base is nil.
	DefaultScenario = "seed000-dumbbell"
	// MaxAxisValues bounds the values of one axis.
	MaxAxisValues = 10000
	// MaxPoints bounds the points of a whole grid (all shards).
	MaxPoints = 1000000
	// MaxFlows bounds ParamFlows.
	MaxFlows = 1000
	// gridDigits are the significant digits grid values are rounded to, so that
	// 1e-6:1e-2:5:log gives 1e-05, not 1.0000000000000004e-05.
	gridDigits = 12
)

// paramKind is how one sweep parameter's values are read and range-checked.
type paramKind struct {
	parse func(string) (float64, error)
	check func(float64) error
}

func lookupParam(name string) (paramKind, error) {
	if algo, param, ok := strings.Cut(name, "."); ok {
		if _, err := model.New(algo); err != nil {
			return paramKind{}, fmt.Errorf("%w: sweep parameter %s: %w", model.ErrSettings, name, err)
		}
		check := func(v float64) error {
			a, _ := model.New(algo)
			return a.Set(param, v)
		}
		if err := check(defaultParam(algo, param)); err != nil {
			return paramKind{}, fmt.Errorf("%w: sweep parameter %s: %w", model.ErrSettings, name, err)
		}
		return paramKind{parse: model.ParseNumber, check: check}, nil
	}
	positive := func(unit string) func(float64) error {
		return func(v float64) error {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("want > 0%s", unit)
			}
			return nil
		}
	}
	switch name {
	case ParamBuffer:
		return paramKind{parse: parseBDP, check: positive(" bdp")}, nil
	case ParamRTT:
		return paramKind{parse: model.ParseDuration, check: positive(" s")}, nil
	case ParamDuration:
		return paramKind{parse: model.ParseDuration, check: positive(" s")}, nil
	case ParamCapacity:
		return paramKind{parse: model.ParseRate, check: positive(" bit/s")}, nil
	case ParamLoss:
		return paramKind{parse: model.ParseNumber, check: func(v float64) error {
			if !(v >= 0 && v < 1) {
				return errors.New("want 0 <= p < 1 (0: no loss)")
			}
			return nil
		}}, nil
	case ParamFlows:
		return paramKind{parse: model.ParseNumber, check: func(v float64) error {
			if !(v >= 1 && v <= MaxFlows) || v != math.Trunc(v) {
				return fmt.Errorf("want a whole number from 1 to %d", MaxFlows)
			}
			return nil
		}}, nil
	}
	return paramKind{}, fmt.Errorf("%w: unknown sweep parameter %q, want algo.param (an algorithm parameter such as colo.gamma; see tcpfluid algos) or one of %s",
		model.ErrSettings, name, strings.Join(ScenarioParams, ", "))
}

// defaultParam is an algorithm parameter's default, or NaN for an unknown name (which Set
// then rejects, listing the known names).
func defaultParam(algo, name string) float64 {
	a, _ := model.New(algo)
	for _, p := range a.Params() {
		if p.Name == name {
			return p.Default
		}
	}
	return math.NaN()
}

// scenario builds point i's validated scenario.
func (p *plan) scenario(values []float64) (*model.Scenario, error) {
	sc := p.Base.Clone()
	for k, a := range p.Axes {
		p.apply(sc, a.Name, values[k])
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: sweep point %s: %w", model.ErrSettings, pointKey(p.Axes, values), err)
	}
	return sc, nil
}

// apply sets one parameter, whose value has been range-checked, on a copy of the base.
func (p *plan) apply(sc *model.Scenario, name string, v float64) {
	b := &sc.Links[p.bottleneck]
	switch name {
	case ParamBuffer:
		b.BufferBDP = v
	case ParamRTT:
		scale := v / p.rtt0 // delays are still the base's: no other parameter changes them
		for i := range sc.Links {
			sc.Links[i].DelayS *= scale
		}
		for i := range sc.Events {
			sc.Events[i].DelayS *= scale
		}
	case ParamLoss:
		switch {
		case v == 0:
			b.Loss, b.LossP = model.LossNone, 0
		case p.Base.Links[p.bottleneck].Loss == model.LossPeriodic:
			b.Loss, b.LossP = model.LossPeriodic, v
		default:
			b.Loss, b.LossP = model.LossRandom, v
		}
	case ParamCapacity:
		b.CapacityBps = v
	case ParamDuration:
		sc.SetDuration(v)
	case ParamFlows:
		n := int(v) // checkAxes made sure there is a flow 0
		flows := make([]model.Flow, 0, n+len(sc.Flows)-1)
		for j := range n {
			f := sc.Flows[0]
			f.Params = maps.Clone(f.Params)
			if j > 0 {
				f.Name = fmt.Sprintf("%s-%d", f.Name, j+1)
			}
			flows = append(flows, f)
		}
		sc.Flows = append(flows, sc.Flows[1:]...)
	default:
		algo, param, _ := strings.Cut(name, ".")
		for i := range sc.Flows {
			if sc.Flows[i].Algorithm != algo {
				continue
			}
			if sc.Flows[i].Params == nil {
				sc.Flows[i].Params = map[string]float64{}
			}
			sc.Flows[i].Params[param] = v
		}
	}
}
