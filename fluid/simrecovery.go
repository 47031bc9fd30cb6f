package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// The reference simulators' SACK recoveries in the counted form (FormHybridRecovery): the
// window a sender fills and reports while it repairs a loss and, after ns-2's min_cwnd,
// while it slow-starts back to its law's window. They follow the packet engine's
// (packet/recovery.go), which follows ns-2.35's Agent/TCP/Linux and ns-3.37's
// TcpPrrRecovery, as closed forms in time over the recovery round trip of length R (the
// RTT at the loss event), with W the window before the loss, s the law's window after it
// (its ssthresh) and u = (t − t0)/R. Until the hole is found each duplicate ACK lets a
// new packet out, so the pipe is still about W when the recovery starts:
//
//   - model.RecoveryLinux (ns-2 LinuxTcpAgent rate halving, next_pkts_in_flight_, with
//     snd_cwnd = ssthresh): one packet sent per two ACKs, the ACKs of the W packets in
//     flight arriving evenly over the round trip, so the window is max(s, W·(1 − u/2)),
//     and s when the recovery ends. With ns-2's delayed send (Settings.SendJitterS) a
//     packet the send timer lets out does not lower the allowance; only the ACKs that
//     return while it waits do, the fraction 1 − c of them (c as idleAcks), so the window
//     is max(s, W·(1 − (1 − c)·u)): a third of a packet per ACK for a flow alone at two
//     packet times of jitter.
//   - model.RecoveryLinuxMinCwnd (snd_cwnd = s/2, Linux tcp_reno_min_cwnd): the window is
//     max(s/2, W·(1 − u/2)) (or the delayed send's fall, as above); at the end the pipe
//     p = max(s/2, W/2) (W·c) and the window
//     min(s, p + 3) (tcp_moderate_cwnd, tcp_max_burst 3), from which, when it is below s,
//     the sender slow-starts, one packet per ACK, back to s with its law held (Linux's
//     modules grow in slow start by tcp_slow_start, not by their law): counted per round as
//     the form counts slow start on a free path (clock), W − ½ doubles per round trip (grows
//     1 + c times, c the slow start's counted fraction, with the delayed send), the path's
//     when the recovery ends (rebuildFrom). Reno's
//     s = W/2 ends its recovery at s; Scalable's s = 7W/8 restarts from W/2 + 3. A loss
//     found in that slow start reduces from the window it has reached, not from s: Linux's
//     ssthresh() reads snd_cwnd (losses.go).
//   - model.RecoveryPRR (RFC 6937 with the SSRB bound, ns-3.37 TcpPrrRecovery): each ACK
//     that delivers d packets lets d·s/RecoverFS out, RecoverFS = W, so the pipe falls
//     from W to s in proportion to the packets delivered, W − (W − s)·u; then cwnd = s.
//
// The first round's ACKs return at the pace of the window before the loss, a/R. Later
// rounds' ACKs are the packets the round before let out, as on a free path, where the
// response functions run, unless a queue at the path's slowest link still holds packets
// sent before the loss: a busy link serves the flow its share of what arrives, so the
// ACKs of a flow that fills the queue keep the pace a/R, and its window falls at one
// rate, until the queue has drained (busyQueue). The packet engine's H-TCP beside four
// Reno flows (ns-2's friendliness run, seed 1, 608 s) falls so from 4128 to 2072 packets
// in 0.76 s, 1.6 round trips, its queue from 2053 to 141; the rounds of a free path had
// emptied the queue and restarted from it in a rise that fired the Reno flows' timers.
//
// Only single-path flows of the counted form recover so (multi-path flows recover as
// NewReno, as in the packet engine); the hybrid form keeps the textbook jump.
type simRec struct {
	style model.Recovery
	on    bool // the window follows the recovery, not the law
	// t0 and t1 bound the recovery, s: a round trip R, or longer where the window's last
	// hole is repaired later (extend, holespread.go).
	t0, t1, rtt    float64
	a, floor, fall float64 // the window's start and floor (packets) and its fall in the first round (packets/s)
	// keep is what rate halving leaves of the window each round, 1 − fall·R/a: each ACK
	// of a round lets out keep of a packet, and the next round's ACKs are those packets'.
	keep         float64
	delayed      bool      // ns-2's delayed send (Settings.SendJitterS): the sends wait for its timer
	floorT       float64   // when rate halving reaches the floor within the recovery, s (+Inf: not)
	resume       float64   // the window the law resumes at, packets
	end          float64   // the window at t1 under RecoveryLinuxMinCwnd, packets
	rebuildUntil float64   // the slow start back to resume ends then, s (0: none)
	growth       float64   // that slow start's growth a round trip
	rebuildRTT   float64   // that slow start's round trip, s: R until t1, then the path's at t1 (rebuildFrom)
	busy         busyQueue // the queue at the slowest link when the loss was found
	// busyKeep is the pace of a round's ACKs over the round before's while that queue
	// drains, until busyEnd (s); prop is the round trip after it, s. drained is when the
	// rounds of prop begin (busyEnd, at least a round trip on), with the window drainedW
	// (packets) and the ACK rate drainedAck (packets/s) of their first round.
	busyKeep, busyEnd, prop       float64
	drained, drainedW, drainedAck float64
}

// rtxStream is the PCG stream (with the flow's engine index) of the draws of
// retransmissionLost, apart from the random losses' streams so that the packet engine's
// common random numbers still pair them.
const rtxStream = 0x5ec0d

// ns3MinRTOS is ns-3.37's TcpSocketBase MinRto, s: a RecoveryPRR sender's timeout is at
// least this (RFC 6298 (2.4)).
const ns3MinRTOS = 1.0

// linuxMaxBurst is Linux's tcp_max_burst, packets: tcp_moderate_cwnd's packets above the
// pipe.
const linuxMaxBurst = 3

// simStyle reports whether recovery r is one of the simulators' SACK recoveries.
func simStyle(r model.Recovery) bool {
	return r == model.RecoveryLinux || r == model.RecoveryLinuxMinCwnd || r == model.RecoveryPRR
}

// linuxRecovery reports whether recovery r is ns-2.35 TCP/Linux's (with min_cwnd or not).
func linuxRecovery(r model.Recovery) bool {
	return r == model.RecoveryLinux || r == model.RecoveryLinuxMinCwnd
}

// simRecovers reports whether subflow f's window follows a simulator's recovery.
func (s *system) simRecovers(f *subflow) bool {
	return s.form.counted && f.nSub == 1 && simStyle(f.recovery) && !s.paced(f)
}

// start begins the recovery of a loss at time t lasting rtt s, from window w0, with the
// law's ssthresh ss and the window it resumes at (packets): ss, or with Linux's slow start
// through ssthresh (model.Window.ThroughSsthresh) ss + 1, which the sender reaches at the
// recovery's first ACK after it, or by the slow start back after min_cwnd, which grows
// by the factor growth a round trip (2, or less with ns-2's delayed send: countedFraction).
func (r *simRec) start(style model.Recovery, t, rtt, w0, ss, resume, idle, growth float64, busy busyQueue) {
	*r = simRec{style: style, on: true, t0: t, t1: t + rtt, rtt: rtt, a: w0, resume: resume, growth: growth, floorT: math.Inf(1), busy: busy}
	switch style {
	case model.RecoveryPRR:
		r.floor = min(ss, w0)
		r.fall = (w0 - r.floor) / rtt
		return
	case model.RecoveryLinux:
		r.floor = min(ss, w0)
	default:
		r.floor = min(ss, max(ss/2, 1)) // ns-2's snd_cwnd is at least one packet
	}
	lowering := 0.5 // of the ACKs: one packet sent for every two
	if idle < 1 {
		lowering = 1 - idle // ns-2's delayed send: only the ACKs that wait (packet/ns2send.go)
	}
	r.fall, r.keep, r.delayed = w0*lowering/rtt, 1-lowering, idle < 1
	r.setPace()
	r.setEnd()
}

// busyQueue is the queue at a flow's slowest link when its loss is found: the packets
// there and the link's service (packets/s), and how many flows the subflow stands for.
type busyQueue struct {
	pkts, servicePkts, mult float64
}

// setPace sets the pace of the rounds after the first from the ACK rate A = a/R. While
// the queue drains, a link serving a flow the share σ of its packets gives it the share of
// what arrives: its sends fell to keep·A while the others' did not, so a round's ACKs come
// at keep/(1 − (1 − keep)·σ) of the round before's (1 for a flow alone). The queue drains
// at the flow's fall, (1 − keep)·A, and after it the round trip is R less its delay.
func (r *simRec) setPace() {
	r.busyKeep, r.busyEnd, r.prop = r.keep, r.t0, r.rtt
	ack := r.busy.mult * r.a / r.rtt // the class's ACKs, packets/s
	q, c := r.busy.pkts, r.busy.servicePkts
	if !(q > 0) || !(c > 0) || !(ack > 0) || !(r.keep < 1) {
		return
	}
	share := min(ack/c, 1)
	r.busyKeep = r.keep / (1 - (1-r.keep)*share)
	r.busyEnd = r.t0 + q/((1-r.keep)*ack)
	if p := r.rtt - q/c; p > 0 {
		r.prop = p
	}
	r.drained = max(r.busyEnd, r.t0+r.rtt)
	last := r.round(math.Nextafter(r.drained, r.t0)) // the last busy round
	r.drainedW = last.w - (1-r.keep)*last.ack*(r.drained-last.start)
	r.drainedAck = r.keep * last.ack
}

// loseHoles takes holes packets, lost beyond the one found, from the ACKs a rate-halving
// recovery behind ns-2's delayed send hears. Each ACK lowers ns-2's allowance to the pipe
// + 1 and the timer's send lets out one packet, so the holes SACK marks lost open no
// sends: the sender lets out keep of the ACKs of the window's delivered packets, a −
// holes. Without the delay each hole marked is resent at once, and the pace stays keep of
// the window's ACKs. After a slow start's overshoot (a window twice the pipe, half of
// its last round lost) the packet engine's queue drains from the detection at a third of
// the link behind the delay and stays full without it; the fluid's had stayed full.
func (r *simRec) loseHoles(holes float64) {
	if !r.on || !r.delayed || !(holes > 0) { // delayed: a rate-halving recovery, never PRR
		return
	}
	r.a = max(r.a-holes, r.floor)
	r.fall = r.a * (1 - r.keep) / r.rtt
	r.setPace()
	r.setEnd()
}

// setEnd sets, for the recovery's end t1, when rate halving reaches its floor before it
// and where a RecoveryLinuxMinCwnd recovery leaves the window: the pipe then and
// tcp_max_burst above it, and the slow start back to the law's window.
func (r *simRec) setEnd() {
	r.floorT = r.floorWithin()
	if r.style != model.RecoveryLinuxMinCwnd {
		return
	}
	r.end = min(r.resume, max(r.floor, r.fallen(r.t1))+linuxMaxBurst)
	r.rebuildRTT = r.rtt
	r.setRebuild()
}

// setRebuild sets when the slow start back to the law's window ends.
func (r *simRec) setRebuild() {
	r.rebuildUntil = 0
	if r.end < r.resume && r.end > 0.5 {
		r.rebuildUntil = r.t1 + r.rebuildRTT*math.Log((r.resume-0.5)/(r.end-0.5))/math.Log(r.growth)
	}
}

// rebuildFrom times the slow start back, which begins now, at t1, by the path's round trip
// now, rtt (s): the recovery's fall has drained the queue the loss was found behind, so
// the slow start's rounds are those of an emptier path. The packet engine's HighSpeed at
// 3600 packets beside two smaller flows slow-starts from 1710 back to 2679 packets in
// 0.3 s, about one 0.25-s round trip; at the loss's 0.49 s the fluid took 0.6 s, and the
// queue's rise, which fires the smaller flows' timers, came half as fast.
func (r *simRec) rebuildFrom(rtt float64) {
	if !r.on || !(r.rebuildUntil > 0) || !(rtt > 0) {
		return
	}
	r.rebuildRTT = rtt
	r.setRebuild()
}

// extend makes a rate-halving recovery last until time until at least (holespread.go):
// the window falls on round after round, and a min_cwnd recovery restarts from where it
// has fallen to.
func (r *simRec) extend(until float64) {
	if !r.on || r.style == model.RecoveryPRR || until <= r.t1 {
		return
	}
	r.t1 = until
	r.setEnd()
}

// fallen is the recovery's window at time t before its floor: under PRR the pipe falling
// to s over the round trip; under rate halving a − (1 − keep)·(the ACKs since t0), the
// ACKs of a round (round, setPace) keep of the packets the round before let out.
func (r *simRec) fallen(t float64) float64 {
	if r.style == model.RecoveryPRR {
		return r.a - r.fall*(t-r.t0)
	}
	rd := r.round(t)
	return rd.w - (1-r.keep)*rd.ack*(t-rd.start)
}

// recoveryRound is one round of a rate-halving recovery: its start and end (s), the
// window at its start (packets) and its ACK rate (packets/s, one flow's). A round's end is
// computed as the next one's start is (roundIndex), so that the solver stops there and
// kinkAt finds it.
type recoveryRound struct {
	start, end, w, ack float64
}

// round is the rate-halving round holding time t ≥ t0. The first lasts R and brings the
// ACKs of the window before the loss, at a/R. While the queue at the slowest link drains
// (until busyEnd) the rounds last R and each brings busyKeep of the ACKs of the one
// before; after it they last the propagation round trip and bring keep of them.
func (r *simRec) round(t float64) recoveryRound {
	if t < r.drained || r.busyEnd <= r.t0 {
		k := roundIndex(t, r.t0, r.rtt)
		start := r.t0 + k*r.rtt
		if r.busyEnd <= r.t0 {
			// A free path: the busy form below with busyKeep = keep, written as the
			// closed form a·keep^k that the response functions have always run.
			top := r.a * math.Pow(r.keep, k)
			return recoveryRound{start: start, end: r.t0 + (k+1)*r.rtt, w: top, ack: top / r.rtt}
		}
		ack := r.a / r.rtt
		return recoveryRound{start: start, end: min(r.t0+(k+1)*r.rtt, r.drained),
			w:   r.a - (1-r.keep)*ack*r.rtt*geomSum(r.busyKeep, k),
			ack: ack * math.Pow(r.busyKeep, k)}
	}
	j := roundIndex(t, r.drained, r.prop)
	return recoveryRound{start: r.drained + j*r.prop, end: r.drained + (j+1)*r.prop,
		w:   r.drainedW - (1-r.keep)*r.drainedAck*r.prop*geomSum(r.keep, j),
		ack: r.drainedAck * math.Pow(r.keep, j)}
}

// roundIndex is the number k of whole rounds of the given length from start to time t:
// start + k·length ≤ t < start + (k + 1)·length as the floating point computes them.
func roundIndex(t, start, length float64) float64 {
	k := math.Floor((t - start) / length)
	if start+(k+1)*length <= t {
		k++
	}
	if k > 0 && start+k*length > t {
		k--
	}
	return k
}

// geomSum is 1 + x + … + x^(k−1).
func geomSum(x, k float64) float64 {
	if x == 1 {
		return k
	}
	return (1 - math.Pow(x, k)) / (1 - x)
}

// window is the window at time t given the law's w (packets).
func (r *simRec) window(t, w float64) float64 {
	switch {
	case !r.on || t < r.t0:
		return w
	case t < r.t1:
		return max(r.floor, r.fallen(t))
	case t < r.rebuildUntil:
		return 0.5 + (r.end-0.5)*math.Pow(r.growth, (t-r.t1)/r.rebuildRTT)
	}
	return w
}

// sendPace is, at time t while its recovery's window falls, the window whose pace (one per
// recovery round trip R) the sender sends at, packets; ok is false outside that fall.
// The ACKs of the window before the loss return at a/R and each lets out its share: half
// a packet in rate halving, s/W under PRR, so the sender sends a/R less the fall, a/(2R)
// or s/R, from the recovery's first ACK on, not the falling window's pace; in a later
// round of rate halving keep of that round's ACKs.
func (r *simRec) sendPace(t float64) (w float64, ok bool) {
	if !r.on || t < r.t0 || t >= r.t1 || !(r.fall > 0) {
		return 0, false
	}
	if r.style == model.RecoveryPRR {
		return r.a - r.fall*r.rtt, true
	}
	if t >= r.floorT {
		return 0, false
	}
	return r.keep * r.round(t).ack * r.rtt, true
}

// rebuildRate is the slow start back's growth at time t, packets/s (0 outside it): the
// packets its ACKs let out beyond those they acknowledge, sent at once (sendPerAck).
func (r *simRec) rebuildRate(t float64) float64 {
	if !r.rebuilding(t) {
		return 0
	}
	return (r.window(t, 0) - 0.5) * math.Log(r.growth) / r.rebuildRTT
}

// rebuilding reports whether at time t the sender slow-starts back to its law's window
// after a RecoveryLinuxMinCwnd recovery.
func (r *simRec) rebuilding(t float64) bool {
	return r.on && t >= r.t1 && t < r.rebuildUntil
}

// holdUntil is when the law takes over from a slow start back after the recovery, s; 0
// when there is none.
func (r *simRec) holdUntil() float64 {
	if !r.on {
		return 0
	}
	return r.rebuildUntil
}

// floorWithin is when rate halving brings the window to its floor within the recovery, s;
// +Inf if it does not.
func (r *simRec) floorWithin() float64 {
	if !r.on || r.style == model.RecoveryPRR || !(r.fall > 0) {
		return math.Inf(1)
	}
	for t := r.t0; t < r.t1; {
		rd := r.round(t)
		bottom := rd.w - (1-r.keep)*rd.ack*(rd.end-rd.start)
		if bottom <= r.floor {
			if at := rd.start + (rd.w-r.floor)/((1-r.keep)*rd.ack); at < r.t1 {
				return at
			}
			break
		}
		if !(rd.end > t) {
			break // a round that does not advance (FuzzSimRecBusyQueue finds none) ends the search
		}
		t = rd.end
	}
	return math.Inf(1)
}

// kinks are the times the window's path changes its law, step boundaries: the ends of
// rate halving's rounds and its reaching the floor, and the recovery's end before a slow
// start back. nextKink is the first after time t, s (+Inf when none); kinkAt reports
// whether one falls at t.
func (r *simRec) nextKink(t float64) float64 {
	next := math.Inf(1)
	if !r.on {
		return next
	}
	floorAt := r.floorT
	if floorAt > t {
		next = floorAt
	}
	if r.rebuildUntil > 0 && r.t1 > t {
		next = min(next, r.t1)
	}
	if round := r.roundEnd(t); round < min(r.t1, floorAt) {
		next = min(next, round)
	}
	return next
}

func (r *simRec) kinkAt(t float64) bool {
	if !r.on {
		return false
	}
	floorAt := r.floorT
	return t == floorAt || r.rebuildUntil > 0 && t == r.t1 ||
		t > r.t0 && t < min(r.t1, floorAt) && r.round(t).start == t
}

// roundEnd is the first end of a rate-halving round after time t, s (+Inf under PRR).
func (r *simRec) roundEnd(t float64) float64 {
	if r.style == model.RecoveryPRR || t < r.t0 {
		return math.Inf(1)
	}
	return r.round(t).end
}

// window is the window subflow f fills and reports at time t given its law's w
// (packets): its simulator recovery's while it lasts.
func (f *subflow) window(t, w float64) float64 { return f.sr.window(t, w) }

// retransmissionLost reports whether the retransmission of the hole subflow f's
// RecoveryPRR recovery has just found is lost on its path's random-loss links, as any
// packet is with probability p: ns-3.37 (RFC 6675) finds a lost retransmission only by its
// timer. ns-2's RecoveryLinux* finds it by its SACKs and resends it within the recovery,
// as the fluid's recovery already assumes.
func (s *system) retransmissionLost(f *subflow) bool {
	if f.rtxRng == nil || f.timeoutDue || !f.sr.on || !s.simRecovers(f) {
		return false
	}
	p := s.randomLossP(f)
	return p > 0 && f.rtxRng.Float64() < p
}

// prrTimeout is a RecoveryPRR recovery whose retransmission was lost: no partial ACK
// restarts the timer the fast retransmit armed, so it fires max(ns3MinRTOS, RTO) after
// the loss was found; the sender holds its reduced window (the law's) and is silent until
// then (timeoutFires).
func (s *system) prrTimeout(f *subflow) {
	detected := f.sr.t0
	f.silentUntil = detected + max(ns3MinRTOS, f.rto())
	f.recoverUntil = f.silentUntil
	f.timeoutDue = true
	f.sr.on = false
}
