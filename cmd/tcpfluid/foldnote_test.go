package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
)

// dumbbellYAML writes a dumbbell of n Reno flows whose access links differ only in their
// delays, spread from 5 to 25 ms, into a temporary file.
func dumbbellYAML(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: delays\nduration: 100ms\nlinks:\n  - {name: bn, capacity: 1Gbps, delay: 50ms, buffer: 1bdp}\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {name: a%d, capacity: 10Gbps, delay: %.4fms, buffer: 10000pkts}\n", i, 5+20*float64(i)/float64(n-1))
	}
	b.WriteString("paths:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {name: p%d, links: [a%d, bn]}\n", i, i)
	}
	b.WriteString("flows:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {name: f%d, algorithm: reno, path: p%d}\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "delays.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A run of many flows that differ only in their access delays folds them at 2% and says
// so, naming --fold-delay 0; a run of few such flows, or one that sets --fold-delay, says
// nothing. The JSON result names the width it folded at.
func TestCLIRunFoldNote(t *testing.T) {
	many, few := dumbbellYAML(t, fluid.AutoFoldClasses), dumbbellYAML(t, 20)
	for _, c := range []struct {
		args []string
		note string
		fold float64
	}{
		{[]string{"run", "--scenario", many, "--format", "json"}, "200 classes of flows differ only in their private links' delays: they run as 82 classes", 0.02},
		{[]string{"run", "--scenario", many, "--format", "json", "--fold-delay", "0.05"}, "", 0.05},
		{[]string{"run", "--scenario", many, "--format", "json", "--fold-delay", "0"}, "", 0},
		{[]string{"run", "--scenario", few, "--format", "json"}, "", 0},
	} {
		stdout, stderr, err := runApp(t, c.args...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := strings.Contains(stderr, "--fold-delay 0 runs them unfolded"); got != (c.note != "") || !strings.Contains(stderr, c.note) {
			t.Errorf("%v: stderr %q, want a note %q", c.args[3:], stderr, c.note)
		}
		var res struct {
			FoldDelay float64 `json:"fold_delay"`
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.FoldDelay != c.fold {
			t.Errorf("%v: fold_delay %v (%v), want %v", c.args[3:], res.FoldDelay, err, c.fold)
		}
	}
}
