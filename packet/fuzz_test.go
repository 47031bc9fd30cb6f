package packet

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// FuzzRun builds small random scenarios (one to three links in a chain, up to three flows
// of the registered algorithms, a multi-path algorithm over the chain and its last link,
// optional CBR, loss, RED, link events, route-aware senders, SACK and jitter) and checks
// that every one that validates runs without panicking and yields finite numbers.
func FuzzRun(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(1), uint16(500), uint8(0), uint8(3))
	f.Add(uint64(2), uint8(1), uint8(3), uint16(10), uint8(1), uint8(200))
	f.Add(uint64(3), uint8(3), uint8(2), uint16(60000), uint8(2), uint8(77))
	f.Add(uint64(4), uint8(2), uint8(2), uint16(3000), uint8(1), uint8(0xe9))
	algos := model.Algorithms()
	f.Fuzz(func(t *testing.T, seed uint64, nLinks, nFlows uint8, capKbps uint16, lossKind, knobs uint8) {
		n := 1 + int(nLinks)%3
		s := &model.Scenario{Name: "fuzz", DurationS: 2 + float64(knobs%8)}
		path := model.Path{Name: "p"}
		for i := range n {
			l := model.Link{
				CapacityBps: 1e4 + float64(capKbps)*1e3*float64(i+1),
				DelayS:      0.001 * float64(1+int(knobs>>uint(i))%50),
				BufferPkts:  float64(1 + int(knobs)%40),
			}
			if i == 0 {
				switch lossKind % 4 {
				case 1:
					l.Loss, l.LossP = model.LossRandom, 0.001+float64(knobs)/300
				case 2:
					l.Loss, l.LossP = model.LossPeriodic, 0.001+float64(knobs)/300
				case 3:
					l.Queue = model.QueueRED
				}
			}
			l.Name = string(rune('a' + i))
			s.Links = append(s.Links, l)
			path.Links = append(path.Links, l.Name)
		}
		s.Paths = []model.Path{path, {Name: "q", Links: []string{s.Links[n-1].Name}}}
		for i := range 1 + int(nFlows)%3 {
			fl := model.Flow{
				Algorithm: algos[(int(seed)+i)%len(algos)],
				Path:      "p",
				StartS:    float64(i) * 0.3,
				MSSBytes:  float64(100 + int(knobs)*5),
			}
			if knobs&1 == 1 {
				fl.SizeBytes = float64(1 + int(capKbps)*10)
			}
			if knobs&2 == 2 {
				fl.WindowScaling = true
			}
			if a, err := model.New(fl.Algorithm); err == nil {
				if mp, ok := a.(model.Multipath); ok && mp.Multipath() {
					fl.Path, fl.Paths = "", []string{"p", "q"}
				}
			}
			fl.RouteAware = knobs&128 == 128
			s.Flows = append(s.Flows, fl)
		}
		if knobs&4 == 4 {
			s.CBR = []model.CBR{{Path: "p", RateBps: 1e4 * float64(1+knobs%16), StartS: 0.5}}
		}
		if knobs&8 == 8 {
			s.Events = []model.TimedEvent{
				{AtS: 0.7, Kind: model.EventLinkDown, Link: "a"},
				{AtS: 1.1, Kind: model.EventLinkUp, Link: "a", DelayS: 0.02},
				{AtS: 1.5, Kind: model.EventDelayChange, Link: "a", DelayS: 0},
			}
		}
		for i := range s.Flows {
			s.Flows[i].DelayedAck = knobs&16 == 16
		}
		if err := s.Validate(); err != nil {
			return
		}
		set := Settings{Seed: seed, SampleS: 0.25, MaxEvents: 5_000_000, SACK: knobs&32 == 32}
		if knobs&64 == 64 {
			set.JitterS = 0.001 * float64(capKbps%7)
		}
		r, err := Run(context.Background(), s, set)
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		b, err := json.Marshal(struct {
			R *model.Result
			T []model.Sample
		}{r, r.Trace})
		if err != nil {
			t.Fatalf("result does not marshal (NaN or Inf?): %v", err)
		}
		for _, fr := range r.Flows {
			for _, v := range []float64{fr.MeanThroughputBps, fr.MeanCwndPkts, fr.GoodputBps, fr.ActiveS, fr.SentPkts, fr.DeliveredPkts} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("flow %d: value %v in %s", fr.Flow, v, b)
				}
			}
			if fr.DeliveredPkts+fr.DroppedPkts > fr.SentPkts {
				t.Fatalf("flow %d: delivered %v + dropped %v > sent %v", fr.Flow, fr.DeliveredPkts, fr.DroppedPkts, fr.SentPkts)
			}
		}
		for _, lr := range r.Links {
			if lr.Utilisation < 0 || lr.Utilisation > 1+1e-9 || lr.MeanQueuePkts < 0 {
				t.Fatalf("link %s: utilisation %v, mean queue %v", lr.Link, lr.Utilisation, lr.MeanQueuePkts)
			}
		}
	})
}
