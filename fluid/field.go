package fluid

import (
	"github.com/tcpfluid/tcpfluid/model"
	"gonum.org/v1/gonum/mat"
)

func (s *system) derivs(dst *mat.VecDense, t float64, yv mat.Vector) {
	y := yv.(*mat.VecDense)
	s.ensure(t, y)
	yd, dy := y.RawVector().Data, dst.RawVector().Data
	for i := range dy {
		dy[i] = 0
	}
	for li := range s.links {
		l := &s.links[li]
		o := l.off
		if l.up && l.mode != queueFull {
			// An empty queue's arrivals pass (serve); in a trial state past the capacity,
			// whose crossing the solver then locates, the excess queues as in the busy
			// queue that follows, rather than vanishing from the step's weighted sum of its
			// stages (some weights negative) and a flow delivering more than it sent.
			dy[o+lvQueue] = l.arrive - l.depart
		}
		for _, st := range l.streams {
			dy[st.content] = l.contentRate(st, yd)
		}
		dy[o+lvDeparted] = l.depart
		q := 0.0
		if l.mode != queueEmpty {
			q = max(yd[o+lvQueue], 0) // a step may overshoot the empty queue by a little
		}
		dy[o+lvQueueTime] = l.shownQueue(q) // with a train's queue (trainqueue.go)
		if l.mode == queueFull {
			dy[o+lvDropped] = max(l.arrive-l.capBps, 0)
		}
		if l.red {
			// Floyd–Jacobson EWMA as a rate: the weight once per packet time at capacity,
			// which is also how model.RED ages its average over idle time.
			dy[o+lvREDAvg] = l.redParams.Weight * (l.capBps / l.refBytes) * (yd[o+lvQueue] - yd[o+lvREDAvg])
			for _, st := range l.streams {
				dy[o+lvDropped] += s.redTaken(st, li) // what RED takes of flows and CBR sources alike
			}
		}
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		if !f.active {
			continue
		}
		x := yd[f.off : f.off+f.nLaw]
		// A sender holds its state while its path is down (it hears nothing back) and,
		// in the recovery form, while fast recovery repairs a loss. A multi-path law is
		// evaluated once, by subflow 0's entry, and holds only the frozen subflows' windows.
		hold := s.form.holds(f, t)
		if s.x != nil {
			hold = s.x.holds(f, t, hold) // paced laws never hold; ECN's CWR (ext.go)
		}
		frozen := hold || !s.pathUp(f.links) || f.silent(t)
		// A paced law's derivatives are in wall-clock time (model.FluidPacer): no clock.
		clocked := f.ackRef > 0 && !s.paced(f)
		clock := 1.0
		if clocked {
			clock = f.acked / f.ackRef
		}
		switch {
		case f.nSub == 1 && !frozen:
			o := s.obsFor(f, t)
			f.law.Deriv(dy[f.off:f.off+f.nLaw], x, o)
			if clocked {
				clock = s.form.clock(f, dy[f.off:f.off+f.nLaw], x, o, s.queued(f), s.countedFraction(f, x[f.sub]))
			}
		case f.nSub > 1 && f.sub == 0:
			f.law.Deriv(dy[f.off:f.off+f.nLaw], x, s.obsFor(f, t))
		}
		if f.nSub > 1 && frozen {
			dy[f.off+f.sub] = 0
		}
		// The laws are written per ACK at the ACK rate W/RTT; ACKs really return at the rate
		// the flow's packets leave its path, which differs while a queue grows or drains
		// (and by the dropped excess at a full queue, where slow start would otherwise run
		// away from the link's pace), and in the recovery form by the packets a window of W
		// really keeps in flight (inFlight) and by how a packet sender counts ACKs (clock).
		if clocked && !frozen {
			if f.nSub == 1 {
				for k := f.off; k < f.off+f.nLaw; k++ {
					dy[k] *= clock
				}
			} else {
				dy[f.off+f.sub] *= clock
			}
		}
		c := f.cnt
		// Past the receiver window a law grows no more (model.Window.Limit), but the step
		// that gets there may carry its state a little past it; the sender's window is
		// the lesser, as in the packet engine's clamp.
		dy[c+cntCwndTime] = f.window(t, min(x[f.sub], f.rwnd))
		sendPkts := f.rate / f.wire
		dy[c+cntSent] = sendPkts
		var random, periodic, red, overflow float64
		for k, li := range f.links {
			l := &s.links[li]
			st := &f.streams[k]
			switch l.loss {
			case model.LossRandom:
				random += l.lossP * st.offered / f.wire
			case model.LossPeriodic:
				periodic += l.lossP * st.offered / f.wire
			}
			aPkts := st.arrive / f.wire
			red += s.redTaken(st, li) / f.wire
			switch {
			case l.racing():
				overflow += max(st.arrive-l.raceAdmission(st), 0) / f.wire
			case l.mode == queueFull && l.arrive > 0:
				overflow += aPkts * max(l.arrive-l.capBps, 0) / l.arrive
			}
		}
		dy[c+cntRandom] = random + red
		dy[c+cntPeriodic] = periodic
		dy[c+cntOverflow] = overflow
		// The packets the links' loss processes and RED take are counted as they go, as the
		// overflow is; the located loss events are the sender's reactions to them. None of
		// them enters the link (propagate).
		dy[c+cntDropped] = overflow + random + periodic + red
		dy[c+cntDelivered] = f.deliver / f.wire
		dy[c+cntAcked] = f.ackedLag / f.wire
	}
	if s.x != nil {
		s.x.derivs(s, dy, yd, t) // marking and AQM state (ext.go)
	}
}

// guard values -------------------------------------------------------------------------
