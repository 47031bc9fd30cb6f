package fluid

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/ode"
	"gonum.org/v1/gonum/mat"
)

const (
	actFlowStart = iota
	actFlowStop
	actLink
)

type timedAction struct {
	t    float64
	kind int
	idx  int
	ev   model.TimedEvent
}

func (s *system) run(ctx context.Context) (*model.Result, error) {
	actions := s.timedActions()
	dp := ode.NewDormandPrince(ode.Settings{RelTol: s.set.RelTol, AbsTol: s.set.AbsTol})
	ivp := ode.IVP{Y0: mat.NewVecDense(s.dim, nil), T0: 0, Func: s.derivs}
	settings := ode.DriverSettings{MaxSteps: s.set.MaxSteps}
	settings.OnStep = s.stepped
	if s.polled {
		settings.StopAt = s.pollDrops
	}
	drv, err := ode.NewDriver(dp, ivp, s.events(), settings)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", model.ErrEngine, err)
	}
	s.drv = drv
	s.keepPast()
	s.recordPast(0, drv.Y().RawVector().Data)
	exact := s.exactOK()
	t := 0.0
	ai := 0
	for {
		structural := false
		for ai < len(actions) && actions[ai].t <= t {
			s.apply(actions[ai], t)
			ai++
			structural = true
		}
		reacted := s.dueReactions(t)
		if s.x != nil && s.x.due(s, t) {
			structural = true // marking and AQM timers (ext.go)
		}
		broke := s.passBreaks(t)
		heard := s.heard
		s.heard = false
		switch {
		case structural:
			s.jump(t)
		case reacted:
			s.jumpFlows(t, s.touched)
		case broke || heard:
			s.gen++
			s.drv.Restart() // from the shares after the break (fifobreaks.go), the drops heard (polldrops.go)
		}
		if t >= s.end {
			break
		}
		next := s.end
		if ai < len(actions) && actions[ai].t < next {
			next = actions[ai].t
		}
		if r := s.nextReaction(); r < next {
			next = max(r, t)
		}
		if s.x != nil {
			if r := s.x.next(); r < next {
				next = max(r, t)
			}
		}
		if b := s.nextBreak(); b < next {
			next = max(b, t)
		}
		if exact {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("%w at t = %.6g s: %w", model.ErrEngine, t, err)
			}
			if t2, ok := s.exactAdvance(t, next); ok {
				t = t2
				continue
			}
		}
		hit, err := drv.Advance(ctx, next)
		if err != nil {
			return nil, fmt.Errorf("%w at t = %.6g s: %w", model.ErrEngine, t, err)
		}
		t = hit.T
		if hit.Event >= 0 {
			s.handle(hit.Event, t)
		}
	}
	if s.set.SampleS > 0 && s.nextSmp <= s.end*(1+1e-12) {
		s.sampleAt(s.end, drv.Y())
	}
	return s.result(), nil
}

func (s *system) timedActions() []timedAction {
	var acts []timedAction
	for fi, f := range s.flows {
		acts = append(acts, timedAction{t: f.start, kind: actFlowStart, idx: fi})
		if f.stop < s.sc.DurationS {
			acts = append(acts, timedAction{t: f.stop, kind: actFlowStop, idx: fi})
		}
	}
	for _, e := range s.sc.Events {
		acts = append(acts, timedAction{t: e.AtS, kind: actLink, ev: e})
	}
	// CBR sources switch on and off at their times: stop the solver there so that the
	// discontinuity in the arrival rate is a step boundary.
	for ci, c := range s.cbr {
		acts = append(acts, timedAction{t: c.start, kind: -1, idx: ci})
		acts = append(acts, timedAction{t: c.stop, kind: -1, idx: ci})
	}
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].t < acts[j].t })
	return acts
}

// obsFor is what flow f's law observes at time t (after ensure): for a subflow of a
// multi-path flow, every sibling's RTT as well.
func (s *system) obsFor(f *subflow, t float64) model.Observation {
	o := model.Observation{Now: t, RTT: f.rttSeen, BaseRTT: f.baseRTT(), Subflow: f.sub}
	if s.x != nil {
		s.x.observe(f, &o) // delivery rate, marked fraction (ext.go)
		if s.cacheY != nil {
			f.countPackets(&o, s.cacheY.RawVector().Data)
		}
	}
	if f.nSub > 1 {
		subs := s.subObs[f.subObs]
		for k := range subs {
			sib := &s.flows[f.first+k]
			subs[k] = model.SubflowObservation{RTT: sib.rttSeen, BaseRTT: sib.baseRTT()}
		}
		o.Subflows = subs
	}
	return o
}

// obsAt is obsFor computed from the state yd alone (only the flow's own path queues),
// without evaluating the whole network: what a guard needs at every root-finding step.
func (s *system) obsAt(f *subflow, t float64, yd []float64) model.Observation {
	o := model.Observation{Now: t, RTT: s.pathRTT(f, yd), BaseRTT: f.baseRTT(), Subflow: f.sub}
	if s.x != nil {
		s.x.observe(f, &o)
		f.countPackets(&o, yd)
	}
	if f.nSub > 1 {
		subs := s.subObs[f.subObs]
		for k := range subs {
			sib := &s.flows[f.first+k]
			subs[k] = model.SubflowObservation{RTT: s.pathRTT(sib, yd), BaseRTT: sib.baseRTT()}
		}
		o.Subflows = subs
	}
	return o
}

func (s *system) apply(a timedAction, t float64) {
	y := s.state(t)
	switch a.kind {
	case actFlowStart:
		f := &s.flows[a.idx]
		f.active = true
		y = s.state(t)
		if f.sub == 0 {
			f.law.Init(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
		}
		s.startBurst(f, t, y)
		for _, fi := range s.set.InjectLoss {
			if fi == a.idx {
				s.loss(f, t, y)
			}
		}
		if f.watch >= 0 && y[f.off+f.sub] >= f.watch {
			s.watchCrossed(a.idx, t) // already there: a loss that did not reduce the window
		}
		if !s.sc.DropRule.Proportional() {
			// A sender that starts into a full queue loses there too; the synchronized
			// rule schedules its reaction at the overflow, which came before it.
			f.recheckAt = t
		}
	case actFlowStop:
		s.finish(&s.flows[a.idx], t)
	case actLink:
		s.linkEvent(a.ev, t, y)
	}
}

func (s *system) finish(f *subflow, t float64) {
	if !f.active {
		return
	}
	f.active = false
	f.endT = t
	f.reactAt, f.recheckAt = math.Inf(1), math.Inf(1)
	f.found = foundLoss{}
}

// handle applies the located event number ev at time t.
func (s *system) handle(ev int, t float64) {
	if s.x != nil && ev >= s.x.base {
		s.x.handle(s, ev-s.x.base, t) // marking and AQM events (ext.go)
		s.jump(t)
		return
	}
	nf := len(s.flows)
	if ev < nf && s.firedSlot(&s.flows[ev], t, s.drv.Y()) == flowGuardLaw {
		// A mode switch (slow start ends) leaves every window as it was, but not always
		// the sending rate: in the recovery form slow start's growth is sent on top of the
		// window's rate, and its end can take a full queue's arrivals below capacity at
		// once (jumpFlows switches the queue; a guard restarted past zero never fires).
		f := &s.flows[ev]
		f.clocked = false // its slow start ends (ackclock.go)
		yd := s.drv.Y().RawVector().Data
		f.law.Switch(yd[f.off:f.off+f.nLaw], s.obsAt(f, t, yd))
		if s.paced(f) {
			// A paced law's switch moves its window and pacing rate: the queues may switch
			// too (ext.go).
			s.jump(t)
			return
		}
		s.touched = append(s.touched[:0], ev)
		s.jumpFlows(t, s.touched)
		return
	}
	y := s.state(t)
	if ev < nf {
		fi := ev
		f := &s.flows[fi]
		slot := s.firedSlot(f, t, s.drv.Y())
		c := f.cnt
		switch slot {
		case flowGuardRandom:
			y[c+cntRandom] = 0
			s.drawRandomLoss(f)
			s.lossFound(f, t, y, dropRandom)
		case flowGuardPeriodic:
			y[c+cntPeriodic] = 0
			s.lossFound(f, t, y, dropPeriodic)
		case flowGuardDrop:
			y[c+cntOverflow] = 0
			f.drawDrop()
			f.hearDrop(t, s.waitBeforeDrop(f, dropOverflow, y), f.hearsInRecovery)
		case flowGuardDone:
			f.completion = t - f.start
			f.done = true
			s.finish(f, t)
		case flowGuardWatch:
			s.watchCrossed(fi, t)
		case flowGuardGoBackN:
			f.copies += f.gbn.stop(y[c+cntSent])
		case flowGuardLateAck:
			s.lateAckTimeout(f, t, y)
		}
		if slot == flowGuardRandom || slot == flowGuardPeriodic || slot == flowGuardDrop || slot == flowGuardGoBackN {
			s.touched = append(s.touched[:0], fi)
			s.jumpFlows(t, s.touched) // the event moved this subflow's state alone
			return
		}
	} else {
		s.switchQueue((ev-nf)/linkGuards, (ev-nf)%linkGuards, t, y)
	}
	s.jump(t)
}

// watchJumped records every watched window that a jump at time t (state yd) has carried to
// or past its level: the guard locates crossings from below only, and a window restored at
// once (BBR's at a recovery's end) lands on its level without crossing it.
func (s *system) watchJumped(t float64, yd []float64) {
	if len(s.set.Watch) == 0 {
		return
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		if f.active && f.watch >= 0 && !f.watchHit && yd[f.off+f.sub] >= f.watch {
			s.watchCrossed(fi, t)
		}
	}
}

// watchCrossed records that flow fi's window reached its watched level at time t and ends
// the run when every watch asked to.
func (s *system) watchCrossed(fi int, t float64) {
	f := &s.flows[fi]
	f.watchHit = true
	s.crossings = append(s.crossings, model.Crossing{Flow: fi, CwndPkts: f.watch, TS: t, SinceStartS: t - f.start})
	if s.set.StopAtWatch && s.allWatchesHit() {
		s.end = t
	}
}

func (s *system) allWatchesHit() bool {
	for i := range s.flows {
		if s.flows[i].watch >= 0 && !s.flows[i].watchHit {
			return false
		}
	}
	return true
}
