package model

import "testing"

// TestHighSpeedSlowStartRow: Linux's tcp_highspeed.c moves its table row (ca->ai) only in
// congestion avoidance, so hstcp_ssthresh in slow start cuts by the decrease of the last
// window congestion avoidance saw, 128/256 before any. ns-2.35's HighSpeed flow alone on
// the fairness dumbbell leaves its first slow start at 6,710 packets with ssthresh 3,355;
// RFC 3649 and ns-3.37's TcpHighSpeed cut by the decrease of the window they find. In
// both faces: the first slow start's loss at 6,690 packets, then (event face) a
// congestion-avoidance loss at 3,346 packets, a timeout and a loss at 500 packets in the
// slow start after it, which keeps the row of 3,346.
func TestHighSpeedSlowStartRow(t *testing.T) {
	at := Observation{Now: 1, RTT: 0.2, BaseRTT: 0.2}
	cut := func(algo string, w, row float64) float64 { // the rule's reduction at w with row's decrease
		a, err := Configure(algo, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a.(*highSpeed).newRule(true).reduce(w, row, at)
	}
	for _, tc := range []struct {
		algo  string
		stale bool
	}{{"highspeed@linux", true}, {"highspeed@ns3", false}, {"highspeed", false}} {
		a, err := Configure(tc.algo, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg := FlowConfig{InitialCwnd: 2}
		e := a.NewEvent(cfg)
		for e.Cwnd() < 6690 {
			e.OnAck(1, at)
		}
		want := cut(tc.algo, 6690, 6690)
		if tc.stale {
			want = 3345 // 6690 − ⌊6690·128/256⌋
		}
		if e.OnLoss(at); e.Ssthresh() != want {
			t.Errorf("%s event face: the first slow start's loss at 6690 packets leaves ssthresh %v, want %v", tc.algo, e.Ssthresh(), want)
		}
		fl := a.NewFluid(cfg)
		x := make([]float64, fl.Vars())
		fl.Init(x, at)
		x[0] = 6690
		if fl.OnLoss(x, at); fl.Ssthresh() != want {
			t.Errorf("%s fluid face: the first slow start's loss at 6690 packets leaves ssthresh %v, want %v", tc.algo, fl.Ssthresh(), want)
		}

		for e.Cwnd() < 3346 { // congestion avoidance
			e.OnAck(1, at)
		}
		w := e.Cwnd()
		if e.OnLoss(at); e.Ssthresh() != cut(tc.algo, w, w) {
			t.Errorf("%s: a congestion-avoidance loss at %v packets leaves ssthresh %v, want %v", tc.algo, w, e.Ssthresh(), cut(tc.algo, w, w))
		}
		e.OnTimeout(at)
		for e.Cwnd() < 500 {
			e.OnAck(1, at)
		}
		want = cut(tc.algo, 500, 500)
		if tc.stale {
			want = cut(tc.algo, 500, w)
		}
		if want == cut(tc.algo, 500, 500) && tc.stale {
			t.Fatalf("rows of 500 and %v packets cut alike; the case cannot tell the rules apart", w)
		}
		if e.OnLoss(at); e.Ssthresh() != want {
			t.Errorf("%s: a loss at 500 packets in the slow start after a timeout leaves ssthresh %v, want %v", tc.algo, e.Ssthresh(), want)
		}
	}
}
