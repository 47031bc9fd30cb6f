package meanfield

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tcpfluid/tcpfluid/model"
)

// TestClassKey: flows that differ in their names only are one class; any other field
// of model.Flow, read by the form or not, makes another class. A stop at the end is no
// stop, and an empty parameter set is none.
func TestClassKey(t *testing.T) {
	for _, c := range []struct {
		what   string
		change func(f *model.Flow)
		same   bool
	}{
		{"name", func(f *model.Flow) { f.Name = "other" }, true},
		{"stop at the end", func(f *model.Flow) { f.StopS = 10 }, true},
		{"empty params", func(f *model.Flow) { f.Params = map[string]float64{} }, true},
		{"algorithm", func(f *model.Flow) { f.Algorithm = "reno" }, false},
		{"variant", func(f *model.Flow) { f.Algorithm = "scalable@linux" }, false},
		{"params", func(f *model.Flow) { f.Params = map[string]float64{"b": 0.25} }, false},
		{"params as the defaults", func(f *model.Flow) { f.Params = map[string]float64{"b": 0.125} }, false},
		{"path", func(f *model.Flow) { f.Path = "q" }, false},
		{"start", func(f *model.Flow) { f.StartS = 1 }, false},
		{"stop", func(f *model.Flow) { f.StopS = 5 }, false},
		{"rwnd", func(f *model.Flow) { f.RwndBytes = 32000 }, false},
		{"window scaling", func(f *model.Flow) { f.WindowScaling = true }, false},
		{"initial cwnd", func(f *model.Flow) { f.InitialCwnd = 10 }, false},
		{"initial ssthresh", func(f *model.Flow) { f.InitialSsthresh = 20 }, false},
		{"delayed ack", func(f *model.Flow) { f.DelayedAck = true }, false},
		{"ecn", func(f *model.Flow) { f.ECN = true }, false},
		{"pacing", func(f *model.Flow) { f.Pacing = true }, false},
		{"route aware", func(f *model.Flow) { f.RouteAware = true }, false},
	} {
		sc := &model.Scenario{Name: "key", DurationS: 10,
			Links: []model.Link{{Name: "l", CapacityBps: 1e7, DelayS: 0.01, BufferPkts: 100}, {Name: "m", CapacityBps: 1e7, DelayS: 0.02, BufferPkts: 100}},
			Paths: []model.Path{{Name: "p", Links: []string{"l"}}, {Name: "q", Links: []string{"m"}}}}
		// Flow 1 is changed; flow 2 is flow 0 again, after it.
		for i := range 3 {
			sc.Flows = append(sc.Flows, model.Flow{Name: fmt.Sprintf("f%d", i), Algorithm: "scalable", Path: "p"})
		}
		c.change(&sc.Flows[1])
		if err := sc.Validate(); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		net, classOf, err := FromScenario(sc)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		want, flows := []int{0, 1, 0}, []float64{2, 1}
		if c.same {
			want, flows = []int{0, 0, 0}, []float64{3}
		}
		var got []float64
		for _, cl := range net.Classes {
			got = append(got, cl.Flows)
		}
		if !slices.Equal(classOf, want) || !slices.Equal(got, flows) {
			t.Errorf("%s: classes %v of %v flows, want %v of %v", c.what, classOf, got, want, flows)
		}
	}
}

// millionScenario is n Reno flows of 1000-byte packets split evenly over three paths of
// propagation RTTs 100, 200 and 300 ms (access links of 25, 75 and 125 ms one way into
// a 25 ms bottleneck), listed round-robin so that neighbours differ, on a drop-tail
// bottleneck of 10 Mb/s per flow and a buffer of one BDP of the shortest path.
func millionScenario(n int) *model.Scenario {
	c := 1e7 * float64(n)
	sc := &model.Scenario{Name: "million", DurationS: 100,
		Links: []model.Link{{Name: "bottleneck", CapacityBps: c, DelayS: 0.025, BufferPkts: c / 8000 * 0.1}}}
	for j, d := range []float64{0.025, 0.075, 0.125} {
		a := fmt.Sprintf("access%d", j)
		sc.Links = append(sc.Links, model.Link{Name: a, CapacityBps: 10 * c, DelayS: d, BufferPkts: c / 8000})
		sc.Paths = append(sc.Paths, model.Path{Name: fmt.Sprintf("p%d", j), Links: []string{a, "bottleneck"}})
	}
	sc.Flows = make([]model.Flow, n)
	for i := range sc.Flows {
		sc.Flows[i] = model.Flow{Algorithm: "reno", Path: fmt.Sprintf("p%d", i%3), MSSBytes: 1000, WindowScaling: true}
	}
	return sc
}

// TestGroupingMillion: 10⁶ flows in three classes interleaved group into three classes
// in one pass whose cost is linear in the flows: ten times the flows of a 10⁵-flow grouping
// take under 30 times as long (a quadratic pass would take 100 times; a ratio, unlike a
// wall time, holds on a loaded machine and under the race detector).
func TestGroupingMillion(t *testing.T) {
	small := millionScenario(100_000)
	if err := small.Validate(); err != nil {
		t.Fatal(err)
	}
	sc := millionScenario(1_000_000)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	// Each size's time is its fastest of three groupings, each after a collection, so a
	// preemption or another test's garbage cannot stretch one side of the ratio.
	var net *Network
	var classOf []int
	fastest := func(sc *model.Scenario) time.Duration {
		best := time.Duration(math.MaxInt64)
		for range 3 {
			runtime.GC()
			t0 := time.Now()
			n, c, err := FromScenario(sc)
			best = min(best, time.Since(t0))
			if err != nil {
				t.Fatal(err)
			}
			net, classOf = n, c
		}
		return best
	}
	el5 := fastest(small)
	el := fastest(sc)
	t.Logf("FromScenario of 10⁵ flows: %v, of 10⁶: %v", el5, el)
	if len(net.Classes) != 3 || net.Classes[0].Flows != 333334 || net.Classes[1].Flows != 333333 || net.Classes[2].Flows != 333333 ||
		classOf[999_999] != 0 || classOf[999_998] != 2 {
		t.Fatalf("%d classes, want 3 of 333334, 333333 and 333333 flows", len(net.Classes))
	}
	for j, want := range []float64{0.1, 0.2, 0.3} {
		if relErr(net.Classes[j].PropRTTS, want) > 1e-12 {
			t.Errorf("class %d: propagation RTT %v s, want %v s", j, net.Classes[j].PropRTTS, want)
		}
	}
	if el > 30*el5 {
		t.Errorf("FromScenario of 10⁶ flows took %v, of 10⁵ %v: %.0f times, want under 30 (linear)", el, el5, float64(el)/float64(el5))
	}
}
