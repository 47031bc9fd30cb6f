package packet

// evKind says what an event does when it fires.
type evKind uint8

const (
	evTxDone    evKind = iota // a link finished serializing its head packet
	evArrive                  // a packet reached the far end of a link (propagation done)
	evAck                     // an ACK reached its sender
	evRTO                     // a flow's retransmission timer (lazy, see tcpFlow.rto*)
	evDelAck                  // a receiver's delayed-ACK timer
	evFlowStart               // a TCP flow starts sending
	evFlowStop                // a TCP flow's application stops (StopS)
	evEmit                    // a jittered data packet enters its first link (Settings.JitterS)
	evCBR                     // a CBR source emits its next packet
	evNetwork                 // a scenario TimedEvent (link down/up, delay change)
	evSample                  // a trace sample
	evPace                    // a paced sender may send again (pacing.go)
	evSendTimer               // ns-2 TCP/Linux's delayed-send timer fires (ns2send.go)
)

// pkt is one packet in the network: a TCP data segment or a CBR datagram. ACKs travel as
// events only (see tcpFlow.sendAck) and reuse seq for the cumulative ACK number.
type pkt struct {
	sentAt float64 // when this copy left its source, s (echoed by the receiver)
	bytes  float64 // size on the wire, bytes
	seq    int64   // TCP sequence number in packets (CBR: unused)
	src    int32   // index of the TCP flow, or of the CBR source when cbr is set
	hop    int32   // index in the source's path of the link the packet is on
	cbr    bool
	// ECN (ecn.go): a data packet's ECT and CE codepoints; on an ACK event, ce is the echo
	// of the CE state of the packets it acknowledges.
	ect, ce bool
	enqAt   float64 // when the packet entered its current link's queue, s (AQMs' sojourn time)
}

// event is a scheduled action. Its time and tie-break order live in the heap entry.
type event struct {
	pkt  pkt
	at   float64 // evAck: when the ACK left the receiver, s
	sack int64   // evAck: the out-of-order packet the ACK reports held (SACK), -1 for none
	idx  int32   // link (evTxDone, evArrive, evEmit), flow, CBR or scenario-event index, by kind
	gen  uint32  // link epoch (evTxDone, evArrive) or timer generation (evRTO, evDelAck)
	kind evKind
}

// heapEntry orders events by time, then by insertion: ties fire in the order they were
// scheduled, so a run is a deterministic function of the scenario and the seed.
type heapEntry struct {
	t    float64
	seq  uint64
	slot int32
}

// eventQueue is a binary min-heap of small entries over a slab of event payloads reused
// through a free list: once the slab and heap have grown to the run's peak number of
// pending events, scheduling allocates nothing.
type eventQueue struct {
	heap []heapEntry
	slab []event
	free []int32
	next uint64
}

func newEventQueue(capacity int) eventQueue {
	return eventQueue{
		heap: make([]heapEntry, 0, capacity),
		slab: make([]event, 0, capacity),
		free: make([]int32, 0, capacity),
	}
}

func (q *eventQueue) len() int { return len(q.heap) }

func less(a, b *heapEntry) bool {
	return a.t < b.t || (a.t == b.t && a.seq < b.seq)
}

// push schedules e at time t (s).
func (q *eventQueue) push(t float64, e event) {
	var slot int32
	if n := len(q.free); n > 0 {
		slot = q.free[n-1]
		q.free = q.free[:n-1]
		q.slab[slot] = e
	} else {
		slot = int32(len(q.slab))
		q.slab = append(q.slab, e)
	}
	q.heap = append(q.heap, heapEntry{t: t, seq: q.next, slot: slot})
	q.next++
	// Sift up.
	h := q.heap
	i := len(h) - 1
	x := h[i]
	for i > 0 {
		parent := (i - 1) / 2
		if !less(&x, &h[parent]) {
			break
		}
		h[i] = h[parent]
		i = parent
	}
	h[i] = x
}

// pop removes the earliest event and returns its time and payload. The queue must not be
// empty.
func (q *eventQueue) pop() (float64, event) {
	h := q.heap
	top := h[0]
	last := len(h) - 1
	x := h[last]
	h = h[:last]
	q.heap = h
	if last > 0 {
		// Sift down the former last entry from the root.
		i := 0
		for {
			child := 2*i + 1
			if child >= last {
				break
			}
			if r := child + 1; r < last && less(&h[r], &h[child]) {
				child = r
			}
			if !less(&h[child], &x) {
				break
			}
			h[i] = h[child]
			i = child
		}
		h[i] = x
	}
	e := q.slab[top.slot]
	q.free = append(q.free, top.slot)
	return top.t, e
}
