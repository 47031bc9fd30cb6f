package packet

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Random loss is Bernoulli(p) per packet of a source: the drop fraction over n arrivals is
// p within 4 standard errors, sqrt(p(1−p)/n). Each source has its own stream, and flow 0's
// on link 0 is the fluid engine's: its k-th gap is ⌈E_k/λ⌉, λ = −ln(1−p), with E_k the
// k-th Exp(1) variate of PCG(seed, 0x7cf1d), as fluid.Run draws its thresholds.
func TestRandomLossStreams(t *testing.T) {
	const (
		p    = 0.01
		n    = 1_000_000
		seed = 5
	)
	l := link{loss: model.LossRandom, lossP: p, randomRate: -math.Log1p(-p), randomLeft: make([]int64, 2)}
	for src := range 2 {
		l.randomRNG = append(l.randomRNG, rand.New(rand.NewPCG(seed, randomLossStream(0, src))))
	}
	fluid := rand.New(rand.NewPCG(seed, 0x7cf1d))
	var drops [2]int
	next := int(math.Ceil(fluid.ExpFloat64() / l.randomRate))
	same := true
	for i := 1; i <= n; i++ {
		for src := range 2 {
			if l.lossDrop(src) {
				drops[src]++
				if src == 0 {
					same = same && i == next
					next = i + int(math.Ceil(fluid.ExpFloat64()/l.randomRate))
				}
			}
		}
	}
	se := math.Sqrt(p * (1 - p) / n)
	for src, d := range drops {
		if f := float64(d) / n; math.Abs(f-p) > 4*se {
			t.Errorf("source %d: drop fraction %.5f, want %v ± %.5f", src, f, p, 4*se)
		}
	}
	if !same {
		t.Error("flow 0's losses on link 0 do not follow the fluid engine's Exp(1) stream")
	}
	if drops[0] == drops[1] {
		t.Errorf("sources 0 and 1 both dropped %d packets: want independent streams", drops[0])
	}
}

// StopAfterLosses ends the run at flow 0's n-th loss event, and RecordLosses records each
// with the flow's running totals: under periodic loss (p = 1e-2) every record follows the
// previous one by one cycle of 1/p = 100 delivered packets, give or take a window.
func TestStopAfterLossesRecords(t *testing.T) {
	link := fastLink
	link.Loss, link.LossP = model.LossPeriodic, 1e-2
	s := oneLink(t, link, model.Flow{Algorithm: "newreno", WindowScaling: true}, 1000)
	r, err := Run(context.Background(), s, Settings{StopAfterLosses: 8, RecordLosses: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Losses) != 8 || r.Flows[0].LossEvents != 8 || r.DurationS != r.Losses[7].TS {
		t.Fatalf("%d records, %d loss events, run ends at %v s (last loss %v s), want 8, 8 and the last loss",
			len(r.Losses), r.Flows[0].LossEvents, r.DurationS, r.Losses[len(r.Losses)-1].TS)
	}
	for i := 4; i < 8; i++ {
		a, b := r.Losses[i-1], r.Losses[i]
		if d := b.DeliveredPkts - a.DeliveredPkts; math.Abs(d-100) > b.CwndPkts || !(b.CwndTimePktS > a.CwndTimePktS) {
			t.Errorf("records %d, %d: %v packets apart, ∫cwnd %v then %v: want 100 ± %.0f and a growing integral", i-1, i, d, a.CwndTimePktS, b.CwndTimePktS, b.CwndPkts)
		}
	}
	if _, err := Run(context.Background(), s, Settings{StopAfterLosses: -1}); !errors.Is(err, ErrSettings) {
		t.Errorf("StopAfterLosses -1: error %v, want ErrSettings", err)
	}
}

// A flow's InitialSsthresh reaches the law: starting at cwnd = ssthresh = 50 packets it is
// in congestion avoidance at once, one packet more per round trip instead of doubling.
func TestInitialSsthresh(t *testing.T) {
	s := oneLink(t, fastLink, model.Flow{Algorithm: "reno", InitialCwnd: 50, InitialSsthresh: 50, WindowScaling: true}, 10)
	sm := mustSim(t, s, Settings{})
	advance(t, sm, 0.35) // three round trips of 0.1 s
	if w := sm.flows[0].cwnd; math.Abs(w-53) > 0.1 {
		t.Errorf("cwnd %v packets after three round trips, want 53 (congestion avoidance from 50)", w)
	}
}

// A multi-path flow needs a multi-path law (model.MultipathEventLaw): Reno over two paths
// is an error that says so, not a missing path.
func TestMultipathRejected(t *testing.T) {
	s := oneLink(t, fastLink, model.Flow{Algorithm: "reno", WindowScaling: true}, 10)
	s.Flows[0].Path, s.Flows[0].Paths = "", []string{"p", "p"}
	if _, err := Run(context.Background(), s, Settings{}); !errors.Is(err, ErrScenario) {
		t.Errorf("error %v, want ErrScenario", err)
	}
}

// HeaderBytes is per flow: a flow with 40-byte headers takes (1460+40)/1460 as long to
// serialize each packet as one without, and its ACKs take 40 bytes' time on the way back.
func TestHeaderBytesPerFlow(t *testing.T) {
	link := model.Link{CapacityBps: 1e6, DelayS: 0.01, BufferPkts: 1000}
	for _, h := range []float64{0, 40} {
		s := oneLink(t, link, model.Flow{Algorithm: "reno", SizeBytes: 1460, HeaderBytes: h}, 10)
		r, err := Run(context.Background(), s, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		// One packet: serialization of data and ACK plus two propagation delays.
		want := (1460+h)*8/1e6 + h*8/1e6 + 0.02
		if got := *r.Flows[0].CompletionTimeS; math.Abs(got-want) > 1e-9 {
			t.Errorf("header %v bytes: one-packet transfer done after %v s, want %v s", h, got, want)
		}
	}
}
