package reference

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	FluidRecovery *EngineStats     `json:"fluid_recovery,omitempty"`
	Packet        *EngineStats     `json:"packet,omitempty"`
	NS2           []*Measurement   `json:"ns2,omitempty"`
	NS3           []*Measurement   `json:"ns3,omitempty"`
	NS2Fairness   *FairnessSummary `json:"ns2_fairness,omitempty"`
	NS3Fairness   *FairnessSummary `json:"ns3_fairness,omitempty"`
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
