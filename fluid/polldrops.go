package fluid

import "math"

// Under merged reactions (merge.go) the proportional rules' drops do not stop the solver
// one by one. A drop only schedules its flow's reaction (hearDrop) and makes its count
// deaf until the recovery ends (rearmDrops), so both can be found after the step that
// holds them: pollDrops, the solver's StopAt, reads each flow's count at the step's end
// and locates its drops on the step's dense output of that count alone (ode.Driver.Reach).
// The solver stops, cutting the step, where a reaction falls due inside it, and where a
// drop has gone unheard for as long as it may (hearingWait): in the counted form a drop
// heard makes its flow hold its unseen losses against its window (lostUnseen), which the
// step integrated without. Else it stops at the step's end if a flow heard a drop, so that
// the integrator restarts from the flows' new modes. With hundreds of flows of distinct
// round trips that is a stop per step in which some flow drops, against a stop per drop
// heard and per recovery's end (1000 flows over 100 s: 45,000 loss events).

// overflowSinceDrop is subflow f's full-queue drops counted since its last drop (all
// members of its class), state y.
func (f *subflow) overflowSinceDrop(y []float64) float64 {
	return y[f.cnt+cntOverflow] - f.dropBase
}

// pollDrops records the proportional rules' drops, and the ends of the flows' deafness to
// them, in the step [t0, t1] the solver has just accepted, and returns where the solver is
// to stop: the first reaction due inside the step, else the step's end if a flow heard a
// drop, else +Inf.
func (s *system) pollDrops(t0, t1 float64) float64 {
	stop, evaluated := math.Inf(1), false
	wait := func(f *subflow) float64 {
		if !evaluated {
			// The network at the step's end: a drop's wait before the queue changes little
			// within a step.
			s.gen++
			s.ensure(t1, s.drv.Y())
			evaluated = true
		}
		return s.waitBeforeDrop(f, dropOverflow, s.drv.Y().RawVector().Data)
	}
	// First where to stop, from each flow's first drop in the step: at its reaction, or
	// where it has been heard for as long as it may be (hearingWait).
	for fi := range s.flows {
		f := &s.flows[fi]
		from := f.hearsFrom(t0)
		if from > t1 {
			continue
		}
		level := s.nextDropLevel(f, from)
		tc := s.drv.Reach(f.cnt+cntOverflow, level)
		if tc > t1 {
			continue
		}
		if r, ok := f.dropHeard(max(tc, from), wait(f), f.hearsInRecovery); ok {
			stop = min(stop, r, tc+s.hearingWait(f, level, tc, t1))
		}
	}
	end := min(stop, t1)
	heard := false
	for fi := range s.flows {
		f := &s.flows[fi]
		if from := f.hearsFrom(t0); from > end {
			continue
		} else if f.dropsDeaf {
			f.rearmAt(s.drv.Component(f.cnt+cntOverflow, from))
		}
		for !f.dropsDeaf {
			next := f.dropBase + f.mult*f.dropDraw
			tc := s.drv.Reach(f.cnt+cntOverflow, next)
			if tc > end {
				break
			}
			f.dropBase = next
			f.drawDrop()
			f.hearDrop(tc, wait(f), f.hearsInRecovery)
			heard = heard || f.dropsDeaf
		}
	}
	if !heard && stop > t1 {
		return math.Inf(1)
	}
	s.heard = true
	s.gen++
	return end
}

// unheardPkts bounds what a sender sends too many, per member of its class, from when its
// drop is heard to when the solver hears it: its unseen losses n(t), which grow from zero
// at the drop, would have held back n/RTT of its sending. A thousandth keeps 100 identical
// flows run one by one within 4e-4 of their class over 60 s; a twentieth moved them by 5%,
// since all their drops move together.
const unheardPkts = 0.001

// hearingWait is how long after a drop at tc subflow f's sending may go on as if it were
// unheard: in the counted form, while the sending its unseen losses would have held back,
// ∫n/RTT = r·Δ²/(2·RTT) at r drops per second (the count's pace from the drop, at level, to
// the step's end t1), stays under unheardPkts per member, and at least its reaction's wait
// (merge.go); without bound in the hybrid form, whose sending counts no unseen losses.
func (s *system) hearingWait(f *subflow, level, tc, t1 float64) float64 {
	if !s.form.counted {
		return math.Inf(1)
	}
	wait := f.reactionWait()
	if r := (s.drv.Y().AtVec(f.cnt+cntOverflow) - level) / (t1 - tc); r > 0 && !math.IsInf(r, 1) {
		wait = max(wait, math.Sqrt(2*f.rtt*unheardPkts*f.mult/r))
	}
	return wait
}

// hearsFrom is when in [t0, …] subflow f hears drops: t0, or where its recovery ends if it
// is deaf to them till then; +Inf while a reaction is due or the flow is idle.
func (f *subflow) hearsFrom(t0 float64) float64 {
	switch {
	case !f.active || f.dropsDeaf && f.reactAt != math.Inf(1):
		return math.Inf(1)
	case f.dropsDeaf && !f.hearsInRecovery:
		return max(t0, f.recoverUntil)
	}
	return t0
}

// nextDropLevel is the count at which subflow f's next drop falls once it hears drops at
// time from (hearsFrom): a deaf count comes back on there (rearmAt).
func (s *system) nextDropLevel(f *subflow, from float64) float64 {
	if !f.dropsDeaf {
		return f.dropBase + f.mult*f.dropDraw
	}
	return f.rearmBase(s.drv.Component(f.cnt+cntOverflow, from)) + f.mult*f.nextDropDraw()
}

// rearmBase is where subflow f's polled count stands once it is back on at count c: as
// rearmDrops does, of the drops counted while it was deaf it keeps what whole packets per
// member would have left, or under model.DropRandom it starts afresh (with a new draw).
func (f *subflow) rearmBase(c float64) float64 {
	since := c - f.dropBase
	switch {
	case f.dropRng != nil:
		return c
	case since >= f.mult:
		return c - f.sinceWholeDrop(since)
	}
	return f.dropBase
}

// rearmAt turns subflow f's polled count back on where the count stands at c.
func (f *subflow) rearmAt(c float64) {
	f.dropsDeaf = false
	f.dropBase = f.rearmBase(c)
	if f.dropRng != nil {
		f.drawDrop()
	}
}
