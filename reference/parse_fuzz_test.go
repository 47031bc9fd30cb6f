package reference

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseNS3 feeds the ns-3 parser arbitrary output: it returns a run or an error, never
// panics, and a scenario measurement made of a run is finite or an error.
func FuzzParseNS3(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "ns3-response.stdout")); err == nil {
		f.Add(string(b))
	}
	f.Add("C algo 0 ns3::TcpDctcp\nE 0 2 100 2000 2100 0 1 0\nF 0 7\nQ 2 120.5 2050 0.25 2049 3 40\n")
	f.Add("E 0 0 0 0 0 0 0 0\nQ 0 0 0 0 0 0 0\n")
	f.Add("L 99999 1 2 3 4 R 5 6\nE 1 1 1 1 1 1 1 1\n")
	f.Fuzz(func(t *testing.T, out string) {
		run, err := ParseNS3(strings.NewReader(out))
		if err != nil {
			return
		}
		e := &Experiment{Kind: KindScenario, BandwidthBps: 1e8, MSSBytes: 1460, HeaderBytes: 54}
		for range run.Flows {
			e.Flows = append(e.Flows, Flow{Algorithm: "cubic"})
		}
		st, err := scenarioStats(e, run)
		if err != nil {
			return
		}
		vals := []float64{st.MeanQueuePkts, st.QueueDelayS, st.MeanSojournS, st.Utilisation, st.DroppedPkts, st.MarkedPkts, st.Jain}
		for _, fl := range st.Flows {
			vals = append(vals, fl.MeanCwndPkts, fl.GoodputBps)
		}
		for _, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("scenario measurement %+v of %q is not finite", st, out)
			}
		}
	})
}

// FuzzParseNS2 feeds the ns-2 parser arbitrary stdout and trace text: a run or an error,
// never a panic.
func FuzzParseNS2(f *testing.F) {
	out, _ := os.ReadFile(filepath.Join("testdata", "ns2-response.stdout"))
	tr, _ := os.ReadFile(filepath.Join("testdata", "ns2-response.tr"))
	if len(tr) > 4000 {
		tr = tr[:4000]
	}
	f.Add(string(out), string(tr), 0.0)
	f.Add("C flow 0 0 0 reno\nT 1 0 1 0 5 6 7\nE 2 0 1 0 5 6 7 8\n", "1 0 0 0 0 cwnd_ 3\n1.5 0 0 0 0 ssthresh_ 2\n", 3.0)
	f.Fuzz(func(t *testing.T, stdout, trace string, watch float64) {
		_, _ = ParseNS2(strings.NewReader(stdout), strings.NewReader(trace), watch)
	})
}
