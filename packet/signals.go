package packet

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// A sender's signals beyond the window (model/signals.go): ECN (RFC 3168 and RFC 8257's
// echo), per-ACK delivery-rate samples (draft-cheng-iccrg-delivery-rate-estimation, Linux
// tcp_rate.c) and pacing. A flow that uses none of them has no flowExt and runs exactly as
// before.
//
// ECN. An ECN-capable flow (model.UsesECN: Flow.ECN, or DCTCP) sends every data packet
// with ECT; its receiver echoes the CE state of what each ACK acknowledges exactly: with
// delayed ACKs a change of CE state sends the pending ACK at once, so every ACK covers
// packets of one state (RFC 8257 §3.2; for an RFC 3168 sender this is the same reaction,
// once per window, as the sticky ECE until CWR). At an ACK echoing CE, outside loss
// recovery and outside the congestion window reduction (CWR) of a previous echo, the law
// reduces its window — ECNReduce for a model.ECNReactor, OnLoss for any other law — and
// the sender stays in CWR until the data outstanding then is acknowledged: the law's
// OnAck is not called, as Linux raises no window in CWR (tcp_cong_control), and a loss
// detected in that window does not reduce it again (tcp_enter_recovery). Nothing is
// retransmitted. The reduction is applied at once, not spread over the round as Linux's
// proportional rate reduction spreads it.
//
// Rate samples. A model.RateSampler's flow records, per packet sent, the connection's
// delivered count and delivery time and the first send time of the flight; every ACK that
// delivers data (ACKed or SACKed, in recovery or not) yields the sample of the most
// recently sent packet it delivers: delivered packets since that packet left, over the
// longer of its send interval and its ACK interval, invalid below the minimum RTT (Linux
// tcp_rate_gen). Without SACK a duplicate ACK delivers one packet but names none, so it
// yields no valid sample.
//
// Pacing. A model.Pacer's flow, or one with Flow.Pacing, sends its next packet no sooner
// than 1/rate after the previous one (Linux's earliest departure time, fq's pacing): a
// Pacer sets the rate, Flow.Pacing uses Linux's tcp_update_pacing_rate, 2·cwnd/SRTT while
// cwnd < ssthresh/2 and 1.2·cwnd/SRTT after (cwnd the larger of the window and the packets
// in flight), and no pacing before the first RTT sample.
type flowExt struct {
	ect      bool // ECN-capable
	rack     bool // Settings.LostRetransmit: the send time of every packet is kept
	sampling bool // the law is a model.RateSampler
	lossy    bool // ... and a model.LossSampler: its samples carry the losses
	pacer    bool // the law is a model.Pacer
	linux    bool // Flow.Pacing with a law that sets no rate

	cwrRecover int64 // CWR lasts until snd.una reaches this, -1 before any
	marks      int64 // ECN reductions

	// delivery-rate estimation
	delivered   int64   // packets delivered (ACKed or SACKed) so far
	deliveredAt float64 // when delivered last grew, s
	firstSentAt float64 // send time of the packet that started the current sample's flight, s
	recs        []rateRec
	mask        int64
	// lost counts the packets the scoreboard has taken as lost (below lostEnd and not
	// SACKed), each once: Linux's tp->lost, which BBR v2 reads. lostScan is where the count
	// resumes.
	lost, lostScan int64

	rtx fifo[sentRec] // Settings.LostRetransmit: the episode's retransmissions in the order sent

	// pacing
	nextSend   float64 // earliest departure of the next packet, s
	paceQueued bool    // an evPace is scheduled at paceAt
	paceAt     float64

	// the ACK being processed (beginAck to endAck)
	ack                 event
	una0, sig0, sacked0 int64
	lossEvents0         int
	inflight0           float64
	lost0               int64
}

// sentRec is a retransmission: the packet and when it left, s.
type sentRec struct {
	seq    int64
	sentAt float64
}

// rateRec is a packet's delivery state when it was (last) sent.
type rateRec struct {
	delivered                        int64
	deliveredAt, firstSentAt, sentAt float64
	inflight                         float64 // packets in flight with this one, as it left
	lost                             int64   // the flow's lost count as it left
}

// newFlowExt is the extension a flow needs, or nil; rack is Settings.LostRetransmit with SACK.
func newFlowExt(c *conn, fl *model.Flow, rack bool) *flowExt {
	x := &flowExt{ect: model.UsesECN(c.alg, fl.ECN), cwrRecover: -1, rack: rack}
	_, x.sampling = c.law.(model.RateSampler)
	if ls, ok := c.law.(model.LossSampler); ok {
		x.lossy = ls.SamplesLoss()
	}
	_, x.pacer = c.law.(model.Pacer)
	x.linux = fl.Pacing && !x.pacer
	if !x.ect && !x.sampling && !x.pacer && !x.linux && !x.rack {
		return nil
	}
	if x.sampling || x.rack {
		x.recs = make([]rateRec, 1024)
		x.mask = 1023
	}
	if x.rack {
		x.rtx.reset(64)
	}
	return x
}

// inCWR reports whether the sender is in the window reduction of an ECN-Echo.
func (x *flowExt) inCWR(f *tcpFlow) bool { return x.ect && f.sndUna < x.cwrRecover }

// mayRaise reports whether the law may grow its window on this ACK (not in CWR).
func (x *flowExt) mayRaise(f *tcpFlow) bool { return !x.inCWR(f) }

// mayReduce reports whether a loss may reduce the window (not already reduced by an ECN-Echo
// in this window).
func (x *flowExt) mayReduce(f *tcpFlow) bool { return !x.inCWR(f) }

// inFlight is the packets the sender has in the network: with SACK, RFC 6675's pipe as
// sackSend counts it (sent, neither ACKed nor SACKed nor taken as lost, plus the
// retransmissions in flight); without, sent and not reported delivered by ACKs or
// duplicate ACKs.
func (f *tcpFlow) inFlight(sm *sim) float64 {
	if f.rec != nil {
		return float64(max(f.recPipe(), 0))
	}
	if f.sack {
		if end := f.lostEnd(); end > f.sndUna {
			return float64(max(f.maxSent-end+f.rxtOut, 0))
		}
		return float64(max(f.maxSent-f.sndUna-f.sackedN, 0))
	}
	return float64(max(f.sndNxt-f.sndUna-f.signalled, 0))
}

// onTransmit records the delivery state of packet seq as it leaves, and the pacing
// schedule.
func (x *flowExt) onTransmit(sm *sim, f *tcpFlow, seq int64) {
	if x.sampling || x.rack {
		if f.maxSent == f.sndUna { // nothing in flight: a new flight starts
			x.firstSentAt, x.deliveredAt = sm.now, sm.now
		}
		x.grow(f, seq)
		x.recs[seq&x.mask] = rateRec{delivered: x.delivered, deliveredAt: x.deliveredAt, firstSentAt: x.firstSentAt, sentAt: sm.now}
		if x.lossy {
			r := &x.recs[seq&x.mask]
			r.inflight, r.lost = f.inFlight(sm)+1, x.lost
		}
		if x.rack && seq < f.maxSent {
			x.rtx.push(sentRec{seq: seq, sentAt: sm.now})
		}
	}
	if rate := x.paceRate(sm, f); rate > 0 {
		x.nextSend = max(x.nextSend, sm.now) + 1/rate
	}
}

// grow makes the record ring hold every packet from snd.una to seq.
func (x *flowExt) grow(f *tcpFlow, seq int64) {
	if seq-f.sndUna <= x.mask {
		return
	}
	n := int64(len(x.recs))
	for seq-f.sndUna >= n {
		n *= 2
	}
	recs := make([]rateRec, n)
	for s := f.sndUna; s < f.maxSent; s++ {
		recs[s&(n-1)] = x.recs[s&x.mask]
	}
	x.recs, x.mask = recs, n-1
}

// paceRate is the flow's pacing rate now, packets/s; 0 for none.
func (x *flowExt) paceRate(sm *sim, f *tcpFlow) float64 {
	switch {
	case x.pacer:
		if r := f.conn.law.(model.Pacer).PacingRate(); r > 0 && !math.IsInf(r, 1) {
			return r
		}
	case x.linux && f.est.Have && f.est.SRTT > 0:
		ratio := 1.2
		if ss := f.conn.ssthreshOf(f.sub); !(ss > 0) || f.cwnd < ss/2 {
			ratio = 2
		}
		return ratio * max(f.cwnd, float64(f.sndNxt-f.sndUna)) / f.est.SRTT
	}
	return 0
}

// paceWait reports whether a paced sender must wait before its next packet, and schedules
// the wake-up.
func (x *flowExt) paceWait(sm *sim, f *tcpFlow) bool {
	if !x.pacer && !x.linux {
		return false
	}
	if sm.now >= x.nextSend-1e-12 {
		return false
	}
	if !x.paceQueued || x.paceAt > x.nextSend {
		x.paceQueued, x.paceAt = true, x.nextSend
		sm.q.push(x.nextSend, event{kind: evPace, idx: f.idx})
	}
	return true
}

// onPaceEvent lets a paced sender send again.
func (f *tcpFlow) onPaceEvent(sm *sim) {
	x := f.ext
	if sm.now < x.paceAt {
		return // superseded by an earlier wake-up that already ran
	}
	x.paceQueued = false
	f.trySend(sm)
}

// beginAck notes the sender's state before it processes ACK e.
func (x *flowExt) beginAck(sm *sim, f *tcpFlow, e *event) {
	x.ack = *e
	x.una0, x.sig0, x.sacked0 = f.sndUna, f.signalled, f.sackedN
	x.lossEvents0 = f.lossEvents
	x.inflight0 = f.inFlight(sm)
	x.lost0 = x.lost
}

// countLost adds to x.lost the packets the scoreboard now takes as lost that it had not.
func (x *flowExt) countLost(f *tcpFlow) {
	end := f.lostEnd()
	for s := max(x.lostScan, f.sndUna); s < end; s++ {
		if !f.sacked.has(f.sndUna, s) {
			x.lost++
		}
	}
	x.lostScan = max(x.lostScan, end)
}

// endAck gives the law what the ACK carried besides the window: the ECN echo (and the
// reduction it calls for) and the delivery-rate sample. The engine reads the window
// afterwards.
func (x *flowExt) endAck(sm *sim, f *tcpFlow) {
	d := f.sndUna - x.una0
	if f.sack {
		d += f.sackedN - x.sacked0
	} else {
		d += f.signalled - x.sig0
	}
	d = max(d, 0)
	law := f.conn.law
	var o model.Observation
	if x.ect || x.sampling {
		o = f.obs(sm)
	}
	if x.ect {
		ce := x.ack.pkt.ce
		r, reactor := law.(model.ECNReactor)
		if reactor && d > 0 {
			marked := 0.0
			if ce {
				marked = float64(d)
			}
			r.ECNAck(float64(d), marked, o)
		}
		if ce && !f.inRecovery && !f.lossState && f.sndUna >= f.recover && f.sndUna >= x.cwrRecover {
			f.account(sm.now)
			if reactor {
				r.ECNReduce(o)
			} else {
				law.OnLoss(o)
			}
			x.cwrRecover = f.maxSent
			x.marks++
		}
	}
	if x.sampling {
		law.(model.RateSampler).OnRateSample(x.sample(sm, f, d), o)
	}
	if x.rack {
		x.lostRetransmit(sm, f)
	}
}

// lostRetransmit sends again every retransmission that is lost: one sent before the
// packet this ACK reports arrived, and neither ACKed nor SACKed, since paths keep their
// order (Linux's tcp_mark_lost_retrans, RACK's rule for retransmissions). The
// retransmissions wait in x.rtx in the order sent; a packet retransmitted again leaves a
// stale entry, skipped by its send time.
func (x *flowExt) lostRetransmit(sm *sim, f *tcpFlow) {
	if !(f.inRecovery || f.lossState) {
		x.rtx.n = 0
		return
	}
	arrived := x.ack.pkt.sentAt
	for x.rtx.n > 0 {
		r := x.rtx.front()
		seq := r.seq
		if seq < f.sndUna || seq >= f.maxSent || f.sacked.has(f.sndUna, seq) || x.recs[seq&x.mask].sentAt != r.sentAt {
			x.rtx.pop() // delivered, or sent again since
			continue
		}
		if r.sentAt >= arrived {
			return
		}
		x.rtx.pop()
		f.transmit(sm, seq)
	}
}

// sample is the delivery-rate sample of an ACK that delivered d packets.
func (x *flowExt) sample(sm *sim, f *tcpFlow, d int64) model.RateSample {
	// The most recently sent packet this ACK delivers: the SACKed one, or the last one
	// cumulatively acknowledged.
	seq := int64(-1)
	if f.sndUna > x.una0 {
		seq = f.sndUna - 1
	}
	if s := x.ack.sack; f.sack && f.sackedN > x.sacked0 && s >= f.sndUna && s-f.sndUna <= x.mask {
		if seq < 0 || x.recs[s&x.mask].sentAt > x.recs[seq&x.mask].sentAt {
			seq = s
		}
	}
	rs := model.RateSample{AckedSacked: float64(d), PriorInFlight: x.inflight0, InFlight: f.inFlight(sm),
		Losses: float64(f.lossEvents - x.lossEvents0), InRecovery: f.inRecovery || f.lossState}
	if x.lossy {
		x.countLost(f)
		rs.NewlyLost = float64(x.lost - x.lost0)
	}
	x.delivered += d
	prior, priorAt, sendIvl := x.delivered, sm.now, 0.0
	if seq >= 0 {
		r := &x.recs[seq&x.mask]
		prior, priorAt, sendIvl = r.delivered, r.deliveredAt, r.sentAt-r.firstSentAt
		x.firstSentAt = r.sentAt
		if x.lossy {
			rs.TxInFlight, rs.Lost = r.inflight, float64(x.lost-r.lost)
		}
	}
	if d > 0 {
		x.deliveredAt = sm.now
	}
	rs.PriorDelivered, rs.DeliveredTotal = float64(prior), float64(x.delivered)
	rs.Delivered = float64(x.delivered - prior)
	ivl := max(sendIvl, sm.now-priorAt)
	if _, base := f.rttView(); seq >= 0 && ivl >= base && ivl > 0 {
		rs.IntervalS = ivl
	}
	return rs
}

// echoMark is the receiver's ECN echo: with delayed ACKs, a packet whose CE state differs
// from the pending ACK's sends that ACK first (RFC 8257 §3.2).
func (f *tcpFlow) echoMark(sm *sim, p *pkt) {
	if f.conn.delayedAck && f.ackPending > 0 && p.ce != f.echoCE {
		f.sendAck(sm, f.ackEcho, -1)
	}
	f.echoCE = p.ce
}
