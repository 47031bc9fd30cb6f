package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// foundLoss is a drop the counted form has seen and its sender has not found yet. Behind
// a queue, or paced, a packet sender's sends come at an even pace, as the fluid's do, and it
// learns of a drop from the duplicate ACKs of the packets behind it a round trip later;
// its window goes on growing until then (doubling, in slow start). On a free path it
// sends each round's window as one burst when the previous round's ACKs arrive, up to a
// round trip before the fluid's even flow sends the same packets, so it finds the drop
// when the fluid sends it, give or take a round: the counted form reacts at the drop there,
// as the hybrid form always does. (Finding it half a round trip on, the mean of that lead,
// puts the counted form's response points 3–7% above ns-2's and the packet engine's: the
// fluid's smooth window leads a packet sender's stepped one by what it grows in the time.)
type foundLoss struct {
	on bool // the pending reaction (reactAt) is the finding of a drop lossFound saw
	// point is when the fluid sends the last packet of the window in flight at that drop,
	// a round trip after it, s: a drop before then is a hole in the same window.
	point float64
	// holes are further packets of that window dropped before the finding, and until is
	// when the last of them is repaired, s.
	holes, until float64
}

// lossFound is a random, periodic or RED drop of subflow f's packets at time t (y its
// state), located on counter kind (dropRandom or dropPeriodic). In the counted form,
// behind a queue or paced, a drop of the window a recovery repairs, or a pending finding
// will, is one more hole in it, found a round trip after its packet left the sender and
// repaired a round trip later; any other drop is found a round trip after that, starting a
// new recovery then or, if the one under way lasts longer, where it ends (RFC 6582 §3.2).
// Elsewhere the flow reacts at once (loss).
func (s *system) lossFound(f *subflow, t float64, y []float64, kind int) {
	if !s.form.counted || f.timeoutDue || !(s.paced(f) || s.queued(f)) {
		s.loss(f, t, y)
		return
	}
	sent := t - s.waitBeforeDrop(f, kind, y) // when the packet left its sender
	switch repaired := sent + 2*f.rtt; {
	case sent < f.recoverUntil && sent < f.recoverPoint:
		f.recoverUntil = max(f.recoverUntil, repaired)
		s.loss(f, sent, y) // a hole, judged by when its packet was sent
	case f.reactAt < math.Inf(1):
		f.found.holes++
		f.found.until = max(f.found.until, repaired)
	default:
		f.reactAt = max(sent+f.rtt, f.recoverUntil, t)
		f.found = foundLoss{on: true, point: sent + f.rtt}
	}
}

// foundAt completes the loss event that found subflow f's drops at time t (loss has
// begun its recovery): the window it repairs, and the holes found in it meanwhile. It
// returns those further holes.
func (s *system) foundAt(f *subflow, t float64) float64 {
	holes := f.found.holes
	if f.found.on {
		f.recoverPoint = max(t, f.found.point)
	}
	f.recoverUntil = max(f.recoverUntil, f.found.until)
	f.found = foundLoss{}
	return holes
}

// waitBefore is how long subflow f's packets wait in the queues of its path before link li,
// s (state y): the fluid has no propagation, so a packet it drops at li at time t left its
// sender that much earlier, and the sender finds the drop a round trip after sending it.
func (s *system) waitBefore(f *subflow, li int, y []float64) float64 {
	wait := 0.0
	for _, lk := range f.links {
		if lk == li {
			break
		}
		if l := &s.links[lk]; l.capBps > 0 {
			wait += y[l.off+lvQueue] / l.capBps
		}
	}
	return wait
}

// The counters a drop of a subflow is located on, which do not say on which link of its
// path it fell (field.go).
const (
	dropRandom   = iota // random loss and RED (cntRandom)
	dropPeriodic        // periodic loss (cntPeriodic)
	dropOverflow        // the proportional rules' share of full queues' excess (cntOverflow)
)

// waitBeforeDrop is waitBefore for a drop of subflow f on counter kind: the mean over the
// links of its path weighted by what each takes from it now, as the counter adds them up.
func (s *system) waitBeforeDrop(f *subflow, kind int, y []float64) float64 {
	sum, wait := 0.0, 0.0
	for k, li := range f.links {
		l, st := &s.links[li], &f.streams[k]
		w := 0.0
		switch {
		case kind == dropRandom:
			if l.loss == model.LossRandom {
				w = l.lossP * st.offered
			}
			w += s.redTaken(st, li)
		case kind == dropPeriodic && l.loss == model.LossPeriodic:
			w = l.lossP * st.offered
		case kind == dropOverflow && l.mode == queueFull && l.arrive > 0:
			w = st.arrive * max(l.arrive-l.capBps, 0) / l.arrive
		}
		if w > 0 {
			sum += w
			wait += w * s.waitBefore(f, li, y)
		}
	}
	if !(sum > 0) {
		return 0
	}
	return wait / sum
}
