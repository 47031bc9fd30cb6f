package fluid

import (
	"fmt"
	"slices"

	"github.com/tcpfluid/tcpfluid/model"
)

// classKey is the class scenario flow i belongs to, when it can share one: flows whose
// algorithm, parameters, path (named by pathKey: fold.go names private links by their
// parameters), start, stop, size and packet settings coincide follow the
// same trajectory in this engine, as long as nothing random reaches them — no random loss
// or RED on the path and no random drop rule (each flow draws its own losses), no link
// it reaches smoothly where it draws its escapes (escape.go), no marking
// or AQM, pacing or ECN anywhere (the extension is per flow), one path, and no setting that
// names subflows. A class costs what one flow costs, however many flows it holds. The
// caller has checked classesAllowed.
func (s *system) classKey(i int, pathKey string, paths map[string][]int) (string, bool) {
	f := s.sc.Flows[i]
	if len(f.PathNames()) != 1 || f.ECN || f.Pacing {
		return "", false
	}
	escapes := escapesDrawn(s.sc, s.set)
	for k, li := range paths[f.Path] {
		if s.sc.Links[li].Loss == model.LossRandom || escapes && smoothAt(s.sc, paths[f.Path], k) {
			return "", false // each draws its own losses, or escapes (escape.go)
		}
	}
	f.Name, f.Path = "", pathKey
	return fmt.Sprintf("%+v", f), true // fmt writes the parameters' map in key order
}

// classesAllowed reports whether the run may group flows at all.
func (s *system) classesAllowed() bool {
	set := s.set
	if s.sc.DropRule == model.DropRandom {
		return false // each flow draws its own drops (drawDrop)
	}
	if len(set.Watch) > 0 || len(set.InjectLoss) > 0 || set.StopAfterLosses > 0 || set.RecordLosses || set.LossStop != nil {
		return false
	}
	for _, l := range s.sc.Links {
		if l.Queue != "" && l.Queue != model.QueueDropTail || l.ECN || l.MarkThresholdPkts > 0 {
			return false
		}
	}
	return true
}

// Classes is, for each flow of sc, the index of the first flow of the class Run
// integrates it in (the flow itself when it has none): what a run with set costs is one
// flow per class. Flows that differ only in links private to each (a dumbbell's access
// links) of equal parameters are one class too, and with Settings.FoldDelay or FoldingAuto
// those whose private links' delays differ a little (fold.go, autofold.go).
func Classes(sc *model.Scenario, set Settings) []int {
	fo, _ := autoFold(sc, set)
	return classes(fo.scenario(sc), set)
}

// classes is Classes without folding.
func classes(sc *model.Scenario, set Settings) []int {
	s := &system{sc: sc, set: set}
	paths, known := pathLinks(sc)
	ok := s.classesAllowed() && known
	first := map[string]int{}
	out := make([]int, len(sc.Flows))
	for i := range sc.Flows {
		out[i] = i
		if !ok {
			continue // no classes, or an unknown link: Run refuses the scenario
		}
		if key, ok := s.classKey(i, sc.Flows[i].Path, paths); ok {
			if j, seen := first[key]; seen {
				out[i] = j
			} else {
				first[key] = i
			}
		}
	}
	return out
}

// pathLinks is each path's link indices by name, and false if a path names an unknown link
// (Run refuses the scenario).
func pathLinks(sc *model.Scenario) (map[string][]int, bool) {
	paths := make(map[string][]int, len(sc.Paths))
	for i, p := range sc.Paths {
		paths[p.Name] = sc.PathLinks(i)
		if slices.Contains(paths[p.Name], -1) {
			return paths, false
		}
	}
	return paths, true
}
