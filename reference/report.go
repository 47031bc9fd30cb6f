package reference

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Row is one experiment (one algorithm at one point) across the engines: one row of
// `tcpfluid reference --format json`, and of the reference set.
type Row struct {
	Experiment string  `json:"experiment"`
	Algorithm  string  `json:"algorithm"`
	P          float64 `json:"p,omitempty"`
	Bandwidth  float64 `json:"bandwidth_bps,omitempty"`
	Mode       string  `json:"mode,omitempty"`
	// Quantity names what the relative errors compare: mean_cwnd_pkts (response),
	// recovery_s (converge), jain (fairness).
	Quantity string       `json:"quantity"`
	Fluid    *EngineStats `json:"fluid,omitempty"`
	// FluidRecovery is the fluid's hybrid-recovery form that response.ValidatePoint runs.
	FluidRecovery *EngineStats   `json:"fluid_recovery,omitempty"`
	Packet        *EngineStats   `json:"packet,omitempty"`
	NS2           []*Measurement `json:"ns2,omitempty"`
	NS3           []*Measurement `json:"ns3,omitempty"`
	// FluidAtLoss is, for a response point, tcpfluid's fluid at the loss rate each
	// simulator realized over its runs (PooledLossRate), keyed by simulator: what its
	// window is compared with ("fluid_at_loss/ns2" in RelErr).
	FluidAtLoss map[string]*EngineStats `json:"fluid_at_loss,omitempty"`
	NS2Fairness *FairnessSummary        `json:"ns2_fairness,omitempty"`
	NS3Fairness *FairnessSummary        `json:"ns3_fairness,omitempty"`
	// RelErr: "fluid/ns2" is fluid / ns-2 − 1, and so on; fairness compares Jain's index as
	// a difference (jain − jain), not a ratio.
	RelErr map[string]float64 `json:"rel_err,omitempty"`
	// Metrics are a scenario experiment's comparisons (Quantity "metrics").
	Metrics []ScenarioMetric `json:"metrics,omitempty"`
	Notes   []string         `json:"notes,omitempty"`
}

// Report is `tcpfluid reference --format json`; each file of the reference set is one.
type Report struct {
	Kind           string   `json:"kind"`
	Simulators     []string `json:"simulators"`
	TcpfluidParams string   `json:"tcpfluid_params"`
	RTTS           float64  `json:"rtt_s,omitempty"`
	MSSBytes       float64  `json:"mss_bytes"`
	Seeds          []uint64 `json:"seeds"`
	Rows           []Row    `json:"rows"`
}

// SetFile is one file of the reference set.
type SetFile struct {
	Path   string
	Report Report
}

// StoredRuns is every run of simulator sim (NS2, NS3) in the reference set under dir
// (testdata/reference) at the response point of the set's name — an algorithm, or
// cubic717, CUBIC with β = 717/1024 — at loss rate p: response-NAME-pTAG.json (seed 1)
// and response-NAME-pTAG-seeds*.json (more seeds).
func StoredRuns(dir, sim, name string, p float64) ([]*Measurement, error) {
	tag := strings.Replace(strings.Replace(strconv.FormatFloat(p, 'e', -1, 64), "e-0", "e-", 1), "e+0", "e", 1)
	paths, err := filepath.Glob(filepath.Join(dir, sim, "response-"+name+"-p"+tag+"*.json"))
	if err != nil {
		return nil, err
	}
	var runs []*Measurement
	for _, path := range paths {
		if rest := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "response-"+name+"-p"+tag), ".json"); rest != "" && !strings.HasPrefix(rest, "-seeds") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var r Report
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, row := range r.Rows {
			ms := row.NS2
			if sim == NS3 {
				ms = row.NS3
			}
			for _, m := range ms {
				if m.Response != nil {
					runs = append(runs, m)
				}
			}
		}
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%w: no stored %s response point %s at p = %g in %s", ErrExperiment, sim, name, p, dir)
	}
	return runs, nil
}

// ResponseSummary is a response point over a simulator's runs (seeds): the mean of their
// mean windows, its 95% interval (the runs' intervals combined as independent estimates)
// and the loss rate they realized together (PooledLossRate), which tcpfluid is compared
// at.
type ResponseSummary struct {
	MeanCwndPkts, CI95Pkts, LossRate float64
	Runs                             int
}

// SummarizeResponse summarises the response runs ms of one point.
func SummarizeResponse(ms []*Measurement) ResponseSummary {
	var s ResponseSummary
	var ci2 float64
	for _, m := range ms {
		if m.Response == nil {
			continue
		}
		s.MeanCwndPkts += m.Response.MeanCwndPkts
		ci2 += m.Response.CI95Pkts * m.Response.CI95Pkts
		s.Runs++
	}
	if s.Runs > 0 {
		n := float64(s.Runs)
		s.MeanCwndPkts /= n
		s.CI95Pkts = math.Sqrt(ci2) / n
	}
	s.LossRate = PooledLossRate(ms)
	return s
}

// LoadSet reads every *.json under dir (testdata/reference/ns2, .../ns3), sorted by path.
func LoadSet(dir string) ([]SetFile, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Ext(p) == ".json" {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []SetFile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var r Report
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, SetFile{Path: p, Report: r})
	}
	return out, nil
}
