package validate

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
)

// Exchangeable flows are flows a packet run cannot tell apart: the same algorithm,
// parameters, single path and every other setting, starting within one propagation round
// trip of the group's first. Which of them a drop or a mark falls on is chance in a packet
// run (and on a drop-tail queue, phase), and in the fluid engine either the same for all
// (synchronized drops) or its own random draw (AQMs, random loss), so one run's split says
// nothing about any one of them. Their per-flow metrics are reported but not judged; the group's
// mean window, mean throughput and mean loss events are judged instead, and Jain's index
// over all flows judges how evenly the packet engine split them.

// groups are the groups of two or more exchangeable flows of a scenario, by flow index.
type groups [][]int

// exchangeableGroups is the groups of exchangeable flows of sc.
func exchangeableGroups(sc *model.Scenario) groups {
	var gs groups
	in := make([]bool, len(sc.Flows))
	for i := range sc.Flows {
		if in[i] || len(sc.Flows[i].PathNames()) != 1 {
			continue
		}
		g := []int{i}
		for j := i + 1; j < len(sc.Flows); j++ {
			if !in[j] && exchangeable(sc, i, j) {
				g = append(g, j)
				in[j] = true
			}
		}
		if len(g) > 1 {
			gs = append(gs, g)
		}
	}
	return gs
}

// members maps each grouped flow to its group.
func (gs groups) members() map[int][]int {
	m := map[int][]int{}
	for _, g := range gs {
		for _, i := range g {
			m[i] = g
		}
	}
	return m
}

// exchangeable reports whether flow j is flow i's twin but for its name and a start
// within one propagation round trip of i's.
func exchangeable(sc *model.Scenario, i, j int) bool {
	a, b := sc.Flows[i], sc.Flows[j]
	rtt := sc.PathRTTS(sc.PathIndex(a.Path))
	if !(math.Abs(a.StartS-b.StartS) < rtt) {
		return false
	}
	a.Name, b.Name, a.StartS, b.StartS = "", "", 0, 0
	return reflect.DeepEqual(a, b)
}

// reportOnly makes a per-flow metric of a member of group g information, not a verdict.
func (m *Metric) reportOnly(g []int) {
	if m.Judged {
		m.Judged, m.OK, m.Tolerance = false, false, nil
		m.Reason = "exchangeable with " + groupName(g) + ": one packet run's split among them is chance; their mean and Jain's index are judged"
	}
}

// addGroupMeans adds each group's mean window, throughput and loss events in the two
// engines' results, judged with the per-flow tolerances.
func (v *Report) addGroupMeans(gs groups, fl, pk *model.Result) {
	row := map[int]int{} // flow index → result row (single-path flows have one)
	for r, f := range fl.Flows {
		row[f.Flow] = r
	}
	for _, g := range gs {
		var mean [3][2]float64
		for _, i := range g {
			n := float64(len(g))
			for e, res := range [2]*model.Result{fl, pk} {
				f := res.Flows[row[i]]
				mean[0][e] += f.MeanCwndPkts / n
				mean[1][e] += f.MeanThroughputBps / n
				mean[2][e] += float64(f.LossEvents) / n
			}
		}
		for k, t := range []struct {
			name string
			tol  Tolerance
		}{{"mean_cwnd_pkts", TolCwnd}, {"mean_throughput_bps", TolThroughput}, {"loss_events", TolLossEvents}} {
			m := t.tol.Judge(t.name, mean[k][0], mean[k][1])
			m.Flows = g
			v.add(m)
		}
	}
}

// groupName is "flows 2–9" for a run of flow indices, else "flows 2, 4, 7".
func groupName(g []int) string {
	if g[len(g)-1]-g[0] == len(g)-1 {
		return fmt.Sprintf("flows %d–%d", g[0], g[len(g)-1])
	}
	s := make([]string, len(g))
	for k, i := range g {
		s[k] = fmt.Sprint(i)
	}
	return "flows " + strings.Join(s, ", ")
}
