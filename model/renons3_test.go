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

// ns-3.37's TcpNewReno adds ⌊MSS²/cwnd⌋ bytes an ACK, at least one: per round trip of W
// ACKs, W·⌊MSS/W⌋/MSS packets, which halves Reno's increase just above MSS/2 packets. Below
// MSS/16 the fluid face crosses each step at its middle's speed; TcpLinuxReno counts
// packets and adds one a round trip.
func TestNewRenoNS3WholeByteIncrease(t *testing.T) {
	newReno := renoNS3Rule{newReno: true, mss: 1460}
	for _, c := range []struct {
		rule renoNS3Rule
		w    float64 // packets
		want float64 // packets a round trip
	}{
		{newReno, 2000, 2000.0 / 1460},  // under a byte an ACK: one byte
		{newReno, 1000, 1000.0 / 1460},  // 1 byte an ACK
		{newReno, 731, 731.0 / 1460},    // 1.997 bytes: 1
		{newReno, 730, 1},               // 2 bytes
		{newReno, 500, 1000.0 / 1460},   // 2.92 bytes: 2
		{newReno, 365, 1},               // 4 bytes
		{newReno, 100, 1400.0 / 1460},   // 14.6 bytes: 14
		{newReno, 50, 28.7 * 50 / 1460}, // 29.2 bytes, smooth: 28.7
		{renoNS3Rule{mss: 1460}, 1000, 1},
	} {
		if got := c.rule.PerRTT(c.w, Observation{}); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("newReno %v at W = %v: %v packets a round trip, want %v", c.rule.newReno, c.w, got, c.want)
		}
	}
}

// Where the fluid face smooths TcpNewReno's steps (16 bytes an ACK and more), it takes the
// round trips the steps take to grow across them, to 0.1%: from MSS/64 to MSS/16 packets
// the whole-byte law takes Σ_k (MSS/k)·ln((k+1)/k) round trips over k = 16…63.
func TestNewRenoNS3SmoothSteps(t *testing.T) {
	const mss = 1460.0
	r := renoNS3Rule{newReno: true, mss: mss}
	want := 0.0
	for k := 16.0; k < 64; k++ {
		want += mss / k * math.Log((k+1)/k)
	}
	// Midpoint rule over the window, fine enough to resolve every step.
	lo, hi, n := mss/64, mss/16, 200000
	got, h := 0.0, (hi-lo)/float64(n)
	for i := range n {
		got += h / r.PerRTT(lo+(float64(i)+0.5)*h, Observation{})
	}
	t.Logf("%v round trips, steps %v (%+.4f%%)", got, want, 100*(got/want-1))
	if math.Abs(got/want-1) > 1e-3 {
		t.Errorf("from %v to %v packets: %v round trips, the whole-byte steps take %v (%+.3f%%)", lo, hi, got, want, 100*(got/want-1))
	}
}
