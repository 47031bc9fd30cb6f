package response

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// A loss above the BDP (as a simulator sees its first loss, a round trip after slow
// start) moves the recovery by what the law says from that window: NewReno restarts at
// W/2 and grows one packet per RTT, back at the BDP after (BDP − w·BDP/2)·RTT; RFC 9438
// CUBIC crosses the BDP on the way up its concave curve, at K − ∛((W_max − BDP)/C) with
// K = ∛(W_max(1 − β)/C), β 0.7, C 0.4 (ns-2's CUBIC: 7.0 s at W_max 8654, BDP 8333,
// docs/simulators.md). The closed forms are for a loss at the BDP and are null elsewhere.
func TestConvergeLossWindow(t *testing.T) {
	const rtt, bw, mss = 0.1, 1e9, 1500
	bdp := bw * rtt / (8 * mss)
	cubicBack := func(w float64) float64 {
		wmax := w * bdp
		return model.CubicK(wmax, 0.4, 0.7) - math.Cbrt((wmax-bdp)/0.4)
	}
	for _, c := range []struct {
		algo string
		w    float64 // loss window, BDPs
		want float64 // s
		tol  float64
	}{
		{"newreno", 1, (1 - 0.5) * bdp * rtt, 0.005},
		{"newreno", 1.04, (1 - 0.52) * bdp * rtt, 0.005},
		{"newreno", 1.5, (1 - 0.75) * bdp * rtt, 0.005},
		{"cubic", 1, cubicBack(1), 0.02},
		{"cubic", 1.0385, cubicBack(1.0385), 0.02},
		{"cubic", 1.2, cubicBack(1.2), 0.02},
	} {
		rep, err := Converge(context.Background(), ConvergeSettings{Algorithms: []string{c.algo}, BandwidthsBps: []float64{bw},
			MSSBytes: []float64{mss}, RTTS: rtt, LossWindowBDP: c.w})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Results[0]
		if r.LossWindowPkts != c.w*bdp || rep.Form != fluid.FormHybrid {
			t.Errorf("%s at %g bdp: loss window %v packets, form %s; want %v, %s", c.algo, c.w, r.LossWindowPkts, rep.Form, c.w*bdp, fluid.FormHybrid)
		}
		within(t, c.algo+" recovery", *r.RecoveryTimeS, c.want, c.tol)
		if (r.RecoveryClosedFormS != nil) != (c.w == 1) || (r.RecoveryRelDiff != nil) != (c.w == 1) {
			t.Errorf("%s at %g bdp: recovery closed form %v, diff %v: want one only for a loss at the BDP", c.algo, c.w, r.RecoveryClosedFormS, r.RecoveryRelDiff)
		}
	}
}

// The hybrid-recovery form holds the reduced window for the recovery round trip and starts
// the law's clock when it ends (model.RecoveryEnder): CUBIC, whose window is a function of
// the time since its epoch began, is back at the BDP exactly one RTT (the reduced window
// queues nothing) later than in the hybrid form, at any loss window. (The ACK-counted laws
// add the form's O(1/W) counting of ⌊W⌋ packets in flight on top: NewReno 0.165 s.)
func TestConvergeRecoveryForm(t *testing.T) {
	const rtt = 0.1
	for _, w := range []float64{1, 1.04, 1.2} {
		algo := "cubic"
		var times [2]float64
		for i, form := range []string{fluid.FormHybrid, fluid.FormHybridRecovery} {
			rep, err := Converge(context.Background(), ConvergeSettings{Algorithms: []string{algo}, BandwidthsBps: []float64{1e9},
				MSSBytes: []float64{1500}, RTTS: rtt, LossWindowBDP: w, Form: form})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Form != form {
				t.Errorf("%s: report form %q, want %q", algo, rep.Form, form)
			}
			times[i] = *rep.Results[0].RecoveryTimeS
		}
		within(t, fmt.Sprintf("%s at %g bdp: hybrid-recovery − hybrid", algo, w), times[1]-times[0], rtt, 0.01)
	}
}

// A loss window outside (0, 2] BDPs or an unknown form is refused, naming the field, the
// value and what is allowed.
func TestConvergeLossWindowBadInput(t *testing.T) {
	for _, c := range []struct {
		s    ConvergeSettings
		want string
	}{
		{ConvergeSettings{LossWindowBDP: -1}, "loss window -1 bdp, want a window in (0, 2]"},
		{ConvergeSettings{LossWindowBDP: 2.5}, "loss window 2.5 bdp, want a window in (0, 2]"},
		{ConvergeSettings{LossWindowBDP: math.NaN()}, "loss window NaN bdp"},
		{ConvergeSettings{LossWindowBDP: math.Inf(1)}, "loss window +Inf bdp"},
		{ConvergeSettings{Form: "meanfield"}, `form "meanfield", want hybrid or hybrid-recovery`},
	} {
		_, err := Converge(context.Background(), c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.s, err, c.want)
		}
	}
}
