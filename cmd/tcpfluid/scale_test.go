package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
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

// A dumbbell whose flows each have an access link of their own folds into one class: the
// work bound counts it once (200 flows × 100 round trips would exceed --max-rounds 1000),
// and every flow and every access link has its own, equal, result.
func TestCLIDumbbellFolds(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: dumbbell\nduration: 10s\nlinks:\n  - {name: bottleneck, capacity: 100Mbps, delay: 40ms, buffer: 1bdp}\n")
	for i := range 200 {
		fmt.Fprintf(&b, "  - {name: a%d, capacity: 1Gbps, delay: 10ms, buffer: 100}\n", i)
	}
	b.WriteString("paths:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "  - {name: p%d, links: [a%d, bottleneck]}\n", i, i)
	}
	b.WriteString("flows:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "  - {name: f%d, algorithm: reno, path: p%d, window_scaling: true}\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "dumbbell.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"synchronized", "proportional"} {
		out, err := runCLI(t, "run", "--scenario", path, "--drop-rule", rule, "--max-rounds", "1000", "--format", "json")
		if err != nil {
			t.Fatalf("%s: %v", rule, err)
		}
		var res model.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Flows) != 200 || len(res.Links) != 201 {
			t.Fatalf("%s: %d flows and %d links, want 200 and 201", rule, len(res.Flows), len(res.Links))
		}
		for i, f := range res.Flows {
			if f.Path != "p"+strconv.Itoa(i) || f.MeanCwndPkts != res.Flows[0].MeanCwndPkts || !(f.MeanCwndPkts > 0) {
				t.Errorf("%s: flow %d %+v, flow 0 %+v", rule, i, f, res.Flows[0])
			}
		}
		for i, l := range res.Links[1:] {
			if l.Link != "a"+strconv.Itoa(i) || l.Utilisation != res.Links[1].Utilisation || !(l.Utilisation > 0) {
				t.Errorf("%s: link %+v, a0 %+v", rule, l, res.Links[1])
			}
		}
		if u := res.Links[0].Utilisation; u < 0.5 || u > 1 {
			t.Errorf("%s: bottleneck utilisation %v, want the 200 flows to fill it", rule, u)
		}
	}
}
