package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A counted flow entry reaches the engines from a scenario file: 10^5 identical Reno flows
// in the hybrid form and in the mean-field form are within the default work bounds,
// counted once per class, and every member has its result.
func TestCLICountedFlows(t *testing.T) {
	for _, c := range []struct {
		count, form string
		flows       int
	}{
		{"100000", "hybrid", 100001},
		{"100000", "meanfield", 100001},
	} {
		yaml := `name: many
duration: 2s
links:
  - {name: l0, capacity: 1Gbps, delay: 25ms, buffer: 1bdp}
paths:
  - {name: p0, links: [l0]}
flows:
  - {name: web, algorithm: reno, path: p0, count: ` + c.count + `, window_scaling: true}
  - {name: long, algorithm: scalable, path: p0, start: 1s, window_scaling: true}
`
		path := filepath.Join(t.TempDir(), "many.yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := runCLI(t, "run", "--scenario", path, "--form", c.form, "--format", "json")
		if err != nil {
			t.Fatalf("%s flows, %s: %v", c.count, c.form, err)
		}
		var res struct {
			Flows []struct {
				Name         string  `json:"name"`
				MeanCwndPkts float64 `json:"mean_cwnd_pkts"`
			} `json:"flows"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		last := len(res.Flows) - 2
		if len(res.Flows) != c.flows || res.Flows[last].Name != "web#"+strconv.Itoa(c.flows-2) ||
			res.Flows[0].MeanCwndPkts != res.Flows[last].MeanCwndPkts || !(res.Flows[0].MeanCwndPkts > 0) {
			t.Errorf("%s flows, %s: %d results, flow %d %+v, flow 0 %+v", c.count, c.form, len(res.Flows), last, res.Flows[last], res.Flows[0])
		}
	}
}
