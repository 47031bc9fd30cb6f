// Command customalgo writes a congestion-control algorithm outside tcpfluid — AIMD(a, b):
// +a packets per RTT, keep b of the window at a loss — registers it, and gets its response
// function, fairness and a fluid-vs-packet validation for free. The algorithm is the
// aimd type below and its rule: the kit (model.Base, model.WindowLaw) gives it slow start,
// the receiver-window cap, timeouts and both faces.
package main

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
	"github.com/tcpfluid/tcpfluid/validate"
)

// aimd is the algorithm: its parameters, and both faces from one rule.
type aimd struct {
	model.Base
	model.WindowLaw
	a, b float64
}

// newAIMD is AIMD(a, b) with defaults a = 1 packet per RTT and b = 0.5 (Reno's law).
func newAIMD() model.Algorithm {
	x := &aimd{}
	x.Base = model.NewBase("aimd", "AIMD(a, b): +a packets per RTT, window × b at a loss (example)",
		model.Real(&x.a, "a", 1, "packets/RTT", 0.01, 100, "example", "increase per RTT"),
		model.Real(&x.b, "b", 0.5, "1", 0.1, 0.95, "example", "fraction of the window kept after a loss"))
	x.WindowLaw = model.WindowLaw{Rule: func() model.WindowRule { return aimdRule{a: x.a, b: x.b} }, Memoryless: true}
	return x
}

// ResponseReference is the deterministic AIMD response function under periodic loss,
// W̄ = sqrt(a(1+b)/(2(1−b)))/sqrt(p) (RFC 9438 §4.3), which analyses print and fit against.
func (x *aimd) ResponseReference(model.LossModel) (model.ResponseReference, bool) {
	return model.ResponseReference{C: math.Sqrt(x.a * (1 + x.b) / (2 * (1 - x.b))), D: 0.5, Source: "AIMD, periodic loss (RFC 9438 §4.3)"}, true
}

var _ model.ResponseReferencer = (*aimd)(nil)

// aimdRule is the congestion-avoidance law: +a per RTT, b·W after a loss.
type aimdRule struct{ a, b float64 }

func (aimdRule) Start(model.Observation)                             {}
func (r aimdRule) PerRTT(float64, model.Observation) float64         { return r.a }
func (r aimdRule) Congestion(w float64, _ model.Observation) float64 { return r.b * w }

func main() {
	model.Register("aimd", newAIMD)
	ctx := context.Background()

	rep, err := response.Response(ctx, response.Settings{Algorithms: []string{"aimd"}, PMin: 1e-6, PMax: 1e-2, Points: 5,
		Params: map[string]map[string]float64{"aimd": {"a": 2, "b": 0.8}}})
	if err != nil {
		log.Fatal(err)
	}
	r := rep.Results[0]
	fmt.Printf("response, AIMD(2, 0.8): W = %.4f / p^%.3f; theory %.4f / p^0.5 (%s)\n", r.C, r.D, r.Reference.C, r.Reference.Source)

	fair, err := response.Fairness(ctx, response.FairnessSettings{Algorithms: []string{"aimd"}, StartGapS: 10, DurationS: 600})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("fairness: three AIMD(1, 0.5) flows, Jain %.4f over the second half of 600 s\n", fair.Results[0].Jain)

	for _, p := range []float64{1e-2, 1e-4} {
		v, err := validate.Point(ctx, validate.PointSpec{Algorithm: "aimd", LossModel: "periodic", P: p, Seed: 1})
		if err != nil {
			log.Fatal(err)
		}
		for _, m := range v.Metrics {
			fmt.Printf("validate p = %g: %s fluid %.5g, packet %.5g (error %s, tolerance %s)\n",
				p, m.Metric, m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText())
		}
	}
}
