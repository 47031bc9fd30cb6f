package fluid_test

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
)

// simRecRTT is the round-trip time of the deterministic recovery tests, s.
const simRecRTT = 0.1

// simRecPath is a link of simRecRTT's round trip that never queues: so fast that a
// packet's transmission (1.2·10⁻¹⁷ s) is below the last bit of the propagation's, and the
// round trip is simRecRTT exactly.
func simRecPath() model.Link {
	return model.Link{Name: "l0", CapacityBps: 1e21, DelayS: simRecRTT / 2, BufferPkts: 1e6}
}

// simRecTrace runs one flow of algo on a path that never queues from a window of w0
// packets in congestion avoidance, with one loss event at its start, in the counted form,
// and returns its window every RTT/8.
func simRecTrace(t *testing.T, algo string, w0 float64) []model.Sample {
	t.Helper()
	sc := &model.Scenario{
		Name:  "simrecovery",
		Links: []model.Link{simRecPath()},
		Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
		Flows: []model.Flow{{Name: "f", Algorithm: algo, Path: "p0", MSSBytes: 1460, WindowScaling: true,
			InitialCwnd: w0, InitialSsthresh: w0}},
		DurationS: 3 * simRecRTT,
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := fluid.Run(context.Background(), sc, fluid.Settings{Form: fluid.FormHybridRecovery, InjectLoss: []int{0},
		SampleS: simRecRTT / 8, RelTol: 1e-10, AbsTol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	var tr []model.Sample
	for _, s := range res.Trace {
		if s.Flow == 0 {
			tr = append(tr, s)
		}
	}
	return tr
}

// One loss at W = 40 packets in each simulator recovery (packet/recovery.go, fluid's
// simrecovery.go), the window sampled every RTT/8 through the recovery round trip:
//   - reno@linux (RecoveryLinuxMinCwnd): ssthresh 20; rate halving, one packet per two
//     ACKs of the 40 in flight, 40·(1 − u/2) at u = t/RTT, never below ssthresh/2 = 10;
//     at the end the pipe 20 + 3 is above ssthresh: the window is ssthresh and, as Linux's
//     slow start runs through ssthresh (ss_through), 21 at the next ACK, then Reno's law.
//   - scalable@linux (RecoveryLinuxMinCwnd): ssthresh 40 − 40>>3 = 35; the same fall to
//     20 at the end, above 35/2; then min(35, 20 + 3) = 23 slow-starting (W − ½ doubling
//     per RTT) back to 35 + 1, reached log2(35.5/22.5) RTTs after the recovery; the law
//     holds.
//   - bic@linux (RecoveryLinux, no min_cwnd): ssthresh ⌊40·819/1024⌋ = 31; the fall
//     stops there, at u = 2(1 − 31/40), and it holds to the end; then 32.
//   - reno@ns3 (RecoveryPRR, TcpLinuxReno's ssthresh W/2): 40 − 20u, then 20 and the
//     cumulative ACK that ends the recovery, its 40 segments counted at once: 22.
//
// Until the law takes over the window is a closed form in time: exact to 1e-9 packets.
// After it (samples at or past the law's restart) the window is the law's from ssthresh,
// which grows by at most 1 packet per RTT (Reno; Scalable's 35/36 at 35 packets) and
// BIC's max_increment 16: those samples are checked against the law's start within that
// growth.
func TestSimRecoveryOneLoss(t *testing.T) {
	const w0 = 40.0
	bicSS := math.Floor(w0 * 819 / 1024) // bictcp_recalc_ssthresh in whole packets
	for _, c := range []struct {
		algo     string
		ss       float64
		path     func(u float64) float64 // the window u RTTs after the loss, until the law resumes
		resumeAt float64                 // RTTs after the loss
		growth   float64                 // the law's largest growth from ssthresh, packets per RTT
		exit     float64                 // packets the recovery's exit adds to ssthresh
	}{
		{"reno@linux", 20, func(u float64) float64 { return math.Max(10, w0*(1-u/2)) }, 1, 1, 1},
		{"scalable@linux", 35, func(u float64) float64 {
			if u < 1 {
				return math.Max(17.5, w0*(1-u/2))
			}
			return 0.5 + 22.5*math.Exp2(u-1)
		}, 1 + math.Log2(35.5/22.5), 36.0 / 37, 1},
		{"bic@linux", bicSS, func(u float64) float64 { return math.Max(bicSS, w0*(1-u/2)) }, 1, 16, 1},
		{"reno@ns3", 20, func(u float64) float64 { return w0 - 20*u }, 1, 1, w0 / 20},
	} {
		t.Run(c.algo, func(t *testing.T) {
			tr := simRecTrace(t, c.algo, w0)
			if len(tr) < 20 {
				t.Fatalf("%d samples, want 25", len(tr))
			}
			for _, s := range tr {
				u := s.TS / simRecRTT
				switch {
				case u < c.resumeAt-1e-9:
					if want := c.path(u); math.Abs(s.CwndPkts-want) > 1e-9 {
						t.Errorf("t = %.4f RTT: window %.9f, want %.9f", u, s.CwndPkts, want)
					}
				default:
					exit := c.exit // the sample at the exit's instant is the window before its jump
					if u < c.resumeAt+1e-9 {
						exit = 0
					}
					if d, most := s.CwndPkts-c.ss-exit, c.growth*math.Max(u-c.resumeAt, 0)+1e-9; d < -1e-9 || d > most {
						t.Errorf("t = %.4f RTT: window %.9f, want the law's from ssthresh %.6f and %v at the exit, at most %.4f more",
							u, s.CwndPkts, c.ss, c.exit, most)
					}
				}
			}
		})
	}
}

// Through the recovery round trip a simulator's sender sends at the pace the ACKs of the
// window before the loss let it, not at its falling window's: rate halving sends one
// packet per two ACKs of the 40 in flight and PRR ssthresh/W = 1/2 per packet delivered,
// 20 packets a round trip from the first ACK on, where the window's pace would start at 40.
// BIC's fall stops at its ssthresh 31, 0.45 RTT in; from there it sends its window, 30.5
// packets in flight (the counted form's ⌊W⌋). Exact: the pace is a closed form.
func TestSimRecoverySendsAtItsPace(t *testing.T) {
	const w0, pkt = 40.0, 1460 * 8 / simRecRTT // bit/s per packet a round trip
	floorAt := 2 * (1 - math.Floor(w0*819/1024)/w0)
	for _, c := range []struct {
		algo string
		pace func(u float64) float64 // packets a round trip, u RTTs after the loss
	}{
		{"reno@linux", func(float64) float64 { return 20 }},
		{"reno@ns3", func(float64) float64 { return 20 }},
		{"bic@linux", func(u float64) float64 {
			if u < floorAt {
				return 20
			}
			return math.Floor(w0*819/1024) - 0.5
		}},
	} {
		for _, s := range simRecTrace(t, c.algo, w0) {
			if u := s.TS / simRecRTT; u > 1e-9 && u < 1-1e-9 && math.Abs(u-floorAt) > 1e-9 {
				if got, want := s.RateBps/pkt, c.pace(u); math.Abs(got-want) > 1e-6 {
					t.Errorf("%s at %.3f RTT: sends %.6f packets a round trip, want %.6f", c.algo, u, got, want)
				}
			}
		}
	}
}

// The hybrid form keeps the textbook jump at the loss, whatever the recovery: to ssthresh,
// and with Linux's slow start through ssthresh (scalable@linux's ss_through) one packet
// above it, where the recovery's first ACK after it takes the event face.
func TestSimRecoveryHybridUnchanged(t *testing.T) {
	sc := &model.Scenario{
		Name:  "simrecovery",
		Links: []model.Link{simRecPath()},
		Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
		Flows: []model.Flow{{Name: "f", Algorithm: "scalable@linux", Path: "p0", MSSBytes: 1460, WindowScaling: true,
			InitialCwnd: 40, InitialSsthresh: 40}},
		DurationS: simRecRTT,
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := fluid.Run(context.Background(), sc, fluid.Settings{InjectLoss: []int{0}, SampleS: simRecRTT / 8})
	if err != nil {
		t.Fatal(err)
	}
	if w := res.Trace[0].CwndPkts; w != 36 {
		t.Errorf("hybrid window %v just after the loss, want ssthresh 35 + 1", w)
	}
}

// A RecoveryPRR sender (newreno@ns3) whose retransmission is lost waits for its timer:
// at random loss p each hole's retransmission is lost with probability p, and a recovery
// has one hole plus p per packet sent in it (about ssthresh, 6 packets at p = 1e-2), so
// between p and 1.1·p of the recoveries time out; the band adds 3 binomial standard
// deviations over n recoveries. A RecoveryLinux* sender (newreno@linux) finds a lost
// retransmission by its SACKs: no timeout.
func TestSimRecoveryLostRetransmission(t *testing.T) {
	const p, n = 1e-2, 4000
	for _, c := range []struct {
		algo    string
		lo, hi  float64 // timeouts per recovery
		binomSD float64
	}{
		{"newreno@ns3", p, 1.1 * p, math.Sqrt(p * (1 - p) / n)},
		{"newreno@linux", 0, 0, 0},
	} {
		t.Run(c.algo, func(t *testing.T) {
			sc, err := response.PointScenario(c.algo, nil, 0.1, 1460)
			if err != nil {
				t.Fatal(err)
			}
			sc.Links[0].Loss, sc.Links[0].LossP = model.LossRandom, p
			sc.DurationS = n * 0.1 / p * 4
			res, err := fluid.Run(context.Background(), sc, fluid.Settings{Form: fluid.FormHybridRecovery, Seed: 1, StopAfterLosses: n})
			if err != nil {
				t.Fatal(err)
			}
			fr := res.Flows[0]
			recoveries := float64(fr.LossEvents - fr.Timeouts) // a timeout is a loss event of its own
			got := float64(fr.Timeouts) / recoveries
			t.Logf("%d timeouts in %.0f recoveries: %.4f per recovery", fr.Timeouts, recoveries, got)
			if lo, hi := c.lo-3*c.binomSD, c.hi+3*c.binomSD; got < lo || got > hi {
				t.Errorf("%.4f timeouts per recovery, want %.4f to %.4f", got, lo, hi)
			}
		})
	}
}

// A loss found while the sender slow-starts back to ssthresh after a RecoveryLinuxMinCwnd
// recovery reduces from the window that slow start has reached, as Linux's ssthresh()
// reads snd_cwnd: scalable@linux from 40 packets restarts at 23 after the first loss
// (ssthresh 35) and doubles back towards 35; periodic loss puts the second loss 28
// packets after the first, 1.3 RTT on, in that slow start, at w ≈ 25–30: ssthresh
// ⌊w⌋ − ⌊w⌋>>3, not 35 − 35>>3 = 31.
func TestSimRecoveryLossInSlowStartBack(t *testing.T) {
	sc := &model.Scenario{
		Name: "simrecovery-rebuild",
		Links: []model.Link{{Name: "l0", CapacityBps: 1e12, DelayS: simRecRTT / 2, BufferPkts: 1e6,
			Loss: model.LossPeriodic, LossP: 1.0 / 28}},
		Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
		Flows: []model.Flow{{Name: "f", Algorithm: "scalable@linux", Path: "p0", MSSBytes: 1460, WindowScaling: true,
			InitialCwnd: 40, InitialSsthresh: 40}},
		DurationS: 3 * simRecRTT,
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := fluid.Run(context.Background(), sc, fluid.Settings{Form: fluid.FormHybridRecovery, InjectLoss: []int{0},
		RecordLosses: true, SampleS: simRecRTT / 64, RelTol: 1e-10, AbsTol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Losses) < 2 {
		t.Fatalf("%d loss events, want 2", len(res.Losses))
	}
	second := res.Losses[1]
	u := second.TS / simRecRTT
	if !(u > 1 && u < 1+math.Log2(34.5/22.5)) || !(second.CwndPkts < 35) {
		t.Fatalf("second loss at %.3f RTT, window %.3f: want it in the slow start back to 35 (1 to %.3f RTT)", u, second.CwndPkts, 1+math.Log2(34.5/22.5))
	}
	w := math.Floor(second.CwndPkts)
	want := w - math.Floor(w/8)
	for _, s := range res.Trace {
		if s.Flow == 0 && s.TS > second.TS {
			if s.Ssthresh != want {
				t.Errorf("ssthresh %v after a loss at window %.3f, want %v", s.Ssthresh, second.CwndPkts, want)
			}
			return
		}
	}
	t.Errorf("no sample after the second loss at %v s", second.TS)
}
