package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/tcpfluid/tcpfluid/ode"
)

// FluidSettings configures the fluid engine. The zero value is usable.
type FluidSettings struct {
	// Seed drives every random draw (random-loss thresholds, the proportional drop rule).
	Seed uint64
	// SampleS is the trace interval in seconds; 0 records no trace.
	SampleS float64
	// RelTol and AbsTol are the Dormand–Prince tolerances; defaults 1e-6 and 1e-6
	// (packets and bytes are O(1) or larger, so 1e-6 absolute is far below a packet).
	RelTol, AbsTol float64
	// MaxSteps bounds the accepted solver steps; default 50,000,000.
	MaxSteps int
	// Watch lists window levels whose first upward crossing is located and reported in
	// Result.Crossings (the fill and recovery times of response.Converge).
	Watch []Watch
	// StopAtWatch ends the run at the first crossing of every watch.
	StopAtWatch bool
	// InjectLoss applies a loss event (the jump of a fast retransmit) to a flow at its start:
	// a run that starts "just after a loss".
	InjectLoss []int
	// StopAfterLosses ends the run when flow 0 has had this many loss events; 0: no limit.
	StopAfterLosses int
	// RecordLosses records every loss event in Result.Losses.
	RecordLosses bool
	// Form is FormHybrid (default) or FormHybridRecovery.
	Form string
}

// Watch is a window level of one flow, in packets.
type Watch struct {
	Flow     int
	CwndPkts float64
}

// RandomStream is the second word of the PCG generator the fluid engine seeds with
// FluidSettings.Seed for the random-loss thresholds of its first flow; flow (or subflow)
// entry i draws from stream RandomStream ^ i. The packet engine draws each source's losses
// on the first random-loss link of its path from the same stream, so that both engines see
// every flow's losses after the same numbers of its packets (common random numbers).
const RandomStream = 0x7cf1d

// ErrEngine wraps failures of the fluid engine that are not input errors.
var ErrEngine = errors.New("fluid engine")

// Fluid form and loss descriptions reported with every result.
const (
	FormHybrid = "hybrid" // sawtooth: continuous growth, located loss events, jumps
	// FormHybridRecovery is FormHybrid counted the way a packet sender counts, the form to
	// compare with the packet engine: the window holds still for one RTT after each loss
	// event, as a sender's does while fast recovery repairs the loss (a cycle of W/2 RTTs
	// gains one RTT), and a law's post-loss clock starts when that recovery ends
	// (recoveryEnder); the sender keeps ⌊W⌋ packets in flight, W − ½ on average (inFlight);
	// and a per-ACK increase in proportion to 1/W takes the window half-way through the
	// round's increase (midRound). These are O(1/W) corrections: 4% at W = 11, 0.05% at
	// W = 1000.
	FormHybridRecovery = "hybrid-recovery"
)

// link modes of the hybrid queue.
const (
	queueEmpty = iota // q = 0 and arrivals < capacity
	queueBusy         // 0 < q < buffer
	queueFull         // q = buffer and arrivals >= capacity: the excess is dropped
)

// guard slots per flow and per link.
const (
	flowGuardLaw = iota
	flowGuardRandom
	flowGuardPeriodic
	flowGuardDrop
	flowGuardDone
	flowGuardWatch
	flowGuards
)

const (
	linkGuardA = iota
	linkGuardB
	linkGuards
)

// flow variables after the law's own: counters integrated by the solver.
const (
	cntSent      = iota // packets sent
	cntDelivered        // packets arriving at the receiver
	cntDropped          // packets dropped (queue overflow, random loss)
	cntRandom           // integrated random-loss intensity since the last random loss
	cntPeriodic         // integrated periodic-loss intensity since the last periodic loss
	cntOverflow         // packets of this flow dropped by a full queue since its last reaction
	cntCwndTime         // ∫ cwnd dt, packet·s
	flowCounters
)

// link variables.
const (
	lvQueue     = iota // bytes queued
	lvDeparted         // bytes departed
	lvQueueTime        // ∫ queue dt, byte·s
	lvDropped          // bytes dropped by overflow
	lvREDAvg           // RED average queue, bytes
	linkVars
)

type fluidLink struct {
	name      string
	capBps    float64 // bytes/s when up
	up        bool
	delayS    float64 // one-way propagation delay, s
	bufBytes  float64
	refBytes  float64 // packet size used to report the queue in packets
	mode      int
	loss      LossModel
	lossP     float64
	red       bool
	redParams RED
	off       int // offset of the link's variables in the state vector
	// per evaluation scratch
	arrive  float64 // bytes/s
	depart  float64
	lossPkt float64 // RED drop probability at the current average
}

// fluidFlow is one single-path flow, or one subflow of a multi-path flow; the subflows of
// a flow share one law whose state block starts at off (subflow k's window at off+k).
type fluidFlow struct {
	flow       int  // the scenario's flow index
	sub        int  // subflow index within the flow
	first      int  // engine index of the flow's subflow 0
	nSub       int  // subflows of the flow
	subObs     int  // index into fluidSystem.subObs for multi-path flows
	routeAware bool // seed 002's route-change-aware sender
	// renoTimeouts: the law's packet face recovers as Reno, which times out when a second
	// loss falls in the window being repaired (RFC 5681; MODELS.md "Reno").
	renoTimeouts bool
	silentUntil  float64 // a timed-out sender sends nothing until then, s
	// A sender whose path failed retransmits when its timer expires, at backoffAt, and
	// backs the timer off by doubling backoffS (RFC 6298 §5.5) until a retransmission gets
	// through.
	backoffAt, backoffS float64
	guards              uint8 // bit k: guard slot k can fire for this flow
	wBefore             float64
	cnt                 int // offset of the subflow's counters
	name                string
	algo                string
	path                string
	links               []int // link indices in path order
	law                 FluidLaw
	mss                 float64 // payload bytes per packet
	wire                float64 // bytes per packet on the wire: payload and header
	rwnd                float64 // packets
	propRTT             float64 // s
	start               float64
	stop                float64
	sizePkt             float64 // 0: long-lived
	off                 int     // offset of the law's variables (shared by subflows)
	nLaw                int
	active              bool
	done                bool
	// hybrid bookkeeping
	randomThreshold float64    // Exp(1) draw: the expected losses (p × packets) to the next random loss
	rng             *rand.Rand // the flow's random-loss stream (RandomStream)
	periodic        bool
	randomLoss      bool
	recoverUntil    float64 // losses before this time belong to the current recovery
	watch           float64 // watched window level, packets; -1 when none
	watchHit        bool
	reactAt         float64 // pending drop-tail reaction time, +Inf when none
	recheckAt       float64 // synchronized rule: look again when the recovery ends
	lossEvents      int
	timeouts        int
	completion      float64 // s since start, NaN until done
	endT            float64
	// per evaluation scratch
	rtt     float64 // round-trip time now, s
	rttSeen float64 // the round-trip time the sender's latest sample reports, s
	rate    float64 // bytes/s sent
	ackRef  float64 // bytes/s: the ACK rate W/RTT the laws are written at (wire bytes)
	arrive  []float64
	deliver float64
}

type fluidCBR struct {
	links       []int
	rate        float64 // bytes/s
	start, stop float64
	arrive      []float64
}

type timedAction struct {
	t    float64
	kind int
	idx  int
	ev   TimedEvent
}

const (
	actFlowStart = iota
	actFlowStop
	actLink
)

// fluidSystem is one scenario assembled into a hybrid system.
type fluidSystem struct {
	sc      *Scenario
	set     FluidSettings
	links   []fluidLink
	order   []int // links in upstream-to-downstream order
	flows   []fluidFlow
	cbr     []fluidCBR
	dim     int
	trace   []Sample
	nextSmp float64
	scratch *mat.VecDense
	// cache of the network quantities for the last evaluated (t, y)
	cacheT    float64
	cacheY    *mat.VecDense
	cacheGen  int
	gen       int
	subObs    [][]SubflowObservation // per multi-path flow, reused by every observation
	restart   []int                  // guards Restart re-evaluates: [flow, every link guard]
	drv       *ode.Driver
	end       float64 // s; the scenario's duration unless a stop condition ended the run
	crossings []Crossing
	losses    []LossRecord
}

// RunFluid integrates a validated scenario with the hybrid fluid engine: windows and
// queues follow ODEs between events; losses, mode switches, flow starts and link events
// are located by the solver and applied as jumps.
func RunFluid(ctx context.Context, sc *Scenario, set FluidSettings) (*Result, error) {
	sys, err := newFluidSystem(sc, set)
	if err != nil {
		return nil, err
	}
	return sys.run(ctx)
}

func newFluidSystem(sc *Scenario, set FluidSettings) (*fluidSystem, error) {
	if set.RelTol == 0 {
		set.RelTol = 1e-6
	}
	if set.AbsTol == 0 {
		set.AbsTol = 1e-6
	}
	if set.MaxSteps == 0 {
		set.MaxSteps = 50_000_000
	}
	switch set.Form {
	case "":
		set.Form = FormHybrid
	case FormHybrid, FormHybridRecovery:
	default:
		return nil, fmt.Errorf("%w: form %q, want %s or %s", ErrScenario, set.Form, FormHybrid, FormHybridRecovery)
	}
	if set.SampleS < 0 || math.IsNaN(set.SampleS) {
		return nil, fmt.Errorf("%w: sample interval %v s, want >= 0", ErrScenario, set.SampleS)
	}
	sys := &fluidSystem{sc: sc, set: set}
	linkIdx := make(map[string]int, len(sc.Links))
	for i, l := range sc.Links {
		linkIdx[l.Name] = i
		fl := fluidLink{
			name: l.Name, capBps: l.CapacityBps / 8, up: true, delayS: l.DelayS,
			loss: l.Loss, lossP: l.LossP, red: l.Queue == QueueRED, redParams: l.RED,
			off: sys.dim,
		}
		sys.links = append(sys.links, fl)
		sys.dim += linkVars
	}
	paths := make(map[string][]int, len(sc.Paths))
	for _, p := range sc.Paths {
		idx := make([]int, len(p.Links))
		for k, name := range p.Links {
			i, ok := linkIdx[name]
			if !ok {
				return nil, fmt.Errorf("%w: path %q: unknown link %q", ErrScenario, p.Name, name)
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
	for i, f := range sc.Flows {
		alg, err := New(f.Algorithm)
		if err != nil {
			return nil, fmt.Errorf("%w: flows[%d].algorithm: %w", ErrScenario, i, err)
		}
		for name, v := range f.Params {
			if err := alg.Set(name, v); err != nil {
				return nil, fmt.Errorf("%w: flows[%d].params: %w", ErrScenario, i, err)
			}
		}
		flowPaths := f.Paths
		if len(flowPaths) == 0 {
			flowPaths = []string{f.Path}
		}
		rwnd := f.RwndBytes / f.MSSBytes
		cfg := FlowConfig{InitialCwnd: f.InitialCwnd, InitialSsthresh: f.InitialSsthresh, MaxCwnd: rwnd,
			MSSBytes: f.MSSBytes, Subflows: len(flowPaths), PacketsPerAck: f.PacketsPerAck(), PathBDP: sc.FlowPathBDPs(i)}
		law := alg.NewFluid(cfg)
		reno := alg.NewEvent(cfg).Recovery() == RecoveryReno
		lawOff := sys.dim
		sys.dim += law.Vars()
		first := len(sys.flows)
		for k, pathName := range flowPaths {
			links, ok := paths[pathName]
			if !ok {
				return nil, fmt.Errorf("%w: flows[%d].path %q: no such path", ErrScenario, i, pathName)
			}
			prop := 0.0
			for _, l := range links {
				prop += 2 * sc.Links[l].DelayS
			}
			name := f.Name
			if len(flowPaths) > 1 {
				name = fmt.Sprintf("%s/%d", f.Name, k)
			}
			ff := fluidFlow{
				flow: i, sub: k, first: first, nSub: len(flowPaths), routeAware: f.RouteAware, renoTimeouts: reno,
				name: name, algo: f.Algorithm, path: pathName, links: links, law: law,
				mss: f.MSSBytes, wire: f.MSSBytes + f.HeaderBytes, rwnd: rwnd, propRTT: prop, start: f.StartS, stop: f.StopS,
				off: lawOff, nLaw: law.Vars(), cnt: sys.dim, watch: -1, reactAt: math.Inf(1), recheckAt: math.Inf(1),
				completion: math.NaN(), arrive: make([]float64, len(links)),
			}
			if ff.stop == 0 || ff.stop > sc.DurationS {
				ff.stop = sc.DurationS
			}
			if f.SizeBytes > 0 && len(flowPaths) == 1 {
				ff.sizePkt = math.Ceil(f.SizeBytes / f.MSSBytes)
			}
			for _, l := range links {
				switch sc.Links[l].Loss {
				case LossRandom:
					ff.randomLoss = true
				case LossPeriodic:
					ff.periodic = true
				}
			}
			sys.flows = append(sys.flows, ff)
			sys.dim += flowCounters
		}
		if len(flowPaths) > 1 {
			sys.subObs = append(sys.subObs, make([]SubflowObservation, len(flowPaths)))
			for k := first; k < len(sys.flows); k++ {
				sys.flows[k].subObs = len(sys.subObs) - 1
			}
		}
	}
	for _, w := range set.Watch {
		if w.Flow < 0 || w.Flow >= len(sys.flows) || !(w.CwndPkts > 0) || math.IsInf(w.CwndPkts, 0) {
			return nil, fmt.Errorf("%w: watch of flow %d at %v packets: want a flow in [0, %d) and a level > 0", ErrScenario, w.Flow, w.CwndPkts, len(sys.flows))
		}
		sys.flows[w.Flow].watch = w.CwndPkts
	}
	for _, fi := range set.InjectLoss {
		if fi < 0 || fi >= len(sys.flows) {
			return nil, fmt.Errorf("%w: injected loss for flow %d: want a flow in [0, %d)", ErrScenario, fi, len(sys.flows))
		}
	}
	for fi := range sys.flows {
		f := &sys.flows[fi]
		on := func(slot int, cond bool) {
			if cond {
				f.guards |= 1 << slot
			}
		}
		on(flowGuardLaw, f.sub == 0)
		on(flowGuardRandom, f.randomLoss || sys.hasRED(f))
		on(flowGuardPeriodic, f.periodic)
		on(flowGuardDrop, sc.DropRule == DropProportional)
		on(flowGuardDone, f.sizePkt > 0)
		on(flowGuardWatch, f.watch >= 0)
	}
	if set.StopAfterLosses < 0 {
		return nil, fmt.Errorf("%w: stop after %d losses: want >= 0", ErrScenario, set.StopAfterLosses)
	}
	sys.end = sc.DurationS
	sys.restart = make([]int, 1, 1+len(sys.links)*linkGuards)
	for g := range len(sys.links) * linkGuards {
		sys.restart = append(sys.restart, len(sys.flows)+g)
	}
	for i, c := range sc.CBR {
		links, ok := paths[c.Path]
		if !ok {
			return nil, fmt.Errorf("%w: cbr[%d].path %q: no such path", ErrScenario, i, c.Path)
		}
		stop := c.StopS
		if stop == 0 || stop > sc.DurationS {
			stop = sc.DurationS
		}
		sys.cbr = append(sys.cbr, fluidCBR{links: links, rate: c.RateBps / 8, start: c.StartS, stop: stop, arrive: make([]float64, len(links))})
	}
	// Buffers are given in packets; the fluid queue holds bytes, so a link's packets are
	// counted in the largest packet size that crosses it.
	for li := range sys.links {
		ref := 0.0
		for _, f := range sys.flows {
			if contains(f.links, li) {
				ref = math.Max(ref, f.wire)
			}
		}
		for ci, c := range sys.cbr {
			if contains(c.links, li) {
				ref = math.Max(ref, sc.CBR[ci].PacketBytes)
			}
		}
		if ref == 0 {
			ref = 1500
		}
		sys.links[li].refBytes = ref
		sys.links[li].bufBytes = sc.Links[li].BufferPkts * ref
	}
	sys.scratch = mat.NewVecDense(sys.dim, nil)
	sys.cacheT = math.NaN()
	return sys, nil
}

func contains(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

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
		return nil, fmt.Errorf("%w: paths: links form a cycle; the fluid engine needs an upstream-to-downstream order", ErrScenario)
	}
	return order, nil
}

// evaluate computes rates, RTTs, arrivals and departures for state y at time t.
func (s *fluidSystem) evaluate(t float64, y []float64) {
	for li := range s.links {
		l := &s.links[li]
		l.arrive = 0
		l.depart = 0
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		rtt := s.pathRTT(f, y)
		f.rtt = rtt
		f.rttSeen = f.propRTT
		f.rate, f.ackRef = 0, 0
		if f.active && s.pathUp(f.links) && t >= f.silentUntil {
			w := math.Min(y[f.off+f.sub], f.rwnd)
			f.ackRef = w * f.wire / rtt
			f.rate = s.inFlight(w, f.rwnd) * f.wire / rtt
		}
	}
	// Arrivals propagate downstream: the first link sees the sending rate, each later link
	// the share of the previous link's departures.
	for _, li := range s.order {
		l := &s.links[li]
		for fi := range s.flows {
			f := &s.flows[fi]
			for k, fl := range f.links {
				if fl != li {
					continue
				}
				if k == 0 {
					f.arrive[k] = f.rate
				} else {
					f.arrive[k] = s.departShare(f.links[k-1], f.arrive[k-1])
				}
				l.arrive += f.arrive[k]
			}
		}
		for ci := range s.cbr {
			c := &s.cbr[ci]
			for k, cl := range c.links {
				if cl != li {
					continue
				}
				if k == 0 {
					if t >= c.start && t < c.stop {
						c.arrive[k] = c.rate
					} else {
						c.arrive[k] = 0
					}
				} else {
					c.arrive[k] = s.departShare(c.links[k-1], c.arrive[k-1])
				}
				l.arrive += c.arrive[k]
			}
		}
		switch {
		case !l.up:
			l.depart = 0
		case l.mode == queueEmpty:
			l.depart = math.Min(l.arrive, l.capBps)
		default:
			l.depart = l.capBps
		}
		if l.red {
			l.lossPkt = redDropProb(l.redParams, y[l.off+lvREDAvg]/l.refBytes)
		}
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		last := len(f.links) - 1
		f.deliver = s.departShare(f.links[last], f.arrive[last])
		// What the sender's latest RTT sample says: the queues it met one round trip ago,
		// q(t − RTT) ≈ q − RTT·dq/dt (first order), not the queues of now.
		for _, li := range f.links {
			l := &s.links[li]
			if l.capBps <= 0 {
				continue
			}
			q := y[l.off+lvQueue]
			if l.mode == queueBusy {
				q -= f.rtt * (l.arrive - l.depart)
			}
			f.rttSeen += math.Max(q, 0) / l.capBps
		}
	}
}

func (s *fluidSystem) pathUp(links []int) bool {
	for _, li := range links {
		if !s.links[li].up {
			return false
		}
	}
	return true
}

// departShare is the departure rate of a stream that arrives at link li at rate a: FIFO
// service shares the capacity in proportion to arrivals.
func (s *fluidSystem) departShare(li int, a float64) float64 {
	l := &s.links[li]
	if l.arrive <= 0 || a <= 0 {
		return 0
	}
	return a * l.depart / l.arrive
}

// redDropProb is RED's drop probability at an average queue of avg packets (gentle off).
func redDropProb(r RED, avg float64) float64 {
	switch {
	case avg < r.MinThPkts:
		return 0
	case avg >= r.MaxThPkts:
		return 1
	default:
		return r.MaxP * (avg - r.MinThPkts) / (r.MaxThPkts - r.MinThPkts)
	}
}

func (s *fluidSystem) ensure(t float64, y *mat.VecDense) {
	if t == s.cacheT && y == s.cacheY && s.cacheGen == s.gen {
		return
	}
	s.evaluate(t, y.RawVector().Data)
	s.cacheT, s.cacheY, s.cacheGen = t, y, s.gen
}

func (s *fluidSystem) derivs(dst *mat.VecDense, t float64, yv mat.Vector) {
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
			// which is also how RED ages its average over idle time.
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
		frozen := s.recovering(f, t) || !s.pathUp(f.links) || t < f.silentUntil
		ackRef := f.ackRef
		switch {
		case f.nSub == 1 && !frozen:
			o := s.obsFor(f, t)
			f.law.Deriv(dy[f.off:f.off+f.nLaw], x, o)
			if s.set.Form == FormHybridRecovery && ackRef > 0 {
				ackRef = s.midRound(f, dy[f.off:f.off+f.nLaw], x, o)
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
			case LossRandom:
				random += l.lossP * aPkts
			case LossPeriodic:
				periodic += l.lossP * aPkts
			}
			if l.red {
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
}

// guard values -------------------------------------------------------------------------

// flowGuardValue is guard slot of flow f for state y at time t: a loss, a mode switch, a
// completion or a watched level is due where it reaches zero from below.
func (s *fluidSystem) flowGuardValue(f *fluidFlow, slot int, t float64, y *mat.VecDense) float64 {
	yd := y.RawVector().Data
	c := f.cnt
	switch slot {
	case flowGuardLaw:
		if f.sub != 0 {
			return -1 // a multi-path law's modes belong to its subflow-0 entry
		}
		return f.law.Guard(yd[f.off:f.off+f.nLaw], s.obsAt(f, t, yd))
	case flowGuardRandom:
		if !f.randomLoss && !s.hasRED(f) {
			return -1
		}
		return yd[c+cntRandom] - f.randomThreshold
	case flowGuardPeriodic:
		if !f.periodic {
			return -1
		}
		return yd[c+cntPeriodic] - 1
	case flowGuardDrop:
		if s.sc.DropRule != DropProportional {
			return -1
		}
		return yd[c+cntOverflow] - 1
	case flowGuardDone:
		if f.sizePkt == 0 {
			return -1
		}
		return yd[c+cntDelivered] - f.sizePkt
	case flowGuardWatch:
		if f.watch < 0 || f.watchHit {
			return -1
		}
		return yd[f.off+f.sub] - f.watch
	}
	return -1
}

// flowGuard is one solver event per flow, the largest of its guard slots: one closure call
// instead of flowGuards per flow and step (the solver re-evaluates every guard at every
// jump). handle finds the slot that reached zero.
func (s *fluidSystem) flowGuard(fi int) func(float64, mat.Vector) float64 {
	return func(t float64, yv mat.Vector) float64 {
		f := &s.flows[fi]
		if !f.active {
			return -1
		}
		y := yv.(*mat.VecDense)
		g := -1.0
		for slot := 0; slot < flowGuards; slot++ {
			if f.guards&(1<<slot) == 0 {
				continue
			}
			if v := s.flowGuardValue(f, slot, t, y); v > g {
				g = v
			}
		}
		return g
	}
}

// firedSlot is the guard slot of flow f that has reached zero at the located event.
func (s *fluidSystem) firedSlot(f *fluidFlow, t float64, y *mat.VecDense) int {
	best, bestG := 0, math.Inf(-1)
	for slot := 0; slot < flowGuards; slot++ {
		if f.guards&(1<<slot) == 0 {
			continue
		}
		if g := s.flowGuardValue(f, slot, t, y); g > bestG {
			best, bestG = slot, g
		}
	}
	return best
}

func (s *fluidSystem) hasRED(f *fluidFlow) bool {
	for _, li := range f.links {
		if s.links[li].red {
			return true
		}
	}
	return false
}

// ssthreshOf is subflow k's slow-start threshold, packets: a multi-path law's own, if it
// reports them, else the law's.
func ssthreshOf(law FluidLaw, k int) float64 {
	if m, ok := law.(interface{ SsthreshOf(int) float64 }); ok {
		return m.SsthreshOf(k)
	}
	return law.Ssthresh()
}

// minResumeWindow is the smallest window a route-aware sender resumes with, packets.
const minResumeWindow = 2

// Queue mode switches happen a hair past the boundary (modeSlack of the capacity, or
// queueSlackBytes of the queue), so that right after a switch every guard of the new
// mode is strictly negative: a guard at exactly zero after a jump is ambiguous to the
// solver (it cannot tell a crossing from a touch) and could be lost.
const (
	modeSlack       = 1e-9
	queueSlackBytes = 1e-6
)

// linkGuardValue is guard slot of link li at the network state last evaluated by ensure:
// a queue mode switch is due where it reaches zero from below.
func (s *fluidSystem) linkGuardValue(li, slot int, y []float64) float64 {
	l := &s.links[li]
	switch l.mode {
	case queueEmpty:
		if slot != linkGuardA || !l.up {
			return -1
		}
		return l.arrive - l.capBps*(1+modeSlack)
	case queueBusy:
		q := y[l.off+lvQueue]
		if slot == linkGuardA {
			return -q - queueSlackBytes
		}
		return q - l.bufBytes - queueSlackBytes
	default: // full
		if slot != linkGuardA {
			return -1
		}
		return l.capBps*(1-modeSlack) - l.arrive
	}
}

func (s *fluidSystem) linkGuard(li, slot int) func(float64, mat.Vector) float64 {
	return func(t float64, yv mat.Vector) float64 {
		y := yv.(*mat.VecDense)
		s.ensure(t, y)
		return s.linkGuardValue(li, slot, y.RawVector().Data)
	}
}

// switchQueue applies the mode switch of link li's guard slot at time t.
func (s *fluidSystem) switchQueue(li, slot int, t float64, y []float64) {
	l := &s.links[li]
	switch l.mode {
	case queueEmpty:
		l.mode = queueBusy
	case queueBusy:
		if slot == linkGuardA {
			l.mode = queueEmpty
			y[l.off+lvQueue] = 0
		} else {
			l.mode = queueFull
			y[l.off+lvQueue] = l.bufBytes
			if s.sc.DropRule != DropProportional {
				s.overflowSynchronized(li, t)
			}
		}
	case queueFull:
		l.mode = queueBusy
	}
}

func (s *fluidSystem) events() []ode.Event {
	evs := make([]ode.Event, 0, len(s.flows)+len(s.links)*linkGuards)
	for fi := range s.flows {
		evs = append(evs, ode.Event{G: s.flowGuard(fi), Direction: ode.Rising})
	}
	for li := range s.links {
		for slot := 0; slot < linkGuards; slot++ {
			evs = append(evs, ode.Event{G: s.linkGuard(li, slot), Direction: ode.Rising})
		}
	}
	return evs
}

// run ------------------------------------------------------------------------------------

func (s *fluidSystem) run(ctx context.Context) (*Result, error) {
	actions := s.timedActions()
	for fi := range s.flows {
		f := &s.flows[fi]
		f.rng = rand.New(rand.NewPCG(s.set.Seed, RandomStream^uint64(fi)))
		f.randomThreshold = f.rng.ExpFloat64()
	}
	dp := ode.NewDormandPrince(ode.Settings{RelTol: s.set.RelTol, AbsTol: s.set.AbsTol})
	ivp := ode.IVP{Y0: mat.NewVecDense(s.dim, nil), T0: 0, Func: s.derivs}
	settings := ode.DriverSettings{MaxSteps: s.set.MaxSteps}
	if s.set.SampleS > 0 {
		settings.OnStep = s.sample
	}
	drv, err := ode.NewDriver(dp, ivp, s.events(), settings)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEngine, err)
	}
	s.drv = drv
	t := 0.0
	ai := 0
	for {
		changed := false
		for ai < len(actions) && actions[ai].t <= t {
			s.apply(actions[ai], t)
			ai++
			changed = true
		}
		if s.dueReactions(t) {
			changed = true
		}
		if changed {
			s.jump(t)
		}
		if t >= s.end {
			break
		}
		next := s.end
		if ai < len(actions) && actions[ai].t < next {
			next = actions[ai].t
		}
		if r := s.nextReaction(); r < next {
			next = math.Max(r, t)
		}
		hit, err := drv.Advance(ctx, next)
		if err != nil {
			return nil, fmt.Errorf("%w at t = %.6g s: %w", ErrEngine, t, err)
		}
		t = hit.T
		if hit.Event >= 0 {
			s.handle(hit.Event, t)
		}
	}
	if s.set.SampleS > 0 && s.nextSmp <= s.end*(1+1e-12) {
		s.sampleAt(s.end, drv.Y())
	}
	return s.result(), nil
}

func (s *fluidSystem) timedActions() []timedAction {
	var acts []timedAction
	for fi, f := range s.flows {
		acts = append(acts, timedAction{t: f.start, kind: actFlowStart, idx: fi})
		if f.stop < s.sc.DurationS {
			acts = append(acts, timedAction{t: f.stop, kind: actFlowStop, idx: fi})
		}
	}
	for _, e := range s.sc.Events {
		acts = append(acts, timedAction{t: e.AtS, kind: actLink, ev: e})
	}
	// CBR sources switch on and off at their times: stop the solver there so that the
	// discontinuity in the arrival rate is a step boundary.
	for ci, c := range s.cbr {
		acts = append(acts, timedAction{t: c.start, kind: -1, idx: ci})
		acts = append(acts, timedAction{t: c.stop, kind: -1, idx: ci})
	}
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].t < acts[j].t })
	return acts
}

// obsFor is what flow f's law observes at time t (after ensure): for a subflow of a
// multi-path flow, every sibling's RTT as well.
func (s *fluidSystem) obsFor(f *fluidFlow, t float64) Observation {
	o := Observation{Now: t, RTT: f.rttSeen, BaseRTT: f.propRTT, Subflow: f.sub}
	if f.nSub > 1 {
		subs := s.subObs[f.subObs]
		for k := range subs {
			sib := &s.flows[f.first+k]
			subs[k] = SubflowObservation{RTT: sib.rttSeen, BaseRTT: sib.propRTT}
		}
		o.Subflows = subs
	}
	return o
}

// obsAt is obsFor computed from the state yd alone (only the flow's own path queues),
// without evaluating the whole network: what a guard needs at every root-finding step.
func (s *fluidSystem) obsAt(f *fluidFlow, t float64, yd []float64) Observation {
	o := Observation{Now: t, RTT: s.pathRTT(f, yd), BaseRTT: f.propRTT, Subflow: f.sub}
	if f.nSub > 1 {
		subs := s.subObs[f.subObs]
		for k := range subs {
			sib := &s.flows[f.first+k]
			subs[k] = SubflowObservation{RTT: s.pathRTT(sib, yd), BaseRTT: sib.propRTT}
		}
		o.Subflows = subs
	}
	return o
}

// pathRTT is flow f's round-trip time in state yd: propagation plus its path's queues, s.
func (s *fluidSystem) pathRTT(f *fluidFlow, yd []float64) float64 {
	rtt := f.propRTT
	for _, li := range f.links {
		if l := &s.links[li]; l.capBps > 0 {
			rtt += yd[l.off+lvQueue] / l.capBps
		}
	}
	return rtt
}

// state returns the driver's current state after refreshing the network quantities; the
// caller may change it in place and must then call jump.
func (s *fluidSystem) state(t float64) []float64 {
	y := s.drv.Y()
	s.gen++
	s.ensure(t, y)
	return y.RawVector().Data
}

func (s *fluidSystem) apply(a timedAction, t float64) {
	y := s.state(t)
	switch a.kind {
	case actFlowStart:
		f := &s.flows[a.idx]
		f.active = true
		y = s.state(t)
		if f.sub == 0 {
			f.law.Init(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
		}
		for _, fi := range s.set.InjectLoss {
			if fi == a.idx {
				s.loss(f, t, y[f.off:f.off+f.nLaw])
			}
		}
		if f.watch >= 0 && y[f.off+f.sub] >= f.watch {
			s.watchCrossed(a.idx, t) // already there: a loss that did not reduce the window
		}
	case actFlowStop:
		s.finish(&s.flows[a.idx], t)
	case actLink:
		s.linkEvent(a.ev, t, y)
	}
}

func (s *fluidSystem) finish(f *fluidFlow, t float64) {
	if !f.active {
		return
	}
	f.active = false
	f.endT = t
	f.reactAt, f.recheckAt = math.Inf(1), math.Inf(1)
}

func (s *fluidSystem) linkEvent(e TimedEvent, t float64, y []float64) {
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
	case EventLinkDown:
		l.up = false
		// Everything queued on a failed link is lost; every flow crossing it times out.
		l.mode = queueEmpty
		y[l.off+lvDropped] += y[l.off+lvQueue]
		y[l.off+lvQueue] = 0
		for fi := range s.flows {
			f := &s.flows[fi]
			if !f.active || !contains(f.links, li) {
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
			rto := math.Max(MinRTOS, f.rtt)
			f.backoffAt, f.backoffS = t+rto, 2*rto
			f.silentUntil = math.Inf(1)
		}
	case EventLinkUp:
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
				y[f.off+f.sub] = math.Min(f.wBefore, math.Max(ssthreshOf(f.law, f.sub), minResumeWindow))
				f.wBefore = 0
			}
		}
	case EventDelayChange:
		s.setDelay(li, e.DelayS)
	}
}

// resumeAfterOutage schedules the first retransmission of a sender whose path failed and
// is back at time t: at the first expiry of its backed-off timer from then on. Every expiry
// is a timeout, the law's jump once more (Reno's ssthresh falls to 2 from the second), as
// in the packet engine; the first was applied at the failure, since the sender hears
// nothing from then on. The expiries run from the failure at max(MinRTOS, RTT), doubling
// up to MaxRTOS.
func (s *fluidSystem) resumeAfterOutage(f *fluidFlow, t float64, y []float64) {
	for f.backoffAt < t {
		f.backoffAt += f.backoffS
		f.backoffS = math.Min(2*f.backoffS, MaxRTOS)
		f.law.OnTimeout(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
		f.timeouts++
	}
	f.silentUntil = f.backoffAt
}

func (s *fluidSystem) setDelay(li int, d float64) {
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

// jump restarts the solver from the (changed) current state after switching every queue
// whose guard a jump has carried to or past zero (a window cut can empty a queue, a flow
// start can fill one), upstream links first since they shape downstream arrivals.
func (s *fluidSystem) jump(t float64) {
	y := s.drv.Y()
	yd := y.RawVector().Data
	for pass := 0; pass <= 2*len(s.links); pass++ {
		s.gen++
		s.ensure(t, y)
		changed := false
		for _, li := range s.order {
			for slot := 0; slot < linkGuards; slot++ {
				if s.linkGuardValue(li, slot, yd) >= 0 {
					s.switchQueue(li, slot, t, yd)
					changed = true
					break
				}
			}
			if changed {
				break
			}
		}
		if !changed {
			break
		}
	}
	s.gen++
	s.drv.Jump(y)
}

// handle applies the located event number ev at time t.
func (s *fluidSystem) handle(ev int, t float64) {
	nf := len(s.flows)
	if ev < nf && s.firedSlot(&s.flows[ev], t, s.drv.Y()) == flowGuardLaw {
		// A mode switch (slow start ends) leaves every window as it was: only this flow's
		// guard and the queues' guards need a fresh look, and the network no evaluation.
		f := &s.flows[ev]
		yd := s.drv.Y().RawVector().Data
		f.law.Switch(yd[f.off:f.off+f.nLaw], s.obsAt(f, t, yd))
		s.gen++
		s.restart[0] = ev
		s.drv.Restart(s.restart...)
		return
	}
	y := s.state(t)
	if ev < nf {
		fi := ev
		f := &s.flows[fi]
		slot := s.firedSlot(f, t, s.drv.Y())
		c := f.cnt
		x := y[f.off : f.off+f.nLaw]
		switch slot {
		case flowGuardRandom:
			y[c+cntRandom] = 0
			f.randomThreshold = f.rng.ExpFloat64()
			y[c+cntDropped]++
			s.loss(f, t, x)
		case flowGuardPeriodic:
			y[c+cntPeriodic] = 0
			y[c+cntDropped]++
			s.loss(f, t, x)
		case flowGuardDrop:
			y[c+cntOverflow] = 0
			if f.reactAt == math.Inf(1) && t >= f.recoverUntil {
				f.reactAt = t + f.rtt
			}
		case flowGuardDone:
			f.completion = t - f.start
			f.done = true
			s.finish(f, t)
		case flowGuardWatch:
			s.watchCrossed(fi, t)
		}
	} else {
		s.switchQueue((ev-nf)/linkGuards, (ev-nf)%linkGuards, t, y)
	}
	s.jump(t)
}

// loss applies a loss event to a flow unless it falls inside the flow's current recovery
// (one window reduction per window of data, as NewReno and SACK senders do).
func (s *fluidSystem) loss(f *fluidFlow, t float64, x []float64) {
	if t < f.recoverUntil {
		if f.renoTimeouts && t >= f.silentUntil {
			s.renoTimeout(f, t, x)
		}
		return
	}
	s.countLoss(f, t, x)
	f.law.OnLoss(x, s.obsFor(f, t))
	f.recoverUntil = t + f.rtt
}

// countLoss counts a window reduction of flow f at time t (x is its law's state just
// before it), records it when asked and ends the run after StopAfterLosses of flow 0.
func (s *fluidSystem) countLoss(f *fluidFlow, t float64, x []float64) {
	if s.set.RecordLosses {
		c := f.cnt
		y := s.drv.Y().RawVector().Data
		s.losses = append(s.losses, LossRecord{Flow: s.flowIndex(f), TS: t, CwndPkts: x[f.sub],
			CwndTimePktS: y[c+cntCwndTime], DeliveredPkts: y[c+cntDelivered]})
	}
	f.lossEvents++
	if s.set.StopAfterLosses > 0 && f == &s.flows[0] && f.lossEvents >= s.set.StopAfterLosses {
		s.end = t
	}
}

// renoTimeout is a Reno sender's second loss in the window it is repairing: fast recovery
// ends at the first new ACK, one RTT after the first loss, with the second hole unfilled,
// and the sender waits for its retransmission timer (RFC 6298: max(MinRTOS, about one
// smoothed RTT) on a steady path) before it restarts from one packet.
func (s *fluidSystem) renoTimeout(f *fluidFlow, t float64, x []float64) {
	s.countLoss(f, t, x)
	f.law.OnTimeout(x, s.obsFor(f, t))
	f.timeouts++
	f.silentUntil = f.recoverUntil + math.Max(MinRTOS, f.rtt)
	f.recoverUntil = f.silentUntil + f.rtt
}

// MinRTOS is the retransmission timer's floor, s: ns-2.35's and Linux's 0.2 s (RFC 6298
// says 1 s), as in the packet engine.
const MinRTOS = 0.2

// MaxRTOS caps a backed-off retransmission timer, s (RFC 6298 §2.5; ns-2's maxrto_).
const MaxRTOS = 60.0

func (s *fluidSystem) flowIndex(f *fluidFlow) int {
	for i := range s.flows {
		if f == &s.flows[i] {
			return i
		}
	}
	return -1
}

// watchCrossed records that flow fi's window reached its watched level at time t and ends
// the run when every watch asked to.
func (s *fluidSystem) watchCrossed(fi int, t float64) {
	f := &s.flows[fi]
	f.watchHit = true
	s.crossings = append(s.crossings, Crossing{Flow: fi, CwndPkts: f.watch, TS: t, SinceStartS: t - f.start})
	if s.set.StopAtWatch && s.allWatchesHit() {
		s.end = t
	}
}

func (s *fluidSystem) allWatchesHit() bool {
	for i := range s.flows {
		if s.flows[i].watch >= 0 && !s.flows[i].watchHit {
			return false
		}
	}
	return true
}

// overflowSynchronized schedules a loss for every flow crossing link li: each learns of it
// one round-trip time later, from its duplicate ACKs.
func (s *fluidSystem) overflowSynchronized(li int, t float64) {
	for fi := range s.flows {
		f := &s.flows[fi]
		if !f.active || !contains(f.links, li) || f.reactAt != math.Inf(1) || t < f.recoverUntil {
			continue
		}
		f.reactAt = t + f.rtt
	}
}

// inFlight is the packets a window of w packets keeps in flight under a receiver window
// of rwnd packets. A packet sender sends whole packets, ⌊min(W, rwnd)⌋, which is W − ½ on
// average as W grows through the integers, and exactly ⌊rwnd⌋ at the cap; the recovery
// form, the one compared with the packet engine, counts that way (continuous in W; below
// one packet, half the window). The hybrid form keeps the textbook W.
func (s *fluidSystem) inFlight(w, rwnd float64) float64 {
	if s.set.Form != FormHybridRecovery {
		return w
	}
	return math.Min(w-math.Min(0.5, w/2), math.Max(math.Floor(rwnd), 1))
}

// midRound is the reference ACK rate (wire bytes/s) of a single-path flow in the recovery
// form: that of the window half-way through a round's increase Δ = RTT·dW/dt, when the
// law's increase is spread over the round's ACKs in proportion to 1/W (perAckInverse). A
// packet sender's ACKs of a round return together and each adds the increment at the
// window reached so far: 1/W for Reno, a(W)/W for HighSpeed, α/W for CUBIC's Reno
// estimate. Evaluated at W + Δ/2 instead of W, Reno gains ⌊W⌋/(W + ½) packets per round
// instead of 1, as the packet engine's sawtooth shows, and Scalable's a per ACK compounds
// as (1 + a)^n per round instead of e^(an) (1/(1 + a/2) ≈ ln(1 + a)/a). dx is the law's
// derivative at x.
func (s *fluidSystem) midRound(f *fluidFlow, dx, x []float64, o Observation) float64 {
	law, ok := f.law.(perAckInverse)
	w := math.Min(x[f.sub], f.rwnd)
	if !ok || !law.perAckInverse(x, o) || !(dx[f.sub] > 0) || !(w > 0) {
		return f.ackRef
	}
	delta := dx[f.sub] * (f.deliver / f.ackRef) * f.rtt // packets per round
	return (w + delta/2) * f.wire / f.rtt
}

// recoveryEnder is implemented by fluid laws whose post-loss clock starts when recovery
// ends, as a packet sender's does at its first ACK in congestion avoidance (CUBIC's epoch):
// the recovery form, which holds the window for the recovery, calls it then.
type recoveryEnder interface {
	endRecovery(x []float64, o Observation)
}

// perAckInverse is implemented by fluid laws that know when their window's increase is
// made per ACK in proportion to 1/W (midRound); slow start (one packet per ACK, which the
// laws already count as a doubling per round) and increases that track a target window
// (CUBIC's cubic curve) are not.
type perAckInverse interface {
	perAckInverse(x []float64, o Observation) bool
}

// recovering reports whether the flow's window holds still in fast recovery at time t.
func (s *fluidSystem) recovering(f *fluidFlow, t float64) bool {
	return s.set.Form == FormHybridRecovery && t < f.recoverUntil
}

func (s *fluidSystem) nextReaction() float64 {
	next := math.Inf(1)
	for fi := range s.flows {
		f := &s.flows[fi]
		next = math.Min(next, math.Min(f.reactAt, f.recheckAt))
		if s.set.Form == FormHybridRecovery && f.recoverUntil > s.drv.T() {
			next = math.Min(next, f.recoverUntil) // the law resumes: a step boundary
		}
		if f.silentUntil > s.drv.T() {
			next = math.Min(next, f.silentUntil) // a timed-out sender resumes
		}
	}
	return next
}

// dueReactions applies the drop-tail reactions due at time t and reports whether the
// state changed.
func (s *fluidSystem) dueReactions(t float64) bool {
	changed := false
	var y []float64
	for fi := range s.flows {
		f := &s.flows[fi]
		if (s.set.Form == FormHybridRecovery && f.recoverUntil == t) || f.silentUntil == t {
			changed = true // a window's law resumes: restart the solver on the new field
			if law, ok := f.law.(recoveryEnder); ok && f.nSub == 1 && t >= f.silentUntil {
				if y == nil {
					y = s.state(t)
				}
				law.endRecovery(y[f.off:f.off+f.nLaw], s.obsFor(f, t))
			}
		}
		if f.reactAt <= t {
			if y == nil {
				// Network quantities once: a reaction changes only its own flow's window.
				y = s.state(t)
			}
			f.reactAt = math.Inf(1)
			x := y[f.off : f.off+f.nLaw]
			s.loss(f, t, x)
			if s.sc.DropRule != DropProportional {
				// Every packet the full queue took from this flow since its last reaction
				// is a hole in the same window: a Reno sender cannot repair two.
				if y[f.cnt+cntOverflow] >= 2 && f.renoTimeouts {
					s.renoTimeout(f, t, x)
				}
				y[f.cnt+cntOverflow] = 0
			}
			if s.sc.DropRule != DropProportional {
				f.recheckAt = f.recoverUntil
			}
			changed = true
		}
		if f.recheckAt <= t {
			// A synchronized sender whose recovery ended while its queue is still full
			// loses again.
			f.recheckAt = math.Inf(1)
			for _, li := range f.links {
				if s.links[li].mode == queueFull && f.active {
					f.reactAt = t + f.rtt
					break
				}
			}
		}
	}
	return changed
}

// sample records trace rows at every sample time inside the step [t0, t1].
func (s *fluidSystem) sample(t0, t1 float64) {
	for s.nextSmp <= t1 && s.nextSmp <= s.end {
		s.drv.Interpolate(s.scratch, s.nextSmp)
		s.sampleAt(s.nextSmp, s.scratch)
	}
}

func (s *fluidSystem) sampleAt(t float64, y *mat.VecDense) {
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
			q += yd[s.links[li].off+lvQueue] / s.links[li].refBytes
		}
		s.trace = append(s.trace, Sample{
			TS: t, Flow: f.flow, Subflow: f.sub, CwndPkts: yd[f.off+f.sub], Ssthresh: ssthreshOf(f.law, f.sub),
			RateBps: f.rate * 8, RTTS: f.rtt, QueuePkts: q, DeliveredPkts: yd[f.cnt+cntDelivered],
		})
	}
	for li := range s.links {
		l := &s.links[li]
		s.trace = append(s.trace, Sample{TS: t, Flow: -1, Link: l.name, QueuePkts: yd[l.off+lvQueue] / l.refBytes})
	}
	s.gen++
	s.nextSmp = t + s.set.SampleS
}

func (s *fluidSystem) result() *Result {
	y := s.drv.Y().RawVector().Data
	T := s.end
	res := &Result{
		Scenario: s.sc.Name, Engine: "fluid", Form: s.set.Form, DropRule: s.sc.DropRule,
		Seed: s.set.Seed, DurationS: T, Trace: s.trace, Crossings: s.crossings, Losses: s.losses,
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		end := T
		if f.endT > 0 {
			end = f.endT
		}
		active := math.Max(end-f.start, 0)
		c := f.cnt
		fr := FlowResult{
			Flow: f.flow, Subflow: f.sub, Name: f.name, Algorithm: f.algo, Path: f.path,
			LossEvents: f.lossEvents, Timeouts: f.timeouts,
			SentPkts: y[c+cntSent], DeliveredPkts: y[c+cntDelivered], DroppedPkts: y[c+cntDropped],
			ActiveS: active,
		}
		if active > 0 {
			fr.MeanCwndPkts = y[c+cntCwndTime] / active
			fr.MeanThroughputBps = fr.DeliveredPkts * f.mss * 8 / active
			fr.GoodputBps = fr.MeanThroughputBps
		}
		if f.done {
			ct := f.completion
			fr.CompletionTimeS = &ct
		}
		res.Flows = append(res.Flows, fr)
	}
	for li := range s.links {
		l := &s.links[li]
		lr := LinkResult{Link: l.name}
		if T > 0 {
			lr.MeanQueuePkts = y[l.off+lvQueueTime] / T / l.refBytes
			if cap := s.sc.Links[li].CapacityBps / 8; cap > 0 {
				lr.Utilisation = y[l.off+lvDeparted] / (cap * T)
			}
		}
		lr.DroppedPkts = y[l.off+lvDropped] / l.refBytes
		res.Links = append(res.Links, lr)
	}
	return res
}
