package response

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// The result states the experiment it ran, buffers resolved to packets: seed 000's
// dumbbell has a 2055-packet bottleneck buffer (100 Mb/s × 240 ms / 1460 bytes, rounded
// up) and 4110-packet 200 Mb/s links, every flow a 240 ms RTT; and what Scenario returns
// for a simulator is that same dumbbell.
func TestFairnessExperimentStated(t *testing.T) {
	s := FairnessSettings{Algorithms: []string{"reno"}, HeaderBytes: 50, SACK: true, StartGapS: 10}
	rep, err := Fairness(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	x := rep.Results[0].Experiment
	if x.BottleneckBufferPkts != 2055 || x.OutBufferPkts != 4110 || len(x.Flows) != 3 || x.Flows[2].StartS != 20 ||
		x.Flows[0].AccessBufferPkts != 4110 || math.Abs(x.Flows[0].RTTS-0.24) > 1e-12 {
		t.Errorf("experiment %+v", x)
	}
	if x.Engine != EngineFluid || x.HeaderBytes != 50 || !x.SACK || x.MSSBytes != 1460 || x.MeasureFromS != 500 || x.Seeds != nil || rep.Seeds != nil {
		t.Errorf("experiment engine %s, header %v, SACK %v, MSS %v, measured from %v, seeds %v (report %v)", x.Engine, x.HeaderBytes,
			x.SACK, x.MSSBytes, x.MeasureFromS, x.Seeds, rep.Seeds)
	}
	sc, err := s.Scenario("reno")
	if err != nil {
		t.Fatal(err)
	}
	if bn := sc.Links[sc.LinkIndex("bottleneck")]; bn.BufferPkts != 2055 || !sc.SACK || sc.Flows[0].HeaderBytes != 50 {
		t.Errorf("scenario: bottleneck buffer %v packets, SACK %v, header %v bytes", bn.BufferPkts, sc.SACK, sc.Flows[0].HeaderBytes)
	}
}

// Shares are of payload: a one-BDP buffer keeps the bottleneck busy, and with a 50-byte
// header on 1460-byte packets the flows' shares sum to 1460/1510 = 0.96689 of it (ns-2's
// utilisation in the stored set, 0.96689), against 1 without.
func TestFairnessHeaderBytes(t *testing.T) {
	for _, c := range []struct {
		header, want float64
	}{{0, 1}, {50, 1460.0 / 1510}} {
		rep, err := Fairness(context.Background(), FairnessSettings{Algorithms: []string{"reno"}, HeaderBytes: c.header, StartGapS: 10, SACK: true})
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, sh := range rep.Results[0].Shares {
			sum += sh.Fraction
		}
		within(t, fmt.Sprintf("payload share of the bottleneck with a %g-byte header", c.header), sum, c.want, 0.002)
	}
}

// Over several seeds the result carries each quantity's mean and spread: the fluid without
// random loss runs the same every seed (sd 0), the packet engine's send jitter makes the
// seeds differ; the means are what JainMean and ShareMeans report.
func TestFairnessSeeds(t *testing.T) {
	for _, c := range []struct {
		engine string
		jitter float64
		sd0    bool
	}{{EngineFluid, 0, true}, {EnginePacket, 240e-6, false}} {
		rep, err := Fairness(context.Background(), FairnessSettings{Algorithms: []string{"reno"}, Engine: c.engine, JitterS: c.jitter,
			Seeds: []uint64{1, 2}, DurationS: 60, MeasureFromS: 30, SACK: true})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Results[0]
		o := r.OverSeeds
		if o == nil || o.Jain.N != 2 || len(o.Shares) != 3 || len(rep.Seeds) != 2 || rep.Engine != c.engine {
			t.Fatalf("%s: over seeds %+v, report seeds %v, engine %s", c.engine, o, rep.Seeds, rep.Engine)
		}
		if (o.Jain.SD == 0) != c.sd0 || o.Jain.Min > r.Jain || o.Jain.Max < r.Jain || r.JainMean() != o.Jain.Mean {
			t.Errorf("%s: Jain %v over seeds %+v (the first seed's %v)", c.engine, r.JainMean(), o.Jain, r.Jain)
		}
		sum := 0.0
		for i, m := range r.ShareMeans() {
			if m != o.Shares[i].Mean {
				t.Errorf("%s: share %d mean %v, spread %+v", c.engine, i, m, o.Shares[i])
			}
			sum += m
		}
		// A packet delivered across the interval's edges counts whole: 1460 bytes in 30 s
		// at 100 Mb/s is 4·10^-6 of the bottleneck per flow.
		if sum > 1+1e-5 || sum < 0.9 {
			t.Errorf("%s: mean shares sum to %v", c.engine, sum)
		}
	}
}

// Bad settings are refused naming the field, the value and what is allowed.
func TestFairnessExperimentBadInput(t *testing.T) {
	for _, c := range []struct {
		s    FairnessSettings
		want string
	}{
		{FairnessSettings{HeaderBytes: -1}, "header -1 bytes, want a finite value >= 0"},
		{FairnessSettings{HeaderBytes: math.Inf(1)}, "header +Inf bytes"},
		{FairnessSettings{Engine: "ns2"}, `engine "ns2", want fluid or packet`},
		{FairnessSettings{JitterS: -1, Engine: EnginePacket}, "jitter -1 s, want a finite value >= 0"},
		{FairnessSettings{JitterS: 1e-3}, "jitter 0.001 s with engine fluid"},
		{FairnessSettings{Form: "meanfield"}, `form "meanfield", want hybrid or hybrid-recovery`},
		{FairnessSettings{Form: "hybrid", Engine: EnginePacket}, "the packet engine has no forms"},
	} {
		_, err := Fairness(context.Background(), c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.s, err, c.want)
		}
	}
}
