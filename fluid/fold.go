package fluid

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
)

// A dumbbell gives every flow its own access link, so no two flows share a path and no
// class forms (classes.go), although the flows are copies of one another. Folding makes
// them one: a link that one flow alone crosses is private to it, and flows that differ only
// in private links of equal parameters run as one class on the first one's path, whose
// private links each stand for all the class's copies — capacity and buffer times the
// copies, the same delay, one packet's transmission time unchanged (link.copies). Equal
// fluid queues fed alike are one queue of the summed capacity and buffer, so the fold is
// exact; the result reports each copy as the original link.
//
// With Settings.FoldDelay the private links' delays need only share a bin of a logarithmic
// grid of that relative width, and the class's links take the members' mean delay: flows
// of nearly equal round trips, each of which would otherwise stop the solver at its own
// reaction times, run as one. That is an approximation, of each member's propagation delay
// by less than the bin's width, which Run makes by default from AutoFoldClasses classes on
// (autofold.go).

// folding is a scenario with its copies folded, and how to give the result back the
// original links and paths.
type folding struct {
	orig   *model.Scenario
	sc     *model.Scenario // the folded scenario: the same flows, fewer links and paths
	linkOf []int           // per original link: the folded scenario's link reporting it
	copies []float64       // per folded link: the original links it stands for
}

// scenario is the scenario the folding runs: its folded one, or sc when it is nil.
func (fo *folding) scenario(sc *model.Scenario) *model.Scenario {
	if fo == nil {
		return sc
	}
	return fo.sc
}

// fold returns the folding of sc, or nil when nothing folds (or set forbids classes).
func fold(sc *model.Scenario, set Settings) *folding {
	s := &system{sc: sc, set: set}
	if !s.classesAllowed() {
		return nil
	}
	paths, known := pathLinks(sc)
	if !known {
		return nil
	}
	private := privateLinks(sc, paths)
	// Group the flows by their class key with the path named by its links, and each
	// private link by its parameters.
	groups := map[string][]int{}
	var keys []string
	for i := range sc.Flows {
		f := &sc.Flows[i]
		if len(f.Paths) > 0 {
			continue
		}
		var b strings.Builder
		for _, li := range paths[f.Path] {
			if l := sc.Links[li]; private[li] {
				l.Name = ""
				if set.FoldDelay > 0 && l.DelayS > 0 {
					fmt.Fprintf(&b, "@%g", math.Floor(math.Log(l.DelayS)/math.Log1p(set.FoldDelay)))
					l.DelayS = 0
				}
				fmt.Fprintf(&b, "~%+v|", l)
			} else {
				fmt.Fprintf(&b, "%s|", l.Name)
			}
		}
		if key, ok := s.classKey(i, b.String(), paths); ok {
			if len(groups[key]) == 0 {
				keys = append(keys, key)
			}
			groups[key] = append(groups[key], i)
		}
	}
	absorbed := make([]int, len(sc.Links)) // the link each copy folds into, else -1
	for i := range absorbed {
		absorbed[i] = -1
	}
	copies := make([]float64, len(sc.Links))
	delays := make([]float64, len(sc.Links)) // summed over the copies, for FoldDelay's mean
	for i := range copies {
		copies[i], delays[i] = 1, sc.Links[i].DelayS
	}
	out := sc.Clone()
	moved := false
	for _, key := range keys {
		g := groups[key]
		rep := paths[sc.Flows[g[0]].Path]
		for _, m := range g[1:] {
			if sc.Flows[m].Path == sc.Flows[g[0]].Path {
				continue
			}
			moved = true
			out.Flows[m].Path = sc.Flows[g[0]].Path
			for k, li := range paths[sc.Flows[m].Path] {
				if private[li] {
					absorbed[li] = rep[k]
					copies[rep[k]]++
					delays[rep[k]] += sc.Links[li].DelayS
				}
			}
		}
	}
	if !moved {
		return nil
	}
	used := map[string]bool{}
	for _, f := range out.Flows {
		for _, p := range f.PathNames() {
			used[p] = true
		}
	}
	for _, c := range out.CBR {
		used[c.Path] = true
	}
	fo := &folding{orig: sc, sc: out, linkOf: make([]int, len(sc.Links))}
	out.Links = out.Links[:0:0]
	for li, l := range sc.Links {
		if absorbed[li] >= 0 {
			continue
		}
		fo.linkOf[li] = len(out.Links)
		l.CapacityBps *= copies[li]
		l.BufferPkts *= copies[li]
		if set.FoldDelay > 0 {
			l.DelayS = delays[li] / copies[li]
		}
		out.Links = append(out.Links, l)
		fo.copies = append(fo.copies, copies[li])
	}
	for li, into := range absorbed {
		if into >= 0 {
			fo.linkOf[li] = fo.linkOf[into]
		}
	}
	out.Paths = slices.DeleteFunc(out.Paths, func(p model.Path) bool { return !used[p.Name] })
	return fo
}

// privateLinks marks the links exactly one single-path flow crosses, once, with nothing
// else naming them: no other flow, no cross traffic, no timed event.
func privateLinks(sc *model.Scenario, paths map[string][]int) []bool {
	users := make([]int, len(sc.Links))
	for _, f := range sc.Flows {
		for _, p := range f.PathNames() {
			for _, li := range paths[p] {
				users[li]++
				if len(f.Paths) > 0 {
					users[li]++
				}
			}
		}
	}
	for _, c := range sc.CBR {
		for _, li := range paths[c.Path] {
			users[li] += 2
		}
	}
	named := map[string]bool{}
	for _, e := range sc.Events {
		named[e.Link] = true
	}
	private := make([]bool, len(sc.Links))
	for li, l := range sc.Links {
		private[li] = users[li] == 1 && !named[l.Name]
	}
	return private
}

// expand gives res, a run of the folded scenario, the original links (each copy reports
// the per-copy numbers of the link it folded into), paths and trace rows.
func (fo *folding) expand(res *model.Result) {
	links := make([]model.LinkResult, len(fo.orig.Links))
	for li, l := range fo.orig.Links {
		links[li] = res.Links[fo.linkOf[li]]
		links[li].Link = l.Name
	}
	res.Links = links
	for i := range res.Flows {
		if f := &fo.orig.Flows[res.Flows[i].Flow]; len(f.Paths) == 0 {
			res.Flows[i].Path = f.Path
		}
	}
	if len(res.Trace) == 0 {
		return
	}
	trace := make([]model.Sample, 0, len(res.Trace))
	row := map[string]model.Sample{}
	for k := 0; k < len(res.Trace); {
		smp := res.Trace[k]
		if smp.Flow >= 0 {
			trace = append(trace, smp)
			k++
			continue
		}
		clear(row)
		for ; k < len(res.Trace) && res.Trace[k].Flow < 0 && res.Trace[k].TS == smp.TS; k++ {
			row[res.Trace[k].Link] = res.Trace[k]
		}
		for li, l := range fo.orig.Links {
			r := row[fo.sc.Links[fo.linkOf[li]].Name]
			r.Link = l.Name
			trace = append(trace, r)
		}
	}
	res.Trace = trace
}
