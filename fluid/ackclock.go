package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// The ACK clock of a counted slow start. A packet sender with an empty pipe — at its start,
// and when its timer fires — sends its window at once, back to back at its first link's
// rate; from then on each ACK releases the packet it acknowledges and the window's growth,
// and nothing leaves between ACKs, so a slow start's rounds are bursts at twice the rate
// the ACKs return at, each as long as the round before, and its window stays its first
// window more than the packets acknowledged. The counted form sends so (sendPerAck, and
// form.clock for the window) from such a burst to the sender's first loss event or the end
// of its slow start. At W/RTT in flight its window doubles per RTT too, but carries
// 2·ln 2 times the packets acknowledged (seed000-colo-random-loss: a loss found at 6212
// packets where the packet sender found it at 5631), and its even rate queues nothing
// where a packet sender's rounds queue half of each burst.
//
// Only a sender alone on its path runs on the clock (alone). A FIFO link serves its
// streams by their admissions recorded at the solver's steps (fifo.go), and stops the
// solver where the departures reach an admission rate's jump (fifobreaks.go) only when the
// jump is exact, two entries at the same admissions. A clocked round's burst starts and
// ends within a few steps instead, so behind another flow's standing queue one step of
// 27 ms crossed the 4.5 ms of a 19.8-packet burst's departures and served none of it, and
// the history, past it, gives that flow no share again (a 10-packet window before it
// delivered 9.8 packets); and
// where flows share a bottleneck their faithful slow starts left what follows them further
// from the packet engine and ns-3 (docs/models.md). A class stands for flows that share
// every link, so it is not alone. A go-back-N rebuild counts its rounds instead
// (gobackn.go), a packet-granular timer its whole packets (acktimer.go), and a paced law
// its own rate; a multi-path flow's subflows have no per-ACK increment.

// startBurst starts subflow f's window (state y) into an empty pipe at time t if it
// slow-starts: its whole packets leave at its first link's rate, and its ACK clock runs
// from then on. A window that starts in congestion avoidance stands for one already in
// flight (a response or converge point's start).
func (s *system) startBurst(f *subflow, t float64, y []float64) {
	f.clocked, f.burstUntil = false, 0
	if !s.form.counted || f.gbn.on || f.at != nil || f.nSub > 1 || s.paced(f) || !s.alone(f) ||
		y[f.off+f.sub] >= model.SsthreshOf(f.law, f.sub) {
		return
	}
	c := s.links[f.links[0]].capBps
	bytes := math.Floor(min(y[f.off+f.sub], f.rwnd)) * f.wire
	if !(c > 0) || bytes < f.wire {
		return
	}
	lasts := max(bytes/c, minBurstRTTs*max(f.propRTT, f.minRTT))
	f.clocked, f.burstUntil, f.burstBps = true, t+lasts, f.mult*bytes/lasts
}

// minBurstRTTs is the shortest burst, in round trips: a link of unbounded capacity (a
// response point's 10^18 bit/s) would send a window in femtoseconds, below the solver's
// resolution; a microsecond of a 100-ms round trip queues nothing there either.
const minBurstRTTs = 1e-5

// perAckSlowStart reports whether subflow f, whose law adds d packets per ACK, slow-starts
// on its ACK clock: d is a packet or more and the clock runs.
func (f *subflow) perAckSlowStart(d float64) bool {
	return d >= 1 && f.clocked && !f.gbn.on && f.at == nil
}

// A slow start on its ACK clock sends its ACKs' bursts: each jump of its acknowledged rate
// (a burst's edge, a queue that empties) comes back a return lag later as a jump of its
// sending rate. The run stops the solver there, as at a FIFO break (fifobreaks.go), so
// that no step smooths a burst away or steps over a short one, and the step's end reads
// the rate before the jump (ackPast.at's left limit), so that the jump is recorded and
// tracked round after round. The clock stops at the sender's first loss event and where
// its law leaves slow start; the rounds then merge behind the queue they have built.

// nextClockJump is when subflow f's ACK clock next jumps, s: a return lag after the
// oldest jump of its acknowledged rate not yet passed; +Inf when none, or its clock is off.
func (s *system) nextClockJump(f *subflow) float64 {
	if !f.clocked || len(f.ackPast.jumps) == 0 {
		return math.Inf(1)
	}
	return f.ackPast.jumps[0].t + s.ackLag(f)
}

// passClockJumps forgets the jumps subflow f's ACKs have brought back by time t and
// reports whether its clock passed one: the solver restarts from the rate after it.
func (s *system) passClockJumps(f *subflow, t float64) bool {
	j, lag := f.ackPast.jumps, s.ackLag(f)
	n := 0
	for n < len(j) && j[n].t+lag <= t {
		n++
	}
	if n == 0 {
		return false
	}
	f.ackPast.jumps = j[:copy(j, j[n:])]
	return f.clocked
}

// alone reports whether subflow f, one flow and not a class of them, is the only stream on
// every link of its path.
func (s *system) alone(f *subflow) bool {
	if f.mult != 1 {
		return false
	}
	for _, li := range f.links {
		if len(s.links[li].streams) != 1 {
			return false
		}
	}
	return true
}

// clockEdgeAt reports whether a burst ends or an ACK clock's rate jumps at time t: the
// step that ends there reads the rates before it.
func (s *system) clockEdgeAt(t float64) bool {
	for fi := range s.flows {
		if f := &s.flows[fi]; f.burstUntil == t || s.nextClockJump(f) == t {
			return true
		}
	}
	return false
}
