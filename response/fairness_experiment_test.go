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
// seeds differ; the means are what JainMean, ShareMeans and LossMeans report, and each
// flow's loss events and timeouts are the means of the seeds' own runs (every flow loses
// packets at least in its first slow start).
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
		losses, timeouts := r.LossMeans()
		perSeed := make([][]Share, 2)
		for k, seed := range []uint64{1, 2} {
			one, err := Fairness(context.Background(), FairnessSettings{Algorithms: []string{"reno"}, Engine: c.engine, JitterS: c.jitter,
				Seeds: []uint64{seed}, DurationS: 60, MeasureFromS: 30, SACK: true})
			if err != nil {
				t.Fatal(err)
			}
			perSeed[k] = one.Results[0].Shares
		}
		for i := range r.Shares {
			a, b := perSeed[0][i], perSeed[1][i]
			if a.LossEvents < 1 || losses[i] != float64(a.LossEvents+b.LossEvents)/2 || timeouts[i] != float64(a.Timeouts+b.Timeouts)/2 ||
				o.LossEvents[i].Mean != losses[i] || o.Timeouts[i].Mean != timeouts[i] {
				t.Errorf("%s: flow %d: loss events/timeouts %v/%v over the seeds, the seeds' own %d/%d and %d/%d", c.engine, i,
					losses[i], timeouts[i], a.LossEvents, a.Timeouts, b.LossEvents, b.Timeouts)
			}
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

// Every mode states and runs what its settings ask: starts staggered by StartGapS (the
// rtt mode's flows in the order of RTTsS, the friendliness mode's tested flow first), a
// bottleneck buffer in packets, the rtt mode's bottleneck delay with each access delay
// making up the rest of its RTT, and the receiver window. A window of 64 KiB on 1000-byte
// packets (65.5 packets) caps each flow at rwnd/RTT, far below its share of the link:
// 65,536·8/0.24 s = 2.18 Mb/s of payload in the friendliness mode.
func TestFairnessExperimentControls(t *testing.T) {
	rep, err := Fairness(context.Background(), FairnessSettings{Mode: ModeFriendliness, Algorithms: []string{"cubic"}, StartGapS: 5,
		BufferPkts: 300, MSSBytes: 1000, RwndBytes: 64 << 10, DurationS: 100})
	if err != nil {
		t.Fatal(err)
	}
	x := rep.Results[0].Experiment
	if x.BottleneckBufferPkts != 300 || x.MSSBytes != 1000 || x.RwndPkts != 65.536 || len(x.Flows) != 5 || x.Flows[0].Algorithm != "cubic" {
		t.Errorf("friendliness experiment: buffer %v packets, MSS %v B, rwnd %v packets, %d flows, first %s",
			x.BottleneckBufferPkts, x.MSSBytes, x.RwndPkts, len(x.Flows), x.Flows[0].Algorithm)
	}
	for i, f := range x.Flows {
		if f.StartS != 5*float64(i) {
			t.Errorf("friendliness flow %d starts at %v s, want %v", i, f.StartS, 5*float64(i))
		}
	}
	for _, sh := range rep.Results[0].Shares {
		within(t, fmt.Sprintf("flow %d's throughput under a 64 KiB window", sh.Flow), sh.ThroughputBps, 65536*8/0.24, 0.01)
	}

	rep, err = Fairness(context.Background(), FairnessSettings{Mode: ModeRTT, RTTsS: []float64{0.04, 0.08}, BottleneckDelayS: 0.015,
		StartGapS: 2, DurationS: 60})
	if err != nil {
		t.Fatal(err)
	}
	x = rep.Results[0].Experiment
	if x.BottleneckDelayS != 0.015 || x.OutDelayS != 0 || len(x.Flows) != 2 {
		t.Fatalf("rtt experiment: bottleneck delay %v s, to the receiver %v s, %d flows", x.BottleneckDelayS, x.OutDelayS, len(x.Flows))
	}
	for i, want := range []struct{ start, access, rtt float64 }{{0, 0.005, 0.04}, {2, 0.025, 0.08}} {
		f := x.Flows[i]
		if f.StartS != want.start || math.Abs(f.AccessDelayS-want.access) > 1e-12 || math.Abs(f.RTTS-want.rtt) > 1e-12 {
			t.Errorf("rtt flow %d: start %v s, access %v s, RTT %v s; want %+v", i, f.StartS, f.AccessDelayS, f.RTTS, want)
		}
	}
	// Unset, the rtt mode's bottleneck delay is a quarter of the smallest RTT; more than
	// half of it leaves an access link no delay to make up its RTT with.
	if sc, err := (FairnessSettings{Mode: ModeRTT, RTTsS: []float64{0.04, 0.08}}).Scenario("reno"); err != nil || sc.Links[0].DelayS != 0.01 {
		t.Errorf("rtt mode's default bottleneck delay: %v (%v), want 10 ms", sc.Links[0].DelayS, err)
	}
	if _, err := (FairnessSettings{Mode: ModeRTT, RTTsS: []float64{0.04}, BottleneckDelayS: 0.021}).Scenario("reno"); err == nil ||
		!strings.Contains(err.Error(), "at most half the smallest RTT") {
		t.Errorf("bottleneck delay 21 ms with a 40 ms RTT: %v, want an error", err)
	}
}

// A difference of two means over seeds has Welch's 95% interval: ten seeds a side of SD 0.1
// give ±t(0.975, 18)·√(2·0.001) = ±0.0940; one seed on a side adds no variance and leaves the
// other's nine degrees of freedom, ±t(0.975, 9)·0.0316 = ±0.0715; single runs have none.
func TestSpreadDiffCI95(t *testing.T) {
	ten, one := Spread{Mean: 0.3, SD: 0.1, N: 10}, Spread{Mean: 0.3, N: 1}
	for _, c := range []struct {
		name string
		a, b Spread
		want float64
	}{
		{"ten and ten", ten, ten, 0.09396},
		{"ten and one", ten, one, 0.07154},
		{"one and ten", one, ten, 0.07154},
		{"one and one", one, one, 0},
	} {
		if got := c.a.DiffCI95(c.b); math.Abs(got-c.want) > 5e-5 {
			t.Errorf("%s: ±%.5f, want ±%.5f", c.name, got, c.want)
		}
	}
}
