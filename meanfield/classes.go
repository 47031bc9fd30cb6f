package meanfield

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
)

// classKey is what tells two scenario flows apart: every field of model.Flow but its
// name. Flows with equal keys are one class of the mean-field form, whose state is one
// mean window per class, so they are statistically identical there: the same law on the
// same path over the same span, with the same packets and windows. Fields the form does
// not read yet (the initial ssthresh, delayed ACKs, ECN, pacing, route awareness) still
// separate classes, so that grouping never merges flows an engine could tell apart.
// Multi-path flows (Paths) are refused before they are keyed.
type classKey struct {
	algorithm, path string // the algorithm with its variant, "cubic@linux"
	params          string // canonical: "name=value" in name order, shortest round-trip floats
	startS, stopS   float64
	sizeBytes       float64
	mssBytes        float64
	headerBytes     float64
	rwndBytes       float64
	cwnd0Pkts       float64
	ssthresh0Pkts   float64
	delayedAck      bool
	windowScaling   bool
	ecn, pacing     bool
	routeAware      bool
}

// scalarKey is flow f's key without its parameters. A stop at or after the scenario's
// end is no stop: both run to the end.
func scalarKey(f *model.Flow, durationS float64) classKey {
	stop := f.StopS
	if stop >= durationS {
		stop = 0
	}
	return classKey{algorithm: f.Algorithm, path: f.Path, startS: f.StartS, stopS: stop, sizeBytes: f.SizeBytes,
		mssBytes: f.MSSBytes, headerBytes: f.HeaderBytes, rwndBytes: f.RwndBytes, cwnd0Pkts: f.InitialCwnd,
		ssthresh0Pkts: f.InitialSsthresh, delayedAck: f.DelayedAck, windowScaling: f.WindowScaling,
		ecn: f.ECN, pacing: f.Pacing, routeAware: f.RouteAware}
}

// paramsKey is a parameter set in canonical form; nil and empty sets are both "".
func paramsKey(ps map[string]float64) string {
	if len(ps) == 0 {
		return ""
	}
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(ps)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(ps[k], 'g', -1, 64))
	}
	return b.String()
}

// grouper assigns flows to classes in one pass. Scenarios list like flows together, so a
// flow is first compared with the one before it (no parameter string is built for a run
// of identical flows); otherwise its full key is looked up.
type grouper struct {
	durationS float64
	classes   map[classKey]int
	prev      *model.Flow
	prevKey   classKey // scalar fields of prev
	prevClass int
}

func newGrouper(durationS float64) *grouper {
	return &grouper{durationS: durationS, classes: map[classKey]int{}, prevClass: -1}
}

// class reports flow f's class, or −1 with the key to create it under (add).
func (g *grouper) class(f *model.Flow) (int, classKey) {
	k := scalarKey(f, g.durationS)
	if g.prevClass >= 0 && k == g.prevKey && maps.Equal(f.Params, g.prev.Params) {
		g.prev = f
		return g.prevClass, classKey{}
	}
	g.prev, g.prevKey = f, k
	k.params = paramsKey(f.Params)
	c, ok := g.classes[k]
	if !ok {
		g.prevClass = -1
		return -1, k
	}
	g.prevClass = c
	return c, classKey{}
}

// add records class c under key k, for the flow last asked about.
func (g *grouper) add(k classKey, c int) {
	g.classes[k] = c
	g.prevClass = c
}
