package fluid

import (
	"math"

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
		if l.mode == queueBusy {
			dy[o+lvQueue] = l.arrive - l.depart
		}
		dy[o+lvDeparted] = l.depart
		dy[o+lvQueueTime] = yd[o+lvQueue]
		if l.mode == queueFull {
			dy[o+lvDropped] = math.Max(l.arrive-l.capBps, 0)
		}
		if l.red {
			// Floyd–Jacobson EWMA as a rate: the weight once per packet time at capacity,
			// which is also how model.RED ages its average over idle time.
			dy[o+lvREDAvg] = l.redParams.Weight * (l.capBps / l.refBytes) * (yd[o+lvQueue] - yd[o+lvREDAvg])
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
		frozen := hold || !s.pathUp(f.links) || t < f.silentUntil
		ackRef := f.ackRef
		switch {
		case f.nSub == 1 && !frozen:
			o := s.obsFor(f, t)
			f.law.Deriv(dy[f.off:f.off+f.nLaw], x, o)
			ackRef = s.form.ackRef(f, dy[f.off:f.off+f.nLaw], x, o)
		case f.nSub > 1 && f.sub == 0:
			f.law.Deriv(dy[f.off:f.off+f.nLaw], x, s.obsFor(f, t))
		}
		if s.x != nil && s.x.wallClock(f) {
			ackRef = 0 // a paced law's derivatives are in wall-clock time (model.FluidPacer)
		}
		if f.nSub > 1 && frozen {
			dy[f.off+f.sub] = 0
		}
		// The laws are written per ACK at the ACK rate W/RTT; ACKs really return at the rate
		// the flow's packets leave its path, which differs while a queue grows or drains
		// (and by the dropped excess at a full queue, where slow start would otherwise run
		// away from the link's pace), and in the recovery form by the packets a window of W
		// really keeps in flight (inFlight).
		if ackRef > 0 && !frozen {
			clock := f.deliver / ackRef
			if f.nSub == 1 {
				for k := f.off; k < f.off+f.nLaw; k++ {
					dy[k] *= clock
				}
			} else {
				dy[f.off+f.sub] *= clock
			}
		}
		c := f.cnt
		dy[c+cntCwndTime] = x[f.sub]
		sendPkts := f.rate / f.wire
		dy[c+cntSent] = sendPkts
		var random, periodic, overflow float64
		for k, li := range f.links {
			l := &s.links[li]
			aPkts := f.arrive[k] / f.wire
			switch l.loss {
			case model.LossRandom:
				random += l.lossP * aPkts
			case model.LossPeriodic:
				periodic += l.lossP * aPkts
			}
			if l.red && (s.x == nil || !s.x.marksRED(f, k)) {
				random += l.lossPkt * aPkts
			}
			if l.mode == queueFull && l.arrive > 0 {
				overflow += aPkts * math.Max(l.arrive-l.capBps, 0) / l.arrive
			}
		}
		dy[c+cntRandom] = random
		dy[c+cntPeriodic] = periodic
		dy[c+cntOverflow] = overflow
		// Random and periodic losses remove packets but are counted as dropped only at
		// the located event; the overflow drops are counted continuously.
		dy[c+cntDropped] = overflow
		dy[c+cntDelivered] = math.Max(f.deliver/f.wire-random-periodic, 0)
	}
	if s.x != nil {
		s.x.derivs(s, dy, yd, t) // marking and AQM state (ext.go)
	}
}

// guard values -------------------------------------------------------------------------
