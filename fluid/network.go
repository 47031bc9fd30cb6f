package fluid

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/tcpfluid/tcpfluid/model"
	"gonum.org/v1/gonum/mat"
)

// linkOrder sorts links so that every link comes after the links upstream of it on any
// path (Kahn's algorithm); fluid departures of an upstream link are the arrivals of the next.
func linkOrder(n int, paths map[string][]int) ([]int, error) {
	indeg := make([]int, n)
	next := make([][]int, n)
	seen := map[[2]int]bool{}
	names := make([]string, 0, len(paths))
	for name := range paths {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := paths[name]
		for k := 1; k < len(p); k++ {
			e := [2]int{p[k-1], p[k]}
			if !seen[e] {
				seen[e] = true
				next[e[0]] = append(next[e[0]], e[1])
				indeg[e[1]]++
			}
		}
	}
	var order, ready []int
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		l := ready[0]
		ready = ready[1:]
		order = append(order, l)
		for _, m := range next[l] {
			indeg[m]--
			if indeg[m] == 0 {
				ready = append(ready, m)
			}
		}
	}
	if len(order) != n {
		return nil, fmt.Errorf("%w: paths: links form a cycle; the fluid engine needs an upstream-to-downstream order", model.ErrScenario)
	}
	return order, nil
}

// evaluate computes rates, RTTs, arrivals and departures for state y at time t.
func (s *system) evaluate(t float64, y []float64) {
	for fi := range s.flows {
		f := &s.flows[fi]
		f.rtt = s.pathRTT(f, y)
		s.sendRate(f, t, y)
	}
	s.propagate(t, y)
	if s.fq {
		// A flow's delay at an FQ link is its own queue's at the fair rate, which the
		// arrivals just propagated decide: the rates again with those RTTs (fq.go).
		s.fqRTTs(t, y)
		s.propagate(t, y)
	}
	s.deliveries(t, y)
	if s.sendPerAck(t, y) {
		s.propagate(t, y)
		s.deliveries(t, y)
	}
	if s.x != nil {
		s.x.evaluate(s, t, y) // marking and AQM signals (ext.go)
	}
	s.trainQueues(t, y)
}

// sendRate sets subflow f's window and sending rate at its RTT f.rtt.
func (s *system) sendRate(f *subflow, t float64, y []float64) {
	f.rate, f.ackRef, f.sendW = 0, 0, 0
	if f.active && s.pathUp(f.links) && !f.silent(t) {
		f.sendW = f.window(t, min(y[f.off+f.sub], f.rwnd))
		w := max(f.mult*s.inFlight(f, y)-s.lostUnseen(f, y), 0) // packets
		f.rate = w * f.wire / f.rtt
		if pace, ok := f.sr.sendPace(t); ok {
			f.rate = f.mult * pace * f.wire / f.sr.rtt // a simulator's recovery (simrecovery.go)
		}
		if s.x != nil {
			s.x.pace(f, t, y, w) // a paced law's rate (ext.go)
		}
	}
}

// propagate computes every link's arrivals and departures from the sending rates, upstream
// links first: a stream's arrivals are its source's rate at the first link of its path and
// its departures from the previous link after it (streams.go), less what the link's random
// or periodic loss and its RED take as they reach it — the packet engine's and ns-2's
// errormodule and RED place, before the queue, so that lost packets take none of the
// link's capacity nor room in its queue.
func (s *system) propagate(t float64, y []float64) {
	for ci := range s.cbr {
		c := &s.cbr[ci]
		c.sending = 0
		if t >= c.start && t < c.stop {
			c.sending = c.rate
		}
	}
	for _, li := range s.order {
		l := &s.links[li]
		l.arrive, l.pacedArrive = 0, 0
		if l.red {
			l.lossPkt = redDropProb(l.redParams, y[l.off+lvREDAvg]/l.refBytes)
		}
		for _, st := range l.streams {
			st.offered = st.arrival()
			st.arrive = st.offered * l.admits()
			if s.redDrops(st, li) {
				st.arrive *= 1 - l.lossPkt
			}
			l.arrive += st.arrive
			if st.paced {
				l.pacedArrive += st.arrive
			}
		}
		l.serve(y)
	}
}

// redDrops reports whether RED at link li drops stream st's packets as they arrive, before
// its queue, as ns-2's RED and the packet engine's do: a dropped packet takes no room in
// the queue, so a RED whose average is past its thresholds drains the queue it drops from
// (a flow whose packets RED marks, ECN, loses none).
func (s *system) redDrops(st *stream, li int) bool {
	if !s.links[li].red {
		return false
	}
	if st.flow < 0 || s.x == nil {
		return true
	}
	f := &s.flows[st.flow]
	return !s.x.marksRED(f, slices.Index(f.links, li))
}

// redTaken is what RED at link li takes of stream st, bytes/s: the drop probability times
// what reaches the queue (its arrivals before RED).
func (s *system) redTaken(st *stream, li int) float64 {
	if !s.redDrops(st, li) {
		return 0
	}
	l := &s.links[li]
	return l.lossPkt * st.offered * l.admits()
}

// deliveries computes each flow's delivery rate, the RTT its latest sample reports and the
// ACK rate its law is written at.
func (s *system) deliveries(t float64, y []float64) {
	for fi := range s.flows {
		f := &s.flows[fi]
		f.deliver = f.streams[len(f.streams)-1].depart
		f.acked = f.deliver // what every link's loss process and RED let in (propagate)
		if f.deliveringCopy(y) || f.gbn.stale(y[f.cnt+cntDelivered], y[f.cnt+cntDropped], f.mult) {
			f.acked = 0
		}
		if s.form.counted {
			f.ackedLag = f.ackPast.at(t-s.ackLag(f), t, f.acked, s.stepEnd)
			if f.gbn.on && t < f.gbn.from+s.ackLag(f) {
				f.ackedLag = 0 // the ACKs of what was delivered before the rebuild: stale too
			}
		}
		// What the sender's latest RTT sample says: the queues its packet met, a return lag
		// and its queueing delay ago (queuepast.go), not the queues of now. The timer reads
		// them to first order, q − RTT·dq/dt (timerRTT).
		f.rttSeen = f.propRTT + f.ackTxS
		f.timerRTT = f.rttSeen
		before := 0.0 // one-way propagation ahead of link k, s
		for k, li := range f.links {
			l := &s.links[li]
			switch {
			case l.capBps <= 0:
			case l.fq:
				st := &f.streams[k]
				q := y[st.content]
				if l.mode != queueEmpty {
					q -= f.rtt * (st.arrive - st.depart)
				}
				d := st.delay(l.fqDelay(st, q))
				f.rttSeen += d
				f.timerRTT += d
			default:
				q := y[l.off+lvQueue]
				st := &f.streams[k]
				f.rttSeen += st.delay(l.sampledDelay(t, f.propRTT-before, y[l.off+lvDeparted], max(q, 0), &st.hints))
				if l.mode == queueBusy {
					q -= f.rtt * (l.arrive - l.depart)
				}
				f.timerRTT += st.delay(max(q, 0) / l.capBps)
			}
			before += l.delayS
		}
		f.rttSeen = max(f.rttSeen, f.minRTT)
		f.timerRTT = max(f.timerRTT, f.minRTT)
		// The law is written at the ACK rate W/RTT of the RTT it observes (rttSeen), so the
		// ACK clock (field.go) compares the flow's delivery with that rate: then no law
		// grows faster per ACK than it is written to, however fast a queue builds.
		f.ackRef = f.mult * f.sendW * f.wire / f.rttSeen
	}
}

// lostUnseen is, in the counted form, the packets of subflow f (all its class's members)
// a full queue has dropped that the sender has not yet learnt of: they still count against
// its window, so what it keeps in the network is its window less them, and a sender held
// at its receiver window sends one packet per packet acknowledged, not W/RTT. The hybrid
// form keeps the textbook rate W/RTT.
func (s *system) lostUnseen(f *subflow, y []float64) float64 {
	if !s.form.counted || f.reactAt == math.Inf(1) {
		return 0
	}
	n := y[f.cnt+cntOverflow]
	if s.sc.DropRule.Proportional() {
		// Since the drop it heard, as the guard's resets left it, deaf or not (rearmDrops).
		n = f.sinceWholeDrop(f.overflowSinceDrop(y))
	}
	return n
}

// sendPerAck applies, in the counted form, the window's conservation: a sender sends one
// packet per packet acknowledged plus its window's growth, δ packets per packet acknowledged
// (model.AckIncrement) that its law counts (countedFraction: behind ns-2's delayed send an
// ACK the law does not hear grows nothing and lets out only the packet it acknowledged), at
// the ACK rate of a return lag before (ackpast.go). Behind a queue it sends that growth
// besides the packets its window keeps in flight, W/RTT, which alone lags a fast-growing
// window by up to a round (in slow start the queue would fill at half the pace a packet
// sender's two packets per ACK fill it, and overflow a window later); so does the slow
// start back after a simulator's min_cwnd recovery (simRec.rebuildRate). A slow start on
// its ACK clock (ackclock.go: a sender alone on its path) sends its first window in one
// burst, then (1 + δ) packets per packet acknowledged and nothing between its ACKs, free
// path or not, as a packet sender does. Elsewhere on a free path the rate W/RTT stands (the
// counted form's whole packets). It reports whether a rate changed (the network is then
// evaluated again).
//
// Counting the delayed send's unheard ACKs as growth let a flow joining behind HighSpeed's
// standing queue (ns-2's `same` run, 240 µs jitter) slow-start 1.97 times a round where the
// packet engine's grows 1.67 times, and leave it at 1054 packets where the packet engine's
// found its loss at 693. Without the slow start back's growth the queue it refills rose
// over 0.85 s where the packet engine's rose in 0.3 s, and the smaller flows' timers,
// which that rise fires (lateack.go), never fired.
func (s *system) sendPerAck(t float64, y []float64) bool {
	if !s.form.counted {
		return false
	}
	changed := false
	for fi := range s.flows {
		f := &s.flows[fi]
		if r, ok := s.awaitRate(f, t, y); ok {
			f.rate, changed = r, true
			continue
		}
		if f.rate == 0 || f.sendW >= f.rwnd || s.paced(f) {
			continue
		}
		if g := f.sr.rebuildRate(t); g > 0 && s.queued(f) {
			// The slow start back after a simulator's recovery: its window is the
			// recovery's, not its law's, and grows as rebuildRate says.
			f.rate += f.mult * g * f.wire
			changed = true
			continue
		}
		if s.form.holds(f, t) {
			// A sender in fast recovery hears of packets sent before the loss, beyond the
			// hole: those ACKs neither open its window nor clock out new packets.
			continue
		}
		if t < f.burstUntil || (s.stepEnd && t == f.burstUntil) {
			f.rate, changed = f.burstBps, true
			continue
		}
		queued := s.queued(f)
		if !queued && !f.clocked {
			continue
		}
		d := f.ackIncrement(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
		switch {
		case f.perAckSlowStart(d):
			f.rate = (1 + d*s.countedFraction(f, y[f.off+f.sub])) * f.ackedLag
		case queued && d > 0:
			f.rate += d * s.countedFraction(f, y[f.off+f.sub]) * f.ackedLag
		default:
			continue
		}
		changed = true
	}
	return changed
}

// overflowing reports whether a queue on the subflow's path is full: its drops count.
func (s *system) overflowing(f *subflow) bool {
	for _, li := range f.links {
		if s.links[li].mode == queueFull {
			return true
		}
	}
	return false
}

// queued reports whether a queue on the subflow's path is busy or full.
func (s *system) queued(f *subflow) bool {
	for _, li := range f.links {
		if s.links[li].mode != queueEmpty {
			return true
		}
	}
	return false
}

func (s *system) pathUp(links []int) bool {
	for _, li := range links {
		if !s.links[li].up {
			return false
		}
	}
	return true
}

// redDropProb is the rate per packet at which ns-2's RED (gentle_ and wait_ true,
// packet/link.go's redDrop) drops at an average queue of avg packets: its probability pb,
// linear from 0 at min_th to max_p at max_th and on to 1 at 2·max_th, is spread by the
// count n since the last drop (none while n·pb < 1, then pb/(2 − n·pb)), so the packets
// between drops are about uniform on [1/pb, 2/pb); the rate is one over their mean
// (redMeanGap).
func redDropProb(r model.RED, avg float64) float64 {
	var pb float64
	switch {
	case avg < r.MinThPkts:
		return 0
	case avg >= 2*r.MaxThPkts:
		return 1
	case avg >= r.MaxThPkts:
		pb = r.MaxP + (1-r.MaxP)*(avg-r.MaxThPkts)/r.MaxThPkts
	default:
		pb = r.MaxP * (avg - r.MinThPkts) / (r.MaxThPkts - r.MinThPkts)
	}
	if !(pb > 0) {
		return 0
	}
	return 1 / redMeanGap(min(pb, 1))
}

// redMeanGap is the mean count of arrivals to a drop of the wait_ process at probability
// pb in (0, 1]. No arrival before the a-th, a = ⌈1/pb⌉, can be dropped; from there the
// survival telescopes to S(n) = (2 − (n+1)·pb)/(2 − a·pb) while positive, so the mean
// a + Σ S(n) sums in closed form over its k terms.
func redMeanGap(pb float64) float64 {
	a := math.Ceil(1 / pb)
	k := max(math.Ceil(2/pb)-1-a, 0)
	return a + (k*(2-(a+1)*pb)-pb*k*(k-1)/2)/(2-a*pb)
}

// pathRTT is flow f's round-trip time in state yd, s: propagation, at each link its queue's
// wait or the packet's transmission, and its ACK's transmissions (storeforward.go). A path
// without delay (a link's delay set to zero) keeps the packets' transmissions as in the
// packet engine, and minRTT adds model.MinClockRTT for one whose links are all but
// infinitely fast, so that neither the round trip nor the solver's steps collapse.
func (s *system) pathRTT(f *subflow, yd []float64) float64 {
	rtt := f.propRTT + f.ackTxS
	for k, li := range f.links {
		if l := &s.links[li]; l.capBps > 0 {
			rtt += f.streams[k].delay(yd[l.off+lvQueue] / l.capBps)
		}
	}
	return max(rtt, f.minRTT)
}

func (s *system) ensure(t float64, y *mat.VecDense) {
	if t == s.cacheT && y == s.cacheY && s.cacheGen == s.gen {
		return
	}
	s.evaluate(t, y.RawVector().Data)
	s.cacheT, s.cacheY, s.cacheGen = t, y, s.gen
}

// state returns the driver's current state after refreshing the network quantities; the
// caller may change it in place and must then call jump.
func (s *system) state(t float64) []float64 {
	y := s.drv.Y()
	s.gen++
	s.ensure(t, y)
	return y.RawVector().Data
}
