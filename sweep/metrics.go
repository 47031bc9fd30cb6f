package sweep

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
)

// Metrics a sweep measures on each run (model.Result). Sums and means are over the TCP
// flows; the queue and the utilisation are the bottleneck's. "Flow 0" is the scenario's
// first flow.
const (
	MetricThroughput  = "throughput_bps"    // Σ flows' mean throughput (every delivered byte), bit/s
	MetricGoodput     = "goodput_bps"       // Σ flows' goodput (unique bytes), bit/s
	MetricUtilisation = "utilisation"       // bottleneck departures / capacity over the run, 0 to 1
	MetricMeanCwnd    = "mean_cwnd_pkts"    // mean over flows of the time-average window, packets
	MetricLossEvents  = "loss_events"       // Σ flows' loss events (window reductions)
	MetricLossRate    = "loss_rate"         // Σ loss events / Σ sent packets (0 when none were sent)
	MetricDropped     = "dropped_pkts"      // Σ flows' dropped data packets (any link, any cause)
	MetricMeanQueue   = "mean_queue_pkts"   // bottleneck time-average queue, packets
	MetricJain        = "jain"              // Jain's index of the flows' mean throughputs; null with one flow
	MetricCompletion  = "completion_time_s" // latest completion time of the finite flows, s; null when there is none or one did not finish
	MetricQueueSD     = "queue_sd_pkts"     // bottleneck queue's standard deviation over time, packets

	// Slow-start metrics. The first loss is flow 0's first loss event (its first window
	// reduction), which ends a slow start from a large threshold.
	MetricFirstLoss      = "first_loss_s"          // time of flow 0's first loss event, s; null when it has none
	MetricFirstLossDrops = "first_loss_drops_pkts" // packets dropped (every flow, any link) until flow 0's first loss event: the slow-start overshoot; null when it has none
	MetricPeakQueue      = "peak_queue_pkts"       // bottleneck's largest queue, packets, sampled every traceStep
	MetricTime90         = "time_to_90pct_s"       // first time the bottleneck has delivered ≥ 90% of its capacity over the round trip before, s (sampled every traceStep: a tenth of flow 0's round trip, at most a hundredth of the run); null when it never does
)

// Per-flow metrics are named base:FLOW, FLOW a flow of the base scenario (throughput_bps:colo,
// share:colo). A multi-path flow sums its subflows.
const (
	FlowThroughput = "throughput_bps" // the flow's mean throughput, bit/s
	FlowShare      = "share"          // the flow's throughput / Σ flows' throughput, 0 to 1
	FlowMeanCwnd   = "mean_cwnd_pkts" // the flow's time-average window, packets (Σ over subflows)
)

// AllMetrics lists every aggregate metric in output order.
var AllMetrics = []string{MetricThroughput, MetricGoodput, MetricUtilisation, MetricMeanCwnd,
	MetricLossEvents, MetricLossRate, MetricDropped, MetricMeanQueue, MetricJain, MetricCompletion,
	MetricFirstLoss, MetricFirstLossDrops, MetricPeakQueue, MetricTime90, MetricQueueSD}

// BasicMetrics are the aggregate metrics a sweep measures by default (those of one run, without
// a trace or a second run). DefaultMetrics adds per-flow metrics and leaves out jain with
// one flow.
var BasicMetrics = AllMetrics[:10]

// PerFlowMetrics lists the bases of the per-flow metrics.
var PerFlowMetrics = []string{FlowThroughput, FlowShare, FlowMeanCwnd}

// MaxDefaultFlows bounds the flows whose per-flow metrics DefaultMetrics lists.
const MaxDefaultFlows = 8

// DefaultMetrics are the metrics of a sweep of base that names none: BasicMetrics, without
// jain when every point has one flow (no flows axis and one flow in base), and per-flow
// throughput, share and mean window of each flow when base has 2 to MaxDefaultFlows flows.
func DefaultMetrics(base *model.Scenario, axes []Axis) []string {
	var out []string
	one := len(base.Flows) == 1 && !slices.ContainsFunc(axes, func(a Axis) bool { return a.Name == ParamFlows })
	for _, m := range BasicMetrics {
		if m == MetricJain && one {
			continue
		}
		out = append(out, m)
	}
	if n := len(base.Flows); n >= 2 && n <= MaxDefaultFlows {
		for _, f := range base.Flows {
			for _, b := range PerFlowMetrics {
				out = append(out, b+":"+f.Name)
			}
		}
	}
	return out
}

// needs is what a metric needs of the engine beyond the run's summary.
type needs struct {
	trace  bool // a trace sampled every traceStep
	losses bool // the loss events (Result.Losses)
	prefix bool // a second run that stops at flow 0's first loss event
}

func (n *needs) add(o needs) {
	n.trace, n.losses, n.prefix = n.trace || o.trace, n.losses || o.losses, n.prefix || o.prefix
}

// run is what a metric reads: the point's scenario, its run, the prefix run when needed,
// the bottleneck, and the trace step.
type run struct {
	sc         *model.Scenario
	res        *model.Result
	prefix     *model.Result // nil unless a metric needs it
	bottleneck int
	stepS      float64
	rttS       float64 // flow 0's propagation round trip at this point, s
}

// metric computes one metric of a run; ok is false when it does not exist.
type metric struct {
	needs needs
	value func(r *run) (v float64, ok bool)
}

func sumFlows(res *model.Result, f func(model.FlowResult) float64) float64 {
	s := 0.0
	for _, fr := range res.Flows {
		s += f(fr)
	}
	return s
}

var metricFuncs = map[string]metric{
	MetricThroughput: {value: func(r *run) (float64, bool) {
		return sumFlows(r.res, func(f model.FlowResult) float64 { return f.MeanThroughputBps }), true
	}},
	MetricGoodput: {value: func(r *run) (float64, bool) {
		return sumFlows(r.res, func(f model.FlowResult) float64 { return f.GoodputBps }), true
	}},
	MetricUtilisation: {value: func(r *run) (float64, bool) { return r.res.Links[r.bottleneck].Utilisation, true }},
	MetricMeanCwnd: {value: func(r *run) (float64, bool) {
		if len(r.res.Flows) == 0 {
			return 0, false
		}
		return sumFlows(r.res, func(f model.FlowResult) float64 { return f.MeanCwndPkts }) / float64(len(r.res.Flows)), true
	}},
	MetricLossEvents: {value: func(r *run) (float64, bool) {
		return sumFlows(r.res, func(f model.FlowResult) float64 { return float64(f.LossEvents) }), true
	}},
	MetricLossRate: {value: func(r *run) (float64, bool) {
		sent := sumFlows(r.res, func(f model.FlowResult) float64 { return f.SentPkts })
		if sent <= 0 {
			return 0, true
		}
		return sumFlows(r.res, func(f model.FlowResult) float64 { return float64(f.LossEvents) }) / sent, true
	}},
	MetricDropped: {value: func(r *run) (float64, bool) {
		return sumFlows(r.res, func(f model.FlowResult) float64 { return f.DroppedPkts }), true
	}},
	MetricMeanQueue: {value: func(r *run) (float64, bool) { return r.res.Links[r.bottleneck].MeanQueuePkts, true }},
	MetricQueueSD:   {value: func(r *run) (float64, bool) { return r.res.Links[r.bottleneck].QueueSDPkts, true }},
	MetricJain: {value: func(r *run) (float64, bool) {
		if len(r.sc.Flows) < 2 {
			return 0, false // one flow is always fair to itself: not a figure
		}
		x := make([]float64, len(r.sc.Flows))
		for _, f := range r.res.Flows {
			x[f.Flow] += f.MeanThroughputBps
		}
		return response.Jain(x), true
	}},
	MetricCompletion: {value: func(r *run) (float64, bool) {
		latest, finite := 0.0, false
		for i, f := range r.sc.Flows {
			if f.SizeBytes == 0 {
				continue
			}
			ct := flowCompletion(r.res, i)
			if ct == nil {
				return 0, false
			}
			latest, finite = math.Max(latest, *ct), true
		}
		return latest, finite
	}},
	MetricFirstLoss: {needs: needs{losses: true}, value: func(r *run) (float64, bool) {
		for _, l := range r.res.Losses {
			if l.Flow == 0 {
				return l.TS, true
			}
		}
		return 0, false
	}},
	MetricFirstLossDrops: {needs: needs{prefix: true}, value: func(r *run) (float64, bool) {
		p := r.prefix
		if p == nil || len(p.Flows) == 0 || firstLossEvents(p) == 0 {
			return 0, false
		}
		return sumFlows(p, func(f model.FlowResult) float64 { return f.DroppedPkts }), true
	}},
	MetricPeakQueue: {needs: needs{trace: true}, value: func(r *run) (float64, bool) {
		name := r.sc.Links[r.bottleneck].Name
		peak, any := 0.0, false
		for _, s := range r.res.Trace {
			if s.Flow == -1 && s.Link == name {
				peak, any = math.Max(peak, s.QueuePkts), true
			}
		}
		return peak, any
	}},
	MetricTime90: {needs: needs{trace: true}, value: time90},
}

// flowCompletion is flow i's completion time: the latest of its rows' (subflows').
func flowCompletion(res *model.Result, i int) *float64 {
	var ct *float64
	for _, f := range res.Flows {
		if f.Flow != i {
			continue
		}
		if f.CompletionTimeS == nil {
			return nil
		}
		if ct == nil || *f.CompletionTimeS > *ct {
			ct = f.CompletionTimeS
		}
	}
	return ct
}

// firstLossEvents is flow 0's loss events in a result.
func firstLossEvents(res *model.Result) int {
	n := 0
	for _, f := range res.Flows {
		if f.Flow == 0 {
			n += f.LossEvents
		}
	}
	return n
}

// time90 is the first trace time t at which the flows crossing the bottleneck delivered,
// over the round trip before it (flow 0's propagation round trip), at least 90% of what the
// bottleneck carries in that time, in wire bits. Over a round trip, not one sample step: a
// packet sender in slow start delivers its window as one burst at the link's rate each
// round trip.
func time90(r *run) (float64, bool) {
	sc := r.sc
	capBps := sc.Links[r.bottleneck].CapacityBps
	wireBits := map[int]float64{} // flow<<16|subflow → bits per delivered packet, for flows crossing the bottleneck
	for i, f := range sc.Flows {
		for k, p := range f.PathNames() {
			if slices.Contains(sc.PathLinks(sc.PathIndex(p)), r.bottleneck) {
				wireBits[i<<16|k] = 8 * (f.MSSBytes + f.HeaderBytes)
			}
		}
	}
	// ts[i], bits[i]: sample times and the bits delivered up to each.
	var ts, bits []float64
	last := map[int]float64{}
	total := 0.0
	for _, s := range r.res.Trace {
		if s.Flow < 0 {
			continue
		}
		if len(ts) == 0 || s.TS != ts[len(ts)-1] {
			ts, bits = append(ts, s.TS), append(bits, total)
		}
		key := s.Flow<<16 | s.Subflow
		if w, ok := wireBits[key]; ok {
			total += (s.DeliveredPkts - last[key]) * w
			last[key] = s.DeliveredPkts
			bits[len(bits)-1] = total
		}
	}
	rtt := r.rttS
	j := 0
	for i, t := range ts {
		if t < rtt*(1-1e-9) {
			continue
		}
		for j+1 < len(ts) && ts[j+1] <= t-rtt*(1-1e-9) {
			j++
		}
		if bits[i]-bits[j] >= 0.9*capBps*(t-ts[j]) && t > ts[j] {
			return t, true
		}
	}
	return 0, false
}

// perFlow is a per-flow metric base:flow.
func perFlow(base, flow string) metric {
	rows := func(res *model.Result, f func(model.FlowResult) float64) (float64, bool) {
		s, found := 0.0, false
		for _, fr := range res.Flows {
			if fr.Name == flow {
				s, found = s+f(fr), true
			}
		}
		return s, found
	}
	thr := func(f model.FlowResult) float64 { return f.MeanThroughputBps }
	switch base {
	case FlowThroughput:
		return metric{value: func(r *run) (float64, bool) { return rows(r.res, thr) }}
	case FlowMeanCwnd:
		return metric{value: func(r *run) (float64, bool) {
			return rows(r.res, func(f model.FlowResult) float64 { return f.MeanCwndPkts })
		}}
	case FlowShare:
		return metric{value: func(r *run) (float64, bool) {
			v, ok := rows(r.res, thr)
			total := sumFlows(r.res, thr)
			if !ok || !(total > 0) {
				return 0, false
			}
			return v / total, true
		}}
	}
	return metric{}
}

// lookupMetric finds a metric by name: an aggregate one or base:FLOW.
func lookupMetric(name string) (metric, error) {
	if m, ok := metricFuncs[name]; ok {
		return m, nil
	}
	if base, flow, ok := strings.Cut(name, ":"); ok && slices.Contains(PerFlowMetrics, base) && flow != "" {
		return perFlow(base, flow), nil
	}
	return metric{}, fmt.Errorf("%w: unknown sweep metric %q, want one of %s, or a per-flow metric %s:FLOW",
		model.ErrSettings, name, strings.Join(AllMetrics, ", "), strings.Join(PerFlowMetrics, ":FLOW, "))
}
