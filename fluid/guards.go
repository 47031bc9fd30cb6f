package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/ode"
	"gonum.org/v1/gonum/mat"
)

// guard slots per flow and per link.
const (
	flowGuardLaw = iota
	flowGuardRandom
	flowGuardPeriodic
	flowGuardDrop
	flowGuardDone
	flowGuardWatch
	flowGuardGoBackN
	flowGuardLateAck
	flowGuards
)

const (
	linkGuardA = iota
	linkGuardB
	linkGuards
)

// flowGuardValue is guard slot of flow f for state y at time t: a loss, a mode switch, a
// completion or a watched level is due where it reaches zero from below.
func (s *system) flowGuardValue(f *subflow, slot int, t float64, y *mat.VecDense) float64 {
	yd := y.RawVector().Data
	c := f.cnt
	switch slot {
	case flowGuardLaw:
		if f.sub != 0 {
			return -1 // a multi-path law's modes belong to its subflow-0 entry
		}
		if s.paced(f) {
			s.ensure(t, y) // a paced law's guards read its delivery rate (ext.go)
		}
		return f.law.Guard(yd[f.off:f.off+f.nLaw], s.obsAt(f, t, yd))
	case flowGuardRandom:
		if !f.randomLoss && !s.hasRED(f) {
			return -1
		}
		return yd[c+cntRandom] - f.randomThreshold
	case flowGuardPeriodic:
		if !f.periodic {
			return -1
		}
		return yd[c+cntPeriodic] - f.mult // one loss per 1/p packets of each member
	case flowGuardDrop:
		if !s.sc.DropRule.Proportional() || f.dropsDeaf {
			return -1
		}
		return f.overflowSinceDrop(yd) - f.mult*f.dropDraw // the next drop of every member of the class (drawDrop)
	case flowGuardDone:
		if f.sizePkt == 0 {
			return -1
		}
		return yd[c+cntDelivered] - f.mult*f.sizePkt
	case flowGuardWatch:
		if f.watch < 0 || f.watchHit {
			return -1
		}
		return yd[f.off+f.sub] - f.watch
	case flowGuardGoBackN:
		if !f.gbn.on {
			return -1
		}
		return -f.gbn.left(t, yd[c+cntSent]) // the span is resent (gobackn.go)
	case flowGuardLateAck:
		if !s.lateAckDue(f, t, yd) {
			return -1
		}
		s.ensure(t, y)
		return s.lateBy(f) // ns-2's timer before a late burst (lateack.go)
	}
	return -1
}

// flowGuard is one solver event per flow, the largest of its guard slots: one closure call
// instead of flowGuards per flow and step (the solver re-evaluates every guard at every
// jump). handle finds the slot that reached zero.
func (s *system) flowGuard(fi int) func(float64, mat.Vector) float64 {
	return func(t float64, yv mat.Vector) float64 {
		f := &s.flows[fi]
		if !f.active {
			return -1
		}
		y := yv.(*mat.VecDense)
		g := -1.0
		for slot := 0; slot < flowGuards; slot++ {
			if f.guards&(1<<slot) == 0 {
				continue
			}
			if v := s.flowGuardValue(f, slot, t, y); v > g {
				g = v
			}
		}
		return g
	}
}

// firedSlot is the guard slot of flow f that has reached zero at the located event.
func (s *system) firedSlot(f *subflow, t float64, y *mat.VecDense) int {
	best, bestG := 0, math.Inf(-1)
	for slot := 0; slot < flowGuards; slot++ {
		if f.guards&(1<<slot) == 0 {
			continue
		}
		if g := s.flowGuardValue(f, slot, t, y); g > bestG {
			best, bestG = slot, g
		}
	}
	return best
}

func (s *system) hasRED(f *subflow) bool {
	for _, li := range f.links {
		if s.links[li].red {
			return true
		}
	}
	return false
}

// linkGuardValue is guard slot of link li at the network state last evaluated by ensure:
// a queue mode switch is due where it reaches zero from below.
func (s *system) linkGuardValue(li, slot int, y []float64) float64 {
	l := &s.links[li]
	switch l.mode {
	case queueEmpty:
		if slot != linkGuardA || !l.up {
			return -1
		}
		return l.arrive - l.capBps*(1+modeSlack)
	case queueBusy:
		q := y[l.off+lvQueue]
		if slot == linkGuardA {
			return -q - queueSlackBytes
		}
		return q - l.bufBytes - queueSlackBytes
	default: // full
		if slot != linkGuardA {
			return -1
		}
		return l.capBps*(1-modeSlack) - l.arrive
	}
}

func (s *system) linkGuard(li, slot int) func(float64, mat.Vector) float64 {
	return func(t float64, yv mat.Vector) float64 {
		y := yv.(*mat.VecDense)
		s.ensure(t, y)
		return s.linkGuardValue(li, slot, y.RawVector().Data)
	}
}

func (s *system) events() []ode.Event {
	evs := make([]ode.Event, 0, len(s.flows)+len(s.links)*linkGuards)
	for fi := range s.flows {
		evs = append(evs, ode.Event{G: s.flowGuard(fi), Direction: ode.Rising})
	}
	for li := range s.links {
		for slot := 0; slot < linkGuards; slot++ {
			evs = append(evs, ode.Event{G: s.linkGuard(li, slot), Direction: ode.Rising})
		}
	}
	if s.x != nil {
		evs = s.x.events(s, evs) // marking and AQM guards, after every other (ext.go)
	}
	return evs
}

// run ------------------------------------------------------------------------------------
