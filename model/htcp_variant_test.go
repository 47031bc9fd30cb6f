package model

import (
	"math"
	"testing"
)

// Linux's bandwidth switch (tcp_htcp.c htcp_beta_update) as htcp@linux runs it, on an empty
// path (RTT = base RTT: the adaptive β is beta_max = 102/128): the first loss has no
// previous cycle to compare with (β_min); a cycle within ±20% of the last re-arms the
// switch (modeswitch) but still backs off by β_min; the next one within gets the adaptive
// β; one outside ±20% falls back to β_min and needs two cycles within again. The window
// left is Linux's (snd_cwnd·beta) >> 7 in whole packets, β in 128ths (whole_packets).
func TestHTCPBandwidthSwitch(t *testing.T) {
	alg, err := New("htcp@linux")
	if err != nil {
		t.Fatal(err)
	}
	const rtt = 0.1
	r := &htcpRule{p: alg.(*htcp).p}
	r.Start(Observation{})
	for i, c := range []struct {
		w, beta float64 // window at the loss (packets), β wanted
	}{
		{100, 0.5},         // first loss
		{110, 0.5},         // within +20%: re-armed, still β_min
		{100, 102.0 / 128}, // within: adaptive
		{119, 102.0 / 128}, // +19%: within
		{90, 0.5},          // −24%: outside
		{95, 0.5},          // within: re-armed
		{95, 102.0 / 128},
		{114.5, 0.5}, // +20.5%: outside
	} {
		o := Observation{Now: float64(i + 1), RTT: rtt, BaseRTT: rtt}
		want := math.Floor(math.Floor(c.w) * math.Floor(128*c.beta) / 128)
		if got := r.Congestion(c.w, o); got != want {
			t.Errorf("loss %d at W = %g: W after %g, want β = %.4f → %g", i, c.w, got, c.beta, want)
		}
	}
	// The default keeps the adaptive β at every loss.
	def, _ := New("htcp")
	r = &htcpRule{p: def.(*htcp).p}
	r.Start(Observation{})
	for i, w := range []float64{100, 150, 60} {
		if got := r.Congestion(w, Observation{Now: float64(i + 1), RTT: rtt, BaseRTT: rtt}); got != 0.8*w {
			t.Errorf("htcp loss %d at W = %g: W after %g, want 0.8·W = %g", i, w, got, 0.8*w)
		}
	}
}

// Linux's H-TCP counts ACKs in snd_cwnd_cnt and adds a packet once cnt·α ≥ 128·W, clearing
// the counter on that ACK: ⌈W/a⌉ + 1 ACKs a packet for an increase of a a round, and
// ack_count takes the mean, W/a + 3/2. Its Δ restarts where the recovery ends
// (htcp_state at TCP_CA_Open), which open_clock follows at the first ACK after a loss.
func TestHTCPLinuxCounterAndClock(t *testing.T) {
	const rtt = 0.1
	at := func(s float64) Observation { return Observation{Now: s, RTT: rtt, BaseRTT: rtt} }
	for _, c := range []struct {
		openClock float64
		delta     float64 // Δ at the ACK at 2 s, s
	}{{1, 1.5}, {0, 1.8}} {
		alg, err := New("htcp@linux")
		if err != nil {
			t.Fatal(err)
		}
		if err := alg.Set("open_clock", c.openClock); err != nil {
			t.Fatal(err)
		}
		e := alg.NewEvent(FlowConfig{InitialCwnd: 100, InitialSsthresh: 100, MSSBytes: 1460})
		w0, want := e.Cwnd(), e.Cwnd()
		for k := range 100 { // Δ < Δ_L, β = β_min: a = 1 packet a round, 1/(W + 3/2) an ACK
			e.OnAck(1, at(0.2*float64(k)/100))
			want += 1 / (want + 1.5)
		}
		if got := e.Cwnd(); math.Abs(got-want) > 1e-9 {
			t.Errorf("open_clock %v: a round grows %.5f packets, want %.5f", c.openClock, got-w0, want-w0)
		}
		e.OnLoss(at(0.2))   // β_min: the first loss has no cycle to compare
		e.OnAck(1, at(0.5)) // the recovery ends
		w := e.Cwnd()
		e.OnAck(1, at(2))
		a := 2 * (1 - 0.5) * HTCPAlpha(c.delta, 1)
		if got, want := e.Cwnd()-w, 1/(w/a+1.5); math.Abs(got-want) > 1e-9 {
			t.Errorf("open_clock %v: the ACK at 2 s adds %.5f packets, want %.5f (Δ = %v s)", c.openClock, got, want, c.delta)
		}
		// The fluid face: the hybrid-recovery form ends the recovery with EndRecovery.
		fl := alg.NewFluid(FlowConfig{InitialCwnd: 100, InitialSsthresh: 100, MSSBytes: 1460})
		x, dx := []float64{0}, []float64{0}
		fl.Init(x, at(0))
		fl.OnLoss(x, at(0.2))
		fl.(RecoveryEnder).EndRecovery(x, at(0.5))
		fl.Deriv(dx, x, at(2))
		if got, want := dx[0], x[0]/(x[0]/a+1.5)/rtt; math.Abs(got-want) > 1e-9 {
			t.Errorf("open_clock %v: the fluid grows %.4f packets/s at 2 s, want %.4f", c.openClock, got, want)
		}
	}
}

// Linux's RTT scaling (tcp_htcp.c htcp_alpha_update, use_rtt_scaling) as htcp@linux runs
// it: α(Δ) times 8/scale, scale = ⌊800/RTT_min⌋ with RTT_min in whole milliseconds (Linux's
// jiffies) within [4, 80], at least 1. Past Δ_L a 50 ms flow gains half a 100 ms flow's
// increase a round, a 250 ms one twice (the clamp); within Δ_L (α 1) every RTT up to 200 ms
// gains 1. A path of 100 ms and a few packets' transmissions is 100 jiffies: scale 8, where
// ⌊0.8 s/0.100012 s⌋ would be 7. The default does not scale.
func TestHTCPRTTScaling(t *testing.T) {
	const delta = 3.0 // s since the last loss: α(Δ) = 1 + 20 + 1 = 22
	for _, c := range []struct {
		algo       string
		rtt, delta float64 // s
		want       float64 // factor
	}{
		{"htcp@linux", 0.1, delta, 22},
		{"htcp@linux", 0.100012, delta, 22},
		{"htcp@linux", 0.0889, delta, 22 * 8.0 / 9}, // 88 jiffies: ⌊800/88⌋ = 9, where ⌊0.8/0.0889⌋ = 8
		{"htcp@linux", 0.05, delta, 11},
		{"htcp@linux", 0.075, delta, 22 * 0.8}, // ⌊10.67⌋ = 10
		{"htcp@linux", 0.25, delta, 44},        // scale 3 clamped to 4
		{"htcp@linux", 0.001, delta, 22 * 0.1}, // scale 800 clamped to 80
		{"htcp@linux", 0.001, 0.5, 1},          // α 1 scaled to 0.1: at least 1
		{"htcp@linux", 0.2, 0.5, 2},            // scale 4
		{"htcp", 0.05, delta, 22},
	} {
		alg, err := New(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		r := &htcpRule{p: alg.(*htcp).p}
		r.Start(Observation{})
		o := Observation{Now: c.delta, RTT: c.rtt, BaseRTT: c.rtt}
		if got := r.factor(o); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s at RTT_min %g s, Δ %g s: factor %g, want %g", c.algo, c.rtt, c.delta, got, c.want)
		}
	}
}

// ns-3.37's TcpHtcp (htcp@ns3): CongestionAvoidance adds ⌊max(1, MSS²/cwnd + α)⌋ bytes an
// ACK, α in bytes and at least 1, and UpdateBeta keeps RTT_min/RTT_max, unclamped, only
// after a cycle whose throughput rose above the last one's by less than 100%, else 0.5,
// of the flight (the window less pipe_deficit 2).
func TestHTCPNS3Rules(t *testing.T) {
	alg, err := New("htcp@ns3")
	if err != nil {
		t.Fatal(err)
	}
	const mss, rtt, base = 1460.0, 0.1, 0.09 // the adaptive β would be 0.9, above Linux's 0.8 clamp
	r := &htcpRule{p: alg.(*htcp).p, mss: mss}
	r.Start(Observation{})
	at := func(s float64) Observation { return Observation{Now: s, RTT: rtt, BaseRTT: base} }
	// Within Δ_L α is 1 byte an ACK beyond Reno's 1460/14 = 104.3: ⌊105.3⌋ bytes, 14 ACKs a round.
	if got, want := r.PerRTT(14, at(0.5)), 14*105/mss; math.Abs(got-want) > 1e-12 {
		t.Errorf("W = 14, Δ = 0.5 s: %.6f packets a round, want %.6f", got, want)
	}
	for i, c := range []struct {
		t, w, beta float64 // loss time (s), window at the loss (packets), β wanted
	}{
		{1, 20, 0.5},     // no previous cycle
		{3, 21, 0.9},     // throughput 90 → 142.5 packets/s: +58%
		{4, 20, 0.9},     // → 167: +17%
		{4.5, 17, 0.5},   // → 133: a fall
		{10.5, 40, 0.9},  // → 234: +76%
		{20.5, 100, 0.5}, // → 664: +184%, not below twice (the uint32 ratio is 1)
	} {
		if got := r.Congestion(c.w, at(c.t)); math.Abs(got-c.beta*(c.w-2)) > 1e-9 {
			t.Errorf("loss %d at W = %g: W after %.4f, want β = %g of the flight %g", i, c.w, got, c.beta, c.w-2)
		}
	}
	// After the last loss (β = 0.5) α at Δ = 3 s is 1 + 20 + 1 = 22 bytes an ACK:
	// ⌊1460/60 + 22⌋ = 46 bytes, 60 ACKs a round; Linux would add 22 packets a round.
	if got, want := r.PerRTT(60, at(23.5)), 60*46/mss; math.Abs(got-want) > 1e-12 {
		t.Errorf("W = 60, Δ = 3 s: %.6f packets a round, want %.6f", got, want)
	}
}
