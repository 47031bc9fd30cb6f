package packet

import (
	"context"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// recStart is the window (and ssthresh) the scoreboard tests start from, packets: the
// flow is in congestion avoidance from its first ACK, 21–22 packets when the loss comes.
const recStart = 20

// recDriver steps one flow of a simulator recovery one event at a time on a 10 Gb/s link
// of 50 ms that never queues. Its random loss is so rare (1e-12 per packet) that nothing
// is lost unless the test arms a drop: the next data packet to enter the link is lost.
type recDriver struct {
	t     *testing.T
	sm    *sim
	f     *tcpFlow
	steps int
	rate  float64 // the link's random-loss rate while loseAll is on
}

func newRecDriver(t *testing.T, algo string) *recDriver {
	t.Helper()
	link := fastLink
	link.Loss, link.LossP = model.LossRandom, 1e-12
	s := oneLink(t, link, model.Flow{Algorithm: algo, WindowScaling: true, RwndBytes: 1e9,
		InitialCwnd: recStart, InitialSsthresh: recStart}, 30)
	sm := mustSim(t, s, Settings{})
	d := &recDriver{t: t, sm: sm, f: &sm.flows[0]}
	if d.f.rec == nil {
		t.Fatalf("%s: no simulator recovery", algo)
	}
	return d
}

// dropNext loses the next data packet that enters the link.
func (d *recDriver) dropNext() { d.sm.links[0].randomLeft[0] = 1 }

// step runs one event.
func (d *recDriver) step() {
	d.t.Helper()
	if d.sm.q.len() == 0 || d.sm.q.heap[0].t > d.sm.end {
		d.t.Fatalf("the run ended at %v s", d.sm.now)
	}
	if err := d.sm.run(context.Background(), d.sm.end, 1); err != nil {
		d.t.Fatal(err)
	}
	d.steps++
}

// until steps until cond holds, at most limit simulated seconds from now.
func (d *recDriver) until(limitS float64, cond func() bool) {
	d.t.Helper()
	end := d.sm.now + limitS
	for !cond() {
		if d.sm.now > end {
			d.t.Fatalf("not reached within %v s (t = %v s)", limitS, d.sm.now)
		}
		d.step()
	}
}

// retransmissions is the number of packets sent more than once so far.
func (d *recDriver) retransmissions() int64 { return d.f.sent - d.f.maxSent }

// episode is what a test sees of one recovery: the flow's state before the event that
// started it, just after that event, at the last event in recovery and after the exit.
type episode struct {
	lawCwnd, dupacks float64 // the law's window before the entry; duplicate ACKs at it
	ssthresh         float64 // the law's ssthresh after the entry
	newInRecovery    int64   // new packets sent in recovery
	endPipe          int64   // the pipe at the last event in recovery
	prrOut           float64 // RecoveryPRR at the last event in recovery
	minWin, exitWin  float64 // the smallest window in recovery; the window after the exit
	lossEvents, rtx  int64   // after the exit
}

// recover runs until the flow has entered and left one recovery.
func (d *recDriver) recover() episode {
	d.t.Helper()
	f, r := d.f, d.f.rec
	var e episode
	e.minWin = math.Inf(1)
	d.until(5, func() bool {
		if !f.inRecovery {
			e.lawCwnd = f.conn.law.Cwnd()
		}
		return f.inRecovery
	})
	e.dupacks, e.ssthresh = float64(f.dupacks), f.conn.law.Ssthresh()
	sent0 := f.maxSent - 1 // the entry sends the retransmission, and no new data yet under either style
	d.until(5, func() bool {
		if f.inRecovery {
			e.minWin = math.Min(e.minWin, f.cwnd)
			e.newInRecovery, e.endPipe = f.maxSent-sent0-1, f.recPipe()
			e.prrOut = r.prrOut
		}
		return !f.inRecovery
	})
	e.exitWin, e.lossEvents, e.rtx = f.cwnd, int64(f.lossEvents), d.retransmissions()
	return e
}

// One loss in a window of W packets (W = 30 here), the packets after it each SACKed by a
// duplicate ACK, and each of those freeing a place in the pipe for a new packet until the
// loss is found. RecoveryLinuxMinCwnd (reno@linux) finds it when the fourth packet above it
// is SACKed (ns-2's lost_seq_threshold: FACK with dupack_threshold 3), sets ssthresh =
// ⌊W/2⌋ (tcp_reno_ssthresh) and rate-halves: the W − 2 ACKs that follow the entry (W + 3
// outstanding, four SACKed, one lost) send one new packet per two, ⌊(W − 2)/2⌋, so that
// the pipe is W/2 when the retransmission's ACK ends the recovery; the window never falls
// below ⌊ssthresh/2⌋ (min_cwnd), and after the recovery it is the law's again within a
// round trip. RecoveryPRR (reno@ns3) finds it at the third (RFC 6675 DupThresh), ssthresh
// = W/2 (TcpLinuxReno) and sends in proportion to what is delivered while the pipe is
// above ssthresh, then one for one (RFC 6937 with the slow-start reduction bound), so that
// the window falls smoothly to ssthresh and the pipe is ssthresh when the recovery ends;
// then cwnd = ssthresh. Both: one loss event, one retransmission, no timeout.
func TestRecoverySingleLoss(t *testing.T) {
	for _, c := range []struct {
		algo    string
		dupacks float64
	}{
		{"reno@linux", linuxReorder},
		{"reno@ns3", prrReorder},
	} {
		t.Run(c.algo, func(t *testing.T) {
			d := newRecDriver(t, c.algo)
			d.until(2, func() bool { return d.sm.now >= 1 })
			d.dropNext()
			e := d.recover()
			w := math.Floor(e.lawCwnd)
			t.Logf("%s: W %.3f, entry at %v duplicate ACKs, ssthresh %v, %d new packets in recovery, pipe %d at its end, window min %.3f, after %.3f",
				c.algo, e.lawCwnd, e.dupacks, e.ssthresh, e.newInRecovery, e.endPipe, e.minWin, e.exitWin)
			if e.dupacks != c.dupacks {
				t.Errorf("recovery entered at %v duplicate ACKs, want %v", e.dupacks, c.dupacks)
			}
			if e.lossEvents != 1 || e.rtx != 1 || d.f.timeouts != 0 {
				t.Errorf("%d loss events, %d retransmissions, %d timeouts; want 1, 1, 0", e.lossEvents, e.rtx, d.f.timeouts)
			}
			if c.algo == "reno@linux" {
				if want := math.Floor(w / 2); e.ssthresh != want {
					t.Errorf("ssthresh %v, want ⌊%v/2⌋ = %v", e.ssthresh, w, want)
				}
				if want := int64(math.Floor((w - 2) / 2)); e.newInRecovery != want {
					t.Errorf("%d new packets sent in recovery, want ⌊(W − 2)/2⌋ = %d", e.newInRecovery, want)
				}
				if want := int64(w / 2); e.endPipe != want {
					t.Errorf("pipe %d at the end of recovery, want W/2 = %d", e.endPipe, want)
				}
				if lo := math.Floor(e.ssthresh / 2); e.minWin < lo {
					t.Errorf("window fell to %v in recovery, want at least ⌊ssthresh/2⌋ = %v", e.minWin, lo)
				}
				d.until(d.f.est.SRTT, func() bool { return !d.f.rec.override })
			} else {
				if want := e.lawCwnd / 2; math.Abs(e.ssthresh-want) > 1e-9 {
					t.Errorf("ssthresh %v, want W/2 = %v", e.ssthresh, want)
				}
				if e.prrOut != float64(e.newInRecovery+1) {
					t.Errorf("prr_out %v, want the %d packets sent in recovery", e.prrOut, e.newInRecovery+1)
				}
				if e.minWin < e.ssthresh {
					t.Errorf("window fell to %v in recovery, want no lower than ssthresh %v with one loss (RFC 6937)", e.minWin, e.ssthresh)
				}
				if want := int64(e.ssthresh); e.endPipe != want {
					t.Errorf("pipe %d at the end of recovery, want ssthresh %d", e.endPipe, want)
				}
				if e.exitWin < e.ssthresh {
					t.Errorf("window %v after recovery, want ssthresh %v or more", e.exitWin, e.ssthresh)
				}
			}
			if law := d.f.conn.law.Cwnd(); d.f.cwnd != law {
				t.Errorf("window %v after the recovery, want the law's %v", d.f.cwnd, law)
			}
		})
	}
}

// Two losses five packets apart in one window are one loss event: one reduction, both
// holes retransmitted once in the same recovery, no timeout (SACK repairs every hole of a
// window in one round trip, in both styles).
func TestRecoveryTwoLossesOneWindow(t *testing.T) {
	for _, algo := range []string{"reno@linux", "newreno@ns3"} {
		t.Run(algo, func(t *testing.T) {
			d := newRecDriver(t, algo)
			d.until(2, func() bool { return d.sm.now >= 1 })
			first := d.f.maxSent
			d.dropNext()
			d.until(1, func() bool { return d.f.maxSent == first+5 })
			d.dropNext()
			e := d.recover()
			if e.lossEvents != 1 || e.rtx != 2 || d.f.timeouts != 0 {
				t.Errorf("%d loss events, %d retransmissions, %d timeouts; want 1, 2, 0", e.lossEvents, e.rtx, d.f.timeouts)
			}
			if algo == "reno@linux" {
				if want := math.Floor(math.Floor(e.lawCwnd) / 2); e.ssthresh != want {
					t.Errorf("ssthresh %v, want %v: one halving", e.ssthresh, want)
				}
			}
		})
	}
}

// entryStep is the number of events after which a flow that loses the packet it sends
// after 1 s has entered recovery: the event whose ACK starts it, and with it the
// retransmission, which is the first packet that event sends.
func entryStep(t *testing.T, algo string) int {
	d := newRecDriver(t, algo)
	d.until(2, func() bool { return d.sm.now >= 1 })
	d.dropNext()
	d.until(5, func() bool { return d.f.inRecovery })
	return d.steps
}

// A lost retransmission. RecoveryLinuxMinCwnd finds it when a packet sent after it is
// SACKed (ns-2 ScoreBoard1: the retransmission's snd_nxt at or below fack_) and sends it
// again within the same recovery: no timeout, one loss event, two retransmissions.
// RecoveryPRR has no such rule (ns-3.37): the timer, which a retransmission does not
// restart (TcpSocketBase::SendDataPacket arms it only when it is not running), fires
// ns-3's MinRto of 1 s after the last ACK of new data.
func TestRecoveryLostRetransmission(t *testing.T) {
	for _, algo := range []string{"reno@linux", "reno@ns3"} {
		t.Run(algo, func(t *testing.T) {
			n := entryStep(t, algo)
			d := newRecDriver(t, algo)
			d.until(2, func() bool { return d.sm.now >= 1 })
			d.dropNext()
			una, newAckAt := d.f.sndUna, d.sm.now
			d.until(5, func() bool {
				if d.f.sndUna != una {
					una, newAckAt = d.f.sndUna, d.sm.now
				}
				return d.steps == n-1
			})
			d.dropNext()
			d.step()
			if !d.f.inRecovery || d.retransmissions() != 1 {
				t.Fatalf("step %d: in recovery %v with %d retransmissions, want the entry and its retransmission", n, d.f.inRecovery, d.retransmissions())
			}
			rtxAt := d.sm.now
			if algo == "reno@linux" {
				d.until(5, func() bool { return !d.f.inRecovery })
				if d.f.lossEvents != 1 || d.retransmissions() != 2 || d.f.timeouts != 0 {
					t.Errorf("%d loss events, %d retransmissions, %d timeouts; want 1, 2, 0", d.f.lossEvents, d.retransmissions(), d.f.timeouts)
				}
				if dt := d.sm.now - rtxAt; dt > 2.5*d.f.est.SRTT {
					t.Errorf("recovered %.3f s after the retransmission, want within about two round trips (%.3f s)", dt, 2*d.f.est.SRTT)
				}
				return
			}
			d.until(5, func() bool { return d.f.timeouts > 0 })
			if dt := d.sm.now - newAckAt; math.Abs(dt-ns3MinRTOS) > 1e-9 {
				t.Errorf("timed out %.4f s after the last new ACK, want ns-3's MinRto %v s", dt, ns3MinRTOS)
			}
			if d.f.lossEvents != 2 {
				t.Errorf("%d loss events, want the recovery and the timeout", d.f.lossEvents)
			}
		})
	}
}

// A recovery that outlasts a lost retransmission (A's, sent at the entry) finds in it the
// loss of the first new packet it sent (B, above the recovery point) and resends B; the
// ACK of A's second copy ends the recovery while B's copy is still in flight. ns-2 clears
// its scoreboard there (ScoreBoard1::ClearScoreBoard in tcp_fastretrans_alert), so the
// next ACK whose SACKs pass B by four finds B lost again: a second loss event, a second
// reduction, and no timeout (on this unqueued link B's copy arrives before the halved
// window lets a third leave). Keeping the mark, the sender had one loss event.
func TestRecoveryExitClearsScoreboard(t *testing.T) {
	const algo = "reno@linux"
	n := entryStep(t, algo)
	d := newRecDriver(t, algo)
	d.until(2, func() bool { return d.sm.now >= 1 })
	d.dropNext()
	d.until(5, func() bool { return d.steps == n-1 })
	d.dropNext() // A's retransmission
	d.step()
	if !d.f.inRecovery || d.retransmissions() != 1 {
		t.Fatalf("step %d: in recovery %v with %d retransmissions, want the entry and its retransmission", n, d.f.inRecovery, d.retransmissions())
	}
	recover, b := d.f.recover, d.f.maxSent
	d.dropNext() // B, the first new packet sent in the recovery
	d.until(5, func() bool { return d.f.maxSent > b })
	d.until(5, func() bool { return !d.f.inRecovery })
	if b < recover || d.f.lossEvents != 1 || d.retransmissions() != 3 || d.f.sndUna != b {
		t.Fatalf("at the end of the recovery: B %d (recovery point %d), %d loss events, %d retransmissions, snd.una %d; want B above it, 1, 3 (A twice, B), B not yet delivered",
			b, recover, d.f.lossEvents, d.retransmissions(), d.f.sndUna)
	}
	ss := d.f.conn.law.Ssthresh()
	d.until(5, func() bool { return d.f.sndUna > b && !d.f.inRecovery })
	if d.f.lossEvents != 2 || d.f.timeouts != 0 || !(d.f.conn.law.Ssthresh() < ss) {
		t.Errorf("%d loss events, %d timeouts, ssthresh %v after %v; want 2, 0 and a second reduction", d.f.lossEvents, d.f.timeouts, d.f.conn.law.Ssthresh(), ss)
	}
}

// loseAll loses (on) every data packet that enters the link from now on, or (off) none
// but the test's drops again.
func (d *recDriver) loseAll(on bool) {
	l := &d.sm.links[0]
	if on {
		d.rate, l.randomRate, l.randomLeft[0] = l.randomRate, math.Inf(1), 1 // every gap one packet
		return
	}
	l.randomRate, l.randomLeft[0] = d.rate, 0
}

// Every packet of one round trip is lost (on this link a window leaves as one burst): no
// ACK comes back, there is no fast recovery, and the timer fires. The law restarts from one packet with ssthresh ⌊W/2⌋
// (reno@linux), every packet outstanding and not SACKed is marked lost (ns-2
// ScoreBoard1::MarkLoss) and each is resent once, in order, within the law's window; no
// fast recovery starts before snd.una passes the recovery point: one timeout and one
// loss event in all, and then the window is the law's.
func TestRecoveryTimeout(t *testing.T) {
	d := newRecDriver(t, "reno@linux")
	f := d.f
	// The window leaves in one burst at each round trip (at t ≈ 0.1·k s on this link):
	// lose the burst after 1 s.
	burstEnd := func(after float64) func() bool {
		return func() bool { return d.sm.now >= after && d.sm.q.heap[0].t > d.sm.now+0.01 }
	}
	d.until(2, burstEnd(1))
	d.loseAll(true)
	d.until(1, burstEnd(d.sm.now+0.09))
	d.loseAll(false)
	w := f.conn.law.Cwnd()
	if f.timeouts != 0 || f.lossEvents != 0 {
		t.Fatalf("%d timeouts, %d loss events while losing, want none yet", f.timeouts, f.lossEvents)
	}
	d.until(2, func() bool { return f.timeouts > 0 })
	lost := f.maxSent - f.sndUna - f.sackedN
	if got := f.rec.lostN + d.retransmissions(); got != lost || d.retransmissions() != 1 {
		t.Errorf("after the timeout %d marked lost and %d resent of %d outstanding and not SACKed, want them all, one resent",
			f.rec.lostN, d.retransmissions(), lost)
	}
	if c, ss := f.conn.law.Cwnd(), f.conn.law.Ssthresh(); c != 1 || ss != math.Floor(math.Floor(w)/2) {
		t.Errorf("law's window %v, ssthresh %v after the timeout at W = %v; want 1 and %v", c, ss, w, math.Floor(math.Floor(w)/2))
	}
	recover := f.recover
	d.until(5, func() bool { return f.sndUna >= recover })
	t.Logf("W %v: %d lost, recovered at %.3f s", w, lost, d.sm.now)
	if f.timeouts != 1 || f.lossEvents != 1 || f.inRecovery {
		t.Errorf("%d timeouts, %d loss events, in recovery %v; want 1, 1, false", f.timeouts, f.lossEvents, f.inRecovery)
	}
	if d.retransmissions() != lost {
		t.Errorf("%d packets resent, want the %d lost once each", d.retransmissions(), lost)
	}
	if f.cwnd != f.conn.law.Cwnd() {
		t.Errorf("window %v, want the law's %v", f.cwnd, f.conn.law.Cwnd())
	}
}

// After a RecoveryLinuxMinCwnd recovery whose ssthresh is above the pipe the rate halving
// left (Scalable's 7/8 of the window), the sender slow-starts from the pipe + 3 back to
// ssthresh while the law waits. A packet sent during the recovery and lost is found a
// round trip after it left, in that slow start; the loss reduces from the window the slow
// start has reached, as Linux's tcp_scalable_ssthresh reads snd_cwnd: ⌊w⌋ − ⌊w⌋>>3 of
// the slow start's w, not of the law's ssthresh (model.WindowReducer).
func TestRecoveryLossInSlowStartBack(t *testing.T) {
	d := newRecDriver(t, "scalable@linux")
	f, r := d.f, d.f.rec
	d.until(2, func() bool { return d.sm.now >= 1 })
	d.dropNext()
	d.until(5, func() bool { return f.inRecovery })
	ss := f.conn.law.Ssthresh()
	d.until(5, func() bool { return f.maxSent > f.recover+2 }) // new data goes out in recovery
	d.dropNext()
	d.until(5, func() bool { return !f.inRecovery })
	if !r.rebuild {
		t.Fatalf("window %v after a recovery to ssthresh %v: want a slow start back to it", f.cwnd, ss)
	}
	var w float64
	d.until(5, func() bool {
		if !f.inRecovery {
			if !r.rebuild {
				t.Fatalf("the slow start back ended at %v before the second loss was found", f.cwnd)
			}
			w = math.Floor(f.cwnd)
		}
		return f.inRecovery
	})
	want := w - math.Floor(w/8)
	if got := f.conn.law.Ssthresh(); got != want || !(w < ss) {
		t.Errorf("a loss found at window %v in the slow start back to ssthresh %v: ssthresh %v, want %v", w, ss, got, want)
	}
	if f.lossEvents != 2 {
		t.Errorf("%d loss events, want 2", f.lossEvents)
	}
}
