package seeds

import (
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/validate"
)

func init() {
	validate.RegisterHeadline("seed000-dumbbell", validate.Headline{
		About:   "the Reno flow's goodput over the 100 s run (seed 000's dumbbell, the throughput its figures show)",
		Metrics: validate.PerFlow("goodput_bps", goodput, validate.TolHeadline),
	})
	validate.RegisterHeadline("seed000-colo-random-loss", validate.Headline{
		About: "each algorithm's goodput under random loss 1e-5 over 300 s (seed 000: COLO keeps the highest throughput); " +
			"each copy of the dumbbell runs alone, so both engines draw the same losses",
		Metrics: validate.PerFlow("goodput_bps", goodput, validate.TolHeadline),
	})
	validate.RegisterHeadline("seed000-slow-start", validate.Headline{
		About: "each flow's dropped packets: the 30 s run is the slow start, its overflow and the recovery from it; " +
			"and COLO's drops below Reno's in both engines (seed 000: COLO loses fewer packets in slow start)",
		Metrics: seed000SlowStartMetrics,
	})
	validate.RegisterHeadline("seed000-colo-gamma", validate.Headline{
		About: "COLO's dropped packets in its slow start from ssthresh = 3.5 BDP (the base of the γ sweep): its concave part brakes by " +
			"the queue its RTT samples report, the one its packets met a round trip before",
		Metrics: validate.PerFlow("dropped_pkts", func(f model.FlowResult) float64 { return f.DroppedPkts }, tolCount),
	})
	validate.RegisterHeadline("seed000-colo-alpha", validate.Headline{
		About:   "COLO's goodput under random loss 1e-5 over 300 s (the base of the α sweep): near the link's, whatever α_max",
		Metrics: validate.PerFlow("goodput_bps", goodput, validate.TolHeadline),
	})
	validate.RegisterHeadline("seed000-colo-beta", validate.Headline{
		About: "COLO's goodput against four Reno flows over 300 s (the base of the β sweep, β_min 0.5); how the packet engine " +
			"splits the rest among the Reno flows is drop-tail phase, which the fluid engine's synchronized drops do not model",
		Metrics: func(sc *model.Scenario, fl, pk *model.Result) []validate.Metric {
			return validate.PerFlow("goodput_bps", goodput, validate.TolHeadline)(sc, fl, pk)[:1]
		},
	})
}

// tolCount is TolHeadline for counts of packets, which can be small: relative to at least
// one packet.
var tolCount = validate.Tolerance{Kind: validate.Relative, Bound: validate.TolHeadline.Bound, Scale: 1, Reason: validate.TolHeadline.Reason}

// goodput is a row's goodput, bit/s.
func goodput(f model.FlowResult) float64 { return f.GoodputBps }

// seed000SlowStartMetrics: each flow's drops, and how many fewer COLO drops than Reno.
func seed000SlowStartMetrics(sc *model.Scenario, fl, pk *model.Result) []validate.Metric {
	drops := func(f model.FlowResult) float64 { return f.DroppedPkts }
	ms := validate.PerFlow("dropped_pkts", drops, tolCount)(sc, fl, pk)
	row := func(r *model.Result, algo string) (model.FlowResult, bool) {
		for _, f := range r.Flows {
			if f.Algorithm == algo {
				return f, true
			}
		}
		return model.FlowResult{}, false
	}
	fc, okC := row(fl, "colo")
	fr, okR := row(fl, "reno")
	if !okC || !okR {
		return ms
	}
	pc, _ := row(pk, "colo")
	pr, _ := row(pk, "reno")
	sign := validate.Tolerance{Kind: validate.Sign, Scale: 1, Reason: "seed 000: COLO loses fewer packets in slow start than Reno"}
	m := sign.Judge("colo_drops_below_reno_pkts", fr.DroppedPkts-fc.DroppedPkts, pr.DroppedPkts-pc.DroppedPkts)
	m.SetRow(sc, fc)
	return append(ms, m)
}
