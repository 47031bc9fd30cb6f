package packet

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/tcpfluid/tcpfluid/model"
)

// Settings control one packet-level run. The zero value is the documented default.
type Settings struct {
	// Seed seeds the random-loss streams and the RED generator (math/rand/v2 PCG). The
	// same seed gives a byte-identical Result and trace.
	Seed uint64
	// SampleS is the trace sampling interval in seconds; 0 records no trace.
	SampleS float64
	// MaxEvents bounds the number of events processed; past it Run fails with
	// ErrMaxEvents. Default (0) 1e9.
	MaxEvents int
	// MinRTOS is the lower bound of the retransmission timeout in seconds. Default (0)
	// 0.2 s, ns-2.35's minrto_ and Linux's TCP_RTO_MIN; RFC 6298 (2.4) recommends 1 s.
	MinRTOS float64
	// StopAfterLosses ends the run when flow 0 has had this many loss events (fast
	// retransmits and timeouts); 0: no limit. The Result then covers the run so far.
	StopAfterLosses int
	// RecordLosses records every loss event of every flow in Result.Losses.
	RecordLosses bool
	// JitterS holds each data packet at its sender for a further U(0, JitterS) seconds
	// before it enters the first link, keeping a flow's packets in order; a replica of
	// ns-2's TCP/Linux sender (model.RecoveryLinux*) waits as ns-2's overhead_ makes it,
	// U(0, JitterS) after an ACK that finds its timer idle, then sends what the window
	// allows, and its module hears only the ACKs that find the window full (ns2send.go). A deterministic ACK clock locks flows into phase at a drop-tail queue:
	// the packet that finds the buffer full is nearly always the one a growing window
	// sends back to back with another, so a slowly growing flow escapes overflows that
	// random timing would spread over the flows in proportion to their arrivals. A random
	// delay of about one packet's service time at the bottleneck removes the phase effect
	// (Floyd & Jacobson, "On traffic phase effects in packet-switched gateways", 1992);
	// the proportional drop rule of the fluid engine assumes it. Default 0: the scenario's
	// send_jitter (model.Scenario.SendJitterS), else none.
	JitterS float64
	// SACK gives every sender selective acknowledgements and SACK-based loss recovery
	// (sack.go: FACK's loss rule, RFC 6675's pipe), as Linux senders have. Default false:
	// ns-2's one-way agents without SACK, recovering per the law's Recovery().
	SACK bool
	// LostRetransmit makes a SACK sender detect every lost retransmission when a packet
	// sent after it is acknowledged or SACKed (paths do not reorder), and send it again at
	// once, as Linux does (tcp_mark_lost_retrans, then RACK) instead of waiting for the
	// timer or for its hole to become the first (signals.go). With random loss p a window
	// of W packets loses about p·(pW) retransmissions per round trip; BBR, which keeps its
	// rate through such loss, needs it to keep the link. Default false; it needs SACK.
	LostRetransmit bool
}

// Defaults of Settings and fixed constants of the TCP model.
const (
	DefaultMaxEvents = 1_000_000_000
	DefaultMinRTOS   = 0.2 // s, ns-2.35 minrto_
	// DelayedAckS is the delayed-ACK timer, s (RFC 5681 §4.2 allows up to 0.5 s).
	DelayedAckS = 0.2
	// InitialRTOS is the timeout before the first RTT sample, s (RFC 6298 §2.1; ns-2 uses 3 s).
	InitialRTOS = model.InitialRTOS
	// MaxRTOS caps the backed-off timeout, s (RFC 6298 §2.5; ns-2 maxrto_ 60).
	MaxRTOS = model.MaxRTOS
	// ClockGranularityS is G in RTO = SRTT + max(G, 4·RTTVAR), s (ns-2 tcpTick_ 0.01).
	ClockGranularityS = model.ClockGranularityS
	// DupAckThreshold is the number of duplicate ACKs that triggers fast retransmit.
	DupAckThreshold = 3
)

var (
	// ErrSettings is returned (wrapped) for a Settings field out of range.
	ErrSettings = errors.New("invalid packet settings")
	// ErrMaxEvents is returned (wrapped) when a run needs more than Settings.MaxEvents events.
	ErrMaxEvents = errors.New("packet engine event limit reached")
	// ErrScenario is returned (wrapped) for a scenario the engine cannot run: one that was
	// not validated (unknown names, non-positive sizes).
	ErrScenario = errors.New("packet engine cannot run scenario")
	// ErrLaw is returned (wrapped) when an algorithm's event law sets a window that is not
	// a finite number of packets >= 0.
	ErrLaw = errors.New("algorithm law misbehaved")
)

// randomLossStream is the PCG stream (the second seed word) of the random losses of source
// src on the k-th random-loss link of its path (k = 0 for the first). The first one is the
// stream the fluid engine (fluid.Run, model.RandomStream) draws the same flow's
// random-loss thresholds from with the same seed: a comparison of the engines then sees
// each flow's losses after the same numbers of its packets (common random numbers), and
// the difference of the engines is not buried in the noise of two independent loss
// sequences.
func randomLossStream(k, src int) uint64 {
	return fluidRandomStream ^ (uint64(k)<<32 | uint64(src))
}

// fluidRandomStream is model.RandomStream.
const fluidRandomStream = 0x7cf1d

// jitterStream is the PCG stream of the sender jitter (Settings.JitterS).
const jitterStream = 0x717e

// ctxCheckEvery is how many events run between checks of the context.
const ctxCheckEvery = 1 << 16

// cbrSource is one constant-bit-rate sender.
type cbrSource struct {
	path      []int32
	bytes     float64 // packet size, bytes
	intervalS float64 // spacing between packets, s
	stop      float64 // s
}

// sim is one run's state.
type sim struct {
	scn    *model.Scenario
	set    Settings
	now    float64
	end    float64
	q      eventQueue
	rng    *rand.Rand // RED's drops
	jitter *rand.Rand // sender jitter (Settings.JitterS)
	links  []link
	flows  []tcpFlow
	cbrs   []cbrSource
	events int64
	trace  []model.Sample
	minRTO float64
	losses []model.LossRecord
	err    error // set by fail; stops the run
}

// fail records the first error that must stop the run.
func (sm *sim) fail(err error) {
	if sm.err == nil {
		sm.err = err
	}
}

// Run simulates the scenario packet by packet and returns the same Result shape as the
// fluid engine (Engine "packet"). The scenario must have been validated (s.Validate());
// Run does not modify it.
func Run(ctx context.Context, s *model.Scenario, set Settings) (*model.Result, error) {
	sm, err := newSim(s, set)
	if err != nil {
		return nil, err
	}
	if err := sm.run(ctx, sm.end, math.MaxInt); err != nil {
		return nil, err
	}
	return sm.result(), nil
}

func checkSettings(set *Settings) error {
	switch {
	case math.IsNaN(set.SampleS) || math.IsInf(set.SampleS, 0) || set.SampleS < 0:
		return fmt.Errorf("%w: SampleS = %v s, want >= 0 (0: no trace)", ErrSettings, set.SampleS)
	case set.StopAfterLosses < 0:
		return fmt.Errorf("%w: StopAfterLosses = %d, want >= 0 (0: no limit)", ErrSettings, set.StopAfterLosses)
	case set.MaxEvents < 0:
		return fmt.Errorf("%w: MaxEvents = %d, want >= 0 (0: default %d)", ErrSettings, set.MaxEvents, DefaultMaxEvents)
	case math.IsNaN(set.JitterS) || math.IsInf(set.JitterS, 0) || set.JitterS < 0:
		return fmt.Errorf("%w: JitterS = %v s, want >= 0 (0: no jitter)", ErrSettings, set.JitterS)
	case math.IsNaN(set.MinRTOS) || math.IsInf(set.MinRTOS, 0) || set.MinRTOS < 0:
		return fmt.Errorf("%w: MinRTOS = %v s, want >= 0 (0: default %v s)", ErrSettings, set.MinRTOS, DefaultMinRTOS)
	}
	if set.MaxEvents == 0 {
		set.MaxEvents = DefaultMaxEvents
	}
	if set.MinRTOS == 0 {
		set.MinRTOS = DefaultMinRTOS
	}
	return nil
}

// newSim builds the network, the flows and the initial events.
func newSim(s *model.Scenario, set Settings) (*sim, error) {
	set.SACK = set.SACK || s.SACK
	set.LostRetransmit = set.LostRetransmit || s.LostRetransmit
	if set.JitterS == 0 {
		set.JitterS = s.SendJitterS
	}
	if err := checkSettings(&set); err != nil {
		return nil, err
	}
	if !(s.DurationS > 0) || math.IsInf(s.DurationS, 0) {
		return nil, fmt.Errorf("%w: duration = %v s, want > 0 (validate the scenario first)", ErrScenario, s.DurationS)
	}
	sm := &sim{
		scn:    s,
		set:    set,
		end:    s.DurationS,
		q:      newEventQueue(1024),
		rng:    rand.New(rand.NewPCG(set.Seed, set.Seed^0x9e3779b97f4a7c15)),
		jitter: rand.New(rand.NewPCG(set.Seed, jitterStream)),
		minRTO: set.MinRTOS,
	}
	subflows := 0
	for i := range s.Flows {
		subflows += len(s.Flows[i].PathNames())
	}
	sources := subflows + len(s.CBR)
	sm.links = make([]link, len(s.Links))
	for i, l := range s.Links {
		if !(l.CapacityBps > 0) || !(l.BufferPkts >= 1) || l.DelayS < 0 {
			return nil, fmt.Errorf("%w: link %q: capacity %v bit/s, buffer %v packets, delay %v s, want > 0, >= 1, >= 0 (validate the scenario first)",
				ErrScenario, l.Name, l.CapacityBps, l.BufferPkts, l.DelayS)
		}
		L := &sm.links[i]
		*L = link{
			name: l.Name, capBps: l.CapacityBps, delayS: l.DelayS,
			buffer: int(min(math.Floor(l.BufferPkts), math.MaxInt32)),
			up:     true, downAt: math.Inf(-1),
			loss: l.Loss, lossP: l.LossP,
			red: l.Queue == model.QueueRED, redCfg: l.RED, redCnt: -1,
			aqm: newAQM(&l, sources),
		}
		switch l.Loss {
		case model.LossPeriodic:
			L.periodic = make([]float64, sources)
		case model.LossRandom:
			L.randomRate = -math.Log1p(-l.LossP)
			L.randomLeft = make([]int64, sources)
			L.randomRNG = make([]*rand.Rand, sources) // seeded per source below
		}
	}
	paths := make([][]int32, len(s.Paths))
	for i, p := range s.Paths {
		if len(p.Links) == 0 {
			return nil, fmt.Errorf("%w: path %q has no links", ErrScenario, p.Name)
		}
		for _, name := range p.Links {
			li := s.LinkIndex(name)
			if li < 0 {
				return nil, fmt.Errorf("%w: path %q: unknown link %q", ErrScenario, p.Name, name)
			}
			paths[i] = append(paths[i], int32(li))
		}
	}
	pathOf := func(kind, name string) ([]int32, error) {
		if pi := s.PathIndex(name); pi >= 0 {
			return paths[pi], nil
		}
		return nil, fmt.Errorf("%w: %s: unknown path %q", ErrScenario, kind, name)
	}
	sm.flows = make([]tcpFlow, subflows)
	engine := int32(0)
	for i := range s.Flows {
		fl := &s.Flows[i]
		c, err := newConn(s, i, engine)
		if err != nil {
			return nil, err
		}
		for k, name := range fl.PathNames() {
			path, err := pathOf("flow "+fl.Name, name)
			if err != nil {
				return nil, err
			}
			if err := sm.flows[engine].init(sm, c, k, path); err != nil {
				return nil, err
			}
			sm.q.push(fl.StartS, event{kind: evFlowStart, idx: engine})
			if stop := fl.StopS; stop > 0 && stop < sm.end {
				sm.q.push(stop, event{kind: evFlowStop, idx: engine})
			}
			engine++
		}
	}
	sm.cbrs = make([]cbrSource, len(s.CBR))
	for i, c := range s.CBR {
		path, err := pathOf("cbr "+c.Name, c.Path)
		if err != nil {
			return nil, err
		}
		if !(c.RateBps > 0) || !(c.PacketBytes > 0) {
			return nil, fmt.Errorf("%w: cbr %q: rate %v bit/s, packet %v bytes, want > 0", ErrScenario, c.Name, c.RateBps, c.PacketBytes)
		}
		stop := c.StopS
		if stop <= 0 || stop > sm.end {
			stop = sm.end
		}
		sm.cbrs[i] = cbrSource{path: path, bytes: c.PacketBytes, intervalS: c.PacketBytes * 8 / c.RateBps, stop: stop}
		sm.q.push(c.StartS, event{kind: evCBR, idx: int32(i)})
	}
	for src := range sources {
		var path []int32
		if src < len(sm.flows) {
			path = sm.flows[src].path
		} else {
			path = sm.cbrs[src-len(sm.flows)].path
		}
		k := 0
		for _, li := range path {
			if L := &sm.links[li]; L.loss == model.LossRandom {
				L.randomRNG[src] = rand.New(rand.NewPCG(set.Seed, randomLossStream(k, src)))
				k++
			}
		}
	}
	for i, e := range s.Events {
		if s.LinkIndex(e.Link) < 0 {
			return nil, fmt.Errorf("%w: events[%d]: unknown link %q", ErrScenario, i, e.Link)
		}
		sm.q.push(e.AtS, event{kind: evNetwork, idx: int32(i)})
	}
	if set.SampleS > 0 {
		n := int(math.Floor(sm.end/set.SampleS + 1e-9))
		sm.trace = make([]model.Sample, 0, n*(len(sm.flows)+len(sm.links)))
		if n >= 1 {
			sm.q.push(set.SampleS, event{kind: evSample, idx: 1})
		}
	}
	return sm, nil
}

// run processes events up to time until (s, at most the scenario's end) or until steps
// events have run, whichever comes first.
func (sm *sim) run(ctx context.Context, until float64, steps int) error {
	until = min(until, sm.end)
	for n := 0; n < steps && sm.q.len() > 0 && sm.q.heap[0].t <= until; n++ {
		if sm.events%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		sm.events++
		if sm.events > int64(sm.set.MaxEvents) {
			return fmt.Errorf("%w: more than %d events by t = %.6g s of %.6g s (raise Settings.MaxEvents)",
				ErrMaxEvents, sm.set.MaxEvents, sm.now, sm.end)
		}
		t, e := sm.q.pop()
		sm.now = t
		sm.dispatch(e)
		if sm.err != nil {
			return sm.err
		}
		if sm.end < until {
			break // StopAfterLosses moved the end to now
		}
	}
	return nil
}

// lossEvent records flow i's loss event (before the law's jump) and ends the run after
// flow 0's StopAfterLosses-th.
func (sm *sim) lossEvent(i int32) {
	f := &sm.flows[i]
	f.lossEvents++
	if sm.set.RecordLosses {
		sm.losses = append(sm.losses, model.LossRecord{Flow: int(i), TS: sm.now, CwndPkts: f.cwnd,
			CwndTimePktS: f.cwndInt, DeliveredPkts: float64(f.delivered)})
	}
	if i == 0 && sm.set.StopAfterLosses > 0 && f.lossEvents >= sm.set.StopAfterLosses {
		sm.end = sm.now
	}
}

func (sm *sim) dispatch(e event) {
	switch e.kind {
	case evTxDone:
		sm.txDone(e)
	case evArrive:
		sm.arrive(e)
	case evAck:
		sm.flows[e.idx].onAck(sm, e)
	case evRTO:
		sm.flows[e.idx].onRTOEvent(sm, e.gen)
	case evDelAck:
		sm.flows[e.idx].onDelAckEvent(sm, e.gen)
	case evFlowStart:
		sm.flows[e.idx].start(sm)
	case evFlowStop:
		sm.flows[e.idx].stop(sm)
	case evEmit:
		sm.enqueue(e.idx, e.pkt)
	case evCBR:
		sm.cbrEmit(int(e.idx))
	case evNetwork:
		sm.network(int(e.idx))
	case evSample:
		sm.sample(int(e.idx))
	case evPace:
		sm.flows[e.idx].onPaceEvent(sm)
	case evSendTimer:
		sm.flows[e.idx].onSendTimer(sm)
	}
}

// pathOf returns the links a packet traverses.
func (sm *sim) pathOf(p *pkt) []int32 {
	if p.cbr {
		return sm.cbrs[p.src].path
	}
	return sm.flows[p.src].path
}

// sourceIndex numbers TCP flows first, then CBR sources (periodic-loss counters).
func (sm *sim) sourceIndex(p *pkt) int {
	if p.cbr {
		return len(sm.flows) + int(p.src)
	}
	return int(p.src)
}

// lose records a lost packet against its flow.
func (sm *sim) lose(p *pkt) {
	if !p.cbr {
		sm.flows[p.src].dropped++
	}
}

// drop records a packet dropped by link li's queue (or by the link being down).
func (sm *sim) drop(li int32, p *pkt) {
	sm.links[li].dropped++
	sm.lose(p)
}

// enqueue offers a packet to link li: loss process, queue discipline, buffer limit. A loss
// of the link's loss process is the channel's, counted for the flow only: a link's drops
// are its queue's, as in the fluid engine.
func (sm *sim) enqueue(li int32, p pkt) {
	l := &sm.links[li]
	if l.up && l.lossDrop(sm.sourceIndex(&p)) {
		sm.lose(&p)
		return
	}
	if l.aqm != nil {
		sm.aqmEnqueue(li, p) // ECN marking and AQMs (aqm.go)
		return
	}
	if !l.up || (l.red && l.redDrop(sm, sm.now)) || l.queue.len() >= l.buffer {
		sm.drop(li, &p)
		return
	}
	l.account(sm.now)
	l.queue.push(p)
	if !l.busy {
		sm.startTx(li)
	}
}

func (sm *sim) startTx(li int32) {
	l := &sm.links[li]
	if l.aqm != nil && !sm.aqmDequeue(li) {
		l.busy = false // the AQM dropped every packet waiting
		l.idleFrom = sm.now
		return
	}
	l.busy = true
	l.txStart = sm.now
	sm.q.push(sm.now+l.txTime(l.queue.front().bytes), event{kind: evTxDone, idx: li, gen: l.epoch})
}

func (sm *sim) txDone(e event) {
	l := &sm.links[e.idx]
	if e.gen != l.epoch {
		return // the link went down while this packet was being serialized
	}
	l.account(sm.now)
	p := l.queue.pop()
	l.busyS += sm.now - l.txStart
	sm.q.push(sm.now+l.delayS, event{kind: evArrive, idx: e.idx, gen: l.epoch, pkt: p})
	if l.qlen() > 0 {
		sm.startTx(e.idx)
	} else {
		l.busy = false
		l.idleFrom = sm.now
	}
}

// arrive handles a packet at the far end of link e.idx.
func (sm *sim) arrive(e event) {
	p := e.pkt
	if e.gen != sm.links[e.idx].epoch {
		sm.drop(e.idx, &p) // it was on the wire when the link went down
		return
	}
	p.hop++
	path := sm.pathOf(&p)
	if int(p.hop) < len(path) {
		sm.enqueue(path[p.hop], p)
		return
	}
	if !p.cbr {
		sm.flows[p.src].receive(sm, &p)
	}
}

func (sm *sim) cbrEmit(i int) {
	c := &sm.cbrs[i]
	if sm.now >= c.stop {
		return
	}
	sm.enqueue(c.path[0], pkt{sentAt: sm.now, bytes: c.bytes, src: int32(i), cbr: true})
	sm.q.push(sm.now+c.intervalS, event{kind: evCBR, idx: int32(i)})
}

// network applies scenario event i.
func (sm *sim) network(i int) {
	e := &sm.scn.Events[i]
	li := int32(sm.scn.LinkIndex(e.Link))
	l := &sm.links[li]
	switch e.Kind {
	case model.EventLinkDown:
		if !l.up {
			return
		}
		l.up = false
		l.downAt = sm.now
		l.epoch++
		l.account(sm.now)
		if l.busy {
			l.busyS += sm.now - l.txStart
			l.busy = false
		}
		for l.queue.len() > 0 {
			p := l.queue.pop()
			sm.drop(li, &p)
		}
		if l.aqm != nil {
			sm.aqmFlush(li)
		}
		l.idleFrom = sm.now
		for i := range sm.flows {
			if f := &sm.flows[i]; sm.scn.Flows[f.conn.flow].RouteAware && slices.Contains(f.path, li) {
				f.pathDown(sm)
			}
		}
	case model.EventLinkUp:
		l.up = true
		if e.DelayS > 0 {
			l.delayS = e.DelayS
		}
		for i := range sm.flows {
			if f := &sm.flows[i]; f.outage && sm.pathUp(f.path, math.Inf(1)) {
				f.resume(sm)
			}
		}
	case model.EventDelayChange:
		l.delayS = e.DelayS
	}
}

// pathUp reports whether every link of a path is up and has not gone down since t.
func (sm *sim) pathUp(path []int32, since float64) bool {
	for _, li := range path {
		if l := &sm.links[li]; !l.up || l.downAt >= since {
			return false
		}
	}
	return true
}

// ackDelay is how long an ACK of ackBytes takes back over a path now, s: the links'
// propagation delays plus its serialization on each, never queueing (the reverse path is
// uncongested).
func (sm *sim) ackDelay(path []int32, ackBytes float64) float64 {
	d := 0.0
	for _, li := range path {
		l := &sm.links[li]
		d += l.delayS + l.txTime(ackBytes)
	}
	return d
}

// sample records trace row k at t = k·SampleS.
func (sm *sim) sample(k int) {
	for i := range sm.flows {
		// As the fluid engine's: flows that have started and not ended before this sample.
		if f := &sm.flows[i]; sm.now >= f.startS && !(f.ended && sm.now > f.activeEnd) {
			sm.trace = append(sm.trace, f.sample(sm))
		}
	}
	for i := range sm.links {
		sm.trace = append(sm.trace, model.Sample{TS: sm.now, Flow: -1, Link: sm.links[i].name, QueuePkts: float64(sm.links[i].waiting())})
	}
	if next := float64(k+1) * sm.set.SampleS; next <= sm.end*(1+1e-12) {
		sm.q.push(next, event{kind: evSample, idx: int32(k + 1)})
	}
}

// result closes the books at the end of the run.
func (sm *sim) result() *model.Result {
	sm.now = sm.end
	r := &model.Result{
		Scenario:  sm.scn.Name,
		Engine:    "packet",
		Seed:      sm.set.Seed,
		DurationS: sm.end,
		Flows:     make([]model.FlowResult, len(sm.flows)),
		Links:     make([]model.LinkResult, len(sm.links)),
		Trace:     sm.trace,
		Losses:    sm.losses,
	}
	for i := range sm.flows {
		r.Flows[i] = sm.flows[i].result(sm)
	}
	for i := range sm.links {
		l := &sm.links[i]
		l.account(sm.end)
		busy := l.busyS
		if l.busy {
			busy += sm.end - l.txStart
		}
		r.Links[i] = model.LinkResult{
			Link:          l.name,
			MeanQueuePkts: l.qInt / sm.end,
			QueueSDPkts:   model.TimeSD(l.qInt/sm.end, l.qSqInt/sm.end),
			Utilisation:   busy / sm.end,
			DroppedPkts:   float64(l.dropped),
		}
	}
	return r
}
