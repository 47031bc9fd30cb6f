// Command customalgo writes a congestion-control algorithm outside tcpfluid — AIMD(a, b):
// +a packets per RTT, keep b of the window at a loss — with both faces, registers it, and
// gets its response function, fairness and a fluid-vs-packet validation for free.
package main

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
)

// aimd is the algorithm: its parameters, and a factory of per-flow controllers.
type aimd struct{ a, b float64 }

func (*aimd) Name() string     { return "aimd" }
func (*aimd) Describe() string { return "AIMD(a, b): +a packets per RTT, window × b at a loss" }
func (p *aimd) Params() []model.Param {
	return []model.Param{
		{Name: "a", Value: p.a, Default: 2, Unit: "packets/RTT", Min: 0.01, Max: 100, Source: "example"},
		{Name: "b", Value: p.b, Default: 0.8, Unit: "1", Min: 0.1, Max: 0.95, Source: "example"},
	}
}

func (p *aimd) Set(name string, v float64) error {
	for _, q := range p.Params() {
		if q.Name == name {
			if !(v >= q.Min && v <= q.Max) {
				return fmt.Errorf("%w: aimd.%s = %v, want [%v, %v]", model.ErrParam, name, v, q.Min, q.Max)
			}
			if name == "a" {
				p.a = v
			} else {
				p.b = v
			}
			return nil
		}
	}
	return fmt.Errorf("%w: aimd has no parameter %q", model.ErrParam, name)
}

func (p *aimd) NewFluid(c model.FlowConfig) model.FluidLaw {
	return &aimdFluid{aimd: *p, cfg: c}
}

func (p *aimd) NewEvent(c model.FlowConfig) model.EventLaw {
	return &aimdEvent{aimd: *p, cwnd: math.Max(c.InitialCwnd, 1), ssthresh: math.Inf(1), max: c.MaxCwnd}
}

// aimdFluid is the fluid face: x[0] is the window; slow start doubles per RTT
// (dW/dt = W·ln2/RTT) up to ssthresh, then dW/dt = a/RTT.
type aimdFluid struct {
	aimd
	cfg      model.FlowConfig
	ssthresh float64
}

func (f *aimdFluid) Vars() int { return 1 }
func (f *aimdFluid) Init(x []float64, _ model.Observation) {
	x[0], f.ssthresh = math.Max(f.cfg.InitialCwnd, 1), f.cfg.MaxCwnd
}
func (f *aimdFluid) Deriv(dx, x []float64, o model.Observation) {
	switch {
	case x[0] >= f.cfg.MaxCwnd:
		dx[0] = 0
	case x[0] < f.ssthresh:
		dx[0] = x[0] * math.Ln2 / o.RTT
	default:
		dx[0] = f.a / o.RTT
	}
}
func (f *aimdFluid) Guard(x []float64, _ model.Observation) float64 {
	if x[0] < f.ssthresh {
		return x[0] - f.ssthresh
	}
	return -1
}
func (f *aimdFluid) Switch(x []float64, _ model.Observation) { f.ssthresh = x[0] }
func (f *aimdFluid) OnLoss(x []float64, _ model.Observation) {
	x[0] = math.Max(f.b*x[0], 2)
	f.ssthresh = x[0]
}
func (f *aimdFluid) OnTimeout(x []float64, _ model.Observation) {
	f.ssthresh, x[0] = math.Max(x[0]/2, 2), 1
}
func (f *aimdFluid) Ssthresh() float64 { return f.ssthresh }

// aimdEvent is the event face: per ACK, +1 in slow start and +a/W after.
type aimdEvent struct {
	aimd
	cwnd, ssthresh, max float64
}

func (e *aimdEvent) Cwnd() float64     { return e.cwnd }
func (e *aimdEvent) Ssthresh() float64 { return math.Min(e.ssthresh, e.max) }
func (e *aimdEvent) OnAck(acked float64, _ model.Observation) {
	if e.cwnd < e.ssthresh {
		e.cwnd += acked
	} else {
		e.cwnd += e.a * acked / e.cwnd
	}
	e.cwnd = math.Min(e.cwnd, e.max)
}
func (e *aimdEvent) OnLoss(model.Observation) {
	e.cwnd = math.Max(e.b*e.cwnd, 2)
	e.ssthresh = e.cwnd
}
func (e *aimdEvent) OnTimeout(model.Observation) {
	e.ssthresh, e.cwnd = math.Max(e.cwnd/2, 2), 1
}
func (e *aimdEvent) Recovery() model.Recovery { return model.RecoveryNewReno }

func main() {
	model.Register("aimd", func() model.Algorithm { return &aimd{a: 2, b: 0.8} })
	ctx := context.Background()

	// Response function against the generic AIMD law c = sqrt(a(1+b)/(2(1−b))) (RFC 9438 §4.3).
	rep, err := response.Response(ctx, response.Settings{Algorithms: []string{"aimd"}, PMin: 1e-6, PMax: 1e-2, Points: 5})
	if err != nil {
		log.Fatal(err)
	}
	r := rep.Results[0]
	fmt.Printf("response: W = %.4f / p^%.3f; AIMD theory c = %.4f\n", r.C, r.D, math.Sqrt(2*1.8/(2*0.2)))

	// Fairness: three flows on seed 000's dumbbell, staggered by 10 s.
	fair, err := response.Fairness(ctx, response.FairnessSettings{Algorithms: []string{"aimd"}, StartGapS: 10, DurationS: 600})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("fairness: Jain %.4f over the second half of 600 s\n", fair.Results[0].Jain)

	// Validation: one flow under periodic loss in the fluid and the packet engine.
	v, err := response.ValidatePoint(ctx, response.PointSpec{Algorithm: "aimd", LossModel: "periodic", P: 1e-4, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range v.Metrics {
		fmt.Printf("validate: %s fluid %.5g, packet %.5g (%+.2f%%, tolerance %g%%)\n", m.Metric, m.Fluid, m.Packet, 100*m.RelErr, 100*m.Tolerance)
	}
}
