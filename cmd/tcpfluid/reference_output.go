package main

// The reference command's output: its table, CSV and module list.

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/reference"
)

func fmtOpt(v float64, ok bool, f string) string {
	if !ok || math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf(f, v)
}

func relStr(row *reference.Row, key string) string {
	v, ok := row.RelErr[key]
	if !ok {
		return "-"
	}
	if row.Quantity == "jain" {
		return fmt.Sprintf("%+.3f", v)
	}
	return fmt.Sprintf("%+.1f%%", 100*v)
}

func simCell(row *reference.Row, ms []*reference.Measurement, fs *reference.FairnessSummary) string {
	v, ok := simValue(row, ms, fs)
	if !ok {
		return "-"
	}
	switch row.Quantity {
	case "mean_cwnd_pkts":
		if len(ms) == 1 {
			return fmt.Sprintf("%.4g ± %.2g", v, ms[0].Response.CI95Pkts)
		}
		return fmt.Sprintf("%.4g", v)
	case "jain":
		return fmt.Sprintf("%.3f ± %.3f", v, fs.Jain.SD)
	}
	return fmt.Sprintf("%.4g", v)
}

func wall(ms []*reference.Measurement) string {
	if len(ms) == 0 {
		return "-"
	}
	var s float64
	for _, m := range ms {
		s += m.WallS
	}
	return fmt.Sprintf("%.3gs", s)
}

func engWall(st *reference.EngineStats) string {
	if st == nil {
		return "-"
	}
	return fmt.Sprintf("%.3gs", st.WallS)
}

func writeReferenceTable(w io.Writer, rep *reference.Report) error {
	sims := cmp.Or(strings.Join(rep.Simulators, ", "), "none")
	fmt.Fprintf(w, "reference %s: simulators %s, tcpfluid constants %q, MSS %g bytes, seeds %v\n", rep.Kind,
		sims, rep.TcpfluidParams, rep.MSSBytes, rep.Seeds)
	tw := newTable(w)
	fmt.Fprintln(tw, "algorithm\tpoint\tquantity\tfluid\tfluid rec.\tpacket\tns-2\tns-3\tfluid/ns2\trec./ns2\tpacket/ns2\tfluid/ns3\trec./ns3\tns3/ns2\twall fluid\tpacket\tns-2\tns-3")
	for i := range rep.Rows {
		r := &rep.Rows[i]
		point := ""
		switch {
		case r.P > 0:
			point = "p=" + num(r.P)
		case r.Bandwidth > 0:
			point = model.FormatRate(r.Bandwidth)
		default:
			point = r.Mode
		}
		fv, fok := engineValue(r, r.Fluid)
		rv, rok := engineValue(r, r.FluidRecovery)
		pv, pok := engineValue(r, r.Packet)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Algorithm, point, r.Quantity,
			fmtOpt(fv, fok, "%.4g"), fmtOpt(rv, rok, "%.4g"), fmtOpt(pv, pok, "%.4g"), simCell(r, r.NS2, r.NS2Fairness), simCell(r, r.NS3, r.NS3Fairness),
			relStr(r, "fluid/ns2"), relStr(r, "fluid_recovery/ns2"), relStr(r, "packet/ns2"), relStr(r, "fluid/ns3"), relStr(r, "fluid_recovery/ns3"), relStr(r, "ns3/ns2"),
			engWall(r.Fluid), engWall(r.Packet), wall(r.NS2), wall(r.NS3))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rep.Rows {
		for _, n := range r.Notes {
			fmt.Fprintf(w, "note (%s): %s\n", r.Algorithm, n)
		}
		for _, ms := range [][]*reference.Measurement{r.NS2, r.NS3} {
			for _, m := range ms {
				fmt.Fprintf(w, "%s %s seed %d: module %s, %.4g simulated s, %.0f packets sent, %.0f dropped, %d loss events, %d timeouts%s\n",
					m.Simulator, m.Experiment, m.Seed, m.Module, m.SimulatedS, m.SentPkts, m.DropPkts, m.Reductions, m.Timeouts, detail(m))
			}
		}
	}
	return nil
}

func detail(m *reference.Measurement) string {
	switch {
	case m.Response != nil:
		r := m.Response
		return fmt.Sprintf("; measured %d loss events over %.4g s (%.4g packets each), goodput %s", r.LossEvents, r.MeasuredS,
			r.PktsPerLossEvent, model.FormatRate(r.GoodputBps))
	case m.Converge != nil:
		cv := m.Converge
		rec := "never back"
		if cv.RecoveryS != nil {
			rec = fmt.Sprintf("back at the BDP %.4g s later", *cv.RecoveryS)
		}
		return fmt.Sprintf("; BDP %.0f packets, first loss at %.4g s with cwnd %.0f, min %.0f after, %s", cv.BDPPkts, cv.FirstLossS,
			cv.CwndAtLossPkts, cv.MinAfterPkts, rec)
	case m.Fairness != nil:
		var sh []string
		for _, s := range m.Fairness.Shares {
			sh = append(sh, fmt.Sprintf("%.3f", s.Fraction))
		}
		return fmt.Sprintf("; Jain %.3f, shares %s, utilisation %.3f", m.Fairness.Jain, strings.Join(sh, "/"), m.Fairness.Utilisation)
	}
	return ""
}

func writeReferenceCSV(w io.Writer, rep *reference.Report) error {
	fmt.Fprintln(w, "algorithm,p,bandwidth_bps,mode,quantity,fluid,packet,ns2,ns3,fluid_vs_ns2,packet_vs_ns2,fluid_vs_ns3,ns3_vs_ns2,fluid_wall_s,packet_wall_s,ns2_wall_s,ns3_wall_s,fluid_recovery,fluid_recovery_vs_ns2,fluid_recovery_vs_ns3")
	for i := range rep.Rows {
		r := &rep.Rows[i]
		cell := func(v float64, ok bool) string {
			if !ok {
				return ""
			}
			return num(v)
		}
		fv, fok := engineValue(r, r.Fluid)
		pv, pok := engineValue(r, r.Packet)
		n2, ok2 := simValue(r, r.NS2, r.NS2Fairness)
		n3, ok3 := simValue(r, r.NS3, r.NS3Fairness)
		rel := func(k string) string {
			v, ok := r.RelErr[k]
			return cell(v, ok)
		}
		ws := func(ms []*reference.Measurement) string {
			if len(ms) == 0 {
				return ""
			}
			s := 0.0
			for _, m := range ms {
				s += m.WallS
			}
			return num(s)
		}
		ew := func(st *reference.EngineStats) string {
			if st == nil {
				return ""
			}
			return num(st.WallS)
		}
		rv, rok := engineValue(r, r.FluidRecovery)
		fmt.Fprintf(w, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r.Algorithm, cell(r.P, r.P > 0), cell(r.Bandwidth, r.Bandwidth > 0),
			r.Mode, r.Quantity, cell(fv, fok), cell(pv, pok), cell(n2, ok2), cell(n3, ok3),
			rel("fluid/ns2"), rel("packet/ns2"), rel("fluid/ns3"), rel("ns3/ns2"), ew(r.Fluid), ew(r.Packet), ws(r.NS2), ws(r.NS3),
			cell(rv, rok), rel("fluid_recovery/ns2"), rel("fluid_recovery/ns3"))
	}
	return nil
}

func writeModuleList(w io.Writer, format string) error {
	rows := reference.Modules(func(n string) bool { _, err := model.New(n); return err == nil })
	switch format {
	case formatJSON:
		return writeJSON(w, rows)
	case formatCSV:
		fmt.Fprintln(w, "algorithm,tcpfluid,ns2_module,ns2_source,ns3_typeid,ns3_source,ns2_lacks,ns3_lacks")
		for _, r := range rows {
			n2, s2, n3, s3 := "", "", "", ""
			if r.NS2 != nil {
				n2, s2 = r.NS2.Name, r.NS2.Source
			}
			if r.NS3 != nil {
				n3, s3 = "ns3::"+r.NS3.Name, r.NS3.Source
			}
			fmt.Fprintf(w, "%s,%t,%s,%q,%s,%q,%q,%q\n", r.Algorithm, r.Fluid, n2, s2, n3, s3, r.NS2Lacks, r.NS3Lacks)
		}
		return nil
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "algorithm\ttcpfluid\tns-2 select_ca\tns-3 TypeId\tnot in ns-2\tnot in ns-3")
	for _, r := range rows {
		n2, n3 := "-", "-"
		if r.NS2 != nil {
			n2 = r.NS2.Name
		}
		if r.NS3 != nil {
			n3 = "ns3::" + r.NS3.Name
		}
		yes := "-"
		if r.Fluid {
			yes = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Algorithm, yes, n2, n3, r.NS2Lacks, r.NS3Lacks)
	}
	return tw.Flush()
}
