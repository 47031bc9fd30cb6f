package model

import "testing"

// ns-3's TcpNewReno-derived classes (and TcpBic) slow-start by one segment per ACK,
// whatever it acknowledges (TcpNewReno::SlowStart: cwnd += segmentSize, segmentsAcked −
// 1 left over, counted in congestion avoidance only once cwnd ≥ ssthresh). After a
// timeout with SACK the retransmission's ACK covers everything SACKed since: 20 segments
// here. Their ns3 variants add one packet on it, and so do the linux ones (ns-2.35
// TCP/Linux's tcp_slow_start adds one packet a call); ns-3's TcpCubic, which counts every
// segment in slow start, and the textbook laws add every segment up to ssthresh.
func TestSlowStartOnePerAck(t *testing.T) {
	for _, c := range []struct {
		algo string
		want float64 // window after the 20-segment ACK, from 1 packet after the timeout
	}{
		{"highspeed@ns3", 2}, {"scalable@ns3", 2}, {"bic@ns3", 2}, {"vegas@ns3", 2},
		{"highspeed@linux", 2}, {"scalable@linux", 2}, {"bic@linux", 2}, {"vegas@linux", 2},
		{"cubic@linux", 2}, {"htcp@linux", 2}, {"compound@linux", 2},
		{"cubic@ns3", 21}, {"highspeed", 21}, {"scalable", 21}, {"bic", 21}, {"cubic", 21}, {"htcp", 21},
	} {
		a, err := New(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		law := a.NewEvent(FlowConfig{InitialCwnd: 60, InitialSsthresh: 1, MaxCwnd: 1e6})
		var o Observation
		law.OnAck(1, o)
		law.OnTimeout(o) // ssthresh about 30 packets, the window one packet
		if ss := law.Ssthresh(); !(ss > 21) {
			t.Fatalf("%s: ssthresh %g after the timeout, want above 21 for this test", c.algo, ss)
		}
		law.OnAck(20, o)
		if got := law.Cwnd(); got != c.want {
			t.Errorf("%s: window %g after an ACK of 20 segments in slow start, want %g", c.algo, got, c.want)
		}
	}
}
