package fluid

import "math"

// reactionSlack is the fraction of its ACK spacing a flow's drop-tail reaction may wait to
// share a solver stop with other flows' (Settings.ExactReactions turns it off).
const reactionSlack = 0.25

// dropReaction is when subflow f's drop-tail reaction, or its recovery's look at whether
// the queue is still full, is due (+Inf when neither is).
func (f *subflow) dropReaction() float64 { return min(f.reactAt, f.recheckAt) }

// reactionWait is how long subflow f's drop-tail reaction may wait, s: reactionSlack of its
// ACK spacing at the last evaluation, at most of its RTT.
func (f *subflow) reactionWait() float64 {
	spacing := f.rtt
	if f.rate > 0 {
		spacing = min(spacing, f.wire*f.mult/f.rate)
	}
	if !(spacing > 0) {
		return 0
	}
	return reactionSlack * spacing
}

// nextDropReaction is when the solver stops for the drop-tail reactions (dueReactions takes
// every one due by then). Exact, at the earliest. Otherwise at the latest of those that
// can wait for it, each at most its reactionWait: a flow alone is never delayed, and each
// stop takes the reactions of a stretch a quarter of an ACK spacing long, however many
// flows react in it. One pass finds the limit: it only falls, so every flow due by the
// final limit was weighed against a limit at least as late.
func (s *system) nextDropReaction() float64 {
	first, r1 := -1, math.Inf(1)
	for fi := range s.flows {
		if r := s.flows[fi].dropReaction(); r < r1 {
			first, r1 = fi, r
		}
	}
	if first < 0 || s.set.ExactReactions {
		return r1
	}
	limit := r1 + s.flows[first].reactionWait()
	for fi := range s.flows {
		f := &s.flows[fi]
		if r := f.dropReaction(); r <= limit {
			limit = min(limit, r+f.reactionWait())
		}
	}
	stop := r1
	for fi := range s.flows {
		if r := s.flows[fi].dropReaction(); r <= limit {
			stop = max(stop, r)
		}
	}
	return stop
}
