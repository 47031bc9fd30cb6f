package validate

import (
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// Metric is one quantity measured in both engines. RelErr = |Fluid − Packet| /
// max(|Packet|, scale): the packet engine is the reference (it is checked against ns-2),
// and for quantities that can be near zero (queues, loss counts) a scale of one packet or
// one event keeps a difference of a fraction of a packet from counting as a large error.
type Metric struct {
	Metric string `json:"metric"`
	Flow   *int   `json:"flow,omitempty"`
	// Subflow is set for a subflow of a multi-path flow (one result row per subflow).
	Subflow   *int    `json:"subflow,omitempty"`
	Link      string  `json:"link,omitempty"`
	Fluid     float64 `json:"fluid"`
	Packet    float64 `json:"packet"`
	RelErr    float64 `json:"rel_err"`
	Tolerance float64 `json:"tolerance"`
	OK        bool    `json:"ok"`
	// CI95 is the half width of the 95% confidence interval of RelErr when the metric is
	// statistical (random loss): paired batch means of the two engines.
	CI95 *float64 `json:"ci95,omitempty"`
	// Headline marks a quantity the scenario's source reports (Headlines).
	Headline bool `json:"headline,omitempty"`
	// Informational metrics are reported but do not decide Report.OK (see Validate).
	Informational bool `json:"informational,omitempty"`
	// Check "sign": OK when both engines' values are positive (an ordering the source
	// claims, such as one flow delivering more than another); RelErr and Tolerance are
	// then the relative difference and 0, for information.
	Check string `json:"check,omitempty"`
}

// Compare builds a metric from the two values with the packet value as the reference and
// scale as the smallest denominator.
func Compare(name string, fluid, pkt, scale, tol float64) Metric {
	den := math.Max(math.Abs(pkt), scale)
	e := 0.0
	if den > 0 {
		e = math.Abs(fluid-pkt) / den
	} else if fluid != pkt {
		e = math.Inf(1)
	}
	if math.IsInf(e, 0) || math.IsNaN(e) {
		// Only a zero reference without a scale gets here; report the absolute difference
		// as the error rather than an infinity JSON cannot carry.
		e = math.Abs(fluid - pkt)
	}
	return Metric{Metric: name, Fluid: fluid, Packet: pkt, RelErr: e, Tolerance: tol, OK: e <= tol}
}

// SetRow makes a metric about result row f: its flow and, for a subflow of a multi-path
// flow, its subflow.
func (m *Metric) SetRow(sc *model.Scenario, f model.FlowResult) {
	i := f.Flow
	m.Flow = &i
	if len(sc.Flows[i].PathNames()) > 1 {
		k := f.Subflow
		m.Subflow = &k
	}
}

// Scenario tolerances: the largest relative difference between the engines that Validate
// accepts. Where the engines model the same thing they agree far inside them: one Reno
// flow on seed 000's dumbbell through an overflow and back (response tests) differs by
// 0.06% in mean window, 0.04% in throughput and 0.2% in mean queue. What the tolerances
// are meant to catch is what the fluid laws leave out: a packet sender's retransmission
// timeouts (after slow start overshoots a buffer, or when several losses share a Reno
// window), whole packets, and start-up transients that dominate short runs. validate
// prints the timeouts it saw as notes.
const (
	// TolThroughput bounds mean_throughput_bps. Whole packets alone cost a packet sender
	// half a packet per round (⌊W⌋ of W), 4% at W = 12; 10% leaves room for that and for
	// the fluid's smoother start-up, no more.
	TolThroughput = 0.10
	// TolCwnd bounds mean_cwnd_pkts: the window is throughput × RTT, and the RTT includes
	// the queue, so it carries the throughput's difference and the queue's.
	TolCwnd = 0.10
	// TolLossEvents bounds loss_events: the fluid's synchronized drop-tail rule gives one
	// loss event per overflow and per flow, a packet sender one fast retransmit per window
	// with losses, and one more event for a timeout; 25% lets one event in four differ.
	TolLossEvents = 0.25
	// TolQueue bounds mean_queue_pkts of congested links (overflowed in either engine, or
	// at least 90% busy). Both queues move between the same bounds, but a queue's mean is
	// the difference of two large rates integrated, and moves most when the flows' timing
	// differs; relative to at least one packet.
	TolQueue = 0.20
	// TolUtilisation bounds the utilisation of congested links: with the same capacity
	// and offered load, busy time differs only by idle periods, which only timeouts and
	// start-up create; 3% is about one idle round trip in 30. An uncongested link's
	// utilisation is the load its flows offer, Σ throughput / capacity, and is held to
	// TolThroughput.
	TolUtilisation = 0.03
	// TolJain bounds Jain's index over the flows' mean throughputs (more than one flow):
	// 5% is the index's change when two equal flows split 60/40.
	TolJain = 0.05
)

// Point tolerances, Point's: the (periodic 3%, random 5%) for both the
// mean window and the throughput.
const (
	// TolPointPeriodic bounds a point under periodic loss. The sawtooth is deterministic;
	// the engines' mean windows differ by whole-packet effects (a packet sender's window
	// moves in per-ACK steps over rounds of ⌊W⌋ packets, and each cycle retransmits one of
	// its 1/p packets) of a fraction of a packet, below 3% once W̄ > 15.
	TolPointPeriodic = 0.03
	// TolPointRandom bounds a point under random loss. Both engines see the same loss
	// sequence (common random numbers), and each metric carries the paired 95% interval
	// of the difference, which the tests keep below half the tolerance.
	TolPointRandom = 0.05
)

// utilisationTolerance is TolUtilisation for a link congested in either engine, else
// TolThroughput: an uncongested link carries the load its flows offer.
func utilisationTolerance(f, p model.LinkResult) float64 {
	if congested(f) || congested(p) {
		return TolUtilisation
	}
	return TolThroughput
}

// congested reports whether a link's queue dropped packets (its loss process does not
// count) or the link was at least 90% busy.
func congested(l model.LinkResult) bool { return l.DroppedPkts > 0 || l.Utilisation >= 0.9 }

// Subject names what a metric of report v measures: a flow ("flow 0"), a subflow of a
// multi-path flow ("flow 0/1"), a link ("link l"), the point's algorithm, or "all flows".
func (v *Report) Subject(m Metric) string {
	switch {
	case m.Flow != nil && m.Subflow != nil:
		return fmt.Sprintf("flow %d/%d", *m.Flow, *m.Subflow)
	case m.Flow != nil && v.Scenario != "":
		return fmt.Sprintf("flow %d", *m.Flow)
	case m.Link != "":
		return "link " + m.Link
	case v.Point != nil:
		return v.Point.Algorithm
	}
	return "all flows"
}
