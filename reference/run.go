package reference

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Runner runs experiments in the installed simulators.
type Runner struct {
	// NS is ns-2's binary; default "ns" on PATH (TCPFLUID_NS overrides).
	NS string
	// CXX is the C++ compiler for the ns-3 program; default "g++" (TCPFLUID_CXX).
	CXX string
	// CacheDir holds built ns-3 programs keyed by their source hash; default
	// os.UserCacheDir()/tcpfluid/reference. NoCache builds into a fresh temporary directory
	// every time (CI: TCPFLUID_REFERENCE_CACHE=off).
	CacheDir string
	NoCache  bool
	// KeepDir, when set, keeps each run's files (script, trace, output) under it.
	KeepDir string
	// Stderr receives the simulators' own messages (nil: discarded).
	Stderr *bytes.Buffer
}

// DefaultRunner reads the environment (TCPFLUID_NS, TCPFLUID_CXX, TCPFLUID_REFERENCE_CACHE).
func DefaultRunner() *Runner {
	r := &Runner{NS: os.Getenv("TCPFLUID_NS"), CXX: os.Getenv("TCPFLUID_CXX")}
	switch c := os.Getenv("TCPFLUID_REFERENCE_CACHE"); c {
	case "off", "0", "false":
		r.NoCache = true
	case "":
	default:
		r.CacheDir = c
	}
	return r
}

func (r *Runner) ns() string {
	if r.NS != "" {
		return r.NS
	}
	return "ns"
}

func (r *Runner) cxx() string {
	if r.CXX != "" {
		return r.CXX
	}
	return "g++"
}

// Available says whether a simulator can run here, and if not, why (one line).
func (r *Runner) Available(sim string) error {
	switch sim {
	case NS2:
		if _, err := exec.LookPath(r.ns()); err != nil {
			return fmt.Errorf("%w: ns-2 (%q not found; Debian: apt-get install ns2)", ErrNoSimulator, r.ns())
		}
		return nil
	case NS3:
		if _, err := exec.LookPath(r.cxx()); err != nil {
			return fmt.Errorf("%w: ns-3 needs a C++ compiler (%q not found; Debian: apt-get install g++ libns3-dev)", ErrNoSimulator, r.cxx())
		}
		for _, dir := range ns3IncludeDirs() {
			if _, err := os.Stat(filepath.Join(dir, "ns3", "core-module.h")); err == nil {
				return nil
			}
		}
		return fmt.Errorf("%w: ns-3 (no ns3/core-module.h; Debian: apt-get install libns3-dev)", ErrNoSimulator)
	}
	return fmt.Errorf("%w: simulator %q, want ns2 or ns3", ErrExperiment, sim)
}

func ns3IncludeDirs() []string {
	dirs := []string{"/usr/include", "/usr/local/include"}
	if d := os.Getenv("NS3_INCLUDE"); d != "" {
		dirs = append([]string{d}, dirs...)
	}
	return dirs
}

// Run runs the experiment in a simulator and measures it.
func (r *Runner) Run(ctx context.Context, sim string, e *Experiment) (*Measurement, error) {
	if err := r.Available(sim); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(r.KeepDir, "tcpfluid-"+sim+"-")
	if err != nil {
		return nil, err
	}
	if r.KeepDir == "" {
		defer os.RemoveAll(dir)
	}
	var run *Run
	var wall float64
	switch sim {
	case NS2:
		run, wall, err = r.runNS2(ctx, dir, e)
	case NS3:
		run, wall, err = r.runNS3(ctx, dir, e)
	}
	if err != nil {
		return nil, err
	}
	m, err := Measure(e, run)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", sim, e.Name, err)
	}
	m.WallS = wall
	m.Spec = e
	return m, nil
}

func (r *Runner) runNS2(ctx context.Context, dir string, e *Experiment) (*Run, float64, error) {
	script, err := EmitNS2(e)
	if err != nil {
		return nil, 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, NS2Script), []byte(script), 0o644); err != nil {
		return nil, 0, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, r.ns(), NS2Script)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	t0 := time.Now()
	err = cmd.Run()
	wall := time.Since(t0).Seconds()
	if r.Stderr != nil {
		r.Stderr.Write(stderr.Bytes())
	}
	if r.KeepDir != "" {
		_ = os.WriteFile(filepath.Join(dir, "stdout.txt"), stdout.Bytes(), 0o644)
	}
	if err != nil {
		return nil, wall, fmt.Errorf("%w: ns %s: %v: %s", ErrRun, e.Name, err, lastLine(stderr.String()+stdout.String()))
	}
	tr, err := os.Open(filepath.Join(dir, NS2Trace))
	if err != nil {
		return nil, wall, fmt.Errorf("%w: ns-2 wrote no trace: %v", ErrRun, err)
	}
	defer tr.Close()
	run, err := ParseNS2(bytes.NewReader(stdout.Bytes()), tr, e.PipePkts(NS2))
	return run, wall, err
}

// NS3Binary builds the ns-3 program (or finds it in the cache) and returns its path.
func (r *Runner) NS3Binary(ctx context.Context) (string, error) {
	if err := r.Available(NS3); err != nil {
		return "", err
	}
	dir := r.CacheDir
	if dir == "" && !r.NoCache {
		base, err := os.UserCacheDir()
		if err != nil {
			r.NoCache = true
		} else {
			dir = filepath.Join(base, "tcpfluid", "reference")
		}
	}
	if r.NoCache {
		d, err := os.MkdirTemp("", "tcpfluid-ns3-build-")
		if err != nil {
			return "", err
		}
		dir = d
	}
	bin := filepath.Join(dir, "tcpfluid-ns3-"+NS3SourceHash())
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src := bin + ".cc"
	if err := os.WriteFile(src, []byte(NS3Source()), 0o644); err != nil {
		return "", err
	}
	tmp := bin + ".tmp"
	args := append([]string{"-O2", "-std=c++17", "-o", tmp, src}, NS3Libs...)
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, r.cxx(), args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%w: building the ns-3 program (%s %s): %v: %s", ErrRun, r.cxx(), strings.Join(args, " "), err, lastLine(out.String()))
	}
	return bin, os.Rename(tmp, bin)
}

func (r *Runner) runNS3(ctx context.Context, dir string, e *Experiment) (*Run, float64, error) {
	args, err := NS3Args(e)
	if err != nil {
		return nil, 0, err
	}
	bin, err := r.NS3Binary(ctx)
	if err != nil {
		return nil, 0, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	t0 := time.Now()
	err = cmd.Run()
	wall := time.Since(t0).Seconds()
	if r.Stderr != nil {
		r.Stderr.Write(stderr.Bytes())
	}
	if r.KeepDir != "" {
		_ = os.WriteFile(filepath.Join(dir, "stdout.txt"), stdout.Bytes(), 0o644)
		_ = os.WriteFile(filepath.Join(dir, "args.txt"), []byte(strings.Join(args, "\n")+"\n"), 0o644)
	}
	if err != nil {
		return nil, wall, fmt.Errorf("%w: ns-3 %s: %v: %s", ErrRun, e.Name, err, lastLine(stderr.String()))
	}
	run, err := ParseNS3(bytes.NewReader(stdout.Bytes()))
	return run, wall, err
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// IsMissing says whether err means a simulator is not installed.
func IsMissing(err error) bool { return errors.Is(err, ErrNoSimulator) }
