package fluid

import (
	"cmp"
	"slices"

	"github.com/tcpfluid/tcpfluid/model"
	"gonum.org/v1/gonum/mat"
)

// sample records trace rows at every sample time inside the step [t0, t1].
func (s *system) sample(t0, t1 float64) {
	for s.nextSmp <= t1 && s.nextSmp <= s.end {
		s.drv.Interpolate(s.scratch, s.nextSmp)
		s.sampleAt(s.nextSmp, s.scratch)
	}
}

func (s *system) sampleAt(t float64, y *mat.VecDense) {
	s.gen++
	s.ensure(t, y)
	yd := y.RawVector().Data
	for fi := range s.flows {
		f := &s.flows[fi]
		if t < f.start || (f.endT > 0 && t > f.endT) {
			continue
		}
		q := 0.0
		for _, li := range f.links {
			q += s.links[li].queuePkts(yd)
		}
		smp := model.Sample{
			TS: t, Subflow: f.sub, CwndPkts: f.window(t, min(yd[f.off+f.sub], f.rwnd)), Ssthresh: model.SsthreshOf(f.law, f.sub),
			RateBps: f.rate * 8 / f.mult, RTTS: f.rtt, QueuePkts: q, DeliveredPkts: yd[f.cnt+cntDelivered] / f.mult,
		}
		for _, i := range f.members {
			smp.Flow = i
			s.trace = append(s.trace, smp)
		}
	}
	if len(s.flows) < len(s.sc.Flows) { // classes: the scenario's order at each time
		rows := s.trace[len(s.trace)-s.flowRows(t):]
		slices.SortStableFunc(rows, func(a, b model.Sample) int { return cmp.Compare(a.Flow, b.Flow) })
	}
	for li := range s.links {
		l := &s.links[li]
		s.trace = append(s.trace, model.Sample{TS: t, Flow: -1, Link: l.name, QueuePkts: l.queuePkts(yd)})
	}
	s.gen++
	s.nextSmp = t + s.set.SampleS
}

func (s *system) result() *model.Result {
	y := s.drv.Y().RawVector().Data
	T := s.end
	res := &model.Result{
		Scenario: s.sc.Name, Engine: "fluid", Form: s.set.Form, DropRule: s.sc.DropRule,
		Seed: s.set.Seed, DurationS: T, Trace: s.trace, Crossings: s.crossings, Losses: s.losses,
		Flows: make([]model.FlowResult, 0, len(s.flows)), Links: make([]model.LinkResult, 0, len(s.links)),
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		end := T
		if f.endT > 0 {
			end = f.endT
		}
		active := max(end-f.start, 0)
		c := f.cnt
		// The counters integrate rates that are never negative, but a Runge-Kutta step
		// weighs one stage negatively: a counter of a source that barely sends can end a
		// rounding error below zero. A class's counters are its members' sums.
		count := func(k int) float64 { return max(y[c+k], 0) / f.mult }
		fr := model.FlowResult{
			Subflow: f.sub, Algorithm: f.algo, Path: f.path,
			LossEvents: f.lossEvents, Timeouts: f.timeouts, Spurious: f.spurious,
			SentPkts: count(cntSent), DeliveredPkts: count(cntDelivered), DroppedPkts: count(cntDropped),
			ActiveS: active,
		}
		if active > 0 {
			fr.MeanCwndPkts = max(y[c+cntCwndTime], 0) / active
			fr.MeanThroughputBps = fr.DeliveredPkts * f.mss * 8 / active
			// The copies a go-back-N rebuild or a packet-granular timeout resent are no goodput.
			copies := (f.copies + f.gbn.copiesTo(y[c+cntSent])) / f.mult
			if f.at != nil {
				copies = f.at.copiesBelow(f.left(y))
			}
			fr.GoodputBps = max(fr.DeliveredPkts-copies, 0) * f.mss * 8 / active
		}
		if f.done {
			ct := f.completion
			fr.CompletionTimeS = &ct
		}
		for _, i := range f.members {
			fr.Flow, fr.Name = i, f.name
			if f.mult > 1 {
				fr.Name = s.sc.Flows[i].Name
			}
			res.Flows = append(res.Flows, fr)
		}
	}
	if len(s.flows) < len(s.sc.Flows) { // classes: the scenario's order
		slices.SortStableFunc(res.Flows, func(a, b model.FlowResult) int { return cmp.Compare(a.Flow, b.Flow) })
	}
	for li := range s.links {
		l := &s.links[li]
		lr := model.LinkResult{Link: l.name}
		// As the flows' counters: rates never negative, integrals a rounding error below
		// zero at worst.
		if T > 0 {
			lr.MeanQueuePkts = max(y[l.off+lvQueueTime], 0) / T / (l.refBytes * l.copies)
			m := &l.moments
			lr.QueueSDPkts = model.TimeSD(m.sum/T, m.sumSq/T) / (l.refBytes * l.copies)
			if cap := s.sc.Links[li].CapacityBps / 8; cap > 0 {
				lr.Utilisation = y[l.off+lvDeparted] / (cap * T)
			}
		}
		lr.DroppedPkts = max(y[l.off+lvDropped], 0) / (l.refBytes * l.copies)
		res.Links = append(res.Links, lr)
	}
	return res
}

// flowRows is how many flow rows sampleAt writes at time t.
func (s *system) flowRows(t float64) int {
	n := 0
	for fi := range s.flows {
		f := &s.flows[fi]
		if t >= f.start && (f.endT == 0 || t <= f.endT) {
			n += len(f.members)
		}
	}
	return n
}

// queuePkts is the queue of one copy of link l in state y as shown (trainqueue.go),
// packets: never more than its buffer, which the solver's interpolant between two steps
// may graze past by its local error (a sample 0.15 bytes over a 6660-byte buffer, found
// by FuzzRun, testdata/fuzz/FuzzRun/073d9ef5aefdfe1b).
func (l *link) queuePkts(y []float64) float64 {
	q := y[l.off+lvQueue]
	if l.train != nil {
		q = l.shownQueue(max(q, 0))
	}
	return min(q, l.bufBytes) / (l.refBytes * l.copies)
}
