package packet

import (
	"github.com/tcpfluid/tcpfluid/model"
)

// PIE (RFC 8033; ns-3 PieQueueDisc with its defaults: the queueing delay measured as the
// sojourn time of the packet last dequeued, Linux sch_pie's timestamp mode, and no
// de-randomization). Every T_UPDATE the drop probability moves by
//
//	Δp = α·(delay − target) + β·(delay − previous delay),
//
// scaled by 1/2048, 1/512, 1/128, 1/32, 1/8 and 1/2 while p is below 10⁻⁶, 10⁻⁵, 10⁻⁴,
// 10⁻³, 10⁻² and 10⁻¹ (RFC 8033 §4.2), capped at +2% once p ≥ 10% and raised by 2% while
// the delay exceeds 250 ms (Linux pie_calculate_probability); with no delay now and before,
// p decays by 2% per update. An arriving packet is dropped with probability p unless the
// burst allowance (MAX_BURST after an idle, uncongested spell) lasts, the previous delay is
// below target/2 with p < 20%, or at most two packets are queued (RFC 8033 §4.1); with ECN
// an ECN-capable packet is marked instead while p ≤ ECNMaxProb. The updates are applied
// lazily, at the next arrival or dequeue, as many as are due: the delay they read changes
// only at dequeues.
type pieState struct {
	p          model.PIE
	prob       float64
	qdelay     float64 // s: the sojourn time of the packet last dequeued (0 once the queue empties)
	qdelayOld  float64 // s: qdelay at the previous update
	burst      float64 // s of burst allowance left
	nextUpdate float64 // s
}

func newPIE(p model.PIE) *pieState {
	return &pieState{p: p, burst: p.MaxBurstS, nextUpdate: p.TUpdateS}
}

// update applies every probability update due by now.
func (s *pieState) update(now float64) {
	for now >= s.nextUpdate {
		s.calculate()
		s.nextUpdate += s.p.TUpdateS
	}
}

// calculate is one probability update (RFC 8033 §4.2, calculate_drop_prob).
func (s *pieState) calculate() {
	delta := s.p.Alpha*(s.qdelay-s.p.TargetS) + s.p.Beta*(s.qdelay-s.qdelayOld)
	delta *= s.p.Scale(s.prob)
	if s.prob >= 0.1 && delta > 0.02 {
		delta = 0.02
	}
	if s.qdelay > 0.25 {
		delta += 0.02
	}
	s.prob += delta
	if s.qdelay == 0 && s.qdelayOld == 0 {
		s.prob *= 0.98
	}
	s.prob = min(max(s.prob, 0), 1)
	if s.prob == 0 && s.qdelay < s.p.TargetS/2 && s.qdelayOld < s.p.TargetS/2 {
		s.burst = s.p.MaxBurstS
	} else {
		s.burst = max(s.burst-s.p.TUpdateS, 0)
	}
	s.qdelayOld = s.qdelay
}

// enqueue is PIE's decision for packet p arriving at link l: it reports an early drop,
// or marks p CE instead when ECN allows.
func (s *pieState) enqueue(sm *sim, l *link, p *pkt, ecn bool) bool {
	s.update(sm.now)
	switch {
	case s.burst > 0:
		return false
	case s.qdelayOld < s.p.TargetS/2 && s.prob < 0.2:
		return false
	case l.queue.len() <= 2:
		return false
	case sm.rng.Float64() >= s.prob:
		return false
	case ecn && p.ect && s.prob <= s.p.ECNMaxProb:
		p.ce = true
		return false
	}
	return true
}

// dequeue measures the queueing delay of packet p leaving at time now with left packets
// behind it.
func (s *pieState) dequeue(now float64, p *pkt, left int) {
	s.update(now)
	s.qdelay = now - p.enqAt
	if left == 0 {
		s.qdelay = 0
	}
}
