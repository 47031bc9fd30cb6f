package meanfield

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// Form is the name of the mean-field form in results (model.Result.Form), beside the
// hybrid engine's "hybrid" and "hybrid-recovery".
const Form = "meanfield"

// ScenarioSettings configures RunScenario; the zero value is usable.
type ScenarioSettings struct {
	// SampleS is the trace interval, s; 0 records no trace.
	SampleS float64
	// RelTol, AbsTol, StepS and MaxSteps as in Settings.
	RelTol, AbsTol, StepS float64
	MaxSteps              int
}

// FromScenario builds the mean-field network of a validated scenario. Flows that differ
// in nothing but their names (classKey: the same algorithm with its variant and
// parameters, path, start, stop, size, MSS and header, receiver window and window
// scaling, initial window and ssthresh, delayed ACKs, ECN, pacing) form one class whose
// Flows is their number, so n identical flows cost what one costs; classOf[i] is flow
// i's class, classes in the order of their first flow. Link capacities become packets/s
// of the flows' wire packet size (MSS + header), one size for the whole scenario; a
// periodic loss becomes a random loss of the same rate (the mean-field form sees only
// rates). Refused with model.ErrScenario, naming the field: multi-path flows, finite
// transfers, CBR cross traffic, timed link events, mixed packet sizes, CoDel, FQ-CoDel
// and PIE queues and ECN marking (the form has no sojourn times, per-flow queues or
// marks), a path of no propagation delay; algorithms without a mean-field form with
// ErrNoMeanField. The cost is linear in the flows.
func FromScenario(sc *model.Scenario) (net *Network, classOf []int, err error) {
	unsupported := func(at, what string) error {
		return fmt.Errorf("%w: %s: %s has no mean-field form; use the hybrid form", model.ErrScenario, at, what)
	}
	switch {
	case len(sc.CBR) > 0:
		return nil, nil, unsupported("cbr", "constant-bit-rate cross traffic")
	case len(sc.Events) > 0:
		return nil, nil, unsupported("events", "a timed link event")
	case len(sc.Flows) == 0:
		return nil, nil, fmt.Errorf("%w: flows: none", model.ErrScenario)
	}
	net = &Network{}
	for i := range sc.Links {
		l := &sc.Links[i]
		switch {
		case l.Queue.IsAQM():
			return nil, nil, unsupported(fmt.Sprintf("links[%d].queue", i), fmt.Sprintf("the %s queue", l.Queue))
		case l.Marks():
			return nil, nil, unsupported(fmt.Sprintf("links[%d].ecn", i), "ECN marking")
		}
	}
	wire := sc.Flows[0].MSSBytes + sc.Flows[0].HeaderBytes
	for i := range sc.Links {
		l := &sc.Links[i]
		link := Link{Name: l.Name, CapacityPktsPerS: l.CapacityBps / (8 * wire), BufferPkts: l.BufferPkts}
		if l.Loss == model.LossRandom || l.Loss == model.LossPeriodic {
			link.LossP = l.LossP
		}
		if l.Queue == model.QueueRED {
			red := l.RED
			link.RED = &red
		}
		net.Links = append(net.Links, link)
	}
	g := newGrouper(sc.DurationS)
	classOf = make([]int, len(sc.Flows))
	for i := range sc.Flows {
		f := &sc.Flows[i]
		if len(f.Paths) > 0 {
			return nil, nil, unsupported(fmt.Sprintf("flows[%d].paths", i), "a multi-path flow")
		}
		c, k := g.class(f)
		if c >= 0 {
			net.Classes[c].Flows++
			classOf[i] = c
			continue
		}
		cl, err := newClass(sc, i, wire)
		if err != nil {
			return nil, nil, err
		}
		c = len(net.Classes)
		g.add(k, c)
		classOf[i] = c
		net.Classes = append(net.Classes, cl)
	}
	return net, classOf, nil
}

// newClass is the class of one flow, flow i, checked for what the form can run. Every
// flow of the class has the same key, so the checks hold for all of them.
func newClass(sc *model.Scenario, i int, wire float64) (Class, error) {
	f := &sc.Flows[i]
	at := fmt.Sprintf("flows[%d]", i)
	switch {
	case f.SizeBytes > 0:
		return Class{}, fmt.Errorf("%w: %s.size: a finite transfer has no mean-field form; use the hybrid form", model.ErrScenario, at)
	case f.MSSBytes+f.HeaderBytes != wire:
		return Class{}, fmt.Errorf("%w: %s: packets of %v bytes (MSS + header), flows[0]'s are %v bytes: the mean-field form counts one packet size",
			model.ErrScenario, at, f.MSSBytes+f.HeaderBytes, wire)
	}
	law, err := LawOf(f.Algorithm, f.Params)
	if err != nil {
		return Class{}, fmt.Errorf("%s: %w", at, err)
	}
	p := sc.PathIndex(f.Path)
	if p < 0 {
		return Class{}, fmt.Errorf("%w: %s.path %q: no such path", model.ErrScenario, at, f.Path)
	}
	prop := sc.PathRTTS(p)
	if !(prop > 0) {
		return Class{}, fmt.Errorf("%w: %s.path %q: round-trip propagation delay %v s, the mean-field form needs > 0", model.ErrScenario, at, f.Path, prop)
	}
	stop := f.StopS
	if stop >= sc.DurationS {
		stop = 0
	}
	c := Class{Name: f.Name, Law: law, Flows: 1, PropRTTS: prop, Links: sc.PathLinks(p),
		InitialCwndPkts: f.InitialCwnd, MaxCwndPkts: sc.FlowRwndPkts(i), StartS: f.StartS, StopS: stop}
	if c.MaxCwndPkts < model.MinLossWindow {
		c.MaxCwndPkts = 0 // no cap the law can sit at
	}
	return c, nil
}

// RunScenario runs a validated scenario in the mean-field form and reports it as the
// engines do: one FlowResult per flow, in scenario order, one LinkResult per link, and
// the trace when asked. The flows of a class (FromScenario) are statistically identical
// in this form, so each is reported with its class's per-flow figures; 10⁶ identical
// flows integrate as one class, and assembling their results is linear in the flows
// (but a trace has a row per flow and sample: 10⁶ flows sampled 100 times are 10⁸ rows).
// Expected counts stand for counted events: LossEvents is the rounded expected number of
// loss events, Timeouts 0. Errors wrap model.ErrScenario (the scenario or settings),
// ErrNoMeanField (an algorithm), model.ErrEngine (the integration: step limit,
// non-finite state) or the context's error.
func RunScenario(ctx context.Context, sc *model.Scenario, set ScenarioSettings) (*model.Result, error) {
	net, classOf, err := FromScenario(sc)
	if err != nil {
		return nil, err
	}
	s := Settings{DurationS: sc.DurationS, SampleS: set.SampleS, TailS: sc.DurationS, RelTol: set.RelTol, AbsTol: set.AbsTol,
		StepS: set.StepS, MaxSteps: set.MaxSteps}
	res, err := simulate(ctx, net, s, true, true)
	switch {
	case errors.Is(err, ErrSolve):
		return nil, fmt.Errorf("%w: %w", model.ErrEngine, err)
	case errors.Is(err, ErrNetwork):
		return nil, fmt.Errorf("%w: %w", model.ErrScenario, err)
	case err != nil:
		return nil, err
	}
	// Each class's per-flow figures once, from its first flow (its members share
	// everything the figures depend on); each flow then takes a copy with its own name.
	first := make([]int, len(net.Classes))
	for i := range first {
		first[i] = -1
	}
	for i, c := range classOf {
		if first[c] < 0 {
			first[c] = i
		}
	}
	perClass := make([]model.FlowResult, len(net.Classes))
	for c, i := range first {
		perClass[c] = flowResult(sc, i, res.totals[c])
	}
	out := &model.Result{Scenario: sc.Name, Engine: "fluid", Form: Form, DurationS: sc.DurationS,
		Flows: make([]model.FlowResult, len(sc.Flows)), Links: make([]model.LinkResult, 0, len(sc.Links))}
	for i := range sc.Flows {
		fr := &out.Flows[i]
		*fr = perClass[classOf[i]]
		fr.Flow, fr.Name = i, sc.Flows[i].Name
	}
	for l := range sc.Links {
		lt := res.links[l]
		lr := model.LinkResult{Link: sc.Links[l].Name, DroppedPkts: lt.dropped}
		if T := sc.DurationS; T > 0 {
			lr.MeanQueuePkts = lt.queue / T
			lr.QueueSDPkts = model.TimeSD(lt.queue/T, lt.queueSq/T)
			lr.Utilisation = lt.departed / (net.Links[l].CapacityPktsPerS * T)
		}
		out.Links = append(out.Links, lr)
	}
	out.Trace = trace(sc, net, classOf, res)
	return out, nil
}

// flowResult is flow i's figures from its class's whole-run totals.
func flowResult(sc *model.Scenario, i int, tot classTotals) model.FlowResult {
	f := &sc.Flows[i]
	end := sc.DurationS
	if f.StopS > 0 && f.StopS < end {
		end = f.StopS
	}
	active := max(end-f.StartS, 0)
	fr := model.FlowResult{Flow: i, Name: f.Name, Algorithm: f.Algorithm, Path: f.Path, ActiveS: active,
		SentPkts: tot.sent, DeliveredPkts: tot.acked - tot.losses, DroppedPkts: tot.losses,
		LossEvents: int(math.Round(tot.losses))}
	if active > 0 {
		fr.MeanCwndPkts = tot.cwnd / active
		fr.MeanThroughputBps = fr.DeliveredPkts * f.MSSBytes * 8 / active
		fr.GoodputBps = fr.MeanThroughputBps
	}
	return fr
}

// trace is the run's series as the engines' rows: per sample, each active flow in
// scenario order (its class's row), then each link.
func trace(sc *model.Scenario, net *Network, classOf []int, res *Result) []model.Sample {
	if len(res.Series) == 0 {
		return nil
	}
	wire := sc.Flows[0].MSSBytes + sc.Flows[0].HeaderBytes
	rows := make([]model.Sample, len(net.Classes))
	var out []model.Sample
	for k, smp := range res.Series {
		for c := range net.Classes {
			cl := &net.Classes[c]
			if smp.TS < cl.StartS || (cl.StopS > 0 && smp.TS > cl.StopS) {
				rows[c].Flow = -1 // inactive: no row
				continue
			}
			q := 0.0
			for _, l := range cl.Links {
				q += smp.QueuePkts[l]
			}
			rows[c] = model.Sample{TS: smp.TS, CwndPkts: smp.CwndPkts[c], RateBps: smp.CwndPkts[c] / smp.RTTS[c] * wire * 8,
				RTTS: smp.RTTS[c], QueuePkts: q, DeliveredPkts: res.delivered[k][c]}
		}
		for i, c := range classOf {
			if rows[c].Flow < 0 {
				continue
			}
			row := rows[c]
			row.Flow = i
			out = append(out, row)
		}
		for l := range sc.Links {
			out = append(out, model.Sample{TS: smp.TS, Flow: -1, Link: sc.Links[l].Name, QueuePkts: smp.QueuePkts[l]})
		}
	}
	return out
}

// Rounds is the round trips a run of the validated scenario integrates: over its classes
// (FromScenario), each class's active time over its propagation RTT. Flows in a class
// cost nothing more, so 10⁶ flows in three classes are three classes' rounds. It is the
// mean-field form's measure of what the hybrid form counts per flow (a run's steps are
// at least duration/smallest RTT and, with the default tolerances, a few times that).
// Errors are FromScenario's.
func Rounds(sc *model.Scenario) (float64, error) {
	net, _, err := FromScenario(sc)
	if err != nil {
		return 0, err
	}
	rounds := 0.0
	for i := range net.Classes {
		c := &net.Classes[i]
		end := sc.DurationS
		if c.StopS > 0 {
			end = c.StopS
		}
		rounds += max(end-c.StartS, 0) / c.PropRTTS
	}
	return rounds, nil
}
