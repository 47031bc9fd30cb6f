package fluid

import (
	"math"
	"slices"

	"github.com/tcpfluid/tcpfluid/model"
)

func (s *system) linkEvent(e model.TimedEvent, t float64, y []float64) {
	li := -1
	for i := range s.links {
		if s.links[i].name == e.Link {
			li = i
		}
	}
	if li < 0 {
		return
	}
	l := &s.links[li]
	switch e.Kind {
	case model.EventLinkDown:
		l.up = false
		// Everything queued on a failed link is lost; every flow crossing it times out.
		l.mode = queueEmpty
		y[l.off+lvDropped] += y[l.off+lvQueue]
		y[l.off+lvQueue] = 0
		l.lose(y)
		l.setContents(y, 0)
		for fi := range s.flows {
			f := &s.flows[fi]
			if !f.active || !slices.Contains(f.links, li) {
				continue
			}
			f.reactAt, f.recheckAt = math.Inf(1), math.Inf(1)
			if f.routeAware {
				// A route change, not congestion: keep the state, remember the window.
				if f.wBefore == 0 {
					f.wBefore = y[f.off+f.sub]
				}
				continue
			}
			if math.IsInf(f.silentUntil, 1) || (t < f.silentUntil && f.silentUntil == f.backoffAt) {
				continue // already waiting for its backed-off timer: the schedule goes on
			}
			f.law.OnTimeout(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
			f.timeouts++
			f.timeoutDue = false // this timeout is the one the recovery waited for
			f.sr.on = false      // and ends a simulator's recovery (simrecovery.go)
			rto := max(model.MinRTOS, f.rtt)
			f.backoffAt, f.backoffS = t+rto, 2*rto
			f.silentUntil = math.Inf(1)
		}
	case model.EventLinkUp:
		l.up = true
		if e.DelayS > 0 {
			s.setDelay(li, e.DelayS)
		}
		for fi := range s.flows {
			f := &s.flows[fi]
			if math.IsInf(f.silentUntil, 1) && s.pathUp(f.links) {
				s.resumeAfterOutage(f, t, y)
			}
			if f.routeAware && f.wBefore > 0 && s.pathUp(f.links) {
				// Resume at min(window before the outage, ssthresh), not slow start.
				y[f.off+f.sub] = min(f.wBefore, max(model.SsthreshOf(f.law, f.sub), model.MinResumeWindow))
				f.wBefore = 0
			}
		}
	case model.EventDelayChange:
		s.setDelay(li, e.DelayS)
	}
}

// resumeAfterOutage schedules the first retransmission of a sender whose path failed and
// is back at time t: at the first expiry of its backed-off timer from then on. Every expiry
// is a timeout, the law's jump once more (Reno's ssthresh falls to 2 from the second), as
// in the packet engine; the first was applied at the failure, since the sender hears
// nothing from then on. The expiries run from the failure at max(model.MinRTOS, RTT), doubling
// up to model.MaxRTOS.
func (s *system) resumeAfterOutage(f *subflow, t float64, y []float64) {
	for f.backoffAt < t {
		f.backoffAt += f.backoffS
		f.backoffS = min(2*f.backoffS, model.MaxRTOS)
		f.law.OnTimeout(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
		f.timeouts++
	}
	f.silentUntil = f.backoffAt
}

func (s *system) setDelay(li int, d float64) {
	s.links[li].delayS = d
	for fi := range s.flows {
		f := &s.flows[fi]
		prop := 0.0
		for _, l := range f.links {
			prop += 2 * s.links[l].delayS
		}
		f.propRTT = prop
	}
}
