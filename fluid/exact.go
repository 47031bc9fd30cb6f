package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// The exact advance (Settings.Exact): a flow that runs alone on a free path — one link, its
// queue empty and far below capacity, nothing else on it, no trace to sample — sends at
// W/RTT with its ACKs returning at (1 − p) of that rate, so every counter grows in
// proportion to ∫W dt and its next random or periodic loss comes after a known number of
// packets. Where its law has a closed-form flow (model.ExactFlow: Reno's line, Scalable's
// exponential) the engine moves straight to that loss, applies it as the solver's event
// would, and steps nothing in between. A response point is exactly such a run.

// exactOK reports whether the scenario can use the exact advance at all.
func (s *system) exactOK() bool {
	if !s.set.Exact || s.set.SampleS > 0 || s.form.counted || s.x != nil || len(s.flows) != 1 || len(s.links) != 1 ||
		len(s.cbr) != 0 || len(s.sc.Events) != 0 {
		return false
	}
	f := &s.flows[0]
	l := &s.links[0]
	_, exact := f.law.(model.ExactFlow)
	return exact && f.nSub == 1 && f.mult == 1 && f.at == nil && f.watch < 0 && f.sizePkt == 0 && !l.red &&
		(l.loss == model.LossRandom || l.loss == model.LossPeriodic) && l.lossP > 0
}

// exactAdvance moves the run from time t through every loss of the flow that comes before
// next and that its law reaches in closed form, applying each loss as the solver's event
// would, and returns the time of the last; ok is false when the solver has to step
// instead. The cycles run on a copy of the state, handed to the solver once at the end.
func (s *system) exactAdvance(t, next float64) (float64, bool) {
	f, l := &s.flows[0], &s.links[0]
	if !s.exactFree(f, l, t) {
		return 0, false
	}
	x := s.scratch.RawVector().Data
	copy(x, s.state(t))
	if len(s.lawSaved) < f.nLaw {
		s.lawSaved = make([]float64, f.nLaw)
	}
	end := t
	for end < s.end && s.exactFree(f, l, end) {
		t1, ok := s.exactCycle(f, l, x, end, next)
		if !ok {
			break
		}
		end = t1
	}
	if end == t {
		return 0, false
	}
	s.recordPast(end, x)
	s.drv.Skip(end, s.scratch)
	s.touched = append(s.touched[:0], 0)
	s.jumpFlows(end, s.touched)
	return end, true
}

// exactFree reports whether flow f is sending on its own free link l at time t.
func (s *system) exactFree(f *subflow, l *link, t float64) bool {
	return f.active && !f.silent(t) && !f.timeoutDue && l.up && l.mode == queueEmpty
}

// exactCycle advances the state x from time t to flow f's next loss, if it comes before
// next, and applies the loss.
func (s *system) exactCycle(f *subflow, l *link, x []float64, t, next float64) (float64, bool) {
	c := f.cnt
	var packets float64
	if l.loss == model.LossRandom {
		packets = (f.randomThreshold - x[c+cntRandom]) / l.lossP
	} else {
		packets = (1 - x[c+cntPeriodic]) / l.lossP
	}
	rtt := f.rtt
	if !(packets >= 0) || math.Abs(f.rttSeen-rtt) > 1e-12*rtt {
		return 0, false
	}
	law := x[f.off : f.off+f.nLaw]
	saved := s.lawSaved[:copy(s.lawSaved, law)]
	dt, ok := f.law.(model.ExactFlow).Advance(law, s.obsFor(f, t), 1-l.lossP, packets)
	end := t + dt
	if !ok || !(end < next) || law[f.sub]*f.wire/rtt >= l.capBps*(1-modeSlack) || law[f.sub] >= f.rwnd {
		copy(law, saved)
		return 0, false
	}
	lost := l.lossP * packets
	x[c+cntSent] += packets
	x[c+cntCwndTime] += packets * rtt
	x[c+cntDropped] += lost
	x[c+cntDelivered] += packets - lost
	x[c+cntAcked] += packets - lost
	x[l.off+lvDeparted] += packets * f.wire
	if l.loss == model.LossRandom {
		x[c+cntRandom] = 0
		s.drawRandomLoss(f)
	} else {
		x[c+cntPeriodic] = 0
	}
	s.loss(f, end, x)
	return end, true
}
