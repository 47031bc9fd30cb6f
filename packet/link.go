package packet

import (
	"math"
	"math/rand/v2"

	"github.com/tcpfluid/tcpfluid/model"
)

// redMeanPacketBytes is the packet size RED assumes when it ages its average over an idle
// period (ns-2 Queue/RED mean_pktsize_ = 500 bytes).
const redMeanPacketBytes = 500

// periodicEps keeps p·count from missing an integer by a rounding error, so that with
// p = 1e-3 the 1000th packet, not the 1001st, is the one lost.
const periodicEps = 1e-9

// link is one unidirectional link: a FIFO buffer served at the link capacity, then a
// propagation delay. Its state counts packets "in the system": the one being serialized
// plus those waiting, which is what ns-2's queue-limit bounds (its DropTail keeps at most
// limit−1 waiting while one is on the wire).
type link struct {
	name     string
	capBps   float64 // bit/s
	delayS   float64 // one-way propagation delay, s
	buffer   int     // packets in the system at most
	queue    ring    // head is the packet being serialized while busy
	busy     bool
	up       bool
	epoch    uint32  // bumped at link-down: packets on the wire or in service then are lost
	downAt   float64 // time of the latest link-down, s (-Inf if never)
	txStart  float64 // s
	idleFrom float64 // s, when the link last went idle (RED's average ages over idle time)

	loss     model.LossModel
	lossP    float64
	periodic []float64 // per source (TCP flows, then CBR): packets counted for periodic loss
	// Random loss, per source: the source's own stream of Exp(1) variates and the packets
	// left until its next loss (0: draw the next gap at the next arrival).
	randomRNG  []*rand.Rand
	randomLeft []int64
	randomRate float64 // −ln(1−p): an Exp(1) variate over it, rounded up, is a Geometric(p) gap

	// aqm is the link's ECN marking and AQM (aqm.go); nil for a plain drop-tail or RED
	// queue, which the code below runs as before.
	aqm *aqmState

	red    bool
	redCfg model.RED
	redAvg float64 // EWMA of the number of packets in the system
	redCnt int     // packets since the last RED drop while the average is above min_th; -1 below it (ns-2's count, old)

	// statistics
	busyS   float64 // total serialization time, s
	qInt    float64 // ∫ packets in system dt, packet·s
	qSqInt  float64 // ∫ (packets in system)² dt, packet²·s
	qLastT  float64 // s
	dropped int64
}

// ring is a growable FIFO of packets. It grows by doubling and never shrinks, so in steady
// state it allocates nothing.
type ring struct {
	buf  []pkt
	head int
	n    int
}

func (r *ring) len() int { return r.n }

func (r *ring) push(p pkt) {
	if r.n == len(r.buf) {
		size := 2 * len(r.buf)
		if size < 16 {
			size = 16
		}
		buf := make([]pkt, size)
		for i := 0; i < r.n; i++ {
			buf[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = buf, 0
	}
	r.buf[(r.head+r.n)%len(r.buf)] = p
	r.n++
}

func (r *ring) front() *pkt { return &r.buf[r.head] }

func (r *ring) pop() pkt {
	p := r.buf[r.head]
	r.head++
	if r.head == len(r.buf) {
		r.head = 0
	}
	r.n--
	return p
}

// txTime is the serialization time of a packet of the given size, s.
func (l *link) txTime(bytes float64) float64 { return bytes * 8 / l.capBps }

// waiting is the packets the link's buffer holds besides the one being serialized: the
// queue ns-2's queue length and ns-3's queue disc (with its device queue) count, and the
// fluid's.
func (l *link) waiting() int {
	if l.busy {
		return l.qlen() - 1
	}
	return l.qlen()
}

// account adds the integral of waiting up to now; call before the queue changes.
func (l *link) account(now float64) {
	w := float64(l.waiting())
	l.qInt += w * (now - l.qLastT)
	l.qSqInt += w * w * (now - l.qLastT)
	l.qLastT = now
}

// lossDrop applies the link's non-congestion loss process to a packet of the given source
// arriving at the link.
func (l *link) lossDrop(source int) bool {
	switch l.loss {
	case model.LossRandom:
		left := &l.randomLeft[source]
		if *left == 0 {
			*left = l.randomGap(source)
		}
		*left--
		return *left == 0
	case model.LossPeriodic:
		before := math.Floor(l.periodic[source]*l.lossP + periodicEps)
		l.periodic[source]++
		return math.Floor(l.periodic[source]*l.lossP+periodicEps) > before
	}
	return false
}

// randomGap draws the number of packets from one random loss of a source to its next,
// the lost one included: ⌈E/λ⌉ with E ~ Exp(1) and λ = −ln(1−p) is Geometric(p) on
// 1, 2, …, so every packet is lost independently with probability p.
func (l *link) randomGap(source int) int64 {
	if !(l.lossP > 0) {
		return math.MaxInt64
	}
	g := math.Ceil(l.randomRNG[source].ExpFloat64() / l.randomRate)
	if !(g < math.MaxInt64/2) {
		return math.MaxInt64 / 2
	}
	return max(int64(g), 1)
}

// redDrop is Floyd and Jacobson's RED (1993) as ns-2's REDQueue runs it by default
// (gentle_ true, wait_ true, counted in packets): the average follows
// avg ← (1−w)·avg + w·q at each arrival, decaying as if m small packets had departed over
// an idle period. Early drops need avg ≥ min_th and more than one packet waiting; the
// first arrival after the average crosses min_th starts the count at 1 and is kept. The
// drop probability pb = max_p·(avg−min_th)/(max_th−min_th), rising linearly from max_p to
// 1 between max_th and 2·max_th (gentle), is spread by the count since the last drop as
// ns-2's modify_p does with wait_: no drop while count·pb < 1, then pb/(2 − count·pb), and
// a certain drop at count·pb ≥ 2, so drops come count ∈ [1/pb, 2/pb) apart, uniformly.
// From 2·max_th every arrival is dropped.
func (l *link) redDrop(s *sim, now float64) bool {
	w := l.redCfg.Weight
	q := float64(l.queue.len())
	if q == 0 && !l.busy {
		idle := now - l.idleFrom
		m := idle * l.capBps / (8 * redMeanPacketBytes)
		l.redAvg *= math.Pow(1-w, m)
	}
	l.redAvg = (1-w)*l.redAvg + w*q
	minTh, maxTh, maxP := l.redCfg.MinThPkts, l.redCfg.MaxThPkts, l.redCfg.MaxP
	avg := l.redAvg
	l.redCnt++
	switch {
	case avg < minTh || q <= 1:
		l.redCnt = -1 // ns-2's old = 0
		return false
	case avg >= 2*maxTh:
		l.redCnt = 0
		return true
	case l.redCnt == 0: // just crossed: ns-2's old = 0 → count = 1, no drop
		l.redCnt = 1
		return false
	}
	pb := maxP * (avg - minTh) / (maxTh - minTh)
	if avg >= maxTh {
		pb = maxP + (1-maxP)*(avg-maxTh)/maxTh
	}
	pa := 1.0
	switch c := float64(l.redCnt) * pb; {
	case c < 1:
		pa = 0
	case c < 2:
		pa = pb / (2 - c)
	}
	if s.rng.Float64() <= pa {
		l.redCnt = 0
		return true
	}
	return false
}
