package meanfield

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// hmtgScenario is the HMTG example as a scenario: 15 Mb/s of 500-byte packets, 0.1 s of
// one-way delay, 60 Reno flows.
func hmtgScenario(durationS float64) *model.Scenario {
	sc := &model.Scenario{Name: "hmtg", DurationS: durationS,
		Links: []model.Link{{Name: "bottleneck", CapacityBps: 15e6, DelayS: 0.1, BufferPkts: 2000, Queue: model.QueueRED, RED: *hmtgRED()}},
		Paths: []model.Path{{Name: "p", Links: []string{"bottleneck"}}}}
	for i := range int(hmtgN) {
		sc.Flows = append(sc.Flows, model.Flow{Name: fmt.Sprintf("f%d", i), Algorithm: "reno", Path: "p", MSSBytes: 500})
	}
	return sc
}

// TestRunScenario: a scenario of 60 identical flows is one class, and its result is the
// network's run reported per flow: windows and rates as Simulate's, throughput and
// deliveries consistent, the trace's running count ending at the total.
func TestRunScenario(t *testing.T) {
	sc := hmtgScenario(2000)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	net, classOf, err := FromScenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Classes) != 1 || net.Classes[0].Flows != hmtgN || classOf[59] != 0 || net.Links[0].CapacityPktsPerS != hmtgC || net.Classes[0].PropRTTS != hmtgTp {
		t.Fatalf("FromScenario: %d classes of %v flows, C = %v packets/s, Tp = %v s", len(net.Classes), net.Classes[0].Flows, net.Links[0].CapacityPktsPerS, net.Classes[0].PropRTTS)
	}
	res, err := RunScenario(context.Background(), sc, ScenarioSettings{SampleS: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Form != Form || res.Engine != "fluid" || len(res.Flows) != 60 || len(res.Links) != 1 {
		t.Fatalf("result: form %q engine %q, %d flows, %d links", res.Form, res.Engine, len(res.Flows), len(res.Links))
	}
	f := res.Flows[17]
	l := res.Links[0]
	t.Logf("flow 17: mean window %.4f packets, throughput %.1f bit/s, %d loss events, %.0f delivered; link: queue %.2f packets, utilisation %.5f, %.0f dropped",
		f.MeanCwndPkts, f.MeanThroughputBps, f.LossEvents, f.DeliveredPkts, l.MeanQueuePkts, l.Utilisation, l.DroppedPkts)
	// The whole run's means include the start-up; the fair share is C/N.
	if e := relErr(f.MeanThroughputBps, hmtgC/hmtgN*500*8); e > 0.02 {
		t.Errorf("throughput %g bit/s, want within 2%% of the fair share %g", f.MeanThroughputBps, hmtgC/hmtgN*500*8)
	}
	if e := relErr(hmtgN*f.DroppedPkts, l.DroppedPkts); e > 1e-3 {
		t.Errorf("flows lost %g packets in all, the link dropped %g", hmtgN*f.DroppedPkts, l.DroppedPkts)
	}
	if f.ActiveS != 2000 || f.Timeouts != 0 || f.CompletionTimeS != nil || f.LossEvents != int(math.Round(f.DroppedPkts)) {
		t.Errorf("flow fields: active %v s, timeouts %d, completion %v, loss events %d (dropped %g)", f.ActiveS, f.Timeouts, f.CompletionTimeS, f.LossEvents, f.DroppedPkts)
	}
	var last model.Sample
	rows := 0
	for _, s := range res.Trace {
		if s.Flow == 17 {
			if s.DeliveredPkts < last.DeliveredPkts {
				t.Fatalf("t = %v s: delivered count fell from %v to %v", s.TS, last.DeliveredPkts, s.DeliveredPkts)
			}
			last = s
			rows++
		}
	}
	if rows != 41 || last.TS != 2000 || relErr(last.DeliveredPkts, f.DeliveredPkts) > 1e-9 {
		t.Errorf("trace: %d rows of flow 17, last at %v s with %v delivered; want 41, 2000 s, %v", rows, last.TS, last.DeliveredPkts, f.DeliveredPkts)
	}
	if e := relErr(last.RateBps, hmtgC/hmtgN*500*8); e > 1e-3 {
		t.Errorf("trace rate at the end %g bit/s, want the fair share", last.RateBps)
	}
}

// TestScenarioErrors: settings and the step limit report as the engines' errors.
func TestScenarioErrors(t *testing.T) {
	sc := hmtgScenario(100)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := RunScenario(context.Background(), sc, ScenarioSettings{SampleS: -1}); !errors.Is(err, model.ErrScenario) {
		t.Errorf("negative sample interval: %v, want model.ErrScenario", err)
	}
	if _, err := RunScenario(context.Background(), sc, ScenarioSettings{MaxSteps: 5}); !errors.Is(err, model.ErrEngine) {
		t.Errorf("step limit: %v, want model.ErrEngine", err)
	}
}

// TestFromScenarioRefuses: what the mean-field form cannot express is refused, naming
// the field.
func TestFromScenarioRefuses(t *testing.T) {
	for _, c := range []struct {
		want   string
		change func(sc *model.Scenario)
	}{
		{"cbr", func(sc *model.Scenario) {
			sc.CBR = []model.CBR{{Name: "u", Path: "p", RateBps: 1e6}}
		}},
		{"events", func(sc *model.Scenario) {
			sc.Events = []model.TimedEvent{{AtS: 1, Kind: model.EventLinkDown, Link: "bottleneck"}}
		}},
		{"flows[3].size", func(sc *model.Scenario) { sc.Flows[3].SizeBytes = 1e6 }},
		{"flows[2]: packets of", func(sc *model.Scenario) { sc.Flows[2].MSSBytes = 1000 }},
		{"not a memoryless window rule", func(sc *model.Scenario) { sc.Flows[1].Algorithm = "cubic" }},
		{"links[0].queue: the codel queue", func(sc *model.Scenario) {
			sc.Links[0].Queue, sc.Links[0].RED = model.QueueCoDel, model.RED{}
		}},
		{"links[0].ecn: ECN marking", func(sc *model.Scenario) { sc.Links[0].ECN = true }},
	} {
		sc := hmtgScenario(10)
		c.change(sc)
		if err := sc.Validate(); err != nil {
			t.Fatalf("%s: %v", c.want, err)
		}
		_, _, err := FromScenario(sc)
		if err == nil || !strings.Contains(err.Error(), c.want) || !(errors.Is(err, model.ErrScenario) || errors.Is(err, ErrNoMeanField)) {
			t.Errorf("%s: %v, want a scenario or no-mean-field error naming it", c.want, err)
		}
	}
}

// TestRounds: a run's round trips are its classes', each over its active time: 60 flows
// on the 200 ms path for 100 s, and 10 on a 400 ms path from 20 s to 60 s.
func TestRounds(t *testing.T) {
	sc := hmtgScenario(100)
	sc.Links = append(sc.Links, model.Link{Name: "far", CapacityBps: 1e8, DelayS: 0.1, BufferPkts: 1000})
	sc.Paths = append(sc.Paths, model.Path{Name: "long", Links: []string{"far", "bottleneck"}})
	for range 10 {
		sc.Flows = append(sc.Flows, model.Flow{Algorithm: "reno", Path: "long", MSSBytes: 500, StartS: 20, StopS: 60})
	}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	got, err := Rounds(sc)
	if want := 100/0.2 + 40/0.4; err != nil || relErr(got, want) > 1e-12 {
		t.Errorf("Rounds = %v, %v; want %v", got, err, want)
	}
	sc.Flows[0].Algorithm = "cubic"
	if _, err := Rounds(sc); !errors.Is(err, ErrNoMeanField) {
		t.Errorf("Rounds of a CUBIC flow: %v, want ErrNoMeanField", err)
	}
}
