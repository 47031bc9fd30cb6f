package fluid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/ode"
	"gonum.org/v1/gonum/mat"
)

// The engine's extension for the signals of model/signals.go and the queues of
// model/aqm.go: ECN marking (ecn.go), CoDel, FQ-CoDel and PIE (aqm.go, fq.go), and paced
// laws. A scenario
// without marking links, AQM queues and paced laws has no extension (system.x is nil) and
// runs exactly as before: its state layout, guards and steps are untouched. When there is
// one, its state variables come after every other block of the layout (layout.go) and its
// guards after every other solver event.
//
// Paced laws (model.FluidPacer, BBR): the flow sends at min(window/RTT, pacing rate), or,
// for a law that knows its flight (model.FluidFlight), at its pacing rate while the flight
// leaves room in its window; its law's derivatives are wall-clock time (no ACK-clock
// scaling, no hold in fast recovery) and it observes its delivery rate
// (model.Observation.DeliveryRate, packets/s: the rate its packets leave its path now).
type extension struct {
	s       *system
	links   []linkExt // one per link
	flows   []flowExt // one per subflow
	base    int       // solver event index of the first extension guard
	guards  []extGuard
	rng     *rand.Rand // which flow a CoDel drop hits
	counted bool       // the counted form (FormHybridRecovery)
}

// extGuard names the link (and its CoDel queue) or the subflow one extension guard belongs
// to (the other is -1).
type extGuard struct{ link, queue, flow int }

// flowExt is one subflow's ECN and pacing state.
type flowExt struct {
	ect     bool
	pacer   model.FluidPacer
	flight  model.FluidFlight // the pacer's flight, when it knows it
	reactor model.FluidECNReactor
	// step marking seen by the sender, per position on its path, and the changes on their
	// way back to it (toggles, oldest first from head)
	seen    []bool
	toggles []toggle
	head    int
	// RFC 3168's congestion window reduction: no other reduction before cwrUntil (s); a
	// marking that persists is looked at again at recheck (s)
	cwrUntil, recheck float64
	marks             int // ECN reductions
	// integrated intensities of probabilistic marks and PIE drops (state offsets, -1 for
	// none) and their Exp(1) thresholds
	markOff, lossOff int
	markThr, lossThr float64
	// signals at the last evaluation
	markFrac float64 // marked fraction of the flow's packets, as its ACKs report it
	markRate float64 // probabilistic marks per second
	lossRate float64 // PIE drops per second
}

// toggle is a change of a link's marking reaching the sender, or one CoDel mark (k = -1).
type toggle struct {
	at float64
	k  int // position of the link on the path
	on bool
}

// newExtension builds the extension a scenario needs, reserving its state, or returns nil.
func newExtension(s *system, lay *layout) (*extension, error) {
	x := &extension{s: s, links: make([]linkExt, len(s.links)), flows: make([]flowExt, len(s.flows)), counted: s.form.counted}
	need := false
	for li := range s.links {
		sl := &s.sc.Links[li]
		if x.links[li].init(s, li, sl, lay) {
			need = true
		}
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		fx := &x.flows[fi]
		*fx = flowExt{markOff: -1, lossOff: -1, recheck: math.Inf(1)}
		fx.pacer, _ = f.law.(model.FluidPacer)
		if fx.pacer != nil {
			fx.flight, _ = f.law.(model.FluidFlight)
		}
		fx.reactor, _ = f.law.(model.FluidECNReactor)
		alg, err := model.Configure(f.algo, s.sc.Flows[f.flow].Params)
		if err != nil {
			return nil, fmt.Errorf("%w: flows[%d]: %w", model.ErrScenario, f.flow, err)
		}
		fx.ect = model.UsesECN(alg, s.sc.Flows[f.flow].ECN)
		if fx.pacer != nil {
			need = true
		}
		fx.seen = make([]bool, len(f.links))
		fx.toggles = make([]toggle, 0, 8)
		probMark, pie := false, false
		for _, li := range f.links {
			l := &x.links[li]
			probMark = probMark || (fx.ect && l.ecn && (l.kind == extRED || l.kind == extPIE))
			pie = pie || l.kind == extPIE
		}
		if probMark {
			fx.markOff = lay.reserve(1)
			fx.markThr = f.rng.ExpFloat64()
		}
		if pie {
			fx.lossOff = lay.reserve(1)
			fx.lossThr = f.rng.ExpFloat64()
		}
	}
	if !need {
		return nil, nil
	}
	x.rng = rand.New(rand.NewPCG(s.set.Seed, codelStream))
	return x, nil
}

// codelStream is the PCG stream of the choice of the flow a CoDel drop hits.
const codelStream = 0xc0de1

// events appends the extension's guards: one per step-marking or CoDel link, one per flow
// queue of an FQ-CoDel link, one per subflow with integrated intensities.
func (x *extension) events(s *system, evs []ode.Event) []ode.Event {
	x.base = len(evs)
	x.guards = x.guards[:0]
	for li := range x.links {
		switch x.links[li].kind {
		case extStep:
			x.guards = append(x.guards, extGuard{link: li, flow: -1})
		case extCoDel, extFQCoDel:
			for j := range x.links[li].queues {
				x.guards = append(x.guards, extGuard{link: li, queue: j, flow: -1})
			}
		}
	}
	for fi := range x.flows {
		if x.flows[fi].markOff >= 0 || x.flows[fi].lossOff >= 0 {
			x.guards = append(x.guards, extGuard{link: -1, flow: fi})
		}
	}
	for gi := range x.guards {
		g := x.guards[gi]
		evs = append(evs, ode.Event{G: func(t float64, yv mat.Vector) float64 {
			y := yv.(*mat.VecDense)
			if g.link >= 0 {
				s.ensure(t, y)
				return x.links[g.link].guard(s, g.link, g.queue, y.RawVector().Data)
			}
			return x.flows[g.flow].guard(&s.flows[g.flow], y.RawVector().Data)
		}, Direction: ode.Rising})
	}
	return evs
}

// switchDue applies, before a jump restarts the solver at time t (state y), the mode switch
// of every paced law whose guard is already at or past zero there: the solver locates
// crossings from below only, so a guard a jump leaves crossed (a loss's reaction at the
// instant a round ends) would never fire, and BBR would stay in its phase for good.
func (x *extension) switchDue(s *system, t float64, y *mat.VecDense) {
	yd := y.RawVector().Data
	fresh := false
	for fi := range s.flows {
		f := &s.flows[fi]
		if x.flows[fi].pacer == nil || f.sub != 0 || !f.active {
			continue
		}
		if !fresh {
			s.gen++
			s.ensure(t, y) // its guard reads its delivery rate
			fresh = true
		}
		law := yd[f.off : f.off+f.nLaw]
		if o := s.obsAt(f, t, yd); f.law.Guard(law, o) >= 0 {
			f.law.Switch(law, o)
			fresh = false // its switch moves its rate: the network again for the next
		}
	}
}

// jumped applies, after a jump at time t to state y (the network evaluated there), every
// link crossing the jump carried past its guard: the solver locates crossings from below
// only, and an FQ-CoDel batch drop halves a queue at once.
func (x *extension) jumped(s *system, t float64, y []float64) {
	for _, g := range x.guards {
		if g.link >= 0 && x.links[g.link].guard(s, g.link, g.queue, y) >= 0 {
			x.linkEvent(s, g.link, g.queue, t)
		}
	}
}

// handle applies extension event ev at time t; the caller restarts the solver.
func (x *extension) handle(s *system, ev int, t float64) {
	g := x.guards[ev]
	y := s.state(t) // the network at t: the RTTs a marking's change travels back in
	if g.link >= 0 {
		x.linkEvent(s, g.link, g.queue, t)
		return
	}
	x.flowEvent(s, g.flow, t, y)
}

// guard of a subflow: the larger of its integrated intensities less their thresholds.
func (fx *flowExt) guard(f *subflow, y []float64) float64 {
	if !f.active {
		return -1
	}
	g := -1.0
	if fx.markOff >= 0 {
		g = max(g, y[fx.markOff]-fx.markThr)
	}
	if fx.lossOff >= 0 {
		g = max(g, y[fx.lossOff]-fx.lossThr)
	}
	return g
}

// flowEvent is a probabilistic mark or a PIE drop of subflow fi.
func (x *extension) flowEvent(s *system, fi int, t float64, y []float64) {
	f, fx := &s.flows[fi], &x.flows[fi]
	mark := fx.markOff >= 0 && (fx.lossOff < 0 || y[fx.markOff]-fx.markThr >= y[fx.lossOff]-fx.lossThr)
	if mark {
		y[fx.markOff] = 0
		fx.markThr = f.rng.ExpFloat64()
		x.reduce(s, fi, t, y)
		return
	}
	y[fx.lossOff] = 0
	fx.lossThr = f.rng.ExpFloat64()
	x.dropped(s, f, -1, t, y)
}

// dropped counts a packet of subflow f that an AQM dropped at link li (-1: the flow's
// PIE link) at time t and schedules the sender's reaction one RTT later, as a drop-tail
// overflow's. The packet comes off the flow's queue at the link, as CoDel's drop at the
// head lets the next packet go in its place, or, while that holds less than a packet, off
// what the flow has delivered (the packet in service); a flow with neither has none to
// lose, nor has one with less than a packet at a link it shares first in, first out,
// whose head is other flows' packets.
func (x *extension) dropped(s *system, f *subflow, li int, t float64, y []float64) {
	c := f.cnt
	if li < 0 {
		for _, l := range f.links {
			if x.links[l].kind == extPIE {
				li = l
				break
			}
		}
	}
	switch k := slices.Index(f.links, li); {
	case k >= 0 && s.links[li].mode == queueBusy && y[f.streams[k].content] >= f.wire:
		s.links[li].drop(&f.streams[k], f.wire, y)
	case k >= 0 && s.links[li].fifo != nil:
		return // at a FIFO link a flow that holds less than a packet has none to lose there
	case y[c+cntDelivered] >= 1:
		y[c+cntDelivered]--
		if li >= 0 {
			y[s.links[li].off+lvDropped] += f.wire
		}
	default:
		return
	}
	y[c+cntDropped]++
	if f.reactAt == math.Inf(1) {
		f.reactAt = t + f.rtt
	}
}

// reduce is an ECN-Echo reaching subflow fi at time t: the law's reduction (ECNReduce, or
// OnLoss) unless the sender is in loss recovery or in the reduction of an earlier echo,
// in which case it looks again when that ends.
func (x *extension) reduce(s *system, fi int, t float64, y []float64) {
	f, fx := &s.flows[fi], &x.flows[fi]
	if !f.active {
		if t < f.start {
			// A flow that starts into a marking queue sees its first echo a round trip in.
			fx.recheck = min(fx.recheck, f.start+f.rtt)
		}
		return
	}
	if t < f.recoverUntil || t < fx.cwrUntil || t < f.silentUntil {
		fx.recheck = min(fx.recheck, max(max(f.recoverUntil, fx.cwrUntil), f.silentUntil))
		return
	}
	law := y[f.off : f.off+f.nLaw]
	o := s.obsFor(f, t)
	if fx.reactor != nil {
		fx.reactor.ECNReduce(law, o)
	} else {
		f.law.OnLoss(law, o)
	}
	fx.marks++
	fx.cwrUntil = t + f.rtt
	fx.recheck = min(fx.recheck, fx.cwrUntil)
}

// next is the time of the extension's next timer, s.
func (x *extension) next() float64 {
	next := math.Inf(1)
	for fi := range x.flows {
		fx := &x.flows[fi]
		if fx.head < len(fx.toggles) {
			next = min(next, fx.toggles[fx.head].at)
		}
		next = min(next, fx.recheck)
	}
	for li := range x.links {
		next = min(next, x.links[li].timer())
	}
	return next
}

// due runs the timers due at time t and reports whether the state changed.
func (x *extension) due(s *system, t float64) bool {
	changed := false
	var y []float64
	state := func() []float64 {
		if y == nil {
			y = s.state(t)
		}
		return y
	}
	for fi := range x.flows {
		fx := &x.flows[fi]
		for fx.head < len(fx.toggles) && fx.toggles[fx.head].at <= t {
			tg := fx.toggles[fx.head]
			fx.head++
			changed = true
			if tg.k >= 0 {
				fx.seen[tg.k] = tg.on
			}
			if tg.on {
				x.reduce(s, fi, t, state())
			}
		}
		if fx.head == len(fx.toggles) {
			fx.toggles, fx.head = fx.toggles[:0], 0
		}
		if fx.recheck <= t {
			fx.recheck = math.Inf(1)
			if x.stillMarked(s, fi) {
				x.reduce(s, fi, t, state())
				changed = true
			}
		}
	}
	for li := range x.links {
		if x.links[li].timer() <= t {
			x.links[li].fire(s, x, li, t, state())
			changed = true
		}
	}
	return changed
}

// stillMarked reports whether a step-marking link the sender sees marking is marking now:
// a window sent after the reduction of the previous echo is marked too.
func (x *extension) stillMarked(s *system, fi int) bool {
	f, fx := &s.flows[fi], &x.flows[fi]
	for k, li := range f.links {
		if fx.seen[k] && x.links[li].marking {
			return true
		}
	}
	return false
}

// pace sets the sending rate of a paced law's subflow f, whose window is w packets, from
// its pacing rate: at most that, and, for a law that knows its flight, the pacing rate
// while its window has room (FluidFlight) even above w/RTT, the rate f.rate holds (a
// paced flow is never a class: f.mult is 1).
func (x *extension) pace(f *subflow, t float64, y []float64, w float64) {
	fx := &x.flows[f.idx]
	if fx.pacer == nil {
		return
	}
	law := y[f.off : f.off+f.nLaw]
	o := model.Observation{Now: t, RTT: f.rtt, BaseRTT: f.baseRTT(), Subflow: f.sub}
	f.countPackets(&o, y)
	r := fx.pacer.PacingRate(law, o)
	if fx.flight != nil && w > 0 {
		f.rate = model.FlightLimitedRate(w, fx.flight.Flight(law, o), r, fx.flight.FullRate(law, o), f.rtt) * f.wire
		return
	}
	if r > 0 && !math.IsInf(r, 1) && r*f.wire < f.rate {
		f.rate = r * f.wire
	}
}

// wallClock reports whether subflow f's law is paced (derivatives in wall-clock time).
func (x *extension) wallClock(f *subflow) bool { return x.flows[f.idx].pacer != nil }

// paced reports whether subflow f's law is paced (wallClock), false without extensions.
func (s *system) paced(f *subflow) bool { return s.x != nil && s.x.wallClock(f) }

// holds is whether subflow f's law holds still at time t, given the form's answer: a paced
// law never does; in the counted form a law that reduces by jumps holds through the window
// reduction of an ECN-Echo, as a packet sender raises no window in CWR.
func (x *extension) holds(f *subflow, t float64, hold bool) bool {
	fx := &x.flows[f.idx]
	switch {
	case fx.pacer != nil:
		return false
	case x.counted && fx.reactor == nil && t < fx.cwrUntil:
		return true
	}
	return hold
}

// observe adds the extension's signals to an observation of subflow f: its delivery rate
// (what leaves its path less what the links' loss processes and dropping RED take) and its
// marked fraction.
func (x *extension) observe(f *subflow, o *model.Observation) {
	if f.wire > 0 {
		o.DeliveryRate = f.acked / f.wire
	}
	o.MarkFrac = x.flows[f.idx].markFrac
}

// marksRED reports whether RED at position k of subflow f's path marks its packets instead
// of dropping them.
func (x *extension) marksRED(f *subflow, k int) bool {
	return x.flows[f.idx].ect && x.links[f.links[k]].kind == extRED
}

// evaluate computes the marking and AQM signals of the network state last evaluated.
func (x *extension) evaluate(s *system, t float64, y []float64) {
	for li := range x.links {
		x.links[li].evaluate(s, li, y)
	}
	for fi := range s.flows {
		f, fx := &s.flows[fi], &x.flows[fi]
		keep := 1.0
		fx.markRate, fx.lossRate = 0, 0
		for k, li := range f.links {
			l := &x.links[li]
			aPkts := f.streams[k].arrive / f.wire
			m := 0.0
			switch {
			case l.kind == extStep && fx.ect:
				if fx.seen[k] {
					m = 1
				}
			case l.kind == extRED && fx.ect:
				m = s.links[li].lossPkt
				fx.markRate += m * aPkts
			case l.kind == extPIE:
				if fx.ect && l.ecn && l.pieP <= l.pie.ECNMaxProb {
					m = l.pieDrop
					fx.markRate += m * aPkts
				} else {
					fx.lossRate += l.pieDrop * aPkts
				}
			case l.kind == extCoDel && fx.ect && l.ecn:
				m = l.queues[0].frac
			case l.kind == extFQCoDel && fx.ect && l.ecn:
				m = l.queues[f.streams[k].slot].frac
			}
			keep *= 1 - min(max(m, 0), 1)
		}
		fx.markFrac = 1 - keep
	}
}

// derivs writes the derivatives of the extension's state.
func (x *extension) derivs(s *system, dy, y []float64, t float64) {
	for li := range x.links {
		x.links[li].derivs(s, li, dy, y)
	}
	for fi := range s.flows {
		f, fx := &s.flows[fi], &x.flows[fi]
		if !f.active {
			continue
		}
		if fx.markOff >= 0 && t >= fx.cwrUntil && t >= f.recoverUntil {
			dy[fx.markOff] = fx.markRate
		}
		if fx.lossOff >= 0 {
			dy[fx.lossOff] = fx.lossRate
		}
	}
}
