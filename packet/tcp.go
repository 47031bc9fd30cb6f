package packet

import (
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// tcpFlow is one TCP sender and its receiver: a single-path flow, or one subflow of a
// multi-path flow. It is an ns-2-style one-way sender (sequence numbers count packets of
// its own sequence space) driving the law its conn holds.
//
// The sender keeps snd.una (sndUna), the next sequence to send (sndNxt, moved back to
// sndUna for go-back-N after a timeout or a Tahoe fast retransmit) and snd.max (maxSent).
// It sends while sndNxt − sndUna < ⌊min(cwnd + inflation, rwnd)⌋ (at least one packet),
// ns-2's `t_seqno_ <= highest_ack_ + window()` with window() truncated to whole packets.
type tcpFlow struct {
	conn     *conn
	recovery model.Recovery
	// ext is the sender's ECN, delivery-rate sampling and pacing (signals.go); nil for a
	// flow that uses none of them, which the code below runs as before.
	ext      *flowExt
	path     []int32
	pathName string
	idx      int32 // engine index: the Result row
	sub      int   // subflow index within the conn

	mss      float64 // payload bytes of a full packet
	header   float64 // TCP/IP header bytes added to each data packet on the wire; the ACK size
	lastSeq  int64   // the sequence number that carries the conn's last (short) data packet; -1 until sent
	rwnd     float64 // receiver window, packets (not rounded)
	startS   float64
	priorRTT float64 // propagation + serialization RTT of the path, s: the observation before any sample

	lastEmit float64 // when the latest jittered packet enters the first link, s (Settings.JitterS)
	sendWait bool    // ns-2's delayed-send timer is pending (ns2send.go)

	running bool // between start and stop, completion or the end of the run
	ended   bool

	// route-aware sender (model.Flow.RouteAware)
	outage  bool    // a link of the path is down: nothing is sent and the timer is held
	wBefore float64 // the law's window when the outage began, packets

	// sender
	sndUna, sndNxt, maxSent int64
	dupacks                 int     // duplicate ACKs since the last new ACK
	signalled               int64   // packets reported delivered by duplicate ACKs, not yet covered by a cumulative ACK
	inRecovery              bool    // Reno/NewReno fast recovery
	recover                 int64   // maxSent at the last loss event: no new fast retransmit until sndUna passes it
	inflation               float64 // fast-recovery window inflation, packets (negative after NewReno deflation)
	partialSeen             bool    // a partial ACK has restarted the timer in this recovery
	cwnd                    float64 // law.Cwnd() after the latest callback, packets

	// SACK scoreboard and recovery (Settings.SACK; see sack.go)
	sack      bool         // the sender has SACK: Settings.SACK, or a simulator recovery (rec)
	rec       *simRecovery // the recovery of ns-2 TCP/Linux or ns-3 (recovery.go); nil for the others
	sacked    bitRing      // packets above sndUna the receiver reported holding
	sackedN   int64        // packets set in sacked
	highSack  int64        // one past the highest packet SACKed or cumulatively acknowledged
	rxtNext   int64        // where the search for the next hole to retransmit resumes
	rxtOut    int64        // retransmissions of the current episode neither ACKed nor SACKed
	lossState bool         // after a timeout, until snd.una passes recover

	// RTT and retransmission timer (RFC 6298)
	timing           bool // one packet at a time is timed (Karn: never a retransmission)
	timedSeq         int64
	timedAt          float64
	est              model.RTTEstimator
	ns2              ns2RTT  // ns-2 TCP/Linux's timer, which a RecoveryLinux* sender keeps instead of est
	backoff          float64 // RTO multiplier, 1, 2, 4, …
	lastRTT, baseRTT float64 // latest and minimum RTT samples, s
	haveRTT          bool
	rtoAt            float64 // deadline, s; +Inf when the timer is off
	rtoQueued        bool    // an evRTO with generation rtoGen is scheduled at rtoQueuedAt
	rtoQueuedAt      float64
	rtoGen           uint32

	// receiver
	echoCE     bool // the CE state the next ACK echoes (ecn.go)
	rcvNxt     int64
	ooo        bitRing // packets received above rcvNxt
	ackPending int     // in-order packets not yet acknowledged (delayed ACK)
	ackEcho    float64 // send time echoed by the pending delayed ACK, s
	tsRecent   float64 // ns-2 TCPSink's ts_to_echo_ (RFC 1323), for a RecoveryLinux* sender
	delackGen  uint32

	// statistics
	sent, delivered, dropped    int64
	deliveredBytes, uniqueBytes float64 // payload bytes at the receiver: all copies, first copies
	lossEvents, timeouts        int
	spurious                    int     // timeouts the Eifel test found spurious (eifel)
	timedOutAt                  float64 // when the latest timeout fired, s, until its first new ACK; -1 otherwise
	cwndInt, cwndLastT          float64 // ∫ cwnd dt over the active time, packet·s
	activeEnd                   float64
	completion                  float64 // s after start; -1 while incomplete
	sampleBytes                 float64 // deliveredBytes at the previous trace sample
}

func (f *tcpFlow) init(sm *sim, c *conn, k int, path []int32) error {
	fl := &sm.scn.Flows[c.flow]
	*f = tcpFlow{
		conn:       c,
		path:       path,
		pathName:   fl.PathNames()[k],
		idx:        c.first + int32(k),
		sub:        k,
		mss:        fl.MSSBytes,
		header:     fl.HeaderBytes,
		lastSeq:    -1,
		rwnd:       fl.RwndBytes / fl.MSSBytes,
		startS:     fl.StartS,
		recover:    -1,
		backoff:    1,
		rtoAt:      math.Inf(1),
		timedOutAt: -1,
		completion: -1,
	}
	f.recovery = model.RecoveryOf(c.alg)
	if c.multi == nil {
		f.rec = newSimRecovery(f.recovery)
	} else if newSimRecovery(f.recovery) != nil {
		f.recovery = model.RecoveryNewReno // a subflow of a coupled law recovers as NewReno
	}
	f.sack = sm.set.SACK || f.rec != nil
	// A simulator recovery finds lost retransmissions its own way (recovery.go).
	f.ext = newFlowExt(c, fl, f.sack && sm.set.LostRetransmit && f.rec == nil)
	if f.cwnd = c.cwndOf(k); !(f.cwnd > 0) || math.IsInf(f.cwnd, 1) {
		return fmt.Errorf("%w: flow %q: %s starts subflow %d with cwnd %v packets, want a finite window > 0", ErrLaw, fl.Name, fl.Algorithm, k, f.cwnd)
	}
	for _, li := range path {
		l := &sm.links[li]
		f.priorRTT += 2*l.delayS + l.txTime(f.mss+f.header) + l.txTime(f.header)
	}
	f.ooo.reset(1024)
	if f.sack {
		f.sacked.reset(1024)
	}
	return nil
}

// readCwnd takes the law's windows after a callback: this subflow's and, for a multi-path
// law, its siblings' (a coupled law may move them too). A law that returns a window that
// is not a finite number of packets >= 0 stops the run with ErrLaw.
func (f *tcpFlow) readCwnd(sm *sim) {
	c := f.conn
	if c.multi == nil {
		f.cwnd = f.checkCwnd(sm, c.law.Cwnd())
		if f.rec != nil {
			f.cwnd = f.recWindow(f.cwnd)
		}
		return
	}
	for k := range c.n {
		g := &sm.flows[c.first+int32(k)]
		if w := g.checkCwnd(sm, c.multi.CwndOf(k)); w != g.cwnd {
			g.account(sm.now)
			g.cwnd = w
		}
	}
}

// checkCwnd returns w, or stops the run with ErrLaw (and returns one packet) when w is
// not a finite window >= 0.
func (f *tcpFlow) checkCwnd(sm *sim, w float64) float64 {
	if w >= 0 && !math.IsInf(w, 1) {
		return w
	}
	fl := &sm.scn.Flows[f.conn.flow]
	sm.fail(fmt.Errorf("%w: flow %q (%s) set cwnd %v packets on subflow %d at t = %v s, want a finite window >= 0",
		ErrLaw, fl.Name, fl.Algorithm, w, f.sub, sm.now))
	return 1
}

// payload is the data carried by packet seq, bytes.
func (f *tcpFlow) payload(seq int64) float64 {
	if seq == f.lastSeq && f.conn.lastPayload > 0 {
		return f.conn.lastPayload
	}
	return f.mss
}

// rttView is the latest RTT sample and the minimum so far, s (before any sample, the
// path's propagation and serialization RTT for both).
func (f *tcpFlow) rttView() (rtt, base float64) {
	if !f.haveRTT {
		return f.priorRTT, f.priorRTT
	}
	return f.lastRTT, f.baseRTT
}

// obs is what the law sees: this subflow's RTTs and, for a multi-path law, every
// subflow's, in the conn's preallocated slice.
func (f *tcpFlow) obs(sm *sim) model.Observation {
	rtt, base := f.rttView()
	o := model.Observation{Now: sm.now, RTT: rtt, BaseRTT: base, Subflow: f.sub}
	if c := f.conn; c.subObs != nil {
		for k := range c.subObs {
			r, b := sm.flows[c.first+int32(k)].rttView()
			c.subObs[k] = model.SubflowObservation{RTT: r, BaseRTT: b}
		}
		o.Subflows = c.subObs
	}
	return o
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
	if sm.scn.Flows[f.conn.flow].RouteAware && !sm.pathUp(f.path, math.Inf(1)) {
		f.pathDown(sm)
	}
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
// at least MinRTOS (and ns-3's 1 s for a RecoveryPRR sender, recovery.go), times the
// backoff, at most MaxRTOS.
func (f *tcpFlow) rto(sm *sim) float64 {
	base := f.est.Base()
	if f.ns2Timer() && f.ns2.rtxcur > 0 {
		base = f.ns2.base()
	}
	lo := sm.minRTO
	if f.rec != nil {
		lo = max(lo, f.rec.minRTO)
	}
	return min(max(base, lo)*f.backoff, MaxRTOS)
}

// ns2Timer reports whether the flow keeps ns-2 TCP/Linux's timer (ns2RTT): a
// RecoveryLinux* sender, with timestamps echoed as ns-2's TCPSink/Sack1 echoes them.
func (f *tcpFlow) ns2Timer() bool { return f.rec != nil && f.rec.linux() }

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

// transmit sends packet seq now: a new packet, which takes the conn's next data packet,
// or a retransmitted copy if seq < maxSent.
func (f *tcpFlow) transmit(sm *sim, seq int64) {
	if f.ext != nil {
		f.ext.onTransmit(sm, f, seq)
	}
	f.sent++
	if seq >= f.maxSent {
		c := f.conn
		if c.nextData == c.nPkts-1 {
			f.lastSeq = seq
		}
		c.nextData++
		f.maxSent = seq + 1
		if !f.timing {
			f.timing, f.timedSeq, f.timedAt = true, seq, sm.now
		}
	}
	if math.IsInf(f.rtoAt, 1) {
		f.setTimer(sm, sm.now+f.rto(sm))
	}
	p := pkt{sentAt: sm.now, bytes: f.payload(seq) + f.header, seq: seq, src: f.idx}
	if f.ext != nil {
		p.ect = f.ext.ect
	}
	if sm.set.JitterS > 0 && !f.ns2SendTimer(sm) {
		p.sentAt = max(sm.now+sm.jitter.Float64()*sm.set.JitterS, f.lastEmit)
		f.lastEmit = p.sentAt
		sm.q.push(p.sentAt, event{kind: evEmit, idx: f.path[0], pkt: p})
		return
	}
	sm.enqueue(f.path[0], p)
}

// hasData reports whether sequence number sndNxt has data to carry: a retransmission, or
// new data the conn has not yet handed to any subflow.
func (f *tcpFlow) hasData() bool {
	return f.sndNxt < f.maxSent || f.conn.nextData < f.conn.nPkts
}

// trySend sends while the window allows.
func (f *tcpFlow) trySend(sm *sim) {
	if f.rec != nil {
		f.recSend(sm)
		return
	}
	if f.sack {
		f.sackSend(sm)
		return
	}
	if !f.running || f.outage {
		return
	}
	win := math.Floor(min(f.cwnd+f.inflation, f.rwnd))
	if win < 1 {
		win = 1
	}
	for f.hasData() && float64(f.sndNxt-f.sndUna) < win {
		if f.ext != nil && f.ext.paceWait(sm, f) {
			break
		}
		f.transmit(sm, f.sndNxt)
		f.sndNxt++
	}
}

func (f *tcpFlow) onAck(sm *sim, e event) {
	if !f.running || f.outage || !sm.pathUp(f.path, e.at) {
		return // the sender has stopped, or the ACK was on a link that went down
	}
	f.account(sm.now)
	a, rtt := e.pkt.seq, sm.now-e.pkt.sentAt
	if f.ns2Timer() {
		f.ns2.sample(rtt) // every ACK, from its echoed timestamp
	}
	// ns-2 TCP/Linux's modules hear an RTT only from an ACK of new data (pkts_acked), whose
	// echo is then the acknowledged packet's own; a duplicate ACK's repeats an older one.
	if !f.ns2Timer() || a > f.sndUna {
		f.lastRTT = rtt
		if !f.haveRTT || rtt < f.baseRTT {
			f.baseRTT = rtt
		}
		f.haveRTT = true
	}
	f.eifel(a, e.pkt.sentAt)
	if f.timing && a > f.timedSeq {
		f.est.Sample(sm.now - f.timedAt)
		f.timing = false
		f.backoff = 1
	}
	if f.ext != nil {
		f.ext.beginAck(sm, f, &e)
	}
	if f.rec != nil {
		f.recAck(sm, a, e.sack)
		return
	}
	if f.sack {
		f.sackAck(sm, a, e.sack)
		return
	}
	switch {
	case a > f.sndUna:
		f.newAck(sm, a)
	case a == f.sndUna && f.maxSent > f.sndUna:
		f.dupAck(sm)
	default:
		return // an old ACK
	}
	if f.ext != nil {
		f.ext.endAck(sm, f)
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
	if f.ext == nil || f.ext.mayRaise(f) {
		f.conn.law.OnAck(float64(newly-consumed), f.obs(sm))
	}
	f.afterNewAck(sm, a)
}

// afterNewAck restarts the retransmission timer while data are outstanding above a, or
// stops it and completes a finite transfer whose data are all acknowledged.
func (f *tcpFlow) afterNewAck(sm *sim, a int64) {
	if f.maxSent > a {
		f.setTimer(sm, sm.now+f.rto(sm))
		return
	}
	f.rtoAt = math.Inf(1)
	if c := f.conn; c.nextData == c.nPkts {
		c.complete(sm)
	}
}

// countDupAck counts a duplicate ACK and one more packet it reports delivered.
func (f *tcpFlow) countDupAck() {
	f.dupacks++
	if f.signalled < f.maxSent-f.sndUna {
		f.signalled++
	}
}

func (f *tcpFlow) dupAck(sm *sim) {
	f.countDupAck()
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
	if f.hasData() && out < math.Floor(f.cwnd)+float64(f.dupacks) && out < math.Floor(f.rwnd) {
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
	if f.ext == nil || f.ext.mayReduce(f) {
		f.conn.law.OnLoss(f.obs(sm))
	}
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

// eifel judges the latest timeout at its first ACK of new data a, which echoes the send
// time echo: the timeout was spurious if that ACK is for a packet sent before it, not for
// the retransmission (RFC 3522's Eifel detection with timestamps): a window sent in one
// burst, late behind a queue that grew by more than the burst lasts under a timer with no
// floor above SRTT (ns2rtt.go), or a NewReno recovery whose one hole a round trip
// outlasted the timer.
func (f *tcpFlow) eifel(a int64, echo float64) {
	if f.timedOutAt < 0 || a <= f.sndUna {
		return
	}
	if echo < f.timedOutAt {
		f.spurious++
	}
	f.timedOutAt = -1
}

// timeout is a retransmission timeout: the law's timeout jump, go-back-N from snd.una,
// exponential backoff (RFC 6298 §5.5), no fast retransmit for the data outstanding now.
func (f *tcpFlow) timeout(sm *sim) {
	f.account(sm.now)
	f.timeouts++
	f.timedOutAt = sm.now
	sm.lossEvent(f.idx)
	f.conn.law.OnTimeout(f.obs(sm))
	f.recover = f.maxSent
	f.inRecovery, f.inflation = false, 0
	f.dupacks = 0
	f.sndNxt = f.sndUna
	f.timing = false
	if f.sack {
		f.enterLoss()
	}
	f.readCwnd(sm)
	if f.rto(sm) < MaxRTOS {
		f.backoff *= 2
	}
	if f.backoff > 8 {
		// ns-2 and RFC 6298 §5.7: after several backoffs the old SRTT says little about the
		// path; the next sample starts the estimator afresh.
		f.est.Reinit = true
		f.ns2.forget()
	}
	f.setTimer(sm, sm.now+f.rto(sm))
	f.trySend(sm)
}

// receive is the receiver: cumulative ACKs, every packet acknowledged (ns-2 TCPSink)
// unless the flow's receiver delays ACKs (model.Flow.DelayedAck): then every second
// in-order packet, or after DelayedAckS, and out-of-order packets at once (RFC 5681 §4.2).
func (f *tcpFlow) receive(sm *sim, p *pkt) {
	if f.ext != nil && f.ext.ect {
		f.echoMark(sm, p) // ACKs of one CE state each (ecn.go)
	}
	payload := f.payload(p.seq)
	f.delivered++
	f.deliveredBytes += payload
	inOrder := p.seq == f.rcvNxt
	fillsGap := inOrder && f.ooo.count > 0
	echo := p.sentAt
	if f.ns2Timer() {
		// ns-2's Acker::update_ts with ts_echo_rfc1323_: the packet the ACK is due for, or a
		// newer copy of one already held; an out-of-order packet leaves the echo alone.
		if inOrder || (p.seq < f.rcvNxt && p.sentAt >= f.tsRecent) {
			f.tsRecent = p.sentAt
		}
		echo = f.tsRecent
	}
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
	if !f.conn.delayedAck || !inOrder || fillsGap {
		sack := int64(-1)
		if p.seq > f.rcvNxt {
			sack = p.seq // held out of order: the ACK's SACK block reports it
		}
		f.sendAck(sm, echo, sack)
		return
	}
	f.ackPending++
	if f.ackPending == 1 {
		f.ackEcho = echo
		sm.q.push(sm.now+DelayedAckS, event{kind: evDelAck, idx: f.idx, gen: f.delackGen})
		return
	}
	f.sendAck(sm, f.ackEcho, -1)
}

func (f *tcpFlow) onDelAckEvent(sm *sim, gen uint32) {
	if gen == f.delackGen && f.ackPending > 0 {
		f.sendAck(sm, f.ackEcho, -1)
	}
}

// sendAck sends a cumulative ACK echoing a send time (as TCP timestamps do) over the
// uncongested reverse path (see sim.ackDelay). sack is the out-of-order packet that
// triggered it, -1 for none: with Settings.SACK the sender's scoreboard records it.
func (f *tcpFlow) sendAck(sm *sim, echo float64, sack int64) {
	f.ackPending = 0
	f.delackGen++
	if !sm.pathUp(f.path, math.Inf(1)) {
		return
	}
	sm.q.push(sm.now+sm.ackDelay(f.path, f.header), event{kind: evAck, idx: f.idx, at: sm.now, sack: sack, pkt: pkt{seq: f.rcvNxt, sentAt: echo, ce: f.echoCE}})
}

func (f *tcpFlow) sample(sm *sim) model.Sample {
	rate := (f.deliveredBytes - f.sampleBytes) * 8 / sm.set.SampleS
	f.sampleBytes = f.deliveredBytes
	ssthresh := f.conn.ssthreshOf(f.sub)
	if math.IsNaN(ssthresh) || math.IsInf(ssthresh, 0) {
		ssthresh = 0 // none (yet), as model's laws report it
	}
	var queue float64
	for _, li := range f.path {
		queue += float64(sm.links[li].waiting())
	}
	rtt, _ := f.rttView()
	return model.Sample{TS: sm.now, Flow: int(f.conn.flow), Subflow: f.sub, CwndPkts: f.cwnd, Ssthresh: ssthresh, RateBps: rate,
		RTTS: rtt, QueuePkts: queue, DeliveredPkts: float64(f.delivered)}
}

// result is the flow's row: a multi-path flow has one per subflow, named "name/k", as the
// fluid engine's.
func (f *tcpFlow) result(sm *sim) model.FlowResult {
	if f.running {
		f.finish(sm.end)
	}
	c := f.conn
	fl := &sm.scn.Flows[c.flow]
	name := fl.Name
	if c.n > 1 {
		name = fmt.Sprintf("%s/%d", fl.Name, f.sub)
	}
	r := model.FlowResult{
		Flow:          int(c.flow),
		Subflow:       f.sub,
		Name:          name,
		Algorithm:     fl.Algorithm,
		Path:          f.pathName,
		LossEvents:    f.lossEvents,
		Timeouts:      f.timeouts,
		Spurious:      f.spurious,
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
		ct := f.completion
		r.CompletionTimeS = &ct
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
