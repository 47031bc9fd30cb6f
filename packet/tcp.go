package packet

import (
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// tcpFlow is one TCP connection: an ns-2-style one-way sender (sequence numbers count
// packets) driving the flow's model.EventLaw, and its receiver.
//
// The sender keeps snd.una (sndUna), the next sequence to send (sndNxt, moved back to
// sndUna for go-back-N after a timeout or a Tahoe fast retransmit) and snd.max (maxSent).
// It sends while sndNxt − sndUna < ⌊min(cwnd + inflation, rwnd)⌋ (at least one packet),
// ns-2's `t_seqno_ <= highest_ack_ + window()` with window() truncated to whole packets.
type tcpFlow struct {
	law      model.EventLaw
	recovery model.Recovery
	path     []int32
	idx      int32

	mss, lastPayload float64 // payload bytes of a full packet and of the last one
	header           float64 // TCP/IP header bytes added to each data packet on the wire; the ACK size
	nPkts            int64   // packets to send; math.MaxInt64 for a long-lived flow
	rwnd             float64 // receiver window, packets (not rounded)
	startS           float64
	priorRTT         float64 // propagation + serialization RTT of the path, s: the observation before any sample

	running bool // between start and stop, completion or the end of the run
	ended   bool

	// sender
	sndUna, sndNxt, maxSent int64
	dupacks                 int     // duplicate ACKs since the last new ACK
	signalled               int64   // packets reported delivered by duplicate ACKs, not yet covered by a cumulative ACK
	inRecovery              bool    // Reno/NewReno fast recovery
	recover                 int64   // maxSent at the last loss event: no new fast retransmit until sndUna passes it
	inflation               float64 // fast-recovery window inflation, packets (negative after NewReno deflation)
	partialSeen             bool    // a partial ACK has restarted the timer in this recovery
	cwnd                    float64 // law.Cwnd() after the latest callback, packets

	// RTT and retransmission timer (RFC 6298)
	timing           bool // one packet at a time is timed (Karn: never a retransmission)
	timedSeq         int64
	timedAt          float64
	srtt, rttvar     float64
	haveSRTT         bool
	reinitSRTT       bool    // after a long backoff the next sample restarts the estimator
	backoff          float64 // RTO multiplier, 1, 2, 4, …
	lastRTT, baseRTT float64 // latest and minimum RTT samples, s
	haveRTT          bool
	rtoAt            float64 // deadline, s; +Inf when the timer is off
	rtoQueued        bool    // an evRTO with generation rtoGen is scheduled at rtoQueuedAt
	rtoQueuedAt      float64
	rtoGen           uint32

	// receiver
	rcvNxt     int64
	ooo        bitRing // packets received above rcvNxt
	ackPending int     // in-order packets not yet acknowledged (delayed ACK)
	ackEcho    float64 // send time echoed by the pending delayed ACK, s
	delackGen  uint32

	// statistics
	sent, delivered, dropped    int64
	deliveredBytes, uniqueBytes float64 // payload bytes at the receiver: all copies, first copies
	lossEvents, timeouts        int
	cwndInt, cwndLastT          float64 // ∫ cwnd dt over the active time, packet·s
	activeEnd                   float64
	completion                  float64 // s after start; -1 while incomplete
	sampleBytes                 float64 // deliveredBytes at the previous trace sample
}

func (f *tcpFlow) init(sm *sim, i int, fl *model.Flow, path []int32) error {
	if !(fl.MSSBytes >= 1) || !(fl.RwndBytes >= fl.MSSBytes) || !(fl.InitialCwnd >= 1) || math.IsNaN(fl.SizeBytes) || fl.SizeBytes < 0 || !(fl.HeaderBytes >= 0) || math.IsInf(fl.HeaderBytes, 1) {
		return fmt.Errorf("%w: flow %q: mss %v bytes, rwnd %v bytes, initial cwnd %v packets, size %v bytes, header %v bytes, want mss >= 1, rwnd >= mss, cwnd >= 1, size >= 0, finite header >= 0 (validate the scenario first)",
			ErrScenario, fl.Name, fl.MSSBytes, fl.RwndBytes, fl.InitialCwnd, fl.SizeBytes, fl.HeaderBytes)
	}
	alg, err := model.New(fl.Algorithm)
	if err != nil {
		return fmt.Errorf("%w: flow %q: %w", ErrScenario, fl.Name, err)
	}
	for _, k := range sortedParams(fl.Params) {
		if err := alg.Set(k, fl.Params[k]); err != nil {
			return fmt.Errorf("%w: flow %q: %w", ErrScenario, fl.Name, err)
		}
	}
	*f = tcpFlow{
		path:       path,
		idx:        int32(i),
		mss:        fl.MSSBytes,
		header:     fl.HeaderBytes,
		nPkts:      math.MaxInt64,
		rwnd:       fl.RwndBytes / fl.MSSBytes,
		startS:     fl.StartS,
		recover:    -1,
		backoff:    1,
		rtoAt:      math.Inf(1),
		completion: -1,
	}
	if fl.SizeBytes > 0 {
		n := math.Ceil(fl.SizeBytes / fl.MSSBytes)
		if n > 1<<53 {
			return fmt.Errorf("%w: flow %q: size %v bytes is more than 2^53 packets", ErrScenario, fl.Name, fl.SizeBytes)
		}
		f.nPkts = int64(n)
		f.lastPayload = fl.SizeBytes - (n-1)*fl.MSSBytes
	}
	f.law = alg.NewEvent(model.FlowConfig{InitialCwnd: fl.InitialCwnd, InitialSsthresh: fl.InitialSsthresh, MaxCwnd: f.rwnd, MSSBytes: fl.MSSBytes})
	f.recovery = f.law.Recovery()
	if f.cwnd = f.law.Cwnd(); !(f.cwnd > 0) || math.IsInf(f.cwnd, 1) {
		return fmt.Errorf("%w: flow %q: %s starts with cwnd %v packets, want a finite window > 0", ErrLaw, fl.Name, fl.Algorithm, f.cwnd)
	}
	for _, li := range path {
		l := &sm.links[li]
		f.priorRTT += 2*l.delayS + l.txTime(f.mss+f.header) + l.txTime(f.header)
	}
	f.ooo.reset(1024)
	return nil
}

// readCwnd takes the law's window after a callback. A law that returns a window that is
// not a finite number of packets >= 0 stops the run with ErrLaw.
func (f *tcpFlow) readCwnd(sm *sim) {
	f.cwnd = f.law.Cwnd()
	if !(f.cwnd >= 0) || math.IsInf(f.cwnd, 1) {
		sm.fail(fmt.Errorf("%w: flow %q (%s) set cwnd %v packets at t = %v s, want a finite window >= 0",
			ErrLaw, sm.scn.Flows[f.idx].Name, sm.scn.Flows[f.idx].Algorithm, f.cwnd, sm.now))
		f.cwnd = 1
	}
}

// payload is the data carried by packet seq, bytes.
func (f *tcpFlow) payload(seq int64) float64 {
	if seq == f.nPkts-1 && f.lastPayload > 0 {
		return f.lastPayload
	}
	return f.mss
}

// obs is what the law sees: the latest RTT sample and the minimum so far (before any
// sample, the path's propagation and serialization RTT for both).
func (f *tcpFlow) obs(sm *sim) model.Observation {
	if !f.haveRTT {
		return model.Observation{Now: sm.now, RTT: f.priorRTT, BaseRTT: f.priorRTT}
	}
	return model.Observation{Now: sm.now, RTT: f.lastRTT, BaseRTT: f.baseRTT}
}

// account adds the cwnd integral up to now; call before the window changes.
func (f *tcpFlow) account(now float64) {
	if f.running {
		f.cwndInt += f.cwnd * (now - f.cwndLastT)
	}
	f.cwndLastT = now
}

func (f *tcpFlow) start(sm *sim) {
	f.running = true
	f.cwndLastT = sm.now
	f.trySend(sm)
}

func (f *tcpFlow) stop(sm *sim) {
	if f.running {
		f.finish(sm.now)
	}
}

// finish ends the active time: the application stopped, the transfer completed or the run
// ended.
func (f *tcpFlow) finish(now float64) {
	f.account(now)
	f.running = false
	f.ended = true
	f.activeEnd = now
	f.rtoAt = math.Inf(1)
}

// rto is the current retransmission timeout, s: RFC 6298's SRTT + max(G, 4·RTTVAR),
// at least MinRTOS, times the backoff, at most MaxRTOS.
func (f *tcpFlow) rto(sm *sim) float64 {
	base := InitialRTOS
	if f.haveSRTT {
		base = f.srtt + math.Max(ClockGranularityS, 4*f.rttvar)
	}
	return math.Min(math.Max(base, sm.minRTO)*f.backoff, MaxRTOS)
}

// rttSample feeds one measurement to the RFC 6298 estimator (α = 1/8, β = 1/4).
func (f *tcpFlow) rttSample(r float64) {
	if !f.haveSRTT || f.reinitSRTT {
		f.srtt, f.rttvar = r, r/2
		f.haveSRTT, f.reinitSRTT = true, false
		return
	}
	f.rttvar = 0.75*f.rttvar + 0.25*math.Abs(f.srtt-r)
	f.srtt = 0.875*f.srtt + 0.125*r
}

// setTimer (re)arms the retransmission timer for time at. The timer is lazy: pushing back
// the deadline (every new ACK) costs nothing, and the scheduled event re-arms itself if it
// fires early.
func (f *tcpFlow) setTimer(sm *sim, at float64) {
	f.rtoAt = at
	if !f.rtoQueued || f.rtoQueuedAt > at {
		f.rtoGen++
		f.rtoQueued, f.rtoQueuedAt = true, at
		sm.q.push(at, event{kind: evRTO, idx: f.idx, gen: f.rtoGen})
	}
}

func (f *tcpFlow) onRTOEvent(sm *sim, gen uint32) {
	if gen != f.rtoGen {
		return
	}
	f.rtoQueued = false
	switch {
	case !f.running || math.IsInf(f.rtoAt, 1):
	case sm.now < f.rtoAt:
		f.setTimer(sm, f.rtoAt)
	default:
		f.timeout(sm)
	}
}

// transmit sends packet seq now: a new packet, or a retransmitted copy if seq < maxSent.
func (f *tcpFlow) transmit(sm *sim, seq int64) {
	f.sent++
	if seq >= f.maxSent {
		f.maxSent = seq + 1
		if !f.timing {
			f.timing, f.timedSeq, f.timedAt = true, seq, sm.now
		}
	}
	if math.IsInf(f.rtoAt, 1) {
		f.setTimer(sm, sm.now+f.rto(sm))
	}
	sm.enqueue(f.path[0], pkt{sentAt: sm.now, bytes: f.payload(seq) + f.header, seq: seq, src: f.idx})
}

// trySend sends while the window allows.
func (f *tcpFlow) trySend(sm *sim) {
	if !f.running {
		return
	}
	win := math.Floor(math.Min(f.cwnd+f.inflation, f.rwnd))
	if win < 1 {
		win = 1
	}
	for f.sndNxt < f.nPkts && float64(f.sndNxt-f.sndUna) < win {
		f.transmit(sm, f.sndNxt)
		f.sndNxt++
	}
}

func (f *tcpFlow) onAck(sm *sim, e event) {
	if !f.running || !sm.pathUp(f.path, e.at) {
		return // the sender has stopped, or the ACK was on a link that went down
	}
	f.account(sm.now)
	f.lastRTT = sm.now - e.pkt.sentAt
	if !f.haveRTT || f.lastRTT < f.baseRTT {
		f.baseRTT = f.lastRTT
	}
	f.haveRTT = true
	a := e.pkt.seq
	if f.timing && a > f.timedSeq {
		f.rttSample(sm.now - f.timedAt)
		f.timing = false
		f.backoff = 1
	}
	switch {
	case a > f.sndUna:
		f.newAck(sm, a)
	case a == f.sndUna && f.maxSent > f.sndUna:
		f.dupAck(sm)
	default:
		return // an old ACK
	}
	f.readCwnd(sm)
	if f.dupacks == 0 || f.dupacks >= DupAckThreshold {
		f.trySend(sm)
	}
}

// newAck handles a cumulative ACK of new data. The law is told of the packets it
// acknowledges that duplicate ACKs have not already reported as delivered (at least one):
// each duplicate ACK means a packet left the network (RFC 5681 §3.2), so the ACK that ends
// a recovery, or that follows a Tahoe retransmission, moves the window by about one packet,
// as ns-2's per-ACK increase does, and not by the whole window it covers.
func (f *tcpFlow) newAck(sm *sim, a int64) {
	newly := a - f.sndUna
	consumed := min(f.signalled, newly-1)
	f.signalled -= consumed
	if f.inRecovery && f.recovery == model.RecoveryNewReno && a < f.recover {
		// RFC 6582 partial ACK: deflate by the data acknowledged, add back one packet,
		// retransmit the next hole; the timer restarts at the first partial ACK only
		// (the "impatient" variant, ns-2's newreno_changes1_).
		f.inflation -= float64(newly - 1)
		f.sndUna = a
		f.sndNxt = max(f.sndNxt, a)
		f.transmit(sm, a)
		if !f.partialSeen {
			f.partialSeen = true
			f.setTimer(sm, sm.now+f.rto(sm))
		}
		return
	}
	f.inRecovery, f.inflation = false, 0
	f.sndUna = a
	f.sndNxt = max(f.sndNxt, a)
	f.dupacks = 0
	f.signalled = min(f.signalled, f.maxSent-a)
	f.law.OnAck(float64(newly-consumed), f.obs(sm))
	switch {
	case a >= f.nPkts:
		f.completion = sm.now - f.startS
		f.readCwnd(sm)
		f.finish(sm.now)
	case f.maxSent > a:
		f.setTimer(sm, sm.now+f.rto(sm))
	default:
		f.rtoAt = math.Inf(1)
	}
}

func (f *tcpFlow) dupAck(sm *sim) {
	f.dupacks++
	if f.signalled < f.maxSent-f.sndUna {
		f.signalled++
	}
	switch {
	case f.inRecovery:
		f.inflation++
	case f.dupacks == DupAckThreshold:
		// ns-2's bugFix_ and RFC 6582 §3.2: no second fast retransmit for losses in the
		// window that the previous loss event already covered.
		if f.sndUna > f.recover {
			f.fastRetransmit(sm)
		}
	case f.dupacks < DupAckThreshold:
		f.limitedTransmit(sm)
	}
}

// limitedTransmit sends one new packet on each of the first two duplicate ACKs if the
// receiver window allows and the flight stays within cwnd + dupacks (RFC 3042; ns-2's
// singledup_, on by default).
func (f *tcpFlow) limitedTransmit(sm *sim) {
	out := float64(f.sndNxt - f.sndUna)
	if f.sndNxt < f.nPkts && out < math.Floor(f.cwnd)+float64(f.dupacks) && out < math.Floor(f.rwnd) {
		f.transmit(sm, f.sndNxt)
		f.sndNxt++
	}
}

// fastRetransmit enters loss recovery on the third duplicate ACK, per the law's Recovery:
// Tahoe goes back to the lost packet and resends everything after it from a one-packet
// window (ns-2's TcpAgent); Reno and NewReno retransmit the lost packet and inflate the
// window by the three duplicate ACKs (RFC 5681 §3.2, RFC 6582).
func (f *tcpFlow) fastRetransmit(sm *sim) {
	sm.lossEvent(f.idx)
	f.recover = f.maxSent
	f.timing = false
	f.law.OnLoss(f.obs(sm))
	f.readCwnd(sm)
	if f.recovery == model.RecoveryTahoe {
		f.sndNxt = f.sndUna
	} else {
		f.inRecovery = true
		f.inflation = DupAckThreshold
		f.partialSeen = false
		f.transmit(sm, f.sndUna)
	}
	f.setTimer(sm, sm.now+f.rto(sm))
}

// timeout is a retransmission timeout: the law's timeout jump, go-back-N from snd.una,
// exponential backoff (RFC 6298 §5.5), no fast retransmit for the data outstanding now.
func (f *tcpFlow) timeout(sm *sim) {
	f.account(sm.now)
	f.timeouts++
	sm.lossEvent(f.idx)
	f.law.OnTimeout(f.obs(sm))
	f.readCwnd(sm)
	f.recover = f.maxSent
	f.inRecovery, f.inflation = false, 0
	f.dupacks = 0
	f.sndNxt = f.sndUna
	f.timing = false
	if f.rto(sm) < MaxRTOS {
		f.backoff *= 2
	}
	if f.backoff > 8 {
		// ns-2 and RFC 6298 §5.7: after several backoffs the old SRTT says little about the
		// path; the next sample starts the estimator afresh.
		f.reinitSRTT = true
	}
	f.setTimer(sm, sm.now+f.rto(sm))
	f.trySend(sm)
}

// receive is the receiver: cumulative ACKs, every packet acknowledged (ns-2 TCPSink)
// unless Settings.DelayedAck.
func (f *tcpFlow) receive(sm *sim, p *pkt) {
	payload := f.payload(p.seq)
	f.delivered++
	f.deliveredBytes += payload
	inOrder := p.seq == f.rcvNxt
	fillsGap := inOrder && f.ooo.count > 0
	if p.seq >= f.rcvNxt && !f.ooo.has(f.rcvNxt, p.seq) {
		f.uniqueBytes += payload
		if inOrder {
			f.rcvNxt++
			for f.ooo.count > 0 && f.ooo.has(f.rcvNxt, f.rcvNxt) {
				f.ooo.clear(f.rcvNxt)
				f.rcvNxt++
			}
		} else {
			f.ooo.set(f.rcvNxt, p.seq)
		}
	}
	if !sm.set.DelayedAck || !inOrder || fillsGap {
		f.sendAck(sm, p.sentAt)
		return
	}
	f.ackPending++
	if f.ackPending == 1 {
		f.ackEcho = p.sentAt
		sm.q.push(sm.now+DelayedAckS, event{kind: evDelAck, idx: f.idx, gen: f.delackGen})
		return
	}
	f.sendAck(sm, f.ackEcho)
}

func (f *tcpFlow) onDelAckEvent(sm *sim, gen uint32) {
	if gen == f.delackGen && f.ackPending > 0 {
		f.sendAck(sm, f.ackEcho)
	}
}

// sendAck sends a cumulative ACK echoing a send time (as TCP timestamps do) over the
// uncongested reverse path (see sim.ackDelay).
func (f *tcpFlow) sendAck(sm *sim, echo float64) {
	f.ackPending = 0
	f.delackGen++
	if !sm.pathUp(f.path, math.Inf(1)) {
		return
	}
	sm.q.push(sm.now+sm.ackDelay(f.path, f.header), event{kind: evAck, idx: f.idx, at: sm.now, pkt: pkt{seq: f.rcvNxt, sentAt: echo}})
}

func (f *tcpFlow) sample(sm *sim, i int) model.Sample {
	rate := (f.deliveredBytes - f.sampleBytes) * 8 / sm.set.SampleS
	f.sampleBytes = f.deliveredBytes
	ssthresh := f.law.Ssthresh()
	if math.IsNaN(ssthresh) || math.IsInf(ssthresh, 0) {
		ssthresh = 0 // none (yet), as model's laws report it
	}
	return model.Sample{TS: sm.now, Flow: i, CwndPkts: f.cwnd, Ssthresh: ssthresh, RateBps: rate, RTTS: f.obs(sm).RTT}
}

func (f *tcpFlow) result(sm *sim, i int) model.FlowResult {
	if f.running {
		f.finish(sm.end)
	}
	fl := &sm.scn.Flows[i]
	r := model.FlowResult{
		Flow:          i,
		Name:          fl.Name,
		Algorithm:     fl.Algorithm,
		Path:          fl.Path,
		LossEvents:    f.lossEvents,
		Timeouts:      f.timeouts,
		SentPkts:      float64(f.sent),
		DeliveredPkts: float64(f.delivered),
		DroppedPkts:   float64(f.dropped),
	}
	if f.ended {
		r.ActiveS = f.activeEnd - f.startS
	}
	if r.ActiveS > 0 {
		r.MeanThroughputBps = f.deliveredBytes * 8 / r.ActiveS
		r.MeanCwndPkts = f.cwndInt / r.ActiveS
		r.GoodputBps = f.uniqueBytes * 8 / r.ActiveS
	}
	if f.completion >= 0 {
		c := f.completion
		r.CompletionTimeS = &c
	}
	return r
}

// bitRing is a set of sequence numbers in [base, base + capacity), stored as a ring of
// bits; base is the receiver's rcvNxt. It grows by doubling when a packet arrives further
// ahead, and never shrinks.
type bitRing struct {
	words []uint64
	mask  int64 // capacity − 1, capacity a power of two
	count int   // bits set
}

func (b *bitRing) reset(capacity int64) {
	b.words = make([]uint64, capacity/64)
	b.mask = capacity - 1
	b.count = 0
}

func (b *bitRing) has(base, seq int64) bool {
	if seq-base > b.mask {
		return false
	}
	i := seq & b.mask
	return b.words[i>>6]&(1<<(i&63)) != 0
}

func (b *bitRing) set(base, seq int64) {
	if seq-base > b.mask {
		b.grow(base, seq)
	}
	i := seq & b.mask
	b.words[i>>6] |= 1 << (i & 63)
	b.count++
}

func (b *bitRing) clear(seq int64) {
	i := seq & b.mask
	b.words[i>>6] &^= 1 << (i & 63)
	b.count--
}

func (b *bitRing) grow(base, seq int64) {
	old := *b
	capacity := old.mask + 1
	for seq-base >= capacity {
		capacity *= 2
	}
	b.reset(capacity)
	for s := base; s <= base+old.mask; s++ {
		if old.has(base, s) {
			b.set(base, s)
		}
	}
}
