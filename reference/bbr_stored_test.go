package reference

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/response"
)

// bbrVsCubic is the stored ns-3 run of BBR against one CUBIC flow (scripts/reference
// stage ns3-bbr).
var bbrVsCubic = filepath.Join(setDir, NS3, "fairness-friendliness-bbr-vs-cubic1.json")

// bbrShareGaps are the flows of TestBBRAgainstCUBICStoredNS3 whose fluid share is not
// within 0.1 of ns-3's median today: none. Over seeds 1–5 (SACK, 50-byte headers, every
// sender from a one-packet window) ns-3.37's TcpBbr takes 0.631 of the bottleneck from
// TcpCubic at the median over 100–193 s, tcpfluid's fluid 0.662 (seed 1: 0.650) and its
// packet engine 0.699 ± 0.018. Until 2026-12-05 ns-3's senders started from its default window of 10
// packets: its BBR's Startup then overshot and timed out at 4.4 s, stayed in loss
// recovery to 35 s (TcpBbr restores no saved window after a timeout) and took 0.566 at
// the median, 0.1 below both tcpfluid engines (docs/simulators.md).
var bbrShareGaps []string

// bbrVsCubic400 is the same experiment over 400 s, measured from 200 s.
var bbrVsCubic400 = filepath.Join(setDir, NS3, "fairness-friendliness-bbr-vs-cubic1-400s.json")

// Over 200–400 s of a 400-s run the fluid BBR's share lies within the span of ns-3's
// seeds (0.208 in seed 2, whose TcpBbr times out 66 times there, to 0.685 in seed 1, 20
// timeouts), widened by 0.02 for the fluid's own spread over the seeds, and so does
// CUBIC's.
func TestBBRAgainstCUBICStoredNS3Late(t *testing.T) {
	row, fl := bbrAgainstStored(t, bbrVsCubic400, 2, 400, []uint64{1, 2})
	for i, name := range []string{"BBR", "CUBIC"} {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, m := range row.NS3 {
			v := m.Fairness.Shares[i].Fraction
			lo, hi = min(lo, v), max(hi, v)
		}
		t.Logf("%s: fluid share %.3f, ns-3's seeds %.3f to %.3f", name, fl.Shares[i], lo, hi)
		if fl.Shares[i] < lo-0.02 || fl.Shares[i] > hi+0.02 {
			t.Errorf("%s: fluid share %.3f outside ns-3's %.3f to %.3f over 200–400 s", name, fl.Shares[i], lo, hi)
		}
	}
}

// BBR v1 against one CUBIC flow on seed 000's dumbbell with its 1-BDP buffer: tcpfluid's
// fluid, with ns-3's constants (cubic@ns3: β 0.7, no TCP-friendly region, as TcpCubic),
// gives each flow the share of the bottleneck ns-3's TcpBbr and TcpCubic take, within 0.1
// (the share issue 18 asks to match) of ns-3's median over its five seeds, but for the
// bbrShareGaps, which must stay out. The median, not the mean: in seeds 3 and 5 ns-3's BBR
// times out 44 and 75 times and keeps 0.217 and none of the link, which no other seed
// (0.63–0.72) and no BBR description does.
func TestBBRAgainstCUBICStoredNS3(t *testing.T) {
	row, fl := bbrAgainstStored(t, bbrVsCubic, 5, 200, []uint64{1})
	for i, name := range []string{"BBR", "CUBIC"} {
		var seeds []float64
		for _, m := range row.NS3 {
			seeds = append(seeds, m.Fairness.Shares[i].Fraction)
		}
		slices.Sort(seeds)
		median := seeds[len(seeds)/2]
		if len(seeds)%2 == 0 {
			median = (seeds[len(seeds)/2-1] + median) / 2
		}
		t.Logf("%s: fluid share %.3f, ns-3's seeds %.3f (median %.3f)", name, fl.Shares[i], seeds, median)
		within := math.Abs(fl.Shares[i]-median) <= 0.1
		switch gap := slices.Contains(bbrShareGaps, name); {
		case !within && !gap:
			t.Errorf("%s: fluid share %.3f, ns-3's median %.3f over seeds %.3f: want within 0.1", name, fl.Shares[i], median, seeds)
		case within && gap:
			t.Errorf("%s: fluid share %.3f within 0.1 of ns-3's median %.3f: take it off bbrShareGaps and the docs", name, fl.Shares[i], median)
		}
	}
}

// bbrAgainstStored reads the stored ns-3 run of BBR against one CUBIC flow at path (at
// least seeds ns-3 seeds) and runs tcpfluid's fluid on the same experiment of durationS
// seconds with ns-3's constants over the seeds given.
func bbrAgainstStored(t *testing.T, path string, seeds int, durationS float64, ours []uint64) (*Row, *EngineStats) {
	t.Helper()
	files, err := LoadSet(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	var row *Row
	for _, f := range files {
		if f.Path == path && len(f.Report.Rows) == 1 {
			row = &f.Report.Rows[0]
		}
	}
	if row == nil || len(row.NS3) < seeds {
		t.Fatalf("%s: no ns-3 runs over seeds", path)
	}
	spec := FairnessSpec{Mode: response.ModeFriendliness, Algorithm: "bbr", Against: "cubic", AgainstFlows: 1, DurationS: durationS}
	e, err := Fairness(spec)
	if err != nil {
		t.Fatal(err)
	}
	if w, ours := row.NS3[0].Spec.InitialCwndOf(NS3), e.InitialCwndOf(NS3); w != ours {
		t.Errorf("%s: ns-3's senders started from %d packets, tcpfluid's from %d: not the same experiment", path, w, ours)
	}
	fl, err := TcpfluidFairness(t.Context(), response.EngineFluid, fluid.FormHybrid, spec, TcpfluidAlgorithm(SetNS3, "bbr"), TcpfluidAlgorithm(SetNS3, "cubic"), nil, ours)
	if err != nil {
		t.Fatal(err)
	}
	return row, fl
}
