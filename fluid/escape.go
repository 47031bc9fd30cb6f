package fluid

import (
	"math"
	"math/rand/v2"

	"github.com/tcpfluid/tcpfluid/model"
)

// Which flows crossing a full drop-tail queue lose a packet under the synchronized rule.
// The rule schedules a reaction for every flow crossing the queue when it fills. Where the
// senders jitter their sends (ns-2's overhead_), in the counted form, a flow that reaches
// the queue smoothly (smoothAt) reacts only if it lost a packet: its share of the
// overflow's drops, m packets since its last reaction (cntOverflow, its arrivals' share of
// the excess), is a mean, which packets such a queue drops is chance, and a flow loses
// none with probability e^(−m), a Poisson count's (the rule model.DropRandom applies to
// every drop). Escaping, it goes on growing, and looks again a round trip on if a queue of
// its path is still full. Without jitter the packet senders meet a full queue in a fixed
// phase, which no draw stands for, and every flow reacts.
//
// In the packet engine's parking lot (seeds 1–5) the long CUBIC flow, which reaches h3
// and h4 from links as fast, loses no packet at 27 of h3's 144 overflows (19%; 2.7 of each
// one's 24 drops on average) and at 7 of h4's 21 (33%); the fluid's share at h3 is 1.4–1.7
// packets, e^(−m) 18–25%. Losing at every overflow, the fluid's long flow never grew
// CUBIC's window past the next one, where the packet sender's escapes take it to 200–340
// packets: over seeds 1–10 it had 24.4% less throughput, 8.9% ± 10.4% less with escapes.

// escapeStream seeds the synchronized rule's escape draws, apart from the other streams,
// so that the packet engine's common random numbers still pair the random losses.
const escapeStream = 0xe5ca9e

// smoothAt reports whether a flow over links (in path order) brings its packets to its
// k-th link no faster than that link serves them: a link before it is no faster. The two
// packets a window's growth sends on one ACK then come a service time apart, where from a
// faster link (or from the sender, at the first hop) the second lands in the full queue
// behind the first: a flow whose packets come so loses its growth at every overflow, and
// only a smooth flow's drops are a draw. In the packet engine's parking lot the cross
// flows, from 1 Gb/s access links, lose at every one of their hop's overflows (seeds 1–5:
// 144 of h3's, 21 of h1's and of h4's), and so do seed000-colo-beta's five flows, from
// 200 Mb/s into 100 Mb/s.
func smoothAt(sc *model.Scenario, links []int, k int) bool {
	for _, lj := range links[:k] {
		if sc.Links[lj].CapacityBps <= sc.Links[links[k]].CapacityBps {
			return true
		}
	}
	return false
}

// escapesDrawn reports whether a run of sc with set draws the synchronized rule's escapes:
// its counted form, with senders that jitter. A flow that reaches a link smoothly
// (smoothAt) then never runs in a class, as under model.DropRandom: each draws its own.
func escapesDrawn(sc *model.Scenario, set Settings) bool {
	return !sc.DropRule.Proportional() && set.Form == FormHybridRecovery && set.jitterOf(sc) > 0
}

// newEscapeRng is subflow idx's escape draws, or nil where every reaction is a loss.
func (s *system) newEscapeRng(idx int) *rand.Rand {
	if !escapesDrawn(s.sc, s.set) {
		return nil
	}
	return rand.New(rand.NewPCG(s.set.Seed, escapeStream^uint64(idx)))
}

// escapes reports whether subflow f, reacting to the full queue it heard with overflow
// packets dropped since its last reaction, lost none of them: only where that queue's
// link is one it reaches smoothly (overflowSynchronized).
func (f *subflow) escapes(overflow float64) bool {
	heard := f.overflowHeard
	f.overflowHeard = false
	if !heard || f.escapeRng == nil || f.found.on || f.found.holes > 0 {
		return false
	}
	return f.escapeRng.Float64() < math.Exp(-max(overflow, 0))
}
