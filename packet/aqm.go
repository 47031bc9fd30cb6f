package packet

import "github.com/tcpfluid/tcpfluid/model"

// Queue disciplines beyond drop-tail and RED, and ECN marking (model/aqm.go): a link with
// an aqmState runs its arrivals through aqmEnqueue and chooses the packet to serialize in
// aqmDequeue. The buffer limit counts packets in the system, the one being serialized
// included, as for drop-tail; the time a packet spends in the system before its
// serialization starts is its sojourn time (CoDel, PIE).
//
//   - Step marking (model.Link.MarkThresholdPkts K): an ECN-capable packet arriving to find
//     more than K packets in the system is marked CE (DCTCP's switch, RFC 8257 §3.1).
//   - RED with ECN: where RED drops early, an ECN-capable packet is marked instead, below
//     twice max_thresh (above it RED drops everything, as its hard-drop region).
//   - CoDel (codel.go) decides at dequeue; PIE (pie.go) at arrival; FQ-CoDel (fqcodel.go)
//     keeps one queue per source and serves them by deficit round robin.
//
// A packet an AQM marks is delivered with CE set; one it drops is counted in the link's
// DroppedPkts, as a RED drop is.
type aqmState struct {
	ecn    bool    // mark ECN-capable packets instead of dropping them early
	markK  float64 // step-marking threshold, packets; 0 for none
	codel  *codel  // CoDel on the link's FIFO
	pie    *pieState
	fq     *fqState
	marked int64 // packets marked CE
}

// newAQM is the ECN marking and AQM of a validated link, or nil for a plain drop-tail or
// RED queue. sources is the number of TCP subflows and CBR sources (FQ-CoDel's queues).
func newAQM(l *model.Link, sources int) *aqmState {
	if !l.Marks() && !l.Queue.IsAQM() {
		return nil
	}
	a := &aqmState{ecn: l.Marks(), markK: l.MarkThresholdPkts}
	switch l.Queue {
	case model.QueueCoDel:
		a.codel = newCoDel(l.CoDel)
	case model.QueuePIE:
		a.pie = newPIE(l.PIE)
	case model.QueueFQCoDel:
		a.fq = newFQ(l.FQCoDel, sources)
	}
	return a
}

// qlen is the packets in the link's system: its FIFO and, for FQ-CoDel, the flow queues.
func (l *link) qlen() int {
	n := l.queue.len()
	if l.aqm != nil && l.aqm.fq != nil {
		n += l.aqm.fq.backlog
	}
	return n
}

// aqmEnqueue offers a packet to link li's marking or AQM discipline and buffer.
func (sm *sim) aqmEnqueue(li int32, p pkt) {
	l := &sm.links[li]
	a := l.aqm
	if !l.up {
		sm.drop(li, &p)
		return
	}
	p.enqAt = sm.now
	if a.fq != nil {
		sm.fqEnqueue(li, p)
		return
	}
	early := false
	switch {
	case l.red:
		early = l.redDrop(sm, sm.now)
		if early && a.ecn && p.ect && l.redAvg < 2*l.redCfg.MaxThPkts {
			early, p.ce = false, true
		}
	case a.markK > 0:
		if p.ect && float64(l.queue.len()) > a.markK {
			p.ce = true
		}
	case a.pie != nil:
		early = a.pie.enqueue(sm, l, &p, a.ecn)
	}
	if early || l.queue.len() >= l.buffer {
		sm.drop(li, &p)
		return
	}
	if p.ce {
		a.marked++
	}
	l.account(sm.now)
	l.queue.push(p)
	if !l.busy {
		sm.startTx(li)
	}
}

// aqmDequeue readies the head of link li's queue for serialization: CoDel's drops and
// marks, PIE's delay measurement, FQ-CoDel's choice of queue. It reports whether a packet
// is left to send.
func (sm *sim) aqmDequeue(li int32) bool {
	l := &sm.links[li]
	a := l.aqm
	switch {
	case a.fq != nil:
		return sm.fqDequeue(li)
	case l.queue.len() == 0:
		return false
	case a.codel != nil:
		return a.codel.dequeue(sm.now, &l.queue, l.queue.len, func() { sm.dropHead(li, &l.queue) }, func() bool { return a.markHead(&l.queue) })
	case a.pie != nil:
		a.pie.dequeue(sm.now, l.queue.front(), l.queue.len()-1)
	}
	return true
}

// dropHead drops the head of queue q of link li (a CoDel drop).
func (sm *sim) dropHead(li int32, q *ring) {
	l := &sm.links[li]
	l.account(sm.now)
	p := q.pop()
	if l.aqm.fq != nil {
		l.aqm.fq.backlog--
	}
	sm.drop(li, &p)
}

// markHead marks the head of q CE if the link marks and the packet is ECN-capable.
func (a *aqmState) markHead(q *ring) bool {
	if p := q.front(); a.ecn && p.ect {
		if !p.ce {
			a.marked++
		}
		p.ce = true
		return true
	}
	return false
}

// aqmFlush empties the flow queues of a link that went down.
func (sm *sim) aqmFlush(li int32) {
	l := &sm.links[li]
	if fq := l.aqm.fq; fq != nil {
		for i := range fq.queues {
			q := &fq.queues[i]
			for q.q.len() > 0 {
				p := q.q.pop()
				fq.backlog--
				sm.drop(li, &p)
			}
			q.bytes, q.list, q.next = 0, listNone, -1
		}
		fq.lists = [2]fqList{{-1, -1}, {-1, -1}}
	}
}
