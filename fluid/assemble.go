package fluid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tcpfluid/tcpfluid/model"
)

// newSystem assembles a validated scenario into one hybrid system: links, paths in link
// order, every flow's law and subflows, cross traffic, and the state layout (layout.go).
// With fo, the system is the folded scenario's (fold.go).
func newSystem(sc *model.Scenario, set Settings, fo *folding) (*system, error) {
	if err := set.resolve(); err != nil {
		return nil, err
	}
	bdps := sc.FlowPathBDPs
	if fo != nil {
		sc, bdps = fo.sc, fo.orig.FlowPathBDPs
	}
	sys := &system{sc: sc, set: set, form: forms[set.Form], end: sc.DurationS, pathBDPs: bdps}
	var lay layout
	linkIdx := make(map[string]int, len(sc.Links))
	for i, l := range sc.Links {
		linkIdx[l.Name] = i
		sys.links = append(sys.links, link{
			linkSpec: linkSpec{name: l.Name, capBps: l.CapacityBps / 8, copies: 1, loss: l.Loss, lossP: l.LossP,
				red: l.Queue == model.QueueRED, redParams: l.RED, fq: l.Queue == model.QueueFQCoDel, off: lay.reserve(linkVars)},
			linkState: linkState{up: true, delayS: l.DelayS},
		})
		if fo != nil {
			sys.links[i].copies = fo.copies[i]
		}
		sys.fq = sys.fq || l.Queue == model.QueueFQCoDel
	}
	paths := make(map[string][]int, len(sc.Paths))
	for _, p := range sc.Paths {
		idx := make([]int, len(p.Links))
		for k, name := range p.Links {
			i, ok := linkIdx[name]
			if !ok {
				return nil, fmt.Errorf("%w: path %q: unknown link %q", model.ErrScenario, p.Name, name)
			}
			idx[k] = i
		}
		paths[p.Name] = idx
	}
	order, err := linkOrder(len(sc.Links), paths)
	if err != nil {
		return nil, err
	}
	sys.order = order
	first := classes(sc, sys.set)
	subflowOf := make([]int, len(sc.Flows)) // a class's first flow → its subflow
	rngIdx := 0                             // the subflow index each flow's random stream is named by, as without classes
	for i := range sc.Flows {
		if j := first[i]; j != i {
			f := &sys.flows[subflowOf[j]]
			f.members = append(f.members, i)
			f.mult++
			rngIdx++
			continue
		}
		subflowOf[i] = len(sys.flows)
		if err := sys.addFlow(i, rngIdx, paths, &lay); err != nil {
			return nil, err
		}
		rngIdx += len(sc.Flows[i].PathNames())
	}
	sys.merge = sys.mergesReactions()
	sys.polled = sys.merge && sc.DropRule.Proportional()
	if err := sys.applySettings(); err != nil {
		return nil, err
	}
	sys.armAckTimers()
	sys.armRoundTimers()
	for i, c := range sc.CBR {
		links, ok := paths[c.Path]
		if !ok {
			return nil, fmt.Errorf("%w: cbr[%d].path %q: no such path", model.ErrScenario, i, c.Path)
		}
		stop := c.StopS
		if stop == 0 || stop > sc.DurationS {
			stop = sc.DurationS
		}
		sys.cbr = append(sys.cbr, cbrSource{links: links, rate: c.RateBps / 8, start: c.StartS, stop: stop})
	}
	sys.addStreams(&lay)
	sys.sizeBuffers()
	// ECN, AQMs and paced laws (ext.go), or nil.
	if sys.x, err = newExtension(sys, &lay); err != nil {
		return nil, err
	}
	sys.markPacedStreams()
	sys.placeTrains()
	sys.restart = make([]int, 1, 1+len(sys.links)*linkGuards)
	for g := range len(sys.links) * linkGuards {
		sys.restart = append(sys.restart, len(sys.flows)+g)
	}
	sys.dim = lay.dim
	sys.scratch = mat.NewVecDense(sys.dim, nil)
	sys.cacheT = math.NaN()
	return sys, nil
}

// addFlow builds scenario flow i's algorithm (model.Configure: every parameter at once) and
// law, and one subflow entry per path; rngIdx names the first subflow's random stream.
func (s *system) addFlow(i, rngIdx int, paths map[string][]int, lay *layout) error {
	sc := s.sc
	f := &sc.Flows[i]
	alg, err := model.Configure(f.Algorithm, f.Params)
	if err != nil {
		return fmt.Errorf("%w: flows[%d]: %w", model.ErrScenario, i, err)
	}
	flowPaths := f.PathNames()
	rwnd := f.RwndBytes / f.MSSBytes
	law := alg.NewFluid(model.FlowConfig{InitialCwnd: f.InitialCwnd, InitialSsthresh: f.InitialSsthresh, MaxCwnd: rwnd,
		MSSBytes: f.MSSBytes, Subflows: len(flowPaths), PacketsPerAck: f.PacketsPerAck(), PathBDP: s.pathBDPs(i)})
	lawOff := lay.reserve(law.Vars())
	first := len(s.flows)
	for k, pathName := range flowPaths {
		links, ok := paths[pathName]
		if !ok {
			return fmt.Errorf("%w: flows[%d].path %q: no such path", model.ErrScenario, i, pathName)
		}
		prop := 0.0
		for _, l := range links {
			prop += 2 * sc.Links[l].DelayS
		}
		name := f.Name
		if len(flowPaths) > 1 {
			name = fmt.Sprintf("%s/%d", f.Name, k)
		}
		idx := len(s.flows)
		ff := subflow{
			subflowSpec: subflowSpec{idx: idx, flow: i, sub: k, first: first, nSub: len(flowPaths), routeAware: f.RouteAware,
				mult: 1, members: []int{i},
				recovery: model.RecoveryOf(alg),
				name:     name, algo: f.Algorithm, path: pathName, links: links, law: law,
				mss: f.MSSBytes, wire: f.MSSBytes + f.HeaderBytes, rwnd: rwnd, start: f.StartS, stop: f.StopS,
				off: lawOff, nLaw: law.Vars(), cnt: lay.reserve(flowCounters), watch: -1,
				rng: rand.New(rand.NewPCG(s.set.Seed, model.RandomStream^uint64(rngIdx+k)))},
			subflowState: subflowState{propRTT: prop, reactAt: math.Inf(1), recheckAt: math.Inf(1), completion: math.NaN()},
		}
		for _, li := range links {
			ff.txS += s.links[li].packetTime(ff.wire)
			ff.ackTxS += s.links[li].packetTime(ff.wire - ff.mss)
		}
		ff.minRTT = model.MinClockRTT + ff.txS
		if ff.stop == 0 || ff.stop > sc.DurationS {
			ff.stop = sc.DurationS
		}
		if f.SizeBytes > 0 && len(flowPaths) == 1 {
			ff.sizePkt = math.Ceil(f.SizeBytes / f.MSSBytes)
		}
		if s.form.counted && ff.nSub == 1 && ff.recovery == model.RecoveryPRR {
			ff.rtxRng = rand.New(rand.NewPCG(s.set.Seed, rtxStream^uint64(idx)))
		}
		if sc.DropRule == model.DropRandom {
			ff.dropRng = rand.New(rand.NewPCG(s.set.Seed, dropStream^uint64(idx)))
			ff.dropAhead = ff.dropRng.ExpFloat64()
		}
		ff.hearsInRecovery = s.form.counted && sc.DropRule.Proportional()
		ff.escapeRng = s.newEscapeRng(idx)
		ff.drawDrop()
		for _, l := range links {
			switch sc.Links[l].Loss {
			case model.LossRandom:
				ff.randomLoss = true
			case model.LossPeriodic:
				ff.periodic = true
			}
		}
		s.flows = append(s.flows, ff)
		s.drawRandomLoss(&s.flows[len(s.flows)-1])
	}
	if len(flowPaths) > 1 {
		s.subObs = append(s.subObs, make([]model.SubflowObservation, len(flowPaths)))
		for k := first; k < len(s.flows); k++ {
			s.flows[k].subObs = len(s.subObs) - 1
		}
	}
	return nil
}

// addStreams gives every subflow and CBR source a stream at each link of its path, with its
// queue contents in the state vector, and each link the list of its streams. It runs once
// every source is in place, so the streams' addresses stay fixed.
func (s *system) addStreams(lay *layout) {
	add := func(links []int, rate *float64, flow, cnt int, wire float64) []stream {
		sts := make([]stream, len(links))
		for k, li := range links {
			sts[k] = stream{source: rate, content: lay.reserve(1), flow: flow, slot: len(s.links[li].streams), cnt: cnt, wire: wire,
				tx: s.links[li].packetTime(wire)}
			if k > 0 {
				sts[k].prev = &sts[k-1]
			}
			s.links[li].streams = append(s.links[li].streams, &sts[k])
		}
		return sts
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		f.streams = add(f.links, &f.rate, fi, f.cnt, f.wire)
	}
	for ci := range s.cbr {
		c := &s.cbr[ci]
		c.streams = add(c.links, &c.sending, -1, -1, 0)
	}
	for li := range s.links {
		switch l := &s.links[li]; {
		case l.fq:
			l.order = make([]int32, 0, len(l.streams))
		case len(l.streams) > 1:
			l.fifo = &fifoHistory{n: len(l.streams)}
			l.phi = make([]float64, len(l.streams))
			l.open = make([]bool, len(l.streams))
			s.fifo = append(s.fifo, li)
		}
	}
}

// applySettings checks the settings that name subflows and switches on each subflow's
// guard slots.
func (s *system) applySettings() error {
	for _, w := range s.set.Watch {
		if w.Flow < 0 || w.Flow >= len(s.flows) || !(w.CwndPkts > 0) || math.IsInf(w.CwndPkts, 0) {
			return fmt.Errorf("%w: watch of flow %d at %v packets: want a flow in [0, %d) and a level > 0", model.ErrScenario, w.Flow, w.CwndPkts, len(s.flows))
		}
		s.flows[w.Flow].watch = w.CwndPkts
	}
	for _, fi := range s.set.InjectLoss {
		if fi < 0 || fi >= len(s.flows) {
			return fmt.Errorf("%w: injected loss for flow %d: want a flow in [0, %d)", model.ErrScenario, fi, len(s.flows))
		}
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		on := func(slot int, cond bool) {
			if cond {
				f.guards |= 1 << slot
			}
		}
		on(flowGuardLaw, f.sub == 0)
		on(flowGuardRandom, f.randomLoss || s.hasRED(f))
		on(flowGuardPeriodic, f.periodic)
		on(flowGuardDrop, s.sc.DropRule.Proportional() && !s.polled)
		on(flowGuardDone, f.sizePkt > 0)
		on(flowGuardWatch, f.watch >= 0)
		on(flowGuardGoBackN, s.form.counted && !s.set.SACK)
		on(flowGuardLateAck, s.ns2Timer(f))
		s.lateAcks = s.lateAcks || s.ns2Timer(f)
	}
	return nil
}

// sizeBuffers converts buffers to bytes. Buffers are given in packets; the fluid queue
// holds bytes, so a link's packets are counted in the largest packet size that crosses it.
func (s *system) sizeBuffers() {
	for li := range s.links {
		ref := 0.0
		for _, f := range s.flows {
			if slices.Contains(f.links, li) {
				ref = max(ref, f.wire)
			}
		}
		for ci, c := range s.cbr {
			if slices.Contains(c.links, li) {
				ref = max(ref, s.sc.CBR[ci].PacketBytes)
			}
		}
		if ref == 0 {
			ref = 1500
		}
		s.links[li].refBytes = ref
		s.links[li].bufBytes = s.sc.Links[li].BufferPkts * ref
	}
}
