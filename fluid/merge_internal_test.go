package fluid

import (
	"math"
	"testing"
)

// nextDropReaction stops at the latest reaction that every earlier one can wait for, each
// at most a quarter of its flow's ACK spacing (wire·mult/rate, at most its RTT), and never
// delays a flow that reacts alone.
func TestNextDropReaction(t *testing.T) {
	inf := math.Inf(1)
	// A flow of 1500-byte packets at 1.5 MB/s has an ACK spacing of 1 ms: it may wait 250 µs.
	flow := func(react, recheck float64) subflow {
		f := subflow{}
		f.wire, f.mult, f.rate, f.rtt = 1500, 1, 1.5e6, 0.1
		f.reactAt, f.recheckAt = react, recheck
		return f
	}
	slow := flow(1.0001, inf)
	slow.rate = 0 // sends nothing: its RTT bounds the spacing, 25 ms of wait
	fine := flow(1.0001, inf)
	fine.rate = 1500 / 40e-6 // an ACK every 40 µs: 10 µs of wait, which a flow due 100 µs on cannot join
	for _, c := range []struct {
		name  string
		flows []subflow
		exact bool
		want  float64
	}{
		{"none", []subflow{flow(inf, inf)}, false, inf},
		{"alone", []subflow{flow(1, inf)}, false, 1},
		{"two within the first's wait", []subflow{flow(1, inf), flow(1.0002, inf)}, false, 1.0002},
		{"the second too late", []subflow{flow(1, inf), flow(1.0003, inf)}, false, 1},
		{"a recheck counts", []subflow{flow(inf, 1), flow(1.0001, inf)}, false, 1.0001},
		{"three within the first's wait", []subflow{flow(1, inf), flow(1.0001, inf), flow(1.00024, inf)}, false, 1.00024},
		{"a fine-spaced second", []subflow{flow(1, inf), fine, flow(1.0002, inf)}, false, 1.0001},
		{"a silent flow waits up to a quarter of its RTT", []subflow{slow, flow(1.02, inf)}, false, 1.02},
		{"exact", []subflow{flow(1, inf), flow(1.0002, inf)}, true, 1},
	} {
		s := &system{flows: c.flows, merge: !c.exact}
		if got := s.nextDropReaction(); got != c.want {
			t.Errorf("%s: stop at %v, want %v", c.name, got, c.want)
		}
		for _, f := range c.flows {
			if r := f.dropReaction(); r <= s.nextDropReaction() && s.nextDropReaction()-r > f.reactionWait()*(1+1e-12) {
				t.Errorf("%s: a reaction due at %v waits %v, over its %v", c.name, r, s.nextDropReaction()-r, f.reactionWait())
			}
		}
	}
}

// ReactionsAuto merges from MergeClasses classes on; the other modes say what they do.
func TestMergesReactions(t *testing.T) {
	for _, c := range []struct {
		mode    Reactions
		classes int
		want    bool
	}{
		{ReactionsAuto, MergeClasses - 1, false},
		{ReactionsAuto, MergeClasses, true},
		{ReactionsExact, 1000, false},
		{ReactionsMerged, 2, true},
	} {
		s := &system{flows: make([]subflow, c.classes)}
		s.set.Reactions = c.mode
		if got := s.mergesReactions(); got != c.want {
			t.Errorf("mode %d with %d classes: merges %v, want %v", c.mode, c.classes, got, c.want)
		}
	}
}
