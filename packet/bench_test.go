package packet

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tcpfluid/tcpfluid/model"
)

// benchScenario is a busy dumbbell: four Reno flows with staggered starts through a
// 100 Mb/s, 20 ms bottleneck with a 1-BDP drop-tail buffer, behind 1 Gb/s access links,
// and a CBR source; long enough never to end during a benchmark.
func benchScenario(tb testing.TB) *model.Scenario {
	tb.Helper()
	s := &model.Scenario{
		Name:      "bench",
		DurationS: 1e7,
		Links: []model.Link{
			{Name: "access", CapacityBps: 1e9, DelayS: 0.001, BufferPkts: 1000},
			{Name: "bottleneck", CapacityBps: 100e6, DelayS: 0.009, BufferBDP: 1},
		},
		Paths: []model.Path{{Name: "p", Links: []string{"access", "bottleneck"}}},
		CBR:   []model.CBR{{Name: "udp", Path: "p", RateBps: 5e6}},
	}
	for i := range 4 {
		s.Flows = append(s.Flows, model.Flow{Algorithm: "reno", Path: "p", StartS: float64(i), WindowScaling: true})
	}
	if err := s.Validate(); err != nil {
		tb.Fatal(err)
	}
	return s
}

// mptcpScenario is benchScenario's dumbbell with a second bottleneck path, and an LIA
// flow over both besides the Reno flows.
func mptcpScenario(tb testing.TB) *model.Scenario {
	tb.Helper()
	s := benchScenario(tb)
	s.Links = append(s.Links, model.Link{Name: "second", CapacityBps: 50e6, DelayS: 0.02, BufferPkts: 200})
	s.Paths = append(s.Paths, model.Path{Name: "q", Links: []string{"access", "second"}})
	s.Flows = append(s.Flows, model.Flow{Name: "mp", Algorithm: "lia", Paths: []string{"p", "q"}, WindowScaling: true})
	if err := s.Validate(); err != nil {
		tb.Fatal(err)
	}
	return s
}

// warmSim returns a simulation past its start-up, with its queues and slabs grown.
func warmSim(tb testing.TB) *sim {
	tb.Helper()
	return warm(tb, benchScenario(tb), Settings{})
}

func warm(tb testing.TB, s *model.Scenario, set Settings) *sim {
	tb.Helper()
	sm, err := newSim(s, set)
	if err != nil {
		tb.Fatal(err)
	}
	if err := sm.run(context.Background(), 30, math.MaxInt); err != nil {
		tb.Fatal(err)
	}
	return sm
}

func BenchmarkEvents(b *testing.B) {
	sm := warmSim(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	if err := sm.run(ctx, math.Inf(1), b.N); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
}

// Steady-state event processing allocates nothing: packets, events, timers, SACK
// scoreboards and a multi-path law's observation live in slices that stopped growing
// during the warm-up.
func TestSteadyStateAllocs(t *testing.T) {
	for _, c := range []struct {
		name string
		s    *model.Scenario
		set  Settings
	}{
		{"reno", benchScenario(t), Settings{}},
		{"reno-sack-jitter", benchScenario(t), Settings{SACK: true, JitterS: 1e-4}},
		{"lia", mptcpScenario(t), Settings{}},
		{"lia-sack", mptcpScenario(t), Settings{SACK: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sm := warm(t, c.s, c.set)
			ctx := context.Background()
			allocs := testing.AllocsPerRun(20, func() {
				if err := sm.run(ctx, math.Inf(1), 10000); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per 10000 events, want 0", allocs)
			}
		})
	}
}
