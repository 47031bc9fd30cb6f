package fluid

import "math"

// A jump of the admission rates at a FIFO link reaches its departures a queueing delay
// later, when the bytes admitted at the jump reach the head. There the right-hand side
// jumps too; left to the solver, every such break inside a step is found by rejecting and
// shrinking steps until one ends near it. The run stops the solver at each break instead,
// as at a timed action, and restarts it from the rates after the jump.

// addBreak records that link l's admission rates jumped at time t with cum bytes admitted,
// departed of them gone: when the link sends at capacity, as a busy or full queue does,
// the departures reach cum at t + (cum − departed)/capacity.
func (h *fifoHistory) addBreak(l *link, t, cum, departed float64) {
	if len(h.breaks) == 0 {
		h.breakAt = l.reachedAt(t, cum, departed)
	}
	h.breaks = append(h.breaks, cum)
}

// reachedAt is when link l's departures, departed bytes at time t, reach cum bytes.
func (l *link) reachedAt(t, cum, departed float64) float64 {
	if !l.up || !(l.capBps > 0) {
		return math.Inf(1) // re-predicted at the jump that brings the link back
	}
	return t + max(cum-departed, 0)/l.capBps
}

// nextBreak is the time of the first break of any FIFO link, +Inf when none is pending.
func (s *system) nextBreak() float64 {
	next := math.Inf(1)
	for _, li := range s.fifo {
		if h := s.links[li].fifo; len(h.breaks) > 0 {
			next = min(next, h.breakAt)
		}
	}
	return next
}

// passBreaks passes every break the departures have reached by time t and re-predicts the
// others that were due (a queue that did not send at capacity throughout); a link whose
// queue is empty has passed all of them. It reports whether one was passed: the solver
// must then restart from the rates after it.
func (s *system) passBreaks(t float64) bool {
	passed := false
	for _, li := range s.fifo {
		l := &s.links[li]
		h := l.fifo
		if len(h.breaks) == 0 {
			continue
		}
		y := s.drv.Y().RawVector().Data
		departed := y[l.off+lvDeparted]
		if l.mode == queueEmpty {
			departed = math.Inf(1)
		}
		for len(h.breaks) > 0 && (h.breakAt <= t || l.mode == queueEmpty) {
			if departed < h.breaks[0]*(1-1e-12)-1e-9 {
				h.breakAt = l.reachedAt(t, h.breaks[0], departed)
				break
			}
			h.passed = max(h.passed, min(h.breaks[0], departed))
			h.breaks = h.breaks[:copy(h.breaks, h.breaks[1:])]
			passed = true
			if len(h.breaks) > 0 {
				h.breakAt = l.reachedAt(t, h.breaks[0], departed)
			}
		}
	}
	return passed
}

// repredictBreaks sets when each FIFO link's first pending break will be reached from the
// state at time t: after a jump that may have changed a link's capacity or brought it back.
func (s *system) repredictBreaks(t float64, y []float64) {
	for _, li := range s.fifo {
		l := &s.links[li]
		if h := l.fifo; len(h.breaks) > 0 {
			h.breakAt = l.reachedAt(t, h.breaks[0], y[l.off+lvDeparted])
		}
	}
}
