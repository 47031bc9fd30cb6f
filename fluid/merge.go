package fluid

import "math"

// Reactions selects how the drop-tail reactions of different flows meet the solver.
type Reactions int

const (
	// ReactionsAuto merges them in runs of MergeClasses classes or more, where a stop per
	// reaction is most of what a run costs, and keeps them exact below, where merged stops,
	// by lining up flows that react close together, can move a fluid trajectory that has no
	// noise to undo it (ten FQ-CoDel flows: utilisation 0.976 merged, 0.981 exact).
	ReactionsAuto Reactions = iota
	// ReactionsExact stops the solver at every reaction, and every drop of the
	// proportional rules, at its own time.
	ReactionsExact
	// ReactionsMerged lets a reaction wait reactionSlack of its flow's ACK spacing (the
	// time between two of its ACKs, at most its RTT) to share a stop with other flows': a
	// packet sender reacts on an ACK, so the instant is known only to that. The
	// proportional rules' drops are found after the steps that hold them (polldrops.go).
	ReactionsMerged
)

// MergeClasses is the number of classes (flows that differ, fluid.Classes) from which
// ReactionsAuto merges the reactions.
const MergeClasses = 50

// reactionSlack is the fraction of its ACK spacing a flow's drop-tail reaction may wait to
// share a solver stop with other flows' when they are merged.
const reactionSlack = 0.25

// mergesReactions reports whether the run's reactions share solver stops (Settings.Reactions).
func (s *system) mergesReactions() bool {
	return s.set.Reactions == ReactionsMerged || s.set.Reactions == ReactionsAuto && len(s.flows) >= MergeClasses
}

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
// every one due by then). Exact, at the earliest. Merged, at the latest of those that can
// wait for it, each at most its reactionWait: a flow alone is never delayed, and each
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
	if first < 0 || !s.merge {
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
