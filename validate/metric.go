package validate

import (
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// ErrorKind is how a metric's error is measured.
type ErrorKind string

const (
	// Relative: |fluid − packet| / max(|packet|, scale), for quantities; the packet engine
	// is the reference (it is checked against ns-2), and for quantities that can be near
	// zero (queues, loss counts) a scale of one packet or one event keeps a difference of a
	// fraction of a packet from counting as a large error.
	Relative ErrorKind = "relative"
	// Absolute: |fluid − packet| in the metric's own unit, for shares and indices, which
	// are fractions already.
	Absolute ErrorKind = "absolute"
	// Sign: both engines' values positive, an ordering the source claims (one flow
	// delivering more than another); the error is the relative difference, for
	// information, and there is no tolerance.
	Sign ErrorKind = "sign"
)

// Tolerance bounds one kind of error and says why it is as large as it is.
type Tolerance struct {
	Kind  ErrorKind
	Bound float64 // the largest accepted error: a fraction for Relative, the unit's for Absolute
	// Scale is Relative's smallest denominator (one packet, one event); 0 for none.
	Scale  float64
	Reason string
}

// Metric is one quantity measured in both engines, its error of the stated kind and, when
// it is judged, its tolerance and the reason for it. A metric without a meaningful
// tolerance is reported as not judged (Judged false), with the reason.
type Metric struct {
	Metric string `json:"metric"`
	Flow   *int   `json:"flow,omitempty"`
	// Subflow is set for a subflow of a multi-path flow (one result row per subflow).
	Subflow *int `json:"subflow,omitempty"`
	// Flows is set for the mean over a group of exchangeable flows (exchangeable.go).
	Flows  []int     `json:"flows,omitempty"`
	Link   string    `json:"link,omitempty"`
	Fluid  float64   `json:"fluid"`
	Packet float64   `json:"packet"`
	Kind   ErrorKind `json:"error_kind"`
	Error  float64   `json:"error"`
	// Tolerance is the bound on Error; null for a sign check or a metric not judged.
	Tolerance *float64 `json:"tolerance"`
	Reason    string   `json:"tolerance_reason"`
	Judged    bool     `json:"judged"`
	// OK: judged and within tolerance (a sign check: both values positive).
	OK bool `json:"ok"`
	// CI95 is the half width of the 95% confidence interval of Error when the metric is
	// statistical: paired batch means of the two engines under random loss (Point), or the
	// spread of the per-seed errors of a mean over seeds (Seeds).
	CI95 *float64 `json:"ci95,omitempty"`
	// Undecided: the 95% interval of Error reaches across the tolerance, so the verdict is
	// the seeds' or batches' draw: more of them, not the engines, would decide it.
	Undecided bool `json:"undecided,omitempty"`
	// Headline marks a quantity the scenario's source reports (RegisterHeadline).
	Headline bool `json:"headline,omitempty"`
	// tol is what judged it, so that a mean over seeds is judged alike (Seeds).
	tol Tolerance
}

// Judge measures the error of a metric by t's kind and judges it against t.
func (t Tolerance) Judge(name string, fluid, pkt float64) Metric {
	m := Metric{Metric: name, Fluid: fluid, Packet: pkt, Kind: t.Kind, Reason: t.Reason, tol: t}
	switch t.Kind {
	case Absolute:
		m.Error = math.Abs(fluid - pkt)
	case Sign:
		m.Error = relative(fluid, pkt, t.Scale)
		m.Judged, m.OK = true, fluid > 0 && pkt > 0
		return m
	default:
		den := math.Max(math.Abs(pkt), t.Scale)
		if den == 0 {
			if fluid == pkt {
				b := t.Bound
				m.Tolerance, m.Judged, m.OK = &b, true, true
				return m
			}
			m.Reason = "the packet engine's value is 0, so there is no relative error: " + t.Reason
			return m
		}
		m.Error = math.Abs(fluid-pkt) / den
	}
	b := t.Bound
	m.Tolerance, m.Judged, m.OK = &b, true, m.Error <= b
	return m
}

// NotJudged is a metric reported side by side without a verdict, for the reason given.
func NotJudged(name string, fluid, pkt float64, reason string) Metric {
	return Metric{Metric: name, Fluid: fluid, Packet: pkt, Kind: Relative, Error: relative(fluid, pkt, 0), Reason: reason}
}

// relative is |a − b|/|b|, or 0 when b is 0 (for information only).
func relative(a, b, scale float64) float64 {
	den := math.Max(math.Abs(b), scale)
	if den == 0 {
		return 0
	}
	return math.Abs(a-b) / den
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

// Scenario tolerances: the largest differences between the engines that Scenario
// accepts. Where the engines model the same thing they agree far inside them: one Reno
// flow on seed 000's dumbbell through an overflow and back differs by 0.06% in mean
// window, 0.04% in throughput and 0.2% in mean queue. What the tolerances are meant to
// catch is what the fluid laws leave out: a packet sender's retransmission timeouts, whole
// packets, and start-up transients that dominate short runs.
var (
	TolThroughput = Tolerance{Kind: Relative, Bound: 0.10,
		Reason: "whole packets cost a packet sender half a packet per round (4% at W = 12), and the fluid's start-up is smoother"}
	TolCwnd = Tolerance{Kind: Relative, Bound: 0.10, Scale: 1,
		Reason: "the window is throughput × RTT and carries the throughput's and the queue's differences"}
	TolLossEvents = Tolerance{Kind: Relative, Bound: 0.25, Scale: 1,
		Reason: "one loss event per overflow and flow in the fluid, one per window with losses and one per timeout in packets: one event in four may differ"}
	TolQueue = Tolerance{Kind: Relative, Bound: 0.20, Scale: 1,
		Reason: "a mean queue is the difference of two large rates integrated, and moves most when the flows' timing differs"}
	TolUtilisation = Tolerance{Kind: Absolute, Bound: 0.03,
		Reason: "same capacity and offered load: busy time differs only by idle periods, 3% is one idle round trip in 30"}
	TolUncongested = Tolerance{Kind: Relative, Bound: 0.10,
		Reason: "an uncongested link carries the load its flows offer, Σ throughput / capacity, held to the throughput's tolerance"}
	TolJain = Tolerance{Kind: Absolute, Bound: 0.05,
		Reason: "0.05 is the index's change when two equal flows split 60/40"}
)

// Point tolerances, Point's: periodic 3%, random 5%, for the mean window and throughput.
var (
	TolPointPeriodic = Tolerance{Kind: Relative, Bound: 0.03,
		Reason: "periodic loss: a deterministic sawtooth; whole-packet effects stay below 3% once W̄ > 15"}
	TolPointRandom = Tolerance{Kind: Relative, Bound: 0.05,
		Reason: "random loss: common random numbers, and the paired 95% interval is kept below half the tolerance"}
)

// utilisationTolerance is TolUtilisation for a link congested in either engine, else
// TolUncongested: an uncongested link carries the load its flows offer.
func utilisationTolerance(f, p model.LinkResult) Tolerance {
	if congested(f) || congested(p) {
		return TolUtilisation
	}
	return TolUncongested
}

// congested reports whether a link's queue dropped packets (its loss process does not
// count) or the link was at least 90% busy.
func congested(l model.LinkResult) bool { return l.DroppedPkts > 0 || l.Utilisation >= 0.9 }

// Subject names what a metric of report v measures: a flow ("flow 0"), a subflow of a
// multi-path flow ("flow 0/1"), a link ("link l"), the point's algorithm, or "all flows".
func (v *Report) Subject(m Metric) string {
	switch {
	case len(m.Flows) > 0:
		return groupName(m.Flows) + " (mean)"
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

// ErrorText is the error as tables print it: "4.52%" (relative, with its 95% interval
// when there is one), "0.045" (absolute, in the metric's unit), "+12.3%" beside a sign check.
func (m Metric) ErrorText() string {
	switch m.Kind {
	case Absolute:
		if m.CI95 != nil {
			return fmt.Sprintf("%.3g ± %.2g abs", m.Error, *m.CI95)
		}
		return fmt.Sprintf("%.3g abs", m.Error)
	case Sign:
		return fmt.Sprintf("%.2f%%", 100*m.Error)
	}
	e := fmt.Sprintf("%.2f%%", 100*m.Error)
	if m.CI95 != nil {
		e += fmt.Sprintf(" ± %.2f%%", 100**m.CI95)
	}
	return e
}

// ToleranceText is the tolerance as tables print it: "10%", "0.1 abs", "both > 0", or "-"
// for a metric not judged.
func (m Metric) ToleranceText() string {
	switch {
	case m.Kind == Sign && m.Judged:
		return "both > 0"
	case m.Tolerance == nil:
		return "-"
	case m.Kind == Absolute:
		return fmt.Sprintf("%g abs", *m.Tolerance)
	}
	return fmt.Sprintf("%g%%", 100**m.Tolerance)
}

// setCI95 sets the half width ci of Error's 95% interval, and whether it leaves the
// verdict undecided: within tolerance while |Error| + ci exceeds it, or out while
// |Error| − ci does not.
func (m *Metric) setCI95(ci float64) {
	m.CI95 = &ci
	if !m.Judged || m.Tolerance == nil {
		return
	}
	e, tol := math.Abs(m.Error), *m.Tolerance
	m.Undecided = m.OK && e+ci > tol || !m.OK && e-ci <= tol
}

// Verdict is "ok", "FAIL" or "not judged", with ", undecided" where the metric's 95%
// interval reaches across its tolerance.
func (m Metric) Verdict() string {
	v := "FAIL"
	switch {
	case !m.Judged:
		return "not judged"
	case m.OK:
		v = "ok"
	}
	if m.Undecided {
		v += ", undecided"
	}
	return v
}
