package main

import (
	"fmt"
	"io"

	"github.com/tcpfluid/tcpfluid/response"
	"github.com/tcpfluid/tcpfluid/validate"
)

// writeCaveats prints, under a response table, one line for each derived figure outside
// its validity, so that a terminal reader sees them where the numbers are.
func writeCaveats(w io.Writer, rep *response.ResponseReport) {
	for _, r := range rep.Results {
		for _, c := range r.Caveats {
			fmt.Fprintf(w, "! %s: %s\n", r.Algorithm, c.Text)
		}
	}
}

// writeDisagreements prints one line for each judged metric beyond its tolerance in the
// validation reports: the fluid figures of that algorithm are not confirmed there.
func writeDisagreements(w io.Writer, reps []*validate.Report) {
	for _, v := range reps {
		for _, m := range v.Metrics {
			if m.Judged && !m.OK {
				fmt.Fprintf(w, "! %s: %s, fluid %.4g against packet %.4g (%s, tolerance %s) at p = %g: its fluid figures are not confirmed there\n",
					v.Point.Algorithm, m.Metric, m.Fluid, m.Packet, m.ErrorText(), m.ToleranceText(), v.Point.P)
			}
		}
	}
}
