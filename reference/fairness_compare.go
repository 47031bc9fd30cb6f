package reference

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
)

// StoredFairness is one fairness experiment of the reference set as a simulator ran it:
// the summary over its seeds and the experiment itself (the first seed's spec), so that
// `tcpfluid fairness` can set it beside its own run without the set on disk.
type StoredFairness struct {
	Simulator string `json:"simulator"`
	Mode      string `json:"mode"`
	Algorithm string `json:"algorithm"`
	// Source is the file of the reference set it summarises, from the module root.
	Source string `json:"source"`
	Module string `json:"module"`
	// SeedSpread: Jain's index, each flow's share and each flow's loss events and
	// timeouts over the whole runs, across the seeds.
	response.SeedSpread
	Spec  *Experiment `json:"spec"`
	WallS float64     `json:"wall_s"`
}

// storedFairnessJSON is StoredFairnessOf(the set's ns2/fairness-*.json), written by
// `go test ./reference -update` (TestStoredFairness keeps it equal to the set).
//
//go:embed stored/ns2-fairness.json
var storedFairnessJSON []byte

// Stored is the reference set's fairness experiments (ns-2), embedded in the binary.
func Stored() ([]StoredFairness, error) {
	var out []StoredFairness
	if err := json.Unmarshal(storedFairnessJSON, &out); err != nil {
		return nil, fmt.Errorf("reference: the embedded fairness set: %w", err)
	}
	return out, nil
}

// StoredFairnessOf summarises the ns-2 fairness files of a loaded reference set (LoadSet),
// which `tcpfluid fairness --compare-ns2` compares with; paths are shown relative to the
// module root (testdata/reference/...).
func StoredFairnessOf(files []SetFile) []StoredFairness {
	var out []StoredFairness
	for _, f := range files {
		r := f.Report
		if r.Kind != KindFairness || len(r.Rows) == 0 {
			continue
		}
		row := r.Rows[0]
		sum := SummarizeFairness(row.NS2) // the file's summary, with each flow's counts
		if sum == nil {
			continue
		}
		out = append(out, StoredFairness{Simulator: NS2, Mode: row.Mode, Algorithm: row.Algorithm,
			Source: setPath(f.Path), Module: row.NS2[0].Module, SeedSpread: sum.SeedSpread, Spec: row.NS2[0].Spec, WallS: sum.WallS})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}

// setPath is p from "testdata/reference" on.
func setPath(p string) string {
	p = path.Clean(strings.ReplaceAll(p, "\\", "/"))
	if i := strings.Index(p, "testdata/reference/"); i >= 0 {
		return p[i:]
	}
	return p
}

// FairnessTolerance is docs/simulators.md's target for fairness ("What tcpfluid must
// change", 4): tcpfluid's Jain index and every flow's share of the bottleneck within 0.05
// of the ns-2 mean.
const FairnessTolerance = 0.05

// FairnessVerdict is "within" when a Jain difference and the largest share difference are
// both within FairnessTolerance, else "outside".
func FairnessVerdict(jainDiff, maxShareDiff float64) string {
	if math.Abs(jainDiff) <= FairnessTolerance && maxShareDiff <= FairnessTolerance {
		return "within"
	}
	return "outside"
}

// fairnessNoise is the 95% half-widths of tcpfluid's means − the simulator's, Jain's index's
// and each share's, from the two spreads over seeds (response.Spread.DiffCI95; a side of one
// seed, own nil, adds nothing), and whether they decide verdict v of the differences jd and
// sds: "within" when every interval lies within FairnessTolerance, "outside" when one lies
// wholly beyond it. Three seeds a side leave a share's interval near ±0.1 where ns-2's
// shares spread by 0.08 (same Compound): more seeds decide.
func fairnessNoise(own *response.SeedSpread, jain float64, shares []float64, sim response.SeedSpread, jd float64, sds []float64, v string) (jhw float64, shw []float64, decided bool) {
	ownJain, ownShares := response.Spread{Mean: jain, N: 1}, make([]response.Spread, len(shares))
	for i, m := range shares {
		ownShares[i] = response.Spread{Mean: m, N: 1}
	}
	if own != nil {
		ownJain, ownShares = own.Jain, own.Shares
	}
	jhw = ownJain.DiffCI95(sim.Jain)
	in, out := math.Abs(jd)+jhw <= FairnessTolerance, math.Abs(jd)-jhw > FairnessTolerance
	for i, d := range sds {
		hw := ownShares[i].DiffCI95(sim.Shares[i])
		shw = append(shw, hw)
		in = in && math.Abs(d)+hw <= FairnessTolerance
		out = out || math.Abs(d)-hw > FairnessTolerance
	}
	if v == "within" {
		return jhw, shw, in
	}
	return jhw, shw, out
}

// CompareFairness sets, beside each result of a `tcpfluid fairness` report, the stored
// ns-2 measurement of the same experiment (FairnessResult.Reference): the one of the
// report's mode and the result's algorithm without its variant ("cubic@linux" is compared
// with ns-2's cubic module), when its topology is the result's — links, delays, buffers in
// packets, flows, starts, packet size, duration and measurement interval. What else
// differs (header, receiver window, SACK, engine, jitter, drop rule) is listed in the
// reference's Differences. The notes say why a result has none.
func CompareFairness(rep *response.FairnessReport, stored []StoredFairness) []string {
	var notes []string
	for i := range rep.Results {
		r := &rep.Results[i]
		base, _ := model.SplitVariant(r.Algorithm)
		var st *StoredFairness
		for k := range stored {
			if stored[k].Mode == rep.Mode && stored[k].Algorithm == base && stored[k].Simulator == NS2 {
				st = &stored[k]
			}
		}
		if st == nil {
			notes = append(notes, fmt.Sprintf("%s: no stored ns-2 run of --mode %s %s (the set has %s)", r.Algorithm, rep.Mode, base, storedAlgorithms(stored, rep.Mode)))
			continue
		}
		if st.Spec == nil {
			notes = append(notes, fmt.Sprintf("%s: %s does not say which experiment it ran", r.Algorithm, st.Source))
			continue
		}
		if d := topologyDiff(&r.Experiment, st.Spec); d != "" {
			notes = append(notes, fmt.Sprintf("%s: %s ran another experiment (%s): not compared", r.Algorithm, st.Source, d))
			continue
		}
		ref := &response.FairnessReference{Simulator: NS2, Source: st.Source, Module: st.Module, SeedSpread: st.SeedSpread,
			JainDiff: r.JainMean() - st.Jain.Mean, Differences: otherDiffs(r, st)}
		for k, m := range r.ShareMeans() {
			d := m - st.Shares[k].Mean
			ref.ShareDiffs = append(ref.ShareDiffs, d)
			ref.MaxShareDiff = math.Max(ref.MaxShareDiff, math.Abs(d))
		}
		ref.Tolerance, ref.Verdict = FairnessTolerance, FairnessVerdict(ref.JainDiff, ref.MaxShareDiff)
		ref.JainDiffCI95, ref.ShareDiffsCI95, ref.Decided = fairnessNoise(r.OverSeeds, r.JainMean(), r.ShareMeans(), st.SeedSpread,
			ref.JainDiff, ref.ShareDiffs, ref.Verdict)
		r.Reference = ref
	}
	return notes
}

// CompareSummary compares an engine's fairness run with a simulator's summary over its
// seeds: tcpfluid's Jain index − the simulator's mean, the largest |share − the
// simulator's mean share| and FairnessVerdict of the two; ok is false when either is
// missing or they have different numbers of flows.
func CompareSummary(st *EngineStats, sum *FairnessSummary) (jainDiff, maxShareDiff float64, verdict string, ok bool) {
	if st == nil || sum == nil || len(st.Shares) == 0 || len(st.Shares) != len(sum.Shares) {
		return 0, 0, "", false
	}
	for i, sh := range st.Shares {
		maxShareDiff = math.Max(maxShareDiff, math.Abs(sh-sum.Shares[i].Mean))
	}
	jainDiff = st.Jain - sum.Jain.Mean
	return jainDiff, maxShareDiff, FairnessVerdict(jainDiff, maxShareDiff), true
}

// SummaryNoise is CompareSummary's differences' 95% half-widths from the two spreads over
// seeds — Jain's index's and the largest share difference's — and whether they decide its
// verdict (fairnessNoise).
func SummaryNoise(st *EngineStats, sum *FairnessSummary) (jainCI95, shareCI95 float64, decided bool) {
	jd, _, v, ok := CompareSummary(st, sum)
	if !ok {
		return 0, 0, false
	}
	sds := make([]float64, len(st.Shares))
	worst := 0
	for i, sh := range st.Shares {
		if sds[i] = sh - sum.Shares[i].Mean; math.Abs(sds[i]) > math.Abs(sds[worst]) {
			worst = i
		}
	}
	jhw, shw, decided := fairnessNoise(st.OverSeeds, st.Jain, st.Shares, sum.SeedSpread, jd, sds, v)
	return jhw, shw[worst], decided
}

func storedAlgorithms(stored []StoredFairness, mode string) string {
	var as []string
	for _, s := range stored {
		if s.Mode == mode && s.Simulator == NS2 {
			as = append(as, s.Algorithm)
		}
	}
	if len(as) == 0 {
		return "none"
	}
	sort.Strings(as)
	return strings.Join(as, ", ")
}

// topologyDiff is the first way tcpfluid's experiment x differs from the simulator's e in
// what decides the shares, or "" when they are the same experiment. Delays agree within
// 1 µs (the simulators' least delay stands for tcpfluid's zero).
func topologyDiff(x *response.FairnessExperiment, e *Experiment) string {
	const dt = 1.5e-6
	eq := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
	switch {
	case e.Topology != TopoDumbbell:
		return "not a dumbbell"
	case !eq(x.BottleneckBps, e.BandwidthBps, 0):
		return fmt.Sprintf("bottleneck %s, ns-2 %s", model.FormatRate(x.BottleneckBps), model.FormatRate(e.BandwidthBps))
	case !eq(x.BottleneckDelayS, e.DelayS, dt):
		return fmt.Sprintf("bottleneck delay %s, ns-2 %s", model.FormatDuration(x.BottleneckDelayS), model.FormatDuration(e.DelayS))
	case x.BottleneckBufferPkts != float64(e.BufferPkts):
		return fmt.Sprintf("bottleneck buffer %g packets, ns-2 %d", x.BottleneckBufferPkts, e.BufferPkts)
	case !eq(x.OutBps, e.OutBps, 0) || !eq(x.OutDelayS, e.OutDelayS, dt) || x.OutBufferPkts != float64(e.OutBufferPkts):
		return fmt.Sprintf("link to the receiver %s %s %g packets, ns-2 %s %s %d", model.FormatRate(x.OutBps), model.FormatDuration(x.OutDelayS),
			x.OutBufferPkts, model.FormatRate(e.OutBps), model.FormatDuration(e.OutDelayS), e.OutBufferPkts)
	case x.MSSBytes != e.MSSBytes:
		return fmt.Sprintf("MSS %g bytes, ns-2 %g", x.MSSBytes, e.MSSBytes)
	case !eq(x.DurationS, e.DurationS, 1e-9) || !eq(x.MeasureFromS, e.MeasureFromS, 1e-9):
		return fmt.Sprintf("%s measured from %s, ns-2 %s from %s", model.FormatDuration(x.DurationS), model.FormatDuration(x.MeasureFromS),
			model.FormatDuration(e.DurationS), model.FormatDuration(e.MeasureFromS))
	case len(x.Flows) != len(e.Flows):
		return fmt.Sprintf("%d flows, ns-2 %d", len(x.Flows), len(e.Flows))
	}
	for i, f := range x.Flows {
		g := e.Flows[i]
		base, _ := model.SplitVariant(f.Algorithm)
		switch {
		case base != g.Algorithm:
			return fmt.Sprintf("flow %d runs %s, ns-2 %s", i, base, g.Algorithm)
		case !eq(f.StartS, g.StartS, 1e-9):
			return fmt.Sprintf("flow %d starts at %s, ns-2 %s", i, model.FormatDuration(f.StartS), model.FormatDuration(g.StartS))
		case !eq(f.AccessBps, e.AccessBps, 0) || !eq(f.AccessDelayS, g.AccessDelayS, dt) || f.AccessBufferPkts != float64(g.AccessBufferPkts):
			return fmt.Sprintf("flow %d's access link %s %s %g packets, ns-2 %s %s %d", i, model.FormatRate(f.AccessBps), model.FormatDuration(f.AccessDelayS),
				f.AccessBufferPkts, model.FormatRate(e.AccessBps), model.FormatDuration(g.AccessDelayS), g.AccessBufferPkts)
		}
	}
	return ""
}

// otherDiffs lists what differs between tcpfluid's run and the simulator's beyond the
// topology: the comparison's caveats.
func otherDiffs(r *response.FairnessResult, st *StoredFairness) []string {
	x, e := &r.Experiment, st.Spec
	var out []string
	if w := e.InitialCwndOf(NS2); x.InitialCwndPkts != float64(w) {
		out = append(out, fmt.Sprintf("initial window %g packets, ns-2 %d (--initial-cwnd %d)", x.InitialCwndPkts, w, w))
	}
	if x.HeaderBytes != e.HeaderBytes {
		out = append(out, fmt.Sprintf("header %g bytes, ns-2 %g (--header %gB: shares of payload like ns-2's)", x.HeaderBytes, e.HeaderBytes, e.HeaderBytes))
	}
	if !x.SACK {
		out = append(out, "no SACK, ns-2's TCP/Linux has it (--sack)")
	}
	jitter := strings.ReplaceAll(model.FormatDuration(e.JitterS), " ", "")
	switch {
	case x.Engine != response.EnginePacket && x.Form != fluid.FormHybridRecovery:
		out = append(out, fmt.Sprintf("fluid engine's %s form (drop rule %s), ns-2 packets with a %s send jitter (--form %s --jitter %s, or --engine packet --jitter %s)",
			x.Form, x.DropRule, model.FormatDuration(e.JitterS), fluid.FormHybridRecovery, jitter, jitter))
	case x.Engine != response.EnginePacket && x.DropRule != model.DropRandom:
		out = append(out, fmt.Sprintf("fluid drop rule %s, ns-2's jittered drop tail drops at random (--drop-rule %s)", x.DropRule, model.DropRandom))
	case !(math.Abs(x.JitterS-e.JitterS) <= 1e-9):
		out = append(out, fmt.Sprintf("send jitter %s, ns-2 %s (--jitter %s)", model.FormatDuration(x.JitterS), model.FormatDuration(e.JitterS), jitter))
	}
	if math.Abs(x.RwndPkts-float64(e.RwndPkts)) > 0.5 && math.Min(x.RwndPkts, float64(e.RwndPkts)) < 10*x.BottleneckBufferPkts {
		out = append(out, fmt.Sprintf("receiver window %.0f packets, ns-2 %d", x.RwndPkts, e.RwndPkts))
	}
	if n := max(len(x.Seeds), 1); n != len(st.Seeds) {
		out = append(out, fmt.Sprintf("%d seeds, ns-2 %d", n, len(st.Seeds)))
	}
	if notLinux(r.Algorithm) {
		out = append(out, fmt.Sprintf("%s, ns-2 runs Linux's %s module (tcpfluid's variant: %s%s%s)", r.Algorithm, st.Module,
			st.Algorithm, model.VariantSep, SetLinux))
	}
	seen := map[string]bool{r.Algorithm: true}
	for _, f := range x.Flows {
		if a := f.Algorithm; !seen[a] {
			seen[a] = true
			if notLinux(a) {
				base, _ := model.SplitVariant(a)
				out = append(out, fmt.Sprintf("competing flows %s, ns-2's run Linux's %s module (--against %s%s%s:%d)", a, base,
					base, model.VariantSep, SetLinux, len(x.Flows)-1))
			}
		}
	}
	return out
}

// notLinux reports whether algorithm a is not its linux variant and has one: ns-2's
// TCP/Linux runs the Linux module.
func notLinux(a string) bool {
	if _, v := model.SplitVariant(a); v == SetLinux {
		return false
	}
	vs, _ := model.VariantsOf(a)
	return hasVariant(vs, SetLinux)
}

func hasVariant(vs []model.Variant, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}
