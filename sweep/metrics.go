package sweep

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
)

// Metrics a sweep measures on each run (model.Result). Sums and means are over the TCP
// flows; the queue and the utilisation are the bottleneck's.
const (
	MetricThroughput  = "throughput_bps"    // Σ flows' mean throughput (every delivered byte), bit/s
	MetricGoodput     = "goodput_bps"       // Σ flows' goodput (unique bytes), bit/s
	MetricUtilisation = "utilisation"       // bottleneck departures / capacity over the run, 0 to 1
	MetricMeanCwnd    = "mean_cwnd_pkts"    // mean over flows of the time-average window, packets
	MetricLossEvents  = "loss_events"       // Σ flows' loss events (window reductions)
	MetricLossRate    = "loss_rate"         // Σ loss events / Σ sent packets (0 when none were sent)
	MetricDropped     = "dropped_pkts"      // Σ flows' dropped data packets (any link, any cause)
	MetricMeanQueue   = "mean_queue_pkts"   // bottleneck time-average queue, packets
	MetricJain        = "jain"              // Jain's index of the flows' mean throughputs
	MetricCompletion  = "completion_time_s" // latest completion time of the finite flows, s; null when there is none or one did not finish
)

// AllMetrics lists every metric in output order; it is the default of Spec.Metrics.
var AllMetrics = []string{MetricThroughput, MetricGoodput, MetricUtilisation, MetricMeanCwnd,
	MetricLossEvents, MetricLossRate, MetricDropped, MetricMeanQueue, MetricJain, MetricCompletion}

// metricFunc computes one metric of a run; ok is false when it does not exist.
type metricFunc func(sc *model.Scenario, res *model.Result, bottleneck int) (v float64, ok bool)

func sumFlows(res *model.Result, f func(model.FlowResult) float64) float64 {
	s := 0.0
	for _, fr := range res.Flows {
		s += f(fr)
	}
	return s
}

var metricFuncs = map[string]metricFunc{
	MetricThroughput: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		return sumFlows(res, func(f model.FlowResult) float64 { return f.MeanThroughputBps }), true
	},
	MetricGoodput: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		return sumFlows(res, func(f model.FlowResult) float64 { return f.GoodputBps }), true
	},
	MetricUtilisation: func(_ *model.Scenario, res *model.Result, b int) (float64, bool) {
		return res.Links[b].Utilisation, true
	},
	MetricMeanCwnd: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		if len(res.Flows) == 0 {
			return 0, false
		}
		return sumFlows(res, func(f model.FlowResult) float64 { return f.MeanCwndPkts }) / float64(len(res.Flows)), true
	},
	MetricLossEvents: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		return sumFlows(res, func(f model.FlowResult) float64 { return float64(f.LossEvents) }), true
	},
	MetricLossRate: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		sent := sumFlows(res, func(f model.FlowResult) float64 { return f.SentPkts })
		if sent <= 0 {
			return 0, true
		}
		return sumFlows(res, func(f model.FlowResult) float64 { return float64(f.LossEvents) }) / sent, true
	},
	MetricDropped: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		return sumFlows(res, func(f model.FlowResult) float64 { return f.DroppedPkts }), true
	},
	MetricMeanQueue: func(_ *model.Scenario, res *model.Result, b int) (float64, bool) {
		return res.Links[b].MeanQueuePkts, true
	},
	MetricJain: func(_ *model.Scenario, res *model.Result, _ int) (float64, bool) {
		x := make([]float64, len(res.Flows))
		for i, f := range res.Flows {
			x[i] = f.MeanThroughputBps
		}
		return response.Jain(x), true
	},
	MetricCompletion: func(sc *model.Scenario, res *model.Result, _ int) (float64, bool) {
		latest, finite := 0.0, false
		for i, f := range sc.Flows {
			if f.SizeBytes == 0 {
				continue
			}
			if res.Flows[i].CompletionTimeS == nil {
				return 0, false
			}
			latest, finite = math.Max(latest, *res.Flows[i].CompletionTimeS), true
		}
		return latest, finite
	},
}
