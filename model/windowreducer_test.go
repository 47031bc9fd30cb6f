package model_test

import (
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// TestOnLossFrom: the min_cwnd modules' event faces reduce from the sender's window when a
// loss is found in the slow start back to ssthresh after a recovery (model.WindowReducer):
// after a loss at 40 packets, one found when the slow start back has reached w, below the
// first loss's ssthresh, leaves the ssthresh a loss at w leaves; HighSpeed's keeps the
// decrease of the 40-packet loss's row (112/256), as Linux's ca->ai stays through slow
// start (TestHighSpeedSlowStartRow): 17 − ⌊17·112/256⌋.
func TestOnLossFrom(t *testing.T) {
	o := model.Observation{Now: 1, RTT: 0.1, BaseRTT: 0.1}
	lossAt := func(algo string, w float64) model.EventLaw {
		a, err := model.New(algo)
		if err != nil {
			t.Fatal(err)
		}
		e := a.NewEvent(model.FlowConfig{InitialCwnd: w, InitialSsthresh: w, MSSBytes: 1460})
		e.OnLoss(o)
		return e
	}
	for _, c := range []struct {
		algo string
		w    float64 // the window the slow start back has reached
		want float64 // ssthresh; 0: a loss at w's
	}{
		{"reno@linux", 14, 0},
		{"scalable@linux", 24, 0},
		{"highspeed@linux", 17, 10},
		{"vegas@linux", 14, 0},
		{"compound@linux", 14, 0},
	} {
		e := lossAt(c.algo, 40)
		if !(c.w < e.Ssthresh()) {
			t.Fatalf("%s: ssthresh %v after a loss at 40, want it above %v", c.algo, e.Ssthresh(), c.w)
		}
		wr, ok := e.(model.WindowReducer)
		if !ok {
			t.Errorf("%s: not a WindowReducer", c.algo)
			continue
		}
		wr.OnLossFrom(c.w, o)
		want := c.want
		if want == 0 {
			want = lossAt(c.algo, c.w).Ssthresh()
		}
		if got := e.Ssthresh(); got != want {
			t.Errorf("%s: ssthresh %v after a loss found at %v in the slow start back, want %v", c.algo, got, c.w, want)
		}
	}
}
