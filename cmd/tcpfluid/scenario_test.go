package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scenario show prints a built-in as the YAML run --scenario reads: running the file gives
// the built-in's result, number for number, in both engines.
func TestScenarioShowRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, engine, duration string }{
		{"seed000-colo-gamma", "fluid", "3s"}, {"seed001-mptcp", "fluid", "3s"}, {"seed003-dumbbell", "packet", "10.1s"},
	} {
		yaml, err := runCLI(t, "scenario", "show", c.name)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, c.name+".yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"run", "--engine", c.engine, "--duration", c.duration, "--format", "json"}
		fromFile, err := runCLI(t, append(args, "--scenario", path)...)
		if err != nil {
			t.Fatalf("%s: %v in\n%s", c.name, err, yaml)
		}
		builtin, err := runCLI(t, append(args, "--builtin", c.name)...)
		if err != nil {
			t.Fatal(err)
		}
		if fromFile != builtin {
			t.Errorf("%s: run of the shown YAML differs from the built-in's:\n%s\nwant\n%s", c.name, fromFile, builtin)
		}
	}
	if _, err := runCLI(t, "scenario", "show", "seed999"); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "seed999") {
		t.Errorf("unknown name: %v", err)
	}
	out, err := runCLI(t, "scenario", "list", "--format", "table")
	if err != nil || !strings.Contains(out, "seed000-colo-gamma") || !strings.Contains(out, "--param colo.gamma=0.5:3:6") {
		t.Errorf("scenario list: %v\n%s", err, out)
	}
}
