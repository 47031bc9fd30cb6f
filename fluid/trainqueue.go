package fluid

import "github.com/tcpfluid/tcpfluid/model"

// The queue a round's step keeps through its train. A packet sender alone on its path
// below the BDP sends each round as one train at its slowest link's rate and is idle for
// the rest of the round. A law that adds part of a round's growth at one ACK
// (model.RoundStepper: Linux tcp_compound.c's delay window, some 30 packets a round at
// 1500) sends that step back to back at the train's head; the slowest link holds it until
// the train ends, since the train keeps arriving at the rate it is served. So the queue is
// the step for the train's share of the round, the flow's rate over the link's. The fluid
// sends evenly and queues nothing below the BDP: seed000-colo-random-loss's Compound
// bottleneck held 12.6 packets on average in the fluid and 24.6 in the packet engine,
// whose queue, binned by window, is step·W/BDP within 7% from W = 1400 packets up
// (TestTrainQueue).
//
// The queue shown (the link's mean, its moments, the trace) is the fluid queue or the
// train's, whichever is more: above the BDP the train has no gap and the fluid queue
// holds the step already. The train's is its mean over the round, so the queue's standard
// deviation leaves out its on and off within a round. The flow's RTT leaves it out, as
// the law's sample does: the delay window's update reads the ACK at the train's head,
// which waited behind no step.

// placeTrains gives each link the flow whose round steps queue there, in the counted
// form: a single-path flow alone on its path with a model.RoundStepper law, at the
// slowest link of its path.
func (s *system) placeTrains() {
	if !s.form.counted {
		return
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		rs, ok := f.law.(model.RoundStepper)
		li := s.slowestLink(f)
		if !ok || li < 0 || f.nSub > 1 || s.paced(f) || !s.alone(f) {
			continue
		}
		l := &s.links[li]
		l.train, l.trainStep = f, rs
		s.trainLinks = append(s.trainLinks, li)
	}
}

// trainQueues sets the queue each train keeps at time t in state y, from its flow's rate
// and the step its law takes at its RTT sample (evaluate: after both are known).
func (s *system) trainQueues(t float64, y []float64) {
	for _, li := range s.trainLinks {
		l := &s.links[li]
		l.trainBytes = 0
		f := l.train
		if !f.active || !(f.rate > 0) || !(l.capBps > 0) || s.form.holds(f, t) || f.silent(t) || !s.pathUp(f.links) {
			continue
		}
		o := model.Observation{Now: t, RTT: f.rttSeen, BaseRTT: f.baseRTT()}
		if step := l.trainStep.RoundStep(y[f.off:f.off+f.nLaw], o); step > 0 {
			l.trainBytes = step * f.wire * min(f.rate/l.capBps, 1)
		}
	}
}

// shownQueue is the queue of link l reported for its fluid queue q, bytes: q, or its
// train's when that is more.
func (l *link) shownQueue(q float64) float64 { return max(q, l.trainBytes) }
