package packet

import "github.com/tcpfluid/tcpfluid/model"

// FQ-CoDel (RFC 8290; Linux sch_fq_codel, ns-3 FqCoDelQueueDisc): one queue per source (TCP
// subflow or CBR source; model.FQCoDel), each with its own CoDel state, served by deficit
// round robin. A queue that becomes active joins the new-flows list with a deficit of one
// quantum; the scheduler serves the new list before the old one; a queue whose deficit is
// spent gets another quantum at the tail of the old list; a new queue found empty moves to
// the old list when that is not empty (so it cannot starve the old ones) and an old one
// leaves the lists. CoDel runs when a queue is served, on the sojourn time of its head and
// the whole discipline's backlog (as Linux passes the qdisc backlog). When the packets in
// the system exceed the buffer, the queue with the most bytes loses packets from its head,
// up to 64 or half its bytes (Linux fq_codel_drop, drop_batch_size 64).
type fqState struct {
	quantum float64 // bytes
	queues  []fqQueue
	lists   [2]fqList // new, old
	backlog int       // packets in the flow queues (the one being serialized is not)
}

// fqQueue is one source's queue.
type fqQueue struct {
	q       ring
	bytes   float64
	deficit float64 // bytes
	cd      codel
	list    int8  // listNone, listNew or listOld
	next    int32 // the next queue in its list, -1 at the tail
}

// fqList is a FIFO of queue indices threaded through fqQueue.next.
type fqList struct{ head, tail int32 }

const (
	listNone = -1
	listNew  = 0
	listOld  = 1
)

// dropBatch is Linux's drop_batch_size: the most packets one overflow drops.
const dropBatch = 64

func newFQ(p model.FQCoDel, sources int) *fqState {
	fq := &fqState{quantum: p.QuantumBytes, queues: make([]fqQueue, sources), lists: [2]fqList{{-1, -1}, {-1, -1}}}
	for i := range fq.queues {
		fq.queues[i] = fqQueue{cd: *newCoDel(p.CoDel), list: listNone, next: -1}
	}
	return fq
}

// push appends queue i to list k.
func (fq *fqState) push(k int8, i int32) {
	l := &fq.lists[k]
	q := &fq.queues[i]
	q.list, q.next = k, -1
	if l.tail < 0 {
		l.head = i
	} else {
		fq.queues[l.tail].next = i
	}
	l.tail = i
}

// pop removes the head of list k, which must not be empty.
func (fq *fqState) pop(k int8) int32 {
	l := &fq.lists[k]
	i := l.head
	q := &fq.queues[i]
	l.head = q.next
	if l.head < 0 {
		l.tail = -1
	}
	q.list, q.next = listNone, -1
	return i
}

// fqEnqueue adds a packet to its source's queue, then enforces the buffer.
func (sm *sim) fqEnqueue(li int32, p pkt) {
	l := &sm.links[li]
	fq := l.aqm.fq
	i := int32(sm.sourceIndex(&p))
	q := &fq.queues[i]
	l.account(sm.now)
	q.q.push(p)
	q.bytes += p.bytes
	fq.backlog++
	if q.list == listNone {
		fq.push(listNew, i)
		q.deficit = fq.quantum
	}
	if l.qlen() > l.buffer {
		sm.fqOverflow(li)
	}
	if !l.busy && l.qlen() > 0 {
		sm.startTx(li)
	}
}

// fqOverflow drops from the head of the queue holding the most bytes: up to dropBatch
// packets, stopping once half its bytes are gone.
func (sm *sim) fqOverflow(li int32) {
	l := &sm.links[li]
	fq := l.aqm.fq
	fat := -1
	for i := range fq.queues {
		if fq.queues[i].q.len() > 0 && (fat < 0 || fq.queues[i].bytes > fq.queues[fat].bytes) {
			fat = i
		}
	}
	if fat < 0 {
		return
	}
	q := &fq.queues[fat]
	half := q.bytes / 2
	dropped := 0.0
	for n := 0; n < dropBatch && q.q.len() > 0 && dropped < half; n++ {
		p := q.q.pop()
		q.bytes -= p.bytes
		dropped += p.bytes
		fq.backlog--
		sm.drop(li, &p)
	}
}

// fqDequeue moves the next packet DRR and CoDel choose into the link's FIFO for
// serialization; it reports whether there was one.
func (sm *sim) fqDequeue(li int32) bool {
	l := &sm.links[li]
	a := l.aqm
	fq := a.fq
	total := func() int { return fq.backlog }
	for {
		k := int8(listNew)
		if fq.lists[listNew].head < 0 {
			k = listOld
			if fq.lists[listOld].head < 0 {
				return false
			}
		}
		i := fq.lists[k].head
		q := &fq.queues[i]
		if q.deficit <= 0 {
			q.deficit += fq.quantum
			fq.push(listOld, fq.pop(k))
			continue
		}
		drop := func() {
			q.bytes -= q.q.front().bytes
			sm.dropHead(li, &q.q)
		}
		if !q.cd.dequeue(sm.now, &q.q, total, drop, func() bool { return a.markHead(&q.q) }) {
			fq.pop(k)
			if k == listNew && fq.lists[listOld].head >= 0 {
				fq.push(listOld, i)
			}
			continue
		}
		p := q.q.pop()
		q.bytes -= p.bytes
		q.deficit -= p.bytes
		fq.backlog--
		l.queue.push(p)
		return true
	}
}
