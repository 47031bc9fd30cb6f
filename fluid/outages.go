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
			f.rt.due = 0      // the timed packet is lost with the link (roundtimer.go)
			f.clocked = false // nothing it sent returns: a timeout's burst restarts the clock
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
			f.lateRtx = false    // and is no late retransmission's (roundtimer.go)
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
				if s.form.counted {
					s.resumeBurst(f, t, y)
				}
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

// resumeBurst is the burst a route-aware sender resumes with at time t: no ACK clock paces
// it after the outage, so its whole window (y) leaves at once, enters its path's first
// queue at once and each further one at the rate the link before serves it; what a buffer
// cannot hold is lost, and the sender finds the holes a round trip later, as a packet
// sender does (found.go; seed 002: a 98-packet window into a 50-packet buffer, half of it
// lost, a timeout).
func (s *system) resumeBurst(f *subflow, t float64, y []float64) {
	burst := f.window(t, min(y[f.off+f.sub], f.rwnd)) * f.mult // packets
	upstream := math.Inf(1)                                    // bytes/s the burst arrives at
	lost := 0.0
	for _, li := range f.links {
		l := &s.links[li]
		room := max(l.bufBytes-y[l.off+lvQueue], 0) / f.wire
		drop := max(burst*(1-l.capBps/upstream)-room, 0)
		y[l.off+lvDropped] += drop * f.wire
		lost += drop
		burst -= drop
		upstream = min(upstream, l.capBps)
	}
	if lost < 1 {
		return
	}
	y[f.cnt+cntSent] += lost // sent at once, before the window's even flow resumes
	y[f.cnt+cntDropped] += lost
	f.reactAt = t + f.rtt
	f.found = foundLoss{on: true, point: t + f.rtt, holes: lost/f.mult - 1, until: t + 2*f.rtt}
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
	s.keepPast()
}
