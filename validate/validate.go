package validate

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
	"github.com/tcpfluid/tcpfluid/response"
)

// ErrOutOfTolerance is returned (wrapped) by callers that turn a failed validation into an
// error, such as `tcpfluid validate`, which exits with code 1 on it.
var ErrOutOfTolerance = errors.New("fluid and packet engines disagree beyond tolerance")

// Form is the fluid form every validation runs: FormHybridRecovery counts as a
// packet sender does (it holds the window for one round trip after each loss event, as
// fast recovery does, keeps ⌊W⌋ packets in flight and grows per ACK at the window reached
// in the round), so the two engines model the same cycle.
const Form = fluid.FormHybridRecovery

// Report is the side-by-side comparison of the engines; its JSON is
// `tcpfluid validate --format json`.
type Report struct {
	Scenario string     `json:"scenario,omitempty"`
	Point    *PointSpec `json:"point,omitempty"`
	Form     string     `json:"form"`
	DropRule string     `json:"drop_rule,omitempty"`
	Seed     uint64     `json:"seed"`
	Metrics  []Metric   `json:"metrics"`
	// OK: every judged metric within its tolerance. Passed, FailedCount and NotJudged
	// count the metrics.
	OK          bool `json:"ok"`
	Passed      int  `json:"passed"`
	FailedCount int  `json:"failed"`
	NotJudged   int  `json:"not_judged"`
	// Undecided counts the judged metrics whose verdict their 95% interval leaves open
	// (Metric.Undecided).
	Undecided int `json:"undecided,omitempty"`
	// Notes say what the engines did that the metrics alone do not show, such as packet
	// senders' retransmission timeouts, which the fluid laws do not model.
	Notes []string `json:"notes,omitempty"`
	// Headline says what the scenario's headline metrics are and why (Headlines).
	Headline string `json:"headline,omitempty"`
	// SACK and JitterS are the packet engine's settings besides the seed (Validate).
	SACK       bool `json:"sack,omitempty"`
	sackWhy    string
	JitterS    float64 `json:"jitter_s,omitempty"`
	jitterNote string
	// FluidWallS and PacketWallS are each engine's wall time of a point's measured run,
	// s (Point; the fluid's pre-run that sets the start window is in neither); not in the
	// JSON, which one seed makes the same on every run.
	FluidWallS  float64 `json:"-"`
	PacketWallS float64 `json:"-"`
	// Groups is the number of independent groups of flows Validate ran one at a time.
	Groups int `json:"groups,omitempty"`
	// Seeds are the seeds whose means the metrics are (Seeds); empty for one seed's run.
	Seeds []uint64 `json:"seeds,omitempty"`
	// Fluid and Packet are the engines' results (for a point: over the whole run,
	// warm-up included).
	Fluid  *model.Result `json:"-"`
	Packet *model.Result `json:"-"`
}

// Failed lists the judged metrics out of tolerance.
func (v *Report) Failed() []Metric {
	var out []Metric
	for _, m := range v.Metrics {
		if m.Judged && !m.OK {
			out = append(out, m)
		}
	}
	return out
}

// add appends a metric and updates the verdict and the counts.
func (v *Report) add(m Metric) {
	v.Metrics = append(v.Metrics, m)
	if m.Undecided {
		v.Undecided++
	}
	switch {
	case !m.Judged:
		v.NotJudged++
	case m.OK:
		v.Passed++
	default:
		v.FailedCount++
		v.OK = false
	}
}

// Scenario runs a validated scenario in both engines with the same seed (the fluid in
// Form) and compares, per flow (per subflow of a multi-path flow), the mean
// window, the mean throughput and the loss events; per congested link the mean queue, and
// per link the utilisation; and Jain's index over the flows when there are several
// (the generic metrics, tolerances Tol*). A scenario with a headline (Headlines, by
// scenario name) adds the quantities its source reports, within TolHeadline.
//
// Flows that share no link with each other are separate experiments, and each group runs
// alone in both engines (results merged back in scenario order): alone, the group's first
// flow draws its random losses from the stream the fluid engine uses (packet.Settings),
// so both engines see the same losses and their difference is the models', not the noise
// of two loss sequences (seed000-colo-random-loss: four such groups). With the
// proportional drop rule the packet senders get jitter of two packet times at the slowest
// link for each packet an ACK releases (phaseJitter), without which a drop-tail queue's
// phase effect, not random drops in proportion to arrivals, decides which flow loses at an
// overflow. The fluid's replicas of ns-2's TCP/Linux sender count the ACKs such a jittered
// sender counts (fluid.Settings.SendJitterS).
//
// Every metric is judged against its tolerance (metric.go), whatever the senders did:
// the report's OK is false when any judged metric is out, and the notes say what the
// engines did differently (timeouts, groups, SACK, jitter). The error is for runs that
// failed.
func Scenario(ctx context.Context, sc *model.Scenario, seed uint64) (*Report, error) {
	set := packet.Settings{Seed: seed, SACK: sc.SACK, LostRetransmit: sc.LostRetransmit}
	hl, haveHeadline := HeadlineOf(sc.Name)
	if haveHeadline {
		set.SACK = set.SACK || hl.SACK
	}
	set.JitterS = sc.SendJitterS
	jitterOf, jitterWhy := "send_jitter", ""
	if phase, why := phaseJitter(sc); sc.DropRule.Proportional() && phase > sc.SendJitterS {
		set.JitterS, jitterOf, jitterWhy = phase, "drop rule proportional", ", "+why
	}
	jitterNote := ""
	if set.JitterS > 0 {
		jitterNote = fmt.Sprintf("%s: packet senders hold each packet a further U(0, %.3g ms)%s, against drop-tail phase effects",
			jitterOf, 1e3*set.JitterS, jitterWhy)
		if !sc.DropRule.Proportional() {
			jitterNote += "; a fluid flow that reaches a full link from one no faster escapes its overflow when a Poisson count of its share of the drops is zero"
		}
	}
	groups := independentGroups(sc)
	var fl, pk *model.Result
	for _, g := range groups {
		sub := g.scenario(sc)
		f, err := fluid.Run(ctx, sub, fluid.Settings{Seed: seed, Form: Form, SACK: set.SACK, SendJitterS: set.JitterS})
		if err != nil {
			return nil, fmt.Errorf("fluid engine: %w", err)
		}
		p, err := packet.Run(ctx, sub, set)
		if err != nil {
			return nil, fmt.Errorf("packet engine: %w", err)
		}
		fl, pk = g.merge(sc, fl, f), g.merge(sc, pk, p)
	}
	sortResult(fl)
	sortResult(pk)
	v := &Report{Scenario: sc.Name, Form: Form, DropRule: string(fl.DropRule), Seed: seed, OK: true, Fluid: fl, Packet: pk,
		SACK: set.SACK, sackWhy: hl.SACKWhy, JitterS: set.JitterS, jitterNote: jitterNote, Groups: len(groups)}
	if len(fl.Flows) != len(pk.Flows) {
		return nil, fmt.Errorf("%w: the fluid engine has %d flow rows, the packet engine %d", model.ErrEngine, len(fl.Flows), len(pk.Flows))
	}
	ex := exchangeableGroups(sc)
	twins := ex.members()
	var fx, px []float64
	for r := range fl.Flows {
		f, p := fl.Flows[r], pk.Flows[r]
		for _, m := range []Metric{
			TolCwnd.Judge("mean_cwnd_pkts", f.MeanCwndPkts, p.MeanCwndPkts),
			TolThroughput.Judge("mean_throughput_bps", f.MeanThroughputBps, p.MeanThroughputBps),
			TolLossEvents.Judge("loss_events", float64(f.LossEvents), float64(p.LossEvents)),
		} {
			m.SetRow(sc, f)
			if g, ok := twins[f.Flow]; ok {
				m.reportOnly(g)
			}
			v.add(m)
		}
		fx = append(fx, f.MeanThroughputBps)
		px = append(px, p.MeanThroughputBps)
	}
	for i, l := range sc.Links {
		f, p := fl.Links[i], pk.Links[i]
		if congested(f) || congested(p) {
			m := TolQueue.Judge("mean_queue_pkts", f.MeanQueuePkts, p.MeanQueuePkts)
			m.Link = l.Name
			v.add(m)
		}
		m := utilisationTolerance(f, p).Judge("utilisation", f.Utilisation, p.Utilisation)
		m.Link = l.Name
		v.add(m)
	}
	if len(fl.Flows) > 1 {
		v.add(TolJain.Judge("jain", response.Jain(fx), response.Jain(px)))
	}
	v.addGroupMeans(ex, fl, pk)
	if haveHeadline {
		v.Headline = hl.About
		for _, m := range hl.Metrics(sc, fl, pk) {
			m.Headline = true
			v.add(m)
		}
	}
	v.notes(haveHeadline, []*model.Result{fl}, []*model.Result{pk})
	return v, nil
}

// notes explains timeouts (summed over the runs fls and pks of the seeds), groups, SACK
// and jitter.
func (v *Report) notes(haveHeadline bool, fls, pks []*model.Result) {
	if v.Groups > 1 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d groups of flows share no link: each ran alone in both engines, with common random numbers", v.Groups))
	}
	if v.SACK {
		why := v.sackWhy
		if why == "" {
			why = "the scenario sets sack: true"
		}
		v.Notes = append(v.Notes, "packet senders use SACK recovery: "+why)
	}
	if v.jitterNote != "" {
		v.Notes = append(v.Notes, v.jitterNote)
	}
	over := ""
	if len(pks) > 1 {
		over = fmt.Sprintf("over the %d seeds ", len(pks))
	}
	for r, f := range v.Packet.Flows {
		var pc, fc timeoutCount
		for k := range pks {
			pc.add(pks[k].Flows[r])
			fc.add(fls[k].Flows[r])
		}
		if pc.timeouts > 0 || fc.timeouts > 0 {
			v.Notes = append(v.Notes, rowName(f)+": "+over+timeoutNote(pc, fc))
		}
	}
	if haveHeadline {
		v.Notes = append(v.Notes, "headline: "+v.Headline)
	}
}

// rowName names a result row: "flow 0 (name)".
func rowName(f model.FlowResult) string { return fmt.Sprintf("flow %d (%s)", f.Flow, f.Name) }

// phaseJitter is the sender jitter Validate gives packet senders under the proportional
// drop rule, s, and how it was chosen: two packet times, of the largest packet any TCP
// flow puts on the wire at the slowest link, for each packet an ACK releases — one, or
// two where a receiver delays its ACKs (model.Flow.DelayedAck). An ACK-clocked sender's
// window crosses the queue as trains of the bursts its ACKs release, and the jitter must
// spread a burst further than its own length: on seed 001's path 2 (delayed ACKs) the LIA subflow took
// 3.55 ± 0.83 Mb/s over seeds 1–5 with two packet times (0.234 ms), its trains drawing
// four times their share of the overflows' drops, 6.94 with three, 8.29 ± 1.36 with four
// (0.467 ms), and 9.03 at 1 ms and 9.84 at 2 ms, where the jitter's own delay begins to
// slow the Reno flow beside it (2026-12-05).
func phaseJitter(sc *model.Scenario) (float64, string) {
	var bytes float64
	perACK := 1.0
	for _, f := range sc.Flows {
		bytes = math.Max(bytes, f.MSSBytes+f.HeaderBytes)
		if f.DelayedAck {
			perACK = 2
		}
	}
	slowest := math.Inf(1)
	for _, l := range sc.Links {
		slowest = math.Min(slowest, l.CapacityBps)
	}
	if !(slowest > 0) || math.IsInf(slowest, 1) {
		return 0, ""
	}
	why := "two packet times at the slowest link"
	if perACK == 2 {
		why = "four packet times at the slowest link (two for each packet a delayed ACK releases)"
	}
	return 2 * perACK * bytes * 8 / slowest, why
}

// timeoutNote is the note on one flow's timeouts in both engines: each engine's count,
// its spurious ones (model.FlowResult.Spurious; the packet sender's by RFC 3522's test, the
// fluid's where its timer fired before a late burst or a late retransmission) and its loss
// events.
func timeoutNote(packet, fluid timeoutCount) string {
	spurious := func(n int, why string) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf(" (%d spurious%s)", n, why)
	}
	return fmt.Sprintf("the packet sender timed out %d time(s)%s in %d loss events, the fluid %d time(s)%s in %d",
		packet.timeouts, spurious(packet.spurious, " by RFC 3522's test: the first new ACK after it acknowledged a packet sent before it"),
		packet.losses, fluid.timeouts, spurious(fluid.spurious, ""), fluid.losses)
}

// timeoutCount is one engine's timeouts, spurious timeouts and loss events of a flow.
type timeoutCount struct{ timeouts, spurious, losses int }

// add counts flow result r.
func (c *timeoutCount) add(r model.FlowResult) {
	c.timeouts += r.Timeouts
	c.spurious += r.Spurious
	c.losses += r.LossEvents
}
