package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/internal/settings"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/seeds"
	"github.com/tcpfluid/tcpfluid/validate"
)

// allLine is one built-in's verdict in `validate --all`: its counts and its worst judged
// metric (the largest error relative to its tolerance; a failed sign check counts as
// worst).
type allLine struct {
	Scenario  string           `json:"scenario"`
	Passed    int              `json:"passed"`
	Failed    int              `json:"failed"`
	NotJudged int              `json:"not_judged"`
	Worst     *validate.Metric `json:"worst,omitempty"`
	Subject   string           `json:"subject,omitempty"`
	OK        bool             `json:"ok"`
	// Undecided: out of tolerance, but every metric out is so within its 95% interval
	// over the seeds (validate.Metric.Undecided).
	Undecided bool `json:"undecided,omitempty"`
}

// validateAll runs every built-in in both engines (and seed 003's Table 3) and prints one
// line each; it fails with validate.ErrOutOfTolerance when any judged metric is out.
func validateAll(c *cli.Context, format string) error {
	list, err := seedList(c)
	if err != nil {
		return err
	}
	names := model.BuiltinNames()
	lines := make([]allLine, len(names)+1)
	bar := startProgress(c, "validate --all", len(lines))
	err = settings.Parallel(c.Context, runtime.GOMAXPROCS(0), len(lines), func(ctx context.Context, i int) error {
		defer bar.add()
		if i == len(names) {
			rep, err := seeds.Table3Experiment(ctx, seedOf(c))
			if err != nil {
				return err
			}
			lines[i] = table3Line(rep)
			return nil
		}
		sc, err := model.Builtin(names[i])
		if err != nil {
			return err
		}
		v, err := validate.Seeds(ctx, sc, list)
		if err != nil {
			return fmt.Errorf("%s: %w", names[i], err)
		}
		lines[i] = reportLine(v)
		return nil
	})
	bar.done()
	if err != nil {
		return err
	}
	switch format {
	case formatJSON:
		err = writeJSON(c.App.Writer, lines)
	case formatCSV:
		err = writeAllCSV(c.App.Writer, lines)
	default:
		err = writeAllTable(c.App.Writer, lines)
	}
	if err != nil {
		return err
	}
	failed := 0
	for _, l := range lines {
		if !l.OK {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("validate --all: %d of %d built-in checks have judged metrics out of tolerance: %w", failed, len(lines), validate.ErrOutOfTolerance)
	}
	return nil
}

// reportLine summarises one scenario's report.
func reportLine(v *validate.Report) allLine {
	l := allLine{Scenario: v.Scenario, Passed: v.Passed, Failed: v.FailedCount, NotJudged: v.NotJudged, OK: v.OK, Undecided: !v.OK}
	worst := math.Inf(-1)
	for i, m := range v.Metrics {
		if m.Judged && !m.OK && !m.Undecided {
			l.Undecided = false
		}
		if r := severity(m); m.Judged && r > worst {
			worst, l.Worst, l.Subject = r, &v.Metrics[i], v.Subject(m)
		}
	}
	return l
}

// severity orders judged metrics from best to worst: error over tolerance, and a failed
// sign check above any other.
func severity(m validate.Metric) float64 {
	switch {
	case m.Kind == validate.Sign && m.OK:
		return 0
	case m.Kind == validate.Sign:
		return math.Inf(1)
	case m.Tolerance == nil || *m.Tolerance == 0:
		return 0
	}
	return m.Error / *m.Tolerance
}

// table3Line summarises seed 003's Table 3: each row's delivered packets and goodput in
// each engine against the table (the "packet" column of the worst metric is the table's),
// and each engine's order of each pair of the table's ranking (not judged where ns-2.35's
// own runs leave the pair's order to the CBR phase).
func table3Line(rep *seeds.Table3Report) allLine {
	l := allLine{Scenario: "seed003 Table 3", OK: rep.OK}
	for _, o := range rep.Orders {
		for _, ok := range []bool{o.FluidOK, o.PacketOK} {
			switch {
			case !o.Judged:
				l.NotJudged++
			case ok:
				l.Passed++
			default:
				l.Failed++
			}
		}
	}
	worst := math.Inf(-1)
	for _, row := range rep.Rows {
		for _, e := range []struct {
			engine string
			n      seeds.Table3Numbers
		}{{"fluid", row.Fluid}, {"packet", row.Packet}} {
			for _, q := range []struct {
				name       string
				got, table float64
			}{{"delivered_pkts", e.n.DeliveredPkts, row.Table.DeliveredPkts}, {"goodput_bps", e.n.GoodputBps, row.Table.GoodputBps}} {
				tol := validate.Tolerance{Kind: validate.Relative, Bound: seeds.TolTable3, Reason: "Table 3, seed 003"}
				m := tol.Judge(q.name, q.got, q.table)
				if m.OK {
					l.Passed++
				} else {
					l.Failed++
				}
				if r := severity(m); r > worst {
					worst, l.Worst, l.Subject = r, &m, row.Algorithm+", "+e.engine+" vs table"
				}
			}
		}
	}
	// A judged pair out of Table 3's order is the line's failure even when every cell is in.
	for _, o := range rep.Orders {
		for _, e := range []struct {
			engine string
			ok     bool
		}{{"fluid", o.FluidOK}, {"packet", o.PacketOK}} {
			if o.Judged && !e.ok {
				l.Subject += fmt.Sprintf("; %s ranks %s above %s", e.engine, o.Lower, o.Higher)
			}
		}
	}
	return l
}

func writeAllTable(w io.Writer, lines []allLine) error {
	tw := newTable(w)
	fmt.Fprintln(tw, "built-in\tjudged ok\tout\tnot judged\tworst judged metric\tsubject\tfluid\tpacket\terror\ttolerance\tverdict")
	for _, l := range lines {
		verdict := "ok"
		switch {
		case l.Undecided:
			verdict = "FAIL, undecided"
		case !l.OK:
			verdict = "FAIL"
		}
		if m := l.Worst; m != nil {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l.Scenario, l.Passed, l.Failed, l.NotJudged,
				m.Metric, l.Subject, cell("%.5g", m.Fluid), cell("%.5g", m.Packet), m.ErrorText(), m.ToleranceText(), verdict)
		} else {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t-\t-\t-\t-\t-\t-\t%s\n", l.Scenario, l.Passed, l.Failed, l.NotJudged, verdict)
		}
	}
	return tw.Flush()
}

func writeAllCSV(w io.Writer, lines []allLine) error {
	cw := newCSV(w, "builtin", "passed", "failed", "not_judged", "worst_metric", "subject", "fluid", "packet", "error", "tolerance", "ok")
	for _, l := range lines {
		metric, fl, pk, e, tol := "", "", "", "", ""
		if m := l.Worst; m != nil {
			metric, fl, pk, e, tol = m.Metric, full(m.Fluid), full(m.Packet), full(m.Error), fullPtr(m.Tolerance)
		}
		cw.row(l.Scenario, strconv.Itoa(l.Passed), strconv.Itoa(l.Failed), strconv.Itoa(l.NotJudged), metric, l.Subject, fl, pk, e, tol, strconv.FormatBool(l.OK))
	}
	return cw.flush()
}
