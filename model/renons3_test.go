package model

import (
	"math"
	"testing"
)

// The fluid faces of ns-3's Reno and NewReno at a loss, from TcpSocketBase's recovery:
// TcpNewReno's ssthresh halves the pipe at the entry (the window, plus the two segments
// limited transmit sends, less the three SACKed and the head marked lost), and the
// cumulative ACK that ends the recovery gives TcpLinuxReno the loss's whole flight in
// m_cWndCnt (W_loss/ssthresh packets more: the flight times the per-ACK increase); after
// a timeout there is no such ACK.
func TestRenoNS3FluidRecovery(t *testing.T) {
	for _, c := range []struct {
		name        string
		w           float64 // window at the loss, packets
		timeout     bool
		loss, after float64 // window after OnLoss and after EndRecovery
	}{
		{"reno@ns3", 20, false, 10, 12},
		{"reno@ns3", 21, false, 10.5, 12.5},
		{"newreno@ns3", 20, false, 9, 9},
		{"newreno@ns3", 5, false, MinLossWindow, MinLossWindow},
		{"reno", 20, false, 10, 10}, // the textbook face has no recovery exit
		{"reno@ns3", 20, true, 1, 1},
	} {
		a, err := New(c.name)
		if err != nil {
			t.Fatal(err)
		}
		f := a.NewFluid(FlowConfig{InitialCwnd: c.w, InitialSsthresh: c.w / 2, MaxCwnd: math.Inf(1), MSSBytes: 1460})
		x := make([]float64, f.Vars())
		f.Init(x, Observation{RTT: 0.1})
		x[0] = c.w
		if c.timeout {
			f.OnLoss(x, Observation{RTT: 0.1})
			f.OnTimeout(x, Observation{RTT: 0.1})
		} else {
			f.OnLoss(x, Observation{RTT: 0.1})
		}
		if x[0] != c.loss {
			t.Errorf("%s: window %v after the loss at %v, want %v", c.name, x[0], c.w, c.loss)
		}
		if e, ok := f.(RecoveryEnder); ok {
			e.EndRecovery(x, Observation{RTT: 0.1})
		}
		if math.Abs(x[0]-c.after) > 1e-12 {
			t.Errorf("%s: window %v after the recovery, want %v", c.name, x[0], c.after)
		}
	}
}
