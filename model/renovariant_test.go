package model

import (
	"fmt"
	"math"
	"testing"
)

// renoEvent is the event face of a reno-family variant starting at cwnd packets with
// ssthresh ss, MSS 1460 bytes.
func renoEvent(t *testing.T, name string, cwnd, ss float64) EventLaw {
	t.Helper()
	a, err := New(name)
	if err != nil {
		t.Fatal(err)
	}
	return a.NewEvent(FlowConfig{InitialCwnd: cwnd, InitialSsthresh: ss, MaxCwnd: math.Inf(1), MSSBytes: 1460})
}

// Each implementation's counting, from its source: Linux 2.6.2x tcp_reno_cong_avoid with
// ABC adds a packet once a window of packets is acknowledged and slow-starts while cwnd ≤
// ssthresh; ns-3.37 TcpLinuxReno adds ⌊count/⌊cwnd⌋⌋ packets for the segments counted in
// m_cWndCnt, remainder kept, and slow-starts only to ssthresh; ns-3.37 TcpNewReno adds
// ⌊MSS²/cwnd⌋ bytes per ACK, whatever it acknowledges. The default reno adds 1/W per
// packet acknowledged.
func TestRenoVariantCounting(t *testing.T) {
	for _, c := range []struct {
		name     string
		cwnd, ss float64
		acks     []float64 // packets each ACK acknowledges
		want     float64   // cwnd after them, packets
	}{
		{"reno@linux", 10, 5, repeat(9, 1), 10},
		{"reno@linux", 10, 5, repeat(10, 1), 11},
		{"reno@linux", 10, 5, repeat(21, 1), 12},   // 10 then 11 packets for the next
		{"reno@linux", 5, 5, []float64{1}, 6},      // cwnd ≤ ssthresh: slow start
		{"reno@linux", 10, 5, []float64{25}, 11},   // one increase per ACK at most
		{"reno@ns3", 10, 5, []float64{25}, 12},     // ⌊25/10⌋, 5 kept
		{"reno@ns3", 10, 5, []float64{25, 7}, 13},  // the 5 kept and 7 more: ⌊cwnd⌋ = 12
		{"reno@ns3", 4, 6, []float64{5}, 6},        // slow start to ssthresh, 3 left over in the count
		{"newreno@ns3", 10, 5, []float64{1}, 10.1}, // ⌊1460/10⌋ = 146 bytes
		{"newreno@ns3", 10, 5, []float64{7}, 10.1}, // per ACK, not per packet
		{"newreno@ns3", 11, 5, []float64{1}, 11 + 132.0/1460},
		{"newreno@ns3", 5, 8, []float64{1, 1}, 7}, // slow start +1 per ACK
		{"reno", 10, 5, repeat(10, 1), 10.958648}, // W += 1/W ten times
	} {
		e := renoEvent(t, c.name, c.cwnd, c.ss)
		for _, a := range c.acks {
			e.OnAck(a, Observation{})
		}
		if got := e.Cwnd(); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("%s from cwnd %v, ssthresh %v, ACKs %v: cwnd %.6f, want %.6f", c.name, c.cwnd, c.ss, c.acks, got, c.want)
		}
	}
}

func repeat(n int, x float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = x
	}
	return s
}

// The reductions: Linux tcp_reno_ssthresh max(⌊cwnd⌋ >> 1, 2) of its whole-packet window,
// ns-3 TcpLinuxReno max(cwnd/2, 2) of the window, ns-3 TcpNewReno max(flight/2, 2) of the
// packets in flight (FlightReducer); a timeout sets cwnd 1 with the same ssthresh.
func TestRenoVariantReduction(t *testing.T) {
	for _, c := range []struct {
		name           string
		cwnd, inFlight float64
		ss             float64 // ssthresh and cwnd after the loss
	}{
		{"reno@linux", 21, 17, 10},
		{"reno@linux", 3, 3, 2},
		{"reno@ns3", 21, 17, 10.5},
		{"newreno@ns3", 21, 17, 8.5},
		{"newreno@ns3", 21, 3, 2},
	} {
		e := renoEvent(t, c.name, c.cwnd, 1)
		fr, ok := e.(FlightReducer)
		if !ok {
			t.Fatalf("%s: the event face is no FlightReducer", c.name)
		}
		fr.OnLossInFlight(c.inFlight, Observation{})
		if e.Cwnd() != c.ss || e.Ssthresh() != c.ss {
			t.Errorf("%s: loss at cwnd %v with %v in flight: cwnd %v, ssthresh %v; want %v", c.name, c.cwnd, c.inFlight, e.Cwnd(), e.Ssthresh(), c.ss)
		}
		e = renoEvent(t, c.name, c.cwnd, 1)
		e.OnTimeout(Observation{})
		if want := e.Ssthresh(); e.Cwnd() != 1 || !(want >= MinLossWindow) {
			t.Errorf("%s: timeout: cwnd %v, ssthresh %v; want 1 and at least %v", c.name, e.Cwnd(), want, MinLossWindow)
		}
	}
}

// A variant's recovery names the implementation; the default Reno and NewReno keep theirs.
func TestRenoVariantRecovery(t *testing.T) {
	for name, want := range map[string]Recovery{
		"reno": RecoveryReno, "newreno": RecoveryNewReno,
		"reno@linux": RecoveryLinuxMinCwnd, "newreno@linux": RecoveryLinuxMinCwnd,
		"reno@ns3": RecoveryPRR, "newreno@ns3": RecoveryPRR,
	} {
		a, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := RecoveryOf(a); got != want {
			t.Errorf("%s recovers as %v, want %v", name, got, want)
		}
	}
}

// ns-3.37's TcpNewReno halves the packets in flight at the entry into recovery, not the
// window: with 4 of 21 packets SACKed or lost, ssthresh is 8.5.
func ExampleFlightReducer() {
	a, _ := New("newreno@ns3")
	e := a.NewEvent(FlowConfig{InitialCwnd: 21, InitialSsthresh: 1, MaxCwnd: math.Inf(1), MSSBytes: 1460})
	e.(FlightReducer).OnLossInFlight(17, Observation{})
	fmt.Println(e.Cwnd(), e.Ssthresh())
	// Output: 8.5 8.5
}

// Every module ns-2.35's TCP/Linux runs recovers there as LinuxTcpAgent does: snd_cwnd =
// min_cwnd (ssthresh/2, tcp_reno_min_cwnd) for the modules that set it, snd_cwnd =
// ssthresh for the others (tcp_cubic.c, tcp_bic.c, tcp_htcp.c), so each linux variant
// must name one of the two (cubic@linux had been left on the generic SACK recovery).
func TestLinuxVariantsRecoverAsNS2(t *testing.T) {
	want := map[string]Recovery{"cubic": RecoveryLinux, "bic": RecoveryLinux, "htcp": RecoveryLinux}
	n := 0
	for _, algo := range Algorithms() {
		vs, err := VariantsOf(algo)
		if err != nil {
			continue // no variants
		}
		for _, v := range vs {
			if v.Name != "linux" {
				continue
			}
			n++
			a, err := New(algo + VariantSep + "linux")
			if err != nil {
				t.Fatal(err)
			}
			w, ok := want[algo]
			if !ok {
				w = RecoveryLinuxMinCwnd
			}
			if got := RecoveryOf(a); got != w {
				t.Errorf("%s@linux recovers as %v, want %v", algo, got, w)
			}
		}
	}
	if n < 9 {
		t.Errorf("%d linux variants, want the 9 reference modules at least", n)
	}
}
