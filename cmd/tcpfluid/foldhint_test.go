package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// An exact run of many flows that differ only in their access delays names --fold-delay
// and the classes it would run; a run that folds already, or of few classes, says nothing.
func TestCLIRunFoldHint(t *testing.T) {
	many, few := dumbbellYAML(t, foldHintClasses), dumbbellYAML(t, 20)
	for _, c := range []struct {
		args []string
		hint string
	}{
		{[]string{"run", "--scenario", many, "--format", "json"}, "200 classes"},
		{[]string{"run", "--scenario", many, "--format", "json", "--fold-delay", "0.05"}, ""},
		{[]string{"run", "--scenario", few, "--format", "json"}, ""},
	} {
		_, stderr, err := runApp(t, c.args...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := strings.Contains(stderr, "--fold-delay 0.05 runs them as 34 classes"); got != (c.hint != "") || !strings.Contains(stderr, c.hint) {
			t.Errorf("%v: stderr %q, want a hint %q", c.args[3:], stderr, c.hint)
		}
	}
}
