package seeds

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/validate"
)

func init() {
	validate.RegisterHeadline("seed002-mesh", validate.Headline{
		About: "each flow's data delivered by 120 s, unique packets (seed 002's Fig. 7, the sequence number received), " +
			"and the route-aware sender's lead over each baseline, positive in both engines",
		Metrics: seed002Metrics,
	})
}

// uniquePkts is the data a row delivered, unique packets of MSSBytes.
func uniquePkts(sc *model.Scenario, f model.FlowResult) float64 {
	return f.GoodputBps * f.ActiveS / (8 * sc.Flows[f.Flow].MSSBytes)
}

// seed002Metrics: each flow's unique packets delivered by the end, and each route-aware
// flow's lead over the best flow that is not.
func seed002Metrics(sc *model.Scenario, fl, pk *model.Result) []validate.Metric {
	ms := validate.PerFlow("delivered_unique_pkts", func(f model.FlowResult) float64 { return uniquePkts(sc, f) }, tolCount)(sc, fl, pk)
	best := func(r *model.Result, aware bool) float64 {
		b := math.Inf(-1)
		for _, f := range r.Flows {
			if sc.Flows[f.Flow].RouteAware == aware {
				b = math.Max(b, uniquePkts(sc, f))
			}
		}
		return b
	}
	if fb, pb := best(fl, false), best(pk, false); !math.IsInf(fb, -1) {
		for r, f := range fl.Flows {
			if !sc.Flows[f.Flow].RouteAware {
				continue
			}
			sign := validate.Tolerance{Kind: validate.Sign, Scale: 1, Reason: "seed 002: the route-aware sender delivers more than either baseline"}
			m := sign.Judge("route_aware_lead_pkts", uniquePkts(sc, f)-fb, uniquePkts(sc, pk.Flows[r])-pb)
			m.SetRow(sc, f)
			ms = append(ms, m)
		}
	}
	return ms
}
