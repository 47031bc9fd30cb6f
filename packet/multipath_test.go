package packet

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// twoPaths is a validated scenario of identical paths "a" and "b", one link each (10 Gb/s,
// so serialization never shapes the ACK clock, 50 ms one way, a buffer that never fills,
// periodic loss p), carrying the given flows.
func twoPaths(t testing.TB, p, durationS float64, flows ...model.Flow) *model.Scenario {
	t.Helper()
	s := &model.Scenario{Name: t.Name(), DurationS: durationS, Flows: flows}
	for _, name := range []string{"a", "b"} {
		s.Links = append(s.Links, model.Link{Name: name, CapacityBps: 10e9, DelayS: 0.05, BufferPkts: 1e6, Loss: model.LossPeriodic, LossP: p})
		s.Paths = append(s.Paths, model.Path{Name: name, Links: []string{name}})
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// RFC 6356's goals on two identical paths with periodic loss p: with equal windows LIA's
// α is 1/2, each subflow grows 1/4 packet per RTT and halves once per 1/p of its packets,
// so its sawtooth peaks at W_m = sqrt(2/(3p)) and the flow's mean window is
// 2·(3/4)·W_m = sqrt(3/(2p)), one Reno flow's on one path (goal 1: no worse than the best
// path; goal 2: no more than one flow's share of a shared bottleneck). The subflows halve
// at different times, and LIA's increase follows max_k W_k: for two sawtooths out of
// phase E[max]/E[W] = (5/6)/(3/4) = 1.11, so the flow grows up to 11% faster than with
// equal windows and its mean window is up to sqrt(1.11) = 5.4% above Reno's. The engine
// must give the two-path LIA flow between Reno's throughput on path a and 5.4% more, the
// two subflows within 5% of each other (the paths are the same), and one result row per
// subflow named "name/k" on its path.
func TestMultipathLIAIsOneRenoOnIdenticalPaths(t *testing.T) {
	const p = 1e-3
	mp := twoPaths(t, p, 600, model.Flow{Name: "mp", Algorithm: "lia", Paths: []string{"a", "b"}, WindowScaling: true})
	single := twoPaths(t, p, 600, model.Flow{Name: "reno", Algorithm: "reno", Path: "a", WindowScaling: true})
	rm, err := Run(context.Background(), mp, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Run(context.Background(), single, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rm.Flows) != 2 {
		t.Fatalf("%d rows, want one per subflow", len(rm.Flows))
	}
	var total float64
	for k, f := range rm.Flows {
		if f.Flow != 0 || f.Subflow != k || f.Name != fmt.Sprintf("mp/%d", k) || f.Path != []string{"a", "b"}[k] {
			t.Errorf("row %d: flow %d subflow %d name %q path %q, want 0, %d, mp/%d, %s", k, f.Flow, f.Subflow, f.Name, f.Path, k, k, []string{"a", "b"}[k])
		}
		total += f.GoodputBps
	}
	reno := rs.Flows[0].GoodputBps
	t.Logf("LIA subflows %.4g + %.4g = %.4g bit/s, Reno %.4g bit/s (W̄ %.2f, sqrt(3/(2p)) = %.2f)", rm.Flows[0].GoodputBps, rm.Flows[1].GoodputBps,
		total, reno, rs.Flows[0].MeanCwndPkts, math.Sqrt(1.5/p))
	if r := total / reno; r < 1 || r > math.Sqrt((5.0/6)/(3.0/4)) {
		t.Errorf("LIA over two paths %.4g bit/s, Reno on one %.4g: ratio %.4f, want in [1, %.4f]", total, reno, r, math.Sqrt((5.0/6)/(3.0/4)))
	}
	if e := relErr(rm.Flows[0].GoodputBps, rm.Flows[1].GoodputBps); e > 0.05 {
		t.Errorf("subflows %.4g and %.4g bit/s on identical paths: %.2f%% apart, want within 5%%", rm.Flows[0].GoodputBps, rm.Flows[1].GoodputBps, 100*e)
	}
}

// Subflows are separate senders around one law: a loss on path a halves subflow 0's
// window and leaves subflow 1's alone, subflow 1 (on a lossless path) never has a loss
// event, and each has its own sequence space (packets sent on b never count on a).
func TestMultipathSubflowStateIndependent(t *testing.T) {
	s := twoPaths(t, 1e-3, 60, model.Flow{Name: "mp", Algorithm: "lia", Paths: []string{"a", "b"}, WindowScaling: true})
	s.Links[1].Loss, s.Links[1].LossP = model.LossNone, 0
	sm := mustSim(t, s, Settings{})
	ctx := context.Background()
	a, b := &sm.flows[0], &sm.flows[1]
	for checked := 0; checked < 5 && sm.q.len() > 0; {
		wa, wb, n := a.cwnd, b.cwnd, a.lossEvents
		if err := sm.run(ctx, math.Inf(1), 1); err != nil {
			t.Fatal(err)
		}
		if a.lossEvents == n {
			continue
		}
		checked++
		if b.cwnd != wb {
			t.Fatalf("t = %.4f s: subflow 0's loss moved subflow 1's window %v → %v", sm.now, wb, b.cwnd)
		}
		if want := math.Max(wa/2, 2); math.Abs(a.cwnd-want) > 1e-9 {
			t.Fatalf("t = %.4f s: subflow 0's window %v → %v at its loss, want %v", sm.now, wa, a.cwnd, want)
		}
	}
	if b.lossEvents != 0 || b.dropped != 0 {
		t.Errorf("subflow 1 on a lossless path: %d loss events, %d drops, want none", b.lossEvents, b.dropped)
	}
	if b.sent != b.maxSent {
		t.Errorf("subflow 1 on a lossless path sent %d packets for %d sequence numbers: it retransmitted subflow 0's losses", b.sent, b.maxSent)
	}
}

// A finite multi-path transfer: its data are shared, so the subflows' unique payload adds
// up to the size, both rows complete at the same time, and the flow finishes sooner than
// over one path.
func TestMultipathFiniteTransfer(t *testing.T) {
	const size = 5e6 + 123 // bytes: a short last packet
	mp := twoPaths(t, 1e-3, 100, model.Flow{Name: "mp", Algorithm: "lia", Paths: []string{"a", "b"}, WindowScaling: true, SizeBytes: size})
	one := twoPaths(t, 1e-3, 100, model.Flow{Name: "one", Algorithm: "lia", Path: "a", WindowScaling: true, SizeBytes: size})
	rm, err := Run(context.Background(), mp, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := Run(context.Background(), one, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var bytes float64
	for _, f := range rm.Flows {
		if f.CompletionTimeS == nil {
			t.Fatalf("%s did not complete", f.Name)
		}
		bytes += f.GoodputBps * f.ActiveS / 8
	}
	c0, c1, c := *rm.Flows[0].CompletionTimeS, *rm.Flows[1].CompletionTimeS, *ro.Flows[0].CompletionTimeS
	t.Logf("two paths: %.3f s (%.0f + %.0f packets), one path: %.3f s", c0, rm.Flows[0].SentPkts, rm.Flows[1].SentPkts, c)
	if math.Abs(bytes-size) > 1e-6*size {
		t.Errorf("unique payload delivered %v bytes, want %v", bytes, size)
	}
	if c0 != c1 {
		t.Errorf("completion %v and %v s, want the flow's, once", c0, c1)
	}
	if !(c0 < c) {
		t.Errorf("two paths complete at %v s, one at %v s: want sooner", c0, c)
	}
}
