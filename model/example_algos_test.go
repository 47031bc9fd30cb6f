package model_test

import (
	"fmt"

	"github.com/tcpfluid/tcpfluid/model"
)

// Look up an algorithm, list its parameters and change one.
func ExampleNew_cubic() {
	alg, err := model.New("cubic")
	if err != nil {
		panic(err)
	}
	fmt.Println(alg.Describe())
	for _, p := range alg.Params() {
		fmt.Printf("%s = %g %s in [%g, %g] (%s)\n", p.Name, p.Value, p.Unit, p.Min, p.Max, p.Source)
	}
	if err := alg.Set("beta", 0.8); err != nil {
		panic(err)
	}
	fmt.Println(alg.Set("beta", 1.2))
	// Output:
	// CUBIC: window a cubic function of the time since the last loss, with a Reno-friendly region (RFC 9438)
	// c = 0.4 packets/s³ in [0.01, 10] (RFC 9438 §5)
	// beta = 0.7 1 in [0.5, 0.95] (RFC 9438 §4.6 (2008 paper: 0.8))
	// fast_convergence = 1 1 in [0, 1] (RFC 9438 §4.7)
	// reno_friendly = 1 1 in [0, 1] (RFC 9438 §4.3)
	// hystart = 0 1 in [0, 1] (ns-3.37 TcpCubic HyStart (1, its default); RFC 9438 and Linux 2.6.2x as ns-2.35 runs it (0))
	// cnt_clamp = 0 ACKs in [0, 1000] (RFC 9438 (0: none); Linux 2.6.2x tcp_cubic.c cnt = 50 while loss_cwnd = 0; ns-3.37 TcpCubic CntClamp 20 while m_lastMaxCwnd = 0)
	// cnt_forced = 0 1 in [0, 1] (ns-3.37 TcpCubic min(cnt, CntClamp) (0); Linux 2.6.2x tcp_cubic.c cnt = 50 outright (1))
	// friendly_alpha = 0 packets/RTT in [0, 10] (RFC 9438 §4.3 (0: 3(1−β)/(1+β), then 1 from cwnd_prior); Linux 2.6.2x tcp_cubic.c 8/23, one per (cwnd·beta_scale) >> 3 ACKs, beta_scale 23)
	// timeout_reset = 0 1 in [0, 1] (RFC 9438 (0); Linux tcp_cubic.c bictcp_state → bictcp_reset at TCP_CA_Loss, ns-3.37 TcpCubic CubicReset at CA_LOSS (1))
	// ss_per_ack = 0 1 in [0, 1] (ns-2.35 TCP/Linux tcp_slow_start, one packet a call (1))
	// ss_through = 0 1 in [0, 1] (Linux 2.6.2x tcp_cubic.c bictcp_cong_avoid: tcp_slow_start while snd_cwnd <= snd_ssthresh (1))
	// whole_packets = 0 1 in [0, 1] (RFC 9438 (0); Linux 2.6.2x tcp_cubic.c bictcp_recalc_ssthresh in u32 (1))
	// invalid algorithm parameter: cubic.beta = 1.2 is outside [0.5, 0.95]
}

// Drive one flow's event face: a round of ACKs in slow start doubles the window, a loss
// keeps β = 0.7 of it.
func ExampleEventLaw() {
	alg, _ := model.New("cubic")
	flow := alg.NewEvent(model.FlowConfig{InitialCwnd: 10, MaxCwnd: 1000})
	o := model.Observation{Now: 0.1, RTT: 0.1, BaseRTT: 0.1}
	for range 10 {
		flow.OnAck(1, o)
	}
	fmt.Println(flow.Cwnd())
	flow.OnLoss(o)
	fmt.Println(flow.Cwnd(), flow.Ssthresh())
	// Output:
	// 20
	// 14 14
}

// The fluid face: derivatives of the window at a given state.
func ExampleFluidLaw() {
	alg, _ := model.New("reno")
	law := alg.NewFluid(model.FlowConfig{InitialCwnd: 100, InitialSsthresh: 50})
	x := make([]float64, law.Vars())
	dx := make([]float64, law.Vars())
	o := model.Observation{Now: 0, RTT: 0.1, BaseRTT: 0.1}
	law.Init(x, o)
	law.Deriv(dx, x, o)
	fmt.Printf("W = %g packets, dW/dt = %g packets/s (one packet per RTT)\n", x[0], dx[0])
	// Output:
	// W = 100 packets, dW/dt = 10 packets/s (one packet per RTT)
}

// Recovery time of CUBIC after a loss at W_max = 1000 packets, and HighSpeed's a(w), b(w).
func ExampleCubicK() {
	fmt.Printf("K = %.2f s\n", model.CubicK(1000, 0.4, 0.7))
	fmt.Printf("a(8333) = %.1f packets/RTT, b(8333) = %.3f\n", model.HighSpeedA(8333), model.HighSpeedB(8333))
	// Output:
	// K = 9.09 s
	// a(8333) = 26.4 packets/RTT, b(8333) = 0.220
}
