package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/floats"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/report"
)

// The study's report options: the page inlines the built-in ECharts unless told
// otherwise, and the static figures come as SVG, PNG and PDF.
func TestStudyReportOptions(t *testing.T) {
	t.Setenv(report.EChartsEnv, "")
	parse := func(args ...string) (report.Options, error) {
		var o report.Options
		var err error
		app := &cli.App{Flags: studyFlags(), Action: func(c *cli.Context) error {
			o, err = reportOptions(c)
			return nil
		}}
		if runErr := app.Run(append([]string{"tcpfluid"}, args...)); runErr != nil {
			return o, runErr
		}
		return o, err
	}
	o, err := parse()
	if err != nil || o.ECharts != report.EChartsInline || o.EChartsFile != "" || !slices.Equal(o.Static, []string{"svg", "png", "pdf"}) {
		t.Errorf("defaults: %+v, %v; want inline with the built-in ECharts and svg, png, pdf", o, err)
	}
	for _, mode := range []report.EChartsMode{report.EChartsLocal, report.EChartsRemote} {
		if o, err := parse("--echarts", mode.String()); err != nil || o.ECharts != mode {
			t.Errorf("--echarts %s: %v, %v", mode, o.ECharts, err)
		}
	}
	if _, err := parse("--echarts", "cdn"); !errors.Is(err, errUsage) {
		t.Errorf("--echarts cdn: %v, want a usage error", err)
	}
	if o, err := parse("--static", ""); err != nil || o.Static == nil || len(o.Static) != 0 {
		t.Errorf(`--static "": %q, %v; want no static figures`, o.Static, err)
	}
	t.Setenv(report.EChartsEnv, "/some/echarts.min.js")
	if o, _ := parse(); o.EChartsFile != "/some/echarts.min.js" {
		t.Errorf("$%s: EChartsFile %q, want the variable's file", report.EChartsEnv, o.EChartsFile)
	}
}

// What the study shows: the response figure draws each algorithm's fit in its
// colour; queue figures leave out queues that stay empty; the slow-start figures
// show the seconds where COLO's and Reno's slow starts play out; Jain's index is
// drawn up to 1.
func TestStudyFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the default study")
	}
	st, err := runStudy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The summary in JSON and CSV: every figure defined or null, never NaN.
	var js, csv bytes.Buffer
	if err := writeJSON(&js, st.summaryJSON("r/index.html", report.Options{}, 1)); err != nil || !json.Valid(js.Bytes()) {
		t.Errorf("study JSON: %v", err)
	}
	if err := st.summaryCSV(&csv); err != nil || strings.Contains(csv.String(), "NaN") || !strings.HasPrefix(csv.String(), "section,subject,metric,value\n") {
		t.Errorf("study CSV: %v\n%.300s", err, csv.String())
	}
	figs := map[string]report.Figure{}
	for _, sec := range st.page().Sections {
		for _, f := range sec.Figures {
			figs[f.ID] = f
		}
	}

	resp := figs["response"]
	fits := map[string]report.Series{}
	for _, s := range resp.Series {
		if s.Of != "" && !s.Reference {
			fits[s.Of] = s
		}
	}
	for _, r := range st.response.Results {
		fit, ok := fits[r.Algorithm]
		if !ok || len(fit.X) < 2 || fit.Key == "" {
			t.Errorf("response: %s has no fitted line (%d points, key %q)", r.Algorithm, len(fit.X), fit.Key)
			continue
		}
		for i, p := range fit.X {
			if p > r.FitPMax*(1+1e-9) || math.Abs(fit.Y[i]/(r.C*math.Pow(p, -r.D))-1) > 1e-12 {
				t.Errorf("response: %s's fit has (%g, %g), off c·p^-d or beyond p = %g", r.Algorithm, p, fit.Y[i], r.FitPMax)
				break
			}
		}
	}

	for id, f := range figs {
		switch {
		case strings.HasPrefix(id, "queue-"):
			for _, s := range f.Series {
				busy := 0
				for _, q := range s.Y {
					if q > queueShownPkts {
						busy++
					}
				}
				if float64(busy) < queueShownShare*float64(len(s.Y)) {
					t.Errorf("%s draws %s, empty in %d of %d samples", id, s.Name, len(s.Y)-busy, len(s.Y))
				}
			}
		case strings.HasPrefix(id, "jain-"):
			if f.YMax != 1 {
				t.Errorf("%s: YMax %g, want 1", id, f.YMax)
			}
		}
	}
	if q := figs["queue-seed000-dumbbell"]; len(q.Series) != 1 || q.Series[0].Name != "bottleneck" {
		t.Errorf("queue-seed000-dumbbell: %d series; want the bottleneck only", len(q.Series))
	}

	cwnd, queue := figs["cwnd-"+slowStartScenario], figs["queue-"+slowStartScenario]
	colo, reno := seriesNamed(cwnd, "colo"), seriesNamed(cwnd, "reno")
	if colo == nil || reno == nil || !cwnd.LogY {
		t.Fatalf("%s: want colo and reno windows on a log axis", cwnd.ID)
	}
	end := colo.X[len(colo.X)-1]
	if end < 3 || end > 10 || len(colo.X) < 300 {
		t.Errorf("%s spans %g s in %d samples; want the first few seconds, finely traced", cwnd.ID, end, len(colo.X))
	}
	// The overshoot at the end of slow start costs both a timeout (more holes in one window
	// than NewReno or Reno repairs before the timer fires, as in the packet engine).
	if minOf(reno.Y[len(reno.Y)/3:]) > 2 || minOf(colo.Y[len(colo.Y)/3:]) > 2 {
		t.Errorf("%s: least windows after the peaks COLO %g, Reno %g; want both timeouts in view",
			cwnd.ID, minOf(colo.Y[len(colo.Y)/3:]), minOf(reno.Y[len(reno.Y)/3:]))
	}
	if len(queue.Series) != 2 || queue.Series[0].X[len(queue.Series[0].X)-1] != end {
		t.Errorf("%s: %d queues; want the two bottlenecks over the same seconds", queue.ID, len(queue.Series))
	}
	checkModernSection(t, st, figs)
}

// The section on today's queues and algorithms shows what they are known for: the
// queueing delay falls from drop-tail's buffer through PIE's 15 ms and CoDel's 5 ms target
// to FQ-CoDel's per-flow queues (each within 50% of its target, FQ-CoDel below CoDel's);
// BBR alone keeps 90% of the link up to p = 1e-2 and falls near 1 − 1/1.25 = 20%, while
// CUBIC's window follows Reno's √(3/2p).
func checkModernSection(t *testing.T, st *study, figs map[string]report.Figure) {
	t.Helper()
	rows := st.bloatRows()
	if len(rows) != len(bloatDisciplines) || len(figs["bufferbloat-delay"].Series) != len(bloatDisciplines) {
		t.Fatalf("bufferbloat: %d rows, %d series; want one per discipline", len(rows), len(figs["bufferbloat-delay"].Series))
	}
	delay := map[model.QueueKind]float64{}
	for _, r := range rows {
		delay[r.queue] = r.delayS
		// The delay's standard deviation is the link queue's over the run: what the trace's
		// samples of the queue spread by, within the 10% that sampling a queue moving on
		// the round trip's scale every 60 ms leaves.
		var n, sum, sumSq float64
		for _, smp := range r.res.Trace {
			if smp.Flow < 0 {
				n, sum, sumSq = n+1, sum+smp.QueuePkts, sumSq+smp.QueuePkts*smp.QueuePkts
			}
		}
		if sd := r.res.Links[0].QueueSDPkts; !(sd > 0) || math.Abs(model.TimeSD(sum/n, sumSq/n)/sd-1) > 0.1 {
			t.Errorf("%s: queue sd %.4g packets, the trace's samples %.4g", r.queue, sd, model.TimeSD(sum/n, sumSq/n))
		}
	}
	if !(delay[model.QueueDropTail] > 0.02 && math.Abs(delay[model.QueuePIE]/model.DefaultPIETargetS-1) < 0.5 &&
		math.Abs(delay[model.QueueCoDel]/model.DefaultCoDelTargetS-1) < 0.5 && delay[model.QueueFQCoDel] < delay[model.QueueCoDel]) {
		t.Errorf("bufferbloat: queueing delays %v s; want drop-tail above 20 ms, PIE and CoDel within 50%% of 15 and 5 ms, FQ-CoDel below CoDel", delay)
	}
	if len(st.lossResponse) != 2 || len(figs["bbr-random-loss"].Series) != 2 {
		t.Fatalf("random loss: %d responses, want bbr and cubic", len(st.lossResponse))
	}
	bbr, cubic := st.lossResponse[0], st.lossResponse[1]
	for i, p := range bbr.P {
		switch {
		case p <= 1e-2 && bbr.Utilisation[i] < 0.9:
			t.Errorf("bbr at p = %g: utilisation %.3f, want ≥ 0.9", p, bbr.Utilisation[i])
		case p >= 0.2 && bbr.Utilisation[i] > 0.5:
			t.Errorf("bbr at p = %g: utilisation %.3f, want its collapse (≤ 0.5)", p, bbr.Utilisation[i])
		}
		// Where CUBIC's window is well below the BDP and above its timeouts' range it is in
		// its TCP-friendly region, an AIMD of Reno's response √(3/2p) (RFC 9438 §4.3).
		if p == 1e-3 || p == 1e-2 {
			sc, err := model.Builtin("modern-bbr-random-loss")
			if err != nil {
				t.Fatal(err)
			}
			bdp := sc.Links[0].CapacityBps * 2 * sc.Links[0].DelayS / (8 * sc.Flows[0].MSSBytes)
			if want := math.Sqrt(1.5/p) / bdp; math.Abs(cubic.Utilisation[i]/want-1) > 0.25 {
				t.Errorf("cubic at p = %g: utilisation %.4f, want √(3/2p)/BDP = %.4f ± 25%%", p, cubic.Utilisation[i], want)
			}
		}
	}
}

func seriesNamed(f report.Figure, name string) *report.Series {
	for i := range f.Series {
		if f.Series[i].Name == name {
			return &f.Series[i]
		}
	}
	return nil
}

func minOf(v []float64) float64 { return floats.Min(v) }
