package fluid

// The state vector, declared once. newSystem reserves it in this order:
//
//	[link 0 | link 1 | … ]                      linkVars each: queue, departures, ∫queue, drops, RED average
//	[flow 0's law | subflow 0's counters, its bytes queued at each link of its path | …]
//	[flow 1's law | …]
//	[CBR 0's bytes queued at each link of its path | …]
//
// A multi-path flow's law block holds every subflow's window (subflow k's at law offset
// k); each subflow has its own counters and queue contents (streams.go). Offsets are stored
// in the link, subflow and stream entries (link.off, subflow.off, subflow.cnt,
// stream.content).

// link variables, at link.off.
const (
	lvQueue     = iota // bytes queued
	lvDeparted         // bytes departed
	lvQueueTime        // ∫ queue dt, byte·s
	lvDropped          // bytes dropped by overflow
	lvREDAvg           // RED average queue, bytes
	linkVars
)

// subflow counters, at subflow.cnt: integrated by the solver.
const (
	cntSent      = iota // packets sent
	cntDelivered        // packets arriving at the receiver
	cntDropped          // packets dropped (queue overflow, random loss)
	cntRandom           // integrated random-loss intensity since the last random loss
	cntPeriodic         // integrated periodic-loss intensity since the last periodic loss
	cntOverflow         // packets of this flow dropped by a full queue since its last reaction
	cntCwndTime         // ∫ cwnd dt, packet·s
	cntAcked            // packets whose ACKs have reached the sender (the counted form's ackedLag)
	flowCounters
)

// layout hands out consecutive blocks of the state vector.
type layout struct{ dim int }

// reserve returns the offset of a new block of n variables.
func (l *layout) reserve(n int) int {
	off := l.dim
	l.dim += n
	return off
}
