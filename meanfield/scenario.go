package meanfield

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
)

// Form is the name of the mean-field form in results (model.Result.Form), beside the
// hybrid engine's "hybrid" and "hybrid-recovery".
const Form = "meanfield"

// ScenarioSettings configures RunScenario; the zero value is usable.
type ScenarioSettings struct {
	// SampleS is the trace interval, s; 0 records no trace.
	SampleS float64
	// RelTol, AbsTol and MaxSteps as in Settings.
	RelTol, AbsTol float64
	MaxSteps       int
}

// FromScenario builds the mean-field network of a validated scenario. Identical flows
// (the same algorithm and parameters, path, packet size, receiver window, initial window
// and active span) form one class; classOf[i] is flow i's class. Link capacities become
// packets/s of the flows' wire packet size (MSS + header), one size for the whole
// scenario; a periodic loss becomes a random loss of the same rate (the mean-field form
// sees only rates). Refused with model.ErrScenario, naming the field: multi-path flows,
// finite transfers, CBR cross traffic, timed link events, mixed packet sizes, a path of
// no propagation delay; algorithms without a mean-field form with ErrNoMeanField.
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
	wire := sc.Flows[0].MSSBytes + sc.Flows[0].HeaderBytes
	for i := range sc.Flows {
		f := &sc.Flows[i]
		at := fmt.Sprintf("flows[%d]", i)
		switch {
		case len(f.Paths) > 0:
			return nil, nil, unsupported(at+".paths", "a multi-path flow")
		case f.SizeBytes > 0:
			return nil, nil, unsupported(at+".size", "a finite transfer")
		case f.MSSBytes+f.HeaderBytes != wire:
			return nil, nil, fmt.Errorf("%w: %s: packets of %v bytes (MSS + header), flows[0]'s are %v bytes: the mean-field form counts one packet size",
				model.ErrScenario, at, f.MSSBytes+f.HeaderBytes, wire)
		}
	}
	net = &Network{}
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
	type key struct {
		algo, params, path       string
		rwnd, cwnd0, start, stop float64
	}
	classes := map[key]int{}
	classOf = make([]int, len(sc.Flows))
	for i := range sc.Flows {
		f := &sc.Flows[i]
		var ps []string
		for _, k := range slices.Sorted(maps.Keys(f.Params)) {
			ps = append(ps, fmt.Sprintf("%s=%v", k, f.Params[k]))
		}
		k := key{f.Algorithm, strings.Join(ps, ","), f.Path, sc.FlowRwndPkts(i), f.InitialCwnd, f.StartS, f.StopS}
		if c, ok := classes[k]; ok {
			net.Classes[c].Flows++
			classOf[i] = c
			continue
		}
		law, err := LawOf(f.Algorithm, f.Params)
		if err != nil {
			return nil, nil, fmt.Errorf("flows[%d]: %w", i, err)
		}
		p := sc.PathIndex(f.Path)
		if p < 0 {
			return nil, nil, fmt.Errorf("%w: flows[%d].path %q: no such path", model.ErrScenario, i, f.Path)
		}
		prop := sc.PathRTTS(p)
		if !(prop > 0) {
			return nil, nil, fmt.Errorf("%w: flows[%d].path %q: round-trip propagation delay %v s, the mean-field form needs > 0", model.ErrScenario, i, f.Path, prop)
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
		classes[k] = len(net.Classes)
		classOf[i] = len(net.Classes)
		net.Classes = append(net.Classes, c)
	}
	return net, classOf, nil
}

// RunScenario runs a validated scenario in the mean-field form and reports it as the
// engines do: one FlowResult per flow (each flow of a class has the class's per-flow
// figures), one LinkResult per link, and the trace when asked. Expected counts stand for
// counted events: LossEvents is the rounded expected number of loss events, Timeouts 0.
// Errors wrap model.ErrScenario (the scenario or settings), ErrNoMeanField (an
// algorithm), model.ErrEngine (the integration: step limit, non-finite state) or the
// context's error.
func RunScenario(ctx context.Context, sc *model.Scenario, set ScenarioSettings) (*model.Result, error) {
	net, classOf, err := FromScenario(sc)
	if err != nil {
		return nil, err
	}
	s := Settings{DurationS: sc.DurationS, SampleS: set.SampleS, TailS: sc.DurationS, RelTol: set.RelTol, AbsTol: set.AbsTol, MaxSteps: set.MaxSteps}
	res, err := simulate(ctx, net, s, true, true)
	switch {
	case errors.Is(err, ErrSolve):
		return nil, fmt.Errorf("%w: %w", model.ErrEngine, err)
	case errors.Is(err, ErrNetwork):
		return nil, fmt.Errorf("%w: %w", model.ErrScenario, err)
	case err != nil:
		return nil, err
	}
	out := &model.Result{Scenario: sc.Name, Engine: "fluid", Form: Form, DurationS: sc.DurationS,
		Flows: make([]model.FlowResult, 0, len(sc.Flows)), Links: make([]model.LinkResult, 0, len(sc.Links))}
	for i := range sc.Flows {
		f := &sc.Flows[i]
		tot := res.totals[classOf[i]]
		end := sc.DurationS
		if f.StopS > 0 && f.StopS < end {
			end = f.StopS
		}
		active := math.Max(end-f.StartS, 0)
		fr := model.FlowResult{Flow: i, Name: f.Name, Algorithm: f.Algorithm, Path: f.Path, ActiveS: active,
			SentPkts: tot.sent, DeliveredPkts: tot.acked - tot.losses, DroppedPkts: tot.losses,
			LossEvents: int(math.Round(tot.losses))}
		if active > 0 {
			fr.MeanCwndPkts = tot.cwnd / active
			fr.MeanThroughputBps = fr.DeliveredPkts * f.MSSBytes * 8 / active
			fr.GoodputBps = fr.MeanThroughputBps
		}
		out.Flows = append(out.Flows, fr)
	}
	for l := range sc.Links {
		lt := res.links[l]
		lr := model.LinkResult{Link: sc.Links[l].Name, DroppedPkts: lt.dropped}
		if T := sc.DurationS; T > 0 {
			lr.MeanQueuePkts = lt.queue / T
			lr.Utilisation = lt.departed / (net.Links[l].CapacityPktsPerS * T)
		}
		out.Links = append(out.Links, lr)
	}
	wire := sc.Flows[0].MSSBytes + sc.Flows[0].HeaderBytes
	for k, smp := range res.Series {
		for i := range sc.Flows {
			c := classOf[i]
			cl := &net.Classes[c]
			if smp.TS < cl.StartS || (cl.StopS > 0 && smp.TS > cl.StopS) {
				continue
			}
			q := 0.0
			for _, l := range cl.Links {
				q += smp.QueuePkts[l]
			}
			out.Trace = append(out.Trace, model.Sample{TS: smp.TS, Flow: i, CwndPkts: smp.CwndPkts[c],
				RateBps: smp.CwndPkts[c] / smp.RTTS[c] * wire * 8, RTTS: smp.RTTS[c], QueuePkts: q,
				DeliveredPkts: res.delivered[k][c]})
		}
		for l := range sc.Links {
			out.Trace = append(out.Trace, model.Sample{TS: smp.TS, Flow: -1, Link: sc.Links[l].Name, QueuePkts: smp.QueuePkts[l]})
		}
	}
	return out, nil
}
