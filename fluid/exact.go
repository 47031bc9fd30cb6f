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

// exactAdvance moves the run from time t to the flow's next loss if it comes before next
// and the flow's law can get there in closed form, applies the loss, and returns its time;
// ok is false when the solver has to step instead.
func (s *system) exactAdvance(t, next float64) (float64, bool) {
	f, l := &s.flows[0], &s.links[0]
	if !f.active || f.silent(t) || f.timeoutDue || !l.up || l.mode != queueEmpty {
		return 0, false
	}
	y := s.state(t)
	c := f.cnt
	var packets float64
	if l.loss == model.LossRandom {
		packets = (f.randomThreshold - y[c+cntRandom]) / l.lossP
	} else {
		packets = (1 - y[c+cntPeriodic]) / l.lossP
	}
	rtt := f.rtt
	if !(packets >= 0) || math.Abs(f.rttSeen-rtt) > 1e-12*rtt {
		return 0, false
	}
	x := s.scratch.RawVector().Data
	copy(x, y)
	law := x[f.off : f.off+f.nLaw]
	dt, ok := f.law.(model.ExactFlow).Advance(law, s.obsFor(f, t), 1-l.lossP, packets)
	end := t + dt
	if !ok || !(end < next) || law[f.sub]*f.wire/rtt >= l.capBps*(1-modeSlack) || law[f.sub] >= f.rwnd {
		return 0, false
	}
	lost := l.lossP * packets
	x[c+cntSent] += packets
	x[c+cntCwndTime] += packets * rtt
	x[c+cntDropped] += lost
	x[c+cntDelivered] += packets - lost
	if l.loss == model.LossRandom {
		x[c+cntRandom] += lost
	} else {
		x[c+cntPeriodic] += lost
	}
	x[l.off+lvDeparted] += packets * f.wire
	s.drv.Skip(end, s.scratch)
	y = s.state(end)
	if l.loss == model.LossRandom {
		y[c+cntRandom] = 0
		s.drawRandomLoss(f)
	} else {
		y[c+cntPeriodic] = 0
	}
	s.loss(f, end, y[f.off:f.off+f.nLaw])
	s.touched = append(s.touched[:0], 0)
	s.jumpFlows(end, s.touched)
	return end, true
}
