package model

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const countedYAML = `name: counted
duration: 10s
links:
  - {name: l0, capacity: 1Gbps, delay: 25ms, buffer: 1bdp}
paths:
  - {name: p0, links: [l0]}
flows:
  - {name: web, algorithm: reno, path: p0, count: 3, start: 1s}
  - {name: long, algorithm: cubic, path: p0}
`

// A counted flow entry is that many flows named name#k, and writes back as one entry.
func TestFlowCount(t *testing.T) {
	s, err := LoadScenario(strings.NewReader(countedYAML))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Flows {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, " "); got != "web#0 web#1 web#2 long" {
		t.Fatalf("flows %s", got)
	}
	if s.Flows[2].Algorithm != "reno" || s.Flows[2].StartS != 1 {
		t.Errorf("web#2 is %+v", s.Flows[2])
	}
	var out bytes.Buffer
	if err := WriteScenarioYAML(&out, s); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "name: web") != 1 || !strings.Contains(out.String(), "count: 3") {
		t.Errorf("written back without the count:\n%s", out.String())
	}
	back, err := LoadScenario(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Flows) != 4 || back.Flows[1].Name != "web#1" {
		t.Errorf("round trip: %+v", back.Flows)
	}
	// Flows named like members but different stay apart.
	s.Flows[1].StartS = 2
	out.Reset()
	if err := WriteScenarioYAML(&out, s); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "count:") {
		t.Errorf("unequal flows folded:\n%s", out.String())
	}
}

func TestFlowCountRefused(t *testing.T) {
	for _, c := range []struct{ count, want string }{
		{"0", "flows[0].count = 0, want a whole number in [1, 1e+07]"},
		{"2.5", "flows[0].count = 2.5, want a whole number in [1, 1e+07]"},
		{"1e8", "flows[0].count = 1e+08, want a whole number in [1, 1e+07]"},
	} {
		_, err := LoadScenario(strings.NewReader(strings.Replace(countedYAML, "count: 3", "count: "+c.count, 1)))
		if !errors.Is(err, ErrScenario) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line 8") {
			t.Errorf("count %s: %v, want line 8 and %q", c.count, err, c.want)
		}
	}
}
