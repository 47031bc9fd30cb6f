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

// exchangeableGroups is the groups of two or more exchangeable flows of sc, by flow index.
func exchangeableGroups(sc *model.Scenario) [][]int {
	var groups [][]int
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
			groups = append(groups, g)
		}
	}
	return groups
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

// judgeGroups turns the per-flow metrics of exchangeable flows into information and adds
// each group's means, judged with the per-flow tolerances.
func (v *Report) judgeGroups(sc *model.Scenario) {
	for _, g := range exchangeableGroups(sc) {
		member := map[int]bool{}
		for _, i := range g {
			member[i] = true
		}
		names := groupName(g)
		sums := map[string]*[2]float64{}
		for k := range v.Metrics {
			m := &v.Metrics[k]
			if m.Flow == nil || m.Subflow != nil || !member[*m.Flow] || m.Headline {
				continue
			}
			s, ok := sums[m.Metric]
			if !ok {
				s = new([2]float64)
				sums[m.Metric] = s
			}
			s[0] += m.Fluid / float64(len(g))
			s[1] += m.Packet / float64(len(g))
			if m.Judged {
				m.Judged, m.OK = false, false
				m.Tolerance = nil
				m.Reason = "exchangeable with " + names + ": one packet run's split among them is chance; their mean and Jain's index are judged"
			}
		}
		for _, t := range []struct {
			name string
			tol  Tolerance
		}{{"mean_cwnd_pkts", TolCwnd}, {"mean_throughput_bps", TolThroughput}, {"loss_events", TolLossEvents}} {
			if s, ok := sums[t.name]; ok {
				m := t.tol.Judge(t.name, s[0], s[1])
				m.Flows = g
				v.Metrics = append(v.Metrics, m)
			}
		}
	}
	v.recount()
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

// recount sets the verdict and the counts from the metrics.
func (v *Report) recount() {
	v.OK, v.Passed, v.FailedCount, v.NotJudged = true, 0, 0, 0
	ms := v.Metrics
	v.Metrics = nil
	for _, m := range ms {
		v.add(m)
	}
}
