package packet

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// The SACK recoveries of the reference simulators: model.RecoveryLinux and
// RecoveryLinuxMinCwnd as ns-2.35's Agent/TCP/Linux runs Linux 2.6.2x
// (LinuxTcpAgent::tcp_fastretrans_alert and send_much, ScoreBoard1), and model.RecoveryPRR
// as ns-3.37's TcpSocketBase runs RFC 6675 with TcpPrrRecovery. A flow whose law names one
// of them is a SACK sender whatever Settings.SACK says; sack.go's recovery serves the
// others.
//
// Scoreboard. Every packet between snd.una and snd.max is SACKed, marked lost, in flight,
// or retransmitted and in flight; pipe = (snd.max − snd.una) − SACKed − lost (the
// retransmissions count in flight: ns-2's packets_in_flight, RFC 6675's SetPipe). A
// packet is marked lost once a packet reorder above it is SACKed: 4 in ns-2
// (lost_seq_threshold = fack_ − (dupack_threshold + 1)), so one hole is found at the
// fourth duplicate ACK; 3 for RFC 6675's DupThresh (IsLost, the third duplicate ACK),
// counted as a distance, which with losses far apart is the same. Under RecoveryLinux* a
// retransmission is lost again once a packet sent after it is SACKed (ns-2: the block's
// snd_nxt at retransmission ≤ fack_) and goes out again; ns-3.37 has no such rule and
// waits for its timer, which is at least 1 s (its MinRto). Retransmissions go in sequence order, before new data. A loss
// found outside an episode (snd.una past the last recovery point, no timeout pending)
// starts one: a loss event, the law's OnLoss (OnLossInFlight with the pipe for a
// model.FlightReducer), a recovery point at snd.max.
//
// RecoveryLinux*. During recovery the law hears no ACKs (tcp_may_raise_cwnd is false in
// TCP_CA_Recovery) and the sender fills max(snd_cwnd, allowance): snd_cwnd is ssthresh,
// or ⌊ssthresh⌋/2 with min_cwnd (RecoveryLinuxMinCwnd), and the allowance is ns-2's rate
// halving, next_pkts_in_flight_: the window before the loss, lowered to pipe + 1 at each
// ACK and to pipe − 1 after each packet sent, so that one packet leaves for every two ACKs
// until the pipe is down to snd_cwnd (with ns-2's delayed send, one for every ACK that
// finds the send timer idle: ns2send.go). That allowance is the window the flow reports, as
// ns-2's traced cwnd_ is. When snd.una reaches the recovery point, if snd_cwnd <
// ssthresh, the window is min(ssthresh, pipe + 3) (tcp_moderate_cwnd, tcp_max_burst 3)
// and slow-starts, one packet per ACK, back to the law's window, which then takes over;
// the law does not hear those ACKs (Linux's modules grow in slow start by tcp_slow_start
// only); a loss found in that slow start reduces from the window it has reached, since
// Linux's ssthresh() reads snd_cwnd (model.WindowReducer). The end of a recovery clears
// ns-2's scoreboard (clearScoreboard): a retransmission still in flight is a hole again.
// Every ACK restarts the retransmission timer (ns-2's renew_timer).
//
// RecoveryPRR. RFC 6937 with the slow-start reduction bound, as TcpPrrRecovery: at entry
// RecoverFS = snd.max − snd.una; on each ACK in recovery, with DeliveredData the packets
// it newly ACKs or SACKs, prr_delivered += DeliveredData and the window is pipe + sndcnt,
// sndcnt = prr_delivered·ssthresh/RecoverFS − prr_out while pipe > ssthresh, else
// min(ssthresh − pipe, max(prr_delivered − prr_out, DeliveredData) + 1), and at least one
// packet before the first is out (the fast retransmit); prr_out counts what it sends.
// RFC 6937 rounds the proportional sndcnt up; ns-3 does so in bytes, which in whole
// packets is no rounding: the sender sends while a whole packet fits in the window. At
// the end cwnd = ssthresh (the law's window) and the law hears the whole cumulative ACK
// that ended it (TcpSocketBase passes its segments to IncreaseWindow). The timer restarts
// on new ACKs, in recovery only on the first partial one.
//
// A timeout (tcp.go) marks every packet not SACKed lost (ns-2 ScoreBoard1::MarkLoss,
// ns-3 CA_LOSS) and resends them in order within the law's window; the law hears those
// ACKs. Multi-path flows recover as NewReno (sack.go when SACK is on).
type simRecovery struct {
	style   model.Recovery
	reorder int64   // a packet is lost once one this far above it is SACKed
	minRTO  float64 // the retransmission timeout's floor, s (with Settings.MinRTOS)

	lost     bitRing // packets marked lost and not yet retransmitted
	lostN    int64
	markNext int64        // every packet below this has been considered for the loss mark
	rtxMark  seqMarks     // per packet retransmitted in this episode: snd.max when it left + 1; 0 otherwise
	rtxQ     fifo[rtxRec] // those retransmissions in the order sent (RecoveryLinux*)

	// win is the window the sender fills instead of the law's while override is set: the
	// rate-halving allowance or PRR's pipe + sndcnt in recovery, the slow start back to
	// the law's window after it (rebuild).
	win      float64
	override bool
	rebuild  bool

	// RecoveryLinux*
	nextPIF float64 // ns-2's next_pkts_in_flight_
	recCwnd float64 // snd_cwnd during recovery, packets

	// RecoveryPRR
	recoverFS, prrDelivered, prrOut, ssthresh float64
	partialSeen                               bool
}

// linuxReorder and prrReorder are simRecovery.reorder: ns-2's dupack_threshold + 1 and
// RFC 6675's DupThresh.
const (
	linuxReorder = DupAckThreshold + 1
	prrReorder   = DupAckThreshold
	maxBurst     = 3 // Linux tcp_max_burst: tcp_moderate_cwnd's packets above the pipe
	// ns3MinRTOS is ns-3.37's TcpSocketBase MinRto, s (RFC 6298 (2.4)): a RecoveryPRR
	// sender's timeout is at least this.
	ns3MinRTOS = 1.0
)

// newSimRecovery is the recovery state of a single-path flow whose law recovers as r, or
// nil for a recovery sack.go or tcp.go runs.
func newSimRecovery(r model.Recovery) *simRecovery {
	var x *simRecovery
	switch r {
	case model.RecoveryLinux, model.RecoveryLinuxMinCwnd:
		x = &simRecovery{style: r, reorder: linuxReorder}
	case model.RecoveryPRR:
		x = &simRecovery{style: r, reorder: prrReorder, minRTO: ns3MinRTOS}
	default:
		return nil
	}
	x.lost.reset(1024)
	x.rtxMark.reset(1024)
	x.rtxQ.reset(64)
	return x
}

func (r *simRecovery) linux() bool { return r.style != model.RecoveryPRR }

// recPipe is the packets in flight: sent, neither ACKed nor SACKed nor marked lost.
func (f *tcpFlow) recPipe() int64 { return f.maxSent - f.sndUna - f.sackedN - f.rec.lostN }

// forget drops the marks of packet seq, which the receiver now holds.
func (r *simRecovery) forget(base, seq int64) {
	if r.lost.has(base, seq) {
		r.lost.clear(seq)
		r.lostN--
	}
	r.rtxMark.set(base, seq, 0)
}

// recAck handles an ACK of a flow with a simulator recovery: the scoreboard, the loss
// marks, the recovery's state and window, the law, then sending.
func (f *tcpFlow) recAck(sm *sim, a, s int64) {
	r := f.rec
	una0, sacked0, pif0 := f.sndUna, f.sackedN, f.recPipe()
	if s >= a && s >= f.sndUna && s < f.maxSent && !f.sacked.has(f.sndUna, s) {
		f.sacked.set(f.sndUna, s)
		f.sackedN++
		r.forget(f.sndUna, s)
		f.highSack = max(f.highSack, s+1)
	}
	switch {
	case a > f.sndUna:
		for seq := f.sndUna; seq < a; seq++ {
			if f.sacked.has(f.sndUna, seq) {
				f.sacked.clear(seq)
				f.sackedN--
			}
			r.forget(f.sndUna, seq)
		}
		f.sndUna = a
		f.sndNxt = max(f.sndNxt, a)
		f.highSack = max(f.highSack, a)
		f.rxtNext = max(f.rxtNext, a)
		r.markNext = max(r.markNext, a)
		f.dupacks = 0
	case a == f.sndUna && f.maxSent > f.sndUna:
		f.countDupAck()
	default:
		return // an old ACK
	}
	newly := a - una0
	delivered := float64(newly + f.sackedN - sacked0)
	r.markLosses(f)

	exited := false
	switch {
	case f.inRecovery && f.sndUna >= f.recover:
		f.recExit(sm, newly)
		exited = true
	case f.lossState && f.sndUna >= f.recover:
		f.lossState = false
		if r.linux() {
			r.clearScoreboard(f) // ns-2 leaves TCP_CA_Loss as it leaves a recovery
		}
	case f.inRecovery && !r.linux():
		if newly > 0 && !r.partialSeen {
			r.partialSeen = true
			f.setTimer(sm, sm.now+f.rto(sm))
		}
		r.prr(f, delivered)
	}
	if !f.inRecovery && !f.lossState && !exited && r.lostN > 0 && f.sndUna >= f.recover {
		f.recEnter(sm, delivered)
	}
	if newly > 0 && !f.inRecovery && !exited && f.cwndLimited(pif0) {
		f.recGrow(sm, newly)
	}
	if f.ext != nil {
		f.ext.endAck(sm, f)
	}
	switch {
	case newly > 0 && f.maxSent == f.sndUna:
		f.afterNewAck(sm, a) // all data acknowledged: stop the timer, complete a finite transfer
	case r.linux() && f.maxSent > f.sndUna:
		f.setTimer(sm, sm.now+f.rto(sm)) // ns-2 re-arms the timer at every ACK
	case newly > 0 && !f.inRecovery:
		f.afterNewAck(sm, a)
	}
	f.readCwnd(sm)
	f.recSend(sm)
}

// recGrow gives a new ACK outside recovery to the window: the slow start back to the
// law's window after a RecoveryLinuxMinCwnd recovery, else the law.
func (f *tcpFlow) recGrow(sm *sim, newly int64) {
	r := f.rec
	if r.rebuild {
		r.win++
		if r.win >= f.conn.law.Cwnd() {
			r.rebuild, r.override = false, false
		}
		return
	}
	if f.ext == nil || f.ext.mayRaise(f) {
		f.conn.law.OnAck(float64(newly), f.obs(sm))
	}
}

// markLosses marks lost every packet a packet reorder or more below the highest SACKed
// one that is neither SACKed nor retransmitted, and, under RecoveryLinux*, every
// retransmission sent before a packet now SACKed.
func (r *simRecovery) markLosses(f *tcpFlow) {
	top := f.highSack - 1 - r.reorder // the highest packet the rule takes as lost
	for seq := max(r.markNext, f.sndUna); seq <= top; seq++ {
		if !f.sacked.has(f.sndUna, seq) && r.rtxMark.get(f.sndUna, seq) == 0 && !r.lost.has(f.sndUna, seq) {
			r.lost.set(f.sndUna, seq)
			r.lostN++
		}
	}
	r.markNext = max(r.markNext, top+1)
	if !r.linux() {
		return
	}
	fack := f.highSack - 1
	for r.rtxQ.n > 0 && r.rtxQ.front().mark-1 <= fack {
		q := r.rtxQ.pop()
		if q.seq < f.sndUna || f.sacked.has(f.sndUna, q.seq) || r.rtxMark.get(f.sndUna, q.seq) != q.mark {
			continue // delivered, or retransmitted again since
		}
		r.rtxMark.set(f.sndUna, q.seq, 0)
		r.lost.set(f.sndUna, q.seq)
		r.lostN++
		f.rxtNext = min(f.rxtNext, q.seq)
	}
}

// recEnter starts a recovery: the law's reduction and the recovery's first window.
func (f *tcpFlow) recEnter(sm *sim, delivered float64) {
	r := f.rec
	sm.lossEvent(f.idx)
	w0 := f.cwnd
	f.recover = f.maxSent
	f.timing = false
	f.inRecovery = true
	law := f.conn.law
	if f.ext == nil || f.ext.mayReduce(f) {
		wr, fromWindow := law.(model.WindowReducer)
		fr, fromFlight := law.(model.FlightReducer)
		switch {
		case fromWindow && r.rebuild && r.win < law.Cwnd():
			wr.OnLossFrom(r.win, f.obs(sm)) // Linux's ssthresh reads the slow start's snd_cwnd
		case fromFlight:
			fr.OnLossInFlight(float64(f.recPipe()), f.obs(sm))
		default:
			law.OnLoss(f.obs(sm))
		}
	}
	ss := law.Ssthresh()
	if !(ss > 0) {
		ss = law.Cwnd()
	}
	r.rebuild, r.override = false, true
	if r.linux() {
		r.nextPIF = math.Floor(w0)
		r.recCwnd = ss
		if r.style == model.RecoveryLinuxMinCwnd {
			r.recCwnd = max(math.Floor(math.Floor(ss)/2), 1)
		}
		r.win = max(r.nextPIF, r.recCwnd)
		return
	}
	r.recoverFS = float64(f.maxSent - f.sndUna)
	r.prrDelivered, r.prrOut, r.ssthresh, r.partialSeen = 0, 0, ss, false
	r.prr(f, delivered)
}

// prr is TcpPrrRecovery::DoRecovery for an ACK that delivered the given packets.
func (r *simRecovery) prr(f *tcpFlow, delivered float64) {
	if !(delivered > 0) {
		return
	}
	r.prrDelivered += delivered
	pipe := float64(f.recPipe())
	var snd float64
	if pipe > r.ssthresh {
		snd = r.prrDelivered*r.ssthresh/r.recoverFS - r.prrOut
	} else {
		snd = min(r.ssthresh-pipe, max(r.prrDelivered-r.prrOut, delivered)+1)
	}
	if r.prrOut == 0 {
		snd = max(snd, 1)
	}
	r.win = max(pipe+snd, 0)
}

// recExit ends a recovery when snd.una reaches the recovery point; newly is the packets
// the ACK that ends it acknowledges.
func (f *tcpFlow) recExit(sm *sim, newly int64) {
	r := f.rec
	f.inRecovery = false
	r.override = false
	law := f.conn.law
	if !r.linux() {
		if f.ext == nil || f.ext.mayRaise(f) {
			law.OnAck(float64(newly), f.obs(sm))
		}
		return
	}
	r.nextPIF = 0
	r.clearScoreboard(f)
	ss := law.Ssthresh()
	if !(ss > 0) {
		ss = law.Cwnd()
	}
	if r.recCwnd < ss {
		if w := min(ss, float64(f.recPipe()+maxBurst)); w < law.Cwnd() {
			r.win, r.rebuild, r.override = w, true, true
		}
	}
}

// clearScoreboard is ns-2's ScoreBoard1::ClearScoreBoard at the end of a RecoveryLinux*
// recovery: the scoreboard forgets which packets it retransmitted. One still in flight
// (lost after the recovery point, found and resent before the end) is then a hole like any
// other, and the next ACK whose SACKs pass it by a reorder finds it lost: a new loss event
// and another copy, which ns-2's flows take when a recovery outlasts a lost
// retransmission. What the receiver SACKed stays known: ns-2's next ACK carries it again.
func (r *simRecovery) clearScoreboard(f *tcpFlow) {
	for r.rtxQ.n > 0 {
		if q := r.rtxQ.pop(); q.seq >= f.sndUna && r.rtxMark.get(f.sndUna, q.seq) == q.mark {
			r.rtxMark.set(f.sndUna, q.seq, 0)
		}
	}
	r.markNext, f.rxtNext = f.sndUna, f.sndUna
}

// recWindow is the window a flow with a simulator recovery fills, given its law's.
func (f *tcpFlow) recWindow(law float64) float64 {
	r := f.rec
	if !r.override {
		return law
	}
	if r.linux() && f.inRecovery {
		r.win = max(r.nextPIF, r.recCwnd)
	}
	return r.win
}

// recSend sends lost packets, then new data, while the pipe is below the window (and,
// in a RecoveryLinux* recovery, below the rate-halving allowance); snd.max − snd.una
// never exceeds the receiver window. A sender with ns-2's delayed-send timer sends when it
// fires (ns2send.go).
func (f *tcpFlow) recSend(sm *sim) {
	if !f.ns2SendTimer(sm) {
		f.recSendNow(sm)
		return
	}
	if f.sendWait || !f.running || f.outage {
		return
	}
	f.lowerAllowance()
	f.armSend(sm, float64(f.recPipe()) < f.recSendWindow())
}

// lowerAllowance is send_much's first step in a RecoveryLinux* recovery: the rate-halving
// allowance falls to the pipe + 1.
func (f *tcpFlow) lowerAllowance() {
	if r := f.rec; r.linux() && f.inRecovery {
		r.nextPIF = min(r.nextPIF, float64(f.recPipe()+1))
	}
}

// recSendWindow is the pipe the sender fills: the window, or in a RecoveryLinux* recovery
// the larger of snd_cwnd and the rate-halving allowance.
func (f *tcpFlow) recSendWindow() float64 {
	if r := f.rec; r.linux() && f.inRecovery {
		return max(math.Floor(r.recCwnd), r.nextPIF)
	}
	return max(math.Floor(min(f.cwnd, f.rwnd)), 1)
}

// recSendNow sends now what the window allows (recSend).
func (f *tcpFlow) recSendNow(sm *sim) {
	if !f.running || f.outage {
		return
	}
	r := f.rec
	halving := r.linux() && f.inRecovery
	f.lowerAllowance()
	rwnd := math.Floor(f.rwnd)
	for {
		if float64(f.recPipe()) >= f.recSendWindow() || (f.ext != nil && f.ext.paceWait(sm, f)) {
			break
		}
		seq := r.nextLost(f)
		if seq >= 0 {
			r.lost.clear(seq)
			r.lostN--
			f.rxtNext = seq + 1
			mark := f.maxSent + 1
			r.rtxMark.set(f.sndUna, seq, mark)
			if r.linux() {
				r.rtxQ.push(rtxRec{seq: seq, mark: mark})
			}
		} else {
			if f.conn.nextData >= f.conn.nPkts || float64(f.maxSent-f.sndUna) >= rwnd {
				break
			}
			seq = f.maxSent
		}
		f.transmit(sm, seq)
		if f.inRecovery && !r.linux() {
			r.prrOut++
		}
		if halving {
			r.nextPIF = min(r.nextPIF, max(float64(f.recPipe()-1), 1))
		}
	}
	f.sndNxt = f.maxSent
}

// nextLost is the lowest packet marked lost, or -1.
func (r *simRecovery) nextLost(f *tcpFlow) int64 {
	if r.lostN == 0 {
		return -1
	}
	for s := max(f.rxtNext, f.sndUna); s < r.markNext; s++ {
		if r.lost.has(f.sndUna, s) {
			return s
		}
	}
	return -1
}

// markAllLost is the scoreboard after a timeout: every packet outstanding and not SACKed
// is lost; no retransmission of the episode is in flight any more.
func (r *simRecovery) markAllLost(f *tcpFlow) {
	for seq := f.sndUna; seq < f.maxSent; seq++ {
		r.rtxMark.set(f.sndUna, seq, 0)
		if !f.sacked.has(f.sndUna, seq) && !r.lost.has(f.sndUna, seq) {
			r.lost.set(f.sndUna, seq)
			r.lostN++
		}
	}
	r.markNext = max(r.markNext, f.maxSent)
	r.rtxQ.n = 0
	r.nextPIF, r.override, r.rebuild = 0, false, false
	f.rxtNext = f.sndUna
}

// seqMarks is a value per sequence number in [base, base + capacity), a ring like bitRing.
type seqMarks struct {
	v    []int64
	mask int64
}

func (m *seqMarks) reset(capacity int64) {
	m.v = make([]int64, capacity)
	m.mask = capacity - 1
}

func (m *seqMarks) get(base, seq int64) int64 {
	if seq-base > m.mask {
		return 0
	}
	return m.v[seq&m.mask]
}

func (m *seqMarks) set(base, seq, x int64) {
	if seq-base > m.mask {
		if x == 0 {
			return
		}
		m.grow(base, seq)
	}
	m.v[seq&m.mask] = x
}

func (m *seqMarks) grow(base, seq int64) {
	old := *m
	capacity := old.mask + 1
	for seq-base >= capacity {
		capacity *= 2
	}
	m.reset(capacity)
	for s := base; s <= base+old.mask; s++ {
		m.v[s&m.mask] = old.v[s&old.mask]
	}
}

// rtxRec is one retransmission: the packet and snd.max + 1 when it left.
type rtxRec struct{ seq, mark int64 }
