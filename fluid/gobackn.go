package fluid

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// The go-back-N rebuild after a timeout. A sender without SACK that times out in a window
// with many holes resends from its first unacknowledged packet everything it had sent (ns-2's
// TcpAgent, the packet engine's tcpFlow.timeout); the receiver already holds most of it, so
// only the ACK that each repaired hole releases is new, and the rest are duplicates, which
// open no window (RFC 5681 §3.2; ns-2's bugfix_ keeps them from a fast retransmit). Of a
// window of W packets sent from a hole, with a fraction h of the span holes, 1 + h·(W − 1)
// are holes: the law hears that fraction of its ACKs, h + (1 − h)/W. The ACK of a round's
// last hole jumps to the next, 1/h − 1 packets past the round's on average, and the sender
// skips them: a round covers W − 1 + 1/h packets of the span, and the rebuild ends when
// the packets sent plus (1/h − 1) a round trip reach the span. Slow start grows by the
// factor 1 + h a round trip instead of 2, and after a timeout with a few holes in a large
// window by about one packet a round until the span is covered. The heard fraction and the
// coverage agree with a Monte Carlo run of ns-2's go-back-N over random holes within a
// round trip from h = 0.01 to 0.6. Of what the rebuild sends, the fraction 1 − h are
// copies the receiver holds: delivered, and no goodput (FlowResult.GoodputBps counts each
// packet's first copy, as the packet engine and seed 003's Table 3 do). In the counted
// form only: the hybrid form keeps the textbook sawtooth. The span starts at the window's
// first hole and ends with what the recovery sent while it waited for the timer
// (awaitflight.go), and h where the rounds grow is the holes' density where the rebuild
// resends (holeprofile.go). Until the packets sent before the timeout have arrived, their
// ACKs repeat the first hole's: they neither open the window nor clock out packets
// (stale): clocked by them, parking-lot's long CUBIC flow, whose recoveries behind four
// queues often wait for their timers, kept 4.78 Mb/s at seed 1 (now 5.11; the packet
// engine's 5.66) and 4.85 over seeds 1–6 (now 4.91; 6.58).
// Tahoe's fast retransmit goes back N too, but the rebuild is not started
// there. Started there (tried), it took seed 003's Tahoe goodput from 675 to 669 kb/s
// (ns-2's Table 3: 650, the packet engine 652), but one Tahoe flow's overshoots into a
// 20–100-packet buffer (10 Mb/s, 20–100 ms) then resent twice the copies the packet
// sender resends, its goodput 0.2–1.4% further below the packet engine's; tried again with
// the awaited flight and stale ACKs, 664 kb/s, still above NewReno's 649. In seed 003
// the first fast retransmit times out 0.2 s on, as ns-2's does (roundtimer.go), and the
// rebuild starts there.
//
// The rounds from the timeout's one packet (rounds): each new ACK releases one packet more
// than it acknowledges, the window sliding past the packets it covers and growing by one,
// so a round's new ACKs grow by 1 + h from the first one and the window after r round
// trips is 1 + ((1 + h)^r − 1)/h (seed 000's slow start, h ≈ 0.43: 1, 2, 3.4, 5.5, 8.4,
// 12.5, the packet sender's 1, 2, 3, 5, 8, 13; 1, 2, 4, 7, 11, 16 in seed000-colo-gamma,
// whose span starts with every other packet lost). On a free path the counted form's slow
// start integrates that recurrence, W' = ln(1 + h)·(W − 1 + 1/h)/RTT (form.clock); the
// fraction heard, which starts at one, took two round trips to reach two packets.

// goBackN is a subflow's go-back-N rebuild, and what its latest loss event left for one.
type goBackN struct {
	on        bool
	sentFrom  float64 // the subflow's sent count (cntSent) when the rebuild began; stale reads it
	holeFrac  float64 // h, the fraction of the resent span that the network lost
	lnGrowth  float64 // ln(1 + h): the rounds' growth a round trip (rounds)
	untilSent float64 // the subflow's sent count (cntSent) at which the span is resent without skips
	from      float64 // when the rebuild began, s
	skipRate  float64 // packets of the span skipped a second, (1/h − 1) a round trip, per class
	span      float64 // packets from the first hole of the latest loss event's window to its end
	shape     float64 // the rebuild's growth over the mean hole density's (holeprofile.go)
	growFrac  float64 // the hole density its rounds grow by: 1 + growFrac a round trip
	dropsFrom float64 // the dropped count (cntDropped) where that window's losses begin
	holes     holeProfile
}

// lossEvent ends any rebuild at a loss event of a window of w0 packets a member (mult
// members) whose losses are counted from the dropped count dropsFrom (the previous
// event's); sent is the sent count then. It returns the rebuild's copies (stop).
func (g *goBackN) lossEvent(w0, mult, dropsFrom, sent float64) float64 {
	copies := g.stop(sent)
	g.span, g.shape = g.holes.window(w0, mult, sent)
	g.dropsFrom = dropsFrom
	g.holes.restart()
	return copies
}

// profileHoles follows an accepted step (state y): the hole profile of every subflow that
// goes back N.
func (s *system) profileHoles(y []float64) {
	for fi := range s.flows {
		if f := &s.flows[fi]; f.active && s.goesBackN(f) {
			f.gbn.holes.record(y[f.cnt+cntSent], y[f.cnt+cntDropped])
		}
	}
}

// stop ends the rebuild, if one runs, at the sent count sent, and returns the copies it
// resent, counted for all of a class's members: of the span's packets it resends, the
// receiver holds all but the fraction h of holes (and the one the timer resent), so
// (1 − h) of what it sends is no goodput. The packet engine counts each packet's first
// copy only (its goodput), as ns-2's Table 3 in seed 003 does.
func (g *goBackN) stop(sent float64) float64 {
	copies := g.copiesTo(sent)
	g.on = false
	return copies
}

// copiesTo is the copies the running rebuild has resent by the sent count sent (stop).
func (g *goBackN) copiesTo(sent float64) float64 {
	if !g.on {
		return 0
	}
	return (1 - g.holeFrac) * max(sent-g.sentFrom, 0)
}

// holesAtTimeout is what subflow f's window lost by the time its retransmission timer
// fires at time t (y is the state then): every packet lost since its loss event, less the
// holes NewReno's partial ACKs repaired meanwhile, one per round trip of the recovery as it
// began (Reno repairs the first only). The path's round trip when the timer fires, drained
// while the sender waited silent, counted thirty holes repaired in seed 003 where two were.
func (s *system) holesAtTimeout(f *subflow, t float64, y []float64) float64 {
	holes := (y[f.cnt+cntDropped] - f.gbn.dropsFrom) / f.mult
	repaired := 1.0
	if f.recovery == model.RecoveryNewReno {
		repaired = max(f.partialAcks(t), 1)
	}
	return holes - min(repaired, holes-1)
}

// partialAcks is the partial ACKs a NewReno recovery of subflow f has heard by time t, one
// a round trip of the recovery as it began.
func (f *subflow) partialAcks(t float64) float64 {
	if !(f.recoverRTT > 0) {
		return 0
	}
	return math.Floor((t - f.recoverFrom) / f.recoverRTT)
}

// goesBackN reports whether subflow f's timeouts resend its window go-back-N with holes a
// SACK sender would not resend: a single-path sender without SACK in the counted form.
func (s *system) goesBackN(f *subflow) bool {
	return s.form.counted && !s.set.SACK && !s.simRecovers(f) && f.nSub == 1 && f.at == nil
}

// startGoBackN begins the rebuild of subflow f's span, the window of its loss event and
// the awaited packets the recovery sent after it, of which holes were lost, at its timeout
// at time t (y is the state then).
func (s *system) startGoBackN(f *subflow, t float64, y []float64, holes, awaited float64) {
	g := &f.gbn
	f.copies += g.stop(y[f.cnt+cntSent])
	g.span += awaited
	if g.on = s.goesBackN(f) && g.span >= 2 && holes >= 2; !g.on {
		return // one hole: its ACK covers the whole span, and slow start runs as ever
	}
	g.holeFrac = min(holes/g.span, 1)
	// At least a hole a round (the span's), at most slow start's doubling.
	g.lnGrowth = min(max(g.shape*math.Log1p(g.holeFrac), math.Log1p(1/g.span)), math.Ln2)
	g.growFrac = math.Expm1(g.lnGrowth)
	g.sentFrom = y[f.cnt+cntSent]
	g.untilSent, g.from = g.sentFrom+g.span*f.mult, t
	g.skipRate = (1/g.holeFrac - 1) * f.mult / f.rtt
}

// left is the span still to resend at time t with sent packets counted, ≤ 0 once covered:
// the guard of the rebuild's end.
func (g *goBackN) left(t, sent float64) float64 {
	return g.untilSent - sent - g.skipRate*(t-g.from)
}

// stale reports whether the packets a delivered count of n reaches (all members of a class
// of mult, dropped the dropped count) were sent before the rebuild began: the receiver
// still misses the holes below them, so their ACKs are duplicates, which neither open the
// window nor clock out packets.
func (g *goBackN) stale(n, dropped, mult float64) bool {
	return g.on && n+dropped < g.sentFrom-mult/2
}

// heard is the fraction of its ACKs that subflow f's law hears at window w, packets.
func (g *goBackN) heard(w float64) float64 {
	if !g.on {
		return 1
	}
	return g.growFrac + (1-g.growFrac)/max(w, 1)
}

// rounds is the window's growth in slow start on a free path at window w, packets/s, for a
// round trip of rtt s: W' = ln(1 + h)·(W − 1 + 1/h)/RTT, through 1 + ((1 + h)^r − 1)/h
// after r round trips.
func (g *goBackN) rounds(w, rtt float64) float64 {
	return g.lnGrowth * (w - 1 + 1/g.growFrac) / rtt
}
