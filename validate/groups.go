package validate

import (
	"slices"
	"sort"

	"github.com/tcpfluid/tcpfluid/model"
)

// group is a set of flows and CBR sources that share links with one another and with no
// other; Validate runs each alone.
type group struct {
	flows, cbrs, links []int // indices in the scenario
}

// independentGroups partitions a scenario's flows and CBR sources by the links they share
// (the connected components of "crosses a link of"), in the order of their first flow.
func independentGroups(sc *model.Scenario) []group {
	parent := make([]int, len(sc.Links))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	linksOf := func(paths []string) []int {
		var ls []int
		for _, p := range paths {
			for _, name := range sc.Paths[sc.PathIndex(p)].Links {
				ls = append(ls, sc.LinkIndex(name))
			}
		}
		return ls
	}
	flowLinks := make([][]int, len(sc.Flows))
	for i := range sc.Flows {
		flowLinks[i] = linksOf(sc.Flows[i].PathNames())
	}
	cbrLinks := make([][]int, len(sc.CBR))
	for i := range sc.CBR {
		cbrLinks[i] = linksOf([]string{sc.CBR[i].Path})
	}
	for _, ls := range append(append([][]int{}, flowLinks...), cbrLinks...) {
		for _, l := range ls[1:] {
			parent[find(l)] = find(ls[0])
		}
	}
	byRoot := map[int]int{}
	var gs []group
	at := func(l int) *group {
		r := find(l)
		k, ok := byRoot[r]
		if !ok {
			k = len(gs)
			byRoot[r] = k
			gs = append(gs, group{})
		}
		return &gs[k]
	}
	for i, ls := range flowLinks {
		g := at(ls[0])
		g.flows = append(g.flows, i)
	}
	for i, ls := range cbrLinks {
		g := at(ls[0])
		g.cbrs = append(g.cbrs, i)
	}
	for l := range sc.Links {
		if _, ok := byRoot[find(l)]; ok || len(gs) == 0 {
			g := at(l)
			g.links = append(g.links, l)
		} else {
			gs[0].links = append(gs[0].links, l) // a link no flow crosses idles in any group
		}
	}
	return gs
}

// scenario is the group alone: its flows, CBR sources, links, the paths over them and the
// timed events of its links; still valid, since the scenario was.
func (g group) scenario(sc *model.Scenario) *model.Scenario {
	if len(g.flows) == len(sc.Flows) && len(g.cbrs) == len(sc.CBR) {
		return sc
	}
	s := sc.Clone()
	s.Flows, s.CBR, s.Links, s.Paths, s.Events = nil, nil, nil, nil, nil
	for _, i := range g.flows {
		s.Flows = append(s.Flows, sc.Flows[i])
	}
	for _, i := range g.cbrs {
		s.CBR = append(s.CBR, sc.CBR[i])
	}
	in := map[string]bool{}
	for _, l := range g.links {
		s.Links = append(s.Links, sc.Links[l])
		in[sc.Links[l].Name] = true
	}
	for _, p := range sc.Paths {
		if !slices.ContainsFunc(p.Links, func(l string) bool { return !in[l] }) {
			s.Paths = append(s.Paths, p)
		}
	}
	for _, e := range sc.Events {
		if in[e.Link] {
			s.Events = append(s.Events, e)
		}
	}
	return s
}

// merge adds a group's result r to the scenario-wide result into (nil for the first
// group), mapping its flows and links back to the scenario's indices.
func (g group) merge(sc *model.Scenario, into, r *model.Result) *model.Result {
	if into == nil {
		into = &model.Result{Scenario: sc.Name, Engine: r.Engine, Form: r.Form, DropRule: r.DropRule, Seed: r.Seed, DurationS: r.DurationS,
			Links: make([]model.LinkResult, len(sc.Links))}
	}
	for _, f := range r.Flows {
		f.Flow = g.flows[f.Flow]
		into.Flows = append(into.Flows, f)
	}
	for _, l := range r.Links {
		into.Links[sc.LinkIndex(l.Link)] = l
	}
	return into
}

// sortResult orders a merged result's rows by flow, then subflow: the scenario's order.
func sortResult(r *model.Result) {
	sort.SliceStable(r.Flows, func(a, b int) bool {
		fa, fb := r.Flows[a], r.Flows[b]
		return fa.Flow < fb.Flow || (fa.Flow == fb.Flow && fa.Subflow < fb.Subflow)
	})
}
