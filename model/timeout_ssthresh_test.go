package model

import (
	"math"
	"testing"
)

// TestTimeoutSsthresh: the simulators' variants set ssthresh at a timeout as at a loss,
// to the window the module's ssthresh() leaves (Linux tcp_enter_loss, ns-3.37
// TcpSocketBase::ReTxTimeout); the textbook laws halve the window (RFC 5681 eq. 4). The
// event face runs two loss cycles first (losses at 1 and 10 s, each followed by 9 s of
// ACKs with RTTs of 100 and 125 ms, so that H-TCP's β has left 0.5); the fluid face
// starts at 300 packets in congestion avoidance, where every law but H-TCP cuts by less
// than half.
func TestTimeoutSsthresh(t *testing.T) {
	cfg := FlowConfig{InitialCwnd: 300, InitialSsthresh: 2}
	at := Observation{Now: 19, RTT: 0.1, BaseRTT: 0.1}
	noSwitch := map[string]float64{"bandwidth_switch": 0}
	for _, tc := range []struct {
		algo   string
		params map[string]float64
		asLoss bool // ssthresh is the loss's; else half the window
	}{
		{"highspeed@linux", nil, true}, {"highspeed@ns3", nil, true}, {"highspeed", nil, false},
		{"scalable@linux", nil, true}, {"scalable@ns3", nil, true}, {"scalable", nil, false},
		// Without the bandwidth switch H-TCP's β is RTT_min/RTT_max after the first cycle.
		{"htcp@linux", noSwitch, true}, {"htcp@ns3", noSwitch, true}, {"htcp", noSwitch, false},
		{"bic@linux", nil, true}, {"bic@ns3", nil, true}, {"bic", nil, false},
	} {
		a, err := Configure(tc.algo, tc.params)
		if err != nil {
			t.Fatal(err)
		}
		lossEv, timeoutEv := a.NewEvent(cfg), a.NewEvent(cfg)
		for _, from := range []float64{1, 10} {
			cycle(lossEv, from)
			cycle(timeoutEv, from)
		}
		w := timeoutEv.Cwnd()
		lossEv.OnLoss(at)
		timeoutEv.OnTimeout(at)
		want := w / 2
		if tc.asLoss {
			want = lossEv.Ssthresh()
			if !(math.Abs(want-w/2) >= 2) {
				t.Errorf("%s: the loss's ssthresh %v is within 2 packets of half the window %v; the case cannot tell the rules apart", tc.algo, want, w)
			}
		}
		if got := timeoutEv.Ssthresh(); got != want || timeoutEv.Cwnd() != 1 {
			t.Errorf("%s event face: a timeout at %v packets leaves ssthresh %v and cwnd %v, want %v and 1", tc.algo, w, got, timeoutEv.Cwnd(), want)
		}
		if a.Name() == "htcp" {
			continue // its first cycle's β is 0.5 either way
		}
		lossFl, timeoutFl := a.NewFluid(cfg), a.NewFluid(cfg)
		x, y := make([]float64, lossFl.Vars()), make([]float64, timeoutFl.Vars())
		lossFl.Init(x, at)
		timeoutFl.Init(y, at)
		lossFl.OnLoss(x, at)
		timeoutFl.OnTimeout(y, at)
		want = cfg.InitialCwnd / 2
		if tc.asLoss {
			want = lossFl.Ssthresh()
		}
		if got := timeoutFl.Ssthresh(); math.Abs(got-want) > 1e-9 {
			t.Errorf("%s fluid face: a timeout at 300 packets leaves ssthresh %v, want %v", tc.algo, got, want)
		}
	}
}

// cycle gives event law e a loss at time from (s) and then an ACK a millisecond for 9 s,
// with RTTs alternating between 100 and 125 ms.
func cycle(e EventLaw, from float64) {
	e.OnLoss(Observation{Now: from, RTT: 0.1, BaseRTT: 0.1})
	for i := range 9000 {
		rtt := 0.1 + 0.025*float64(i%2)
		e.OnAck(1, Observation{Now: from + float64(i+1)/1000, RTT: rtt, BaseRTT: 0.1})
	}
}
