package sweep

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// axisHints says, from the base scenario alone, why a swept parameter may not act on it (and
// notes a metric the sweep left out); Notes shows an axis's hint when nothing changed.
func axisHints(p *plan) map[string]string {
	hints := map[string]string{}
	if !slices.Contains(p.Metrics, MetricJain) && slices.Equal(p.Metrics, DefaultMetrics(p.Base, p.Axes)) && len(p.Base.Flows) == 1 {
		hints[MetricJain] = "jain is left out: every point has one flow, and Jain's index of one flow is 1 whatever it does"
	}
	for _, a := range p.Axes {
		if a.Name == "colo.gamma" {
			if h := coloGammaHint(p); h != "" {
				hints[a.Name] = h
			}
		}
	}
	if len(hints) == 0 {
		return nil
	}
	return hints
}

// coloGammaHint: γ shapes only COLO's concave slow start, from ssthresh/2 to ssthresh. A
// flow whose first threshold (InitialSsthresh, else the receiver window) is more than twice
// the window at which its path's bottleneck overflows (its BDP plus the buffer) has its
// first loss before the concave part begins, and later slow starts follow timeouts only.
func coloGammaHint(p *plan) string {
	sc := p.Base
	b := p.bottleneck
	for i, f := range sc.Flows {
		if f.Algorithm != "colo" {
			continue
		}
		path := sc.PathIndex(f.PathNames()[0])
		if !slices.Contains(sc.PathLinks(path), b) {
			continue
		}
		ss := f.InitialSsthresh
		from := "its initial ssthresh"
		if ss == 0 {
			ss, from = sc.FlowRwndPkts(i), "the receiver window"
		}
		over := sc.FlowPathBDPs(i)[0] + sc.Links[b].BufferPkts
		if ss/2 <= over {
			return ""
		}
		return fmt.Sprintf("colo.gamma acts only in COLO's concave slow start, from ssthresh/2 to ssthresh; flow %s's ssthresh/2 = %.0f packets "+
			"(%s) is above the %.0f packets (BDP + buffer) at which link %s overflows, so its first loss ends slow start before the concave part begins: "+
			"give --initial-ssthresh below %.0f packets, or a scenario with initial_ssthresh or a smaller rwnd",
			f.Name, ss/2, from, over, sc.Links[b].Name, 2*over)
	}
	return ""
}

// Notes are what the table's numbers alone do not say, computed from its rows, so that a
// merged table has the notes of the whole sweep: failed points; with replications what the
// columns are; metrics null everywhere or equal at every point; and a sweep that changed
// no metric at all, with the axes' hints (why a parameter had no effect, where the
// scenario shows it).
func (t *Table) Notes() []string {
	var notes []string
	if n := t.Failed(); n > 0 {
		for _, r := range t.Rows {
			if r.Error != "" {
				notes = append(notes, fmt.Sprintf("%d of %d points failed (their metrics are null); the first, point %d (%s): %s",
					n, len(t.Rows), r.Point, pointKey(t.Axes, r.Params), r.Error))
				break
			}
		}
	}
	if t.replicated() {
		notes = append(notes, fmt.Sprintf("each metric is the mean of %d replications (their seeds derive from the sweep's seed, the point and the replicate); "+
			"_sd is their standard deviation and _ci95 the half width of the 95%% confidence interval of the mean (Student's t, %d degrees of freedom)",
			t.Replications, t.Replications-1))
	}
	if h := t.Hints[MetricJain]; h != "" {
		notes = append(notes, h)
	}
	var ok []Row
	for _, r := range t.Rows {
		if r.Error == "" {
			ok = append(ok, r)
		}
	}
	if len(ok) < 2 || len(t.Metrics) == 0 {
		return notes
	}
	var null, same []string
	for k, m := range t.Metrics {
		allNull, allSame := true, true
		for _, r := range ok {
			allNull = allNull && r.Metrics[k] == nil
			allSame = allSame && equalValue(r.Metrics[k], ok[0].Metrics[k])
		}
		switch {
		case allNull:
			null = append(null, m)
		case allSame:
			same = append(same, m)
		}
	}
	if len(null) > 0 {
		why := ""
		if slices.Contains(null, MetricJain) {
			why = " (jain: every point has one flow)"
		}
		notes = append(notes, fmt.Sprintf("null at every point: %s%s", strings.Join(null, ", "), why))
	}
	if len(null)+len(same) < len(t.Metrics) {
		if len(same) > 0 {
			notes = append(notes, fmt.Sprintf("the same at every point: %s", strings.Join(same, ", ")))
		}
		return notes
	}
	names := make([]string, len(t.Axes))
	for k, a := range t.Axes {
		names[k] = a.Name
	}
	note := fmt.Sprintf("no metric changed across the %d points: %s had no effect on scenario %s", len(ok), strings.Join(names, ", "), t.Scenario)
	for _, n := range names {
		if h := t.Hints[n]; h != "" {
			note += " — " + h
		}
	}
	if k := slices.Index(t.Metrics, MetricLossEvents); k >= 0 && ok[0].Metrics[k] != nil && *ok[0].Metrics[k] == 0 {
		note += "; no flow had a loss event, so parameters of the response to a loss had nothing to act on"
	}
	return append(notes, note)
}

// equalValue: both null, or equal to 1e-6 relative. The engines are deterministic for a
// seed, but a parameter the dynamics never reach can still move the fluid solver's steps
// (through its own state's error estimate), and so a metric within the solver's default
// relative tolerance (fluid.Settings.RelTol, 1e-6): COLO's γ over a slow start that never
// reaches its concave part moved the mean window by 3e-8.
func equalValue(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return math.Abs(*a-*b) <= 1e-6*math.Max(math.Abs(*a), math.Abs(*b))
}
