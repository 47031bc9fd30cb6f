package model

import (
	"fmt"
	"slices"
	"sort"
)

// builtins are the scenarios of the seed papers, built fresh on every call so callers may
// change their copy.
// Each seed's scenarios are in its own file (seed000.go … seed004.go); package seeds
// indexes them with the seed's headlines and notebook.
var builtins = map[string]func() *Scenario{
	"seed000-dumbbell":         seed000Dumbbell,
	"seed000-colo-random-loss": seed000RandomLoss,
	"seed000-slow-start":       seed000SlowStart,
	"seed000-colo-gamma":       seed000ColoGamma,
	"seed000-colo-alpha":       seed000ColoAlpha,
	"seed000-colo-beta":        seed000ColoBeta,
	"seed001-mptcp":            seed001MPTCP,
	"seed002-mesh":             seed002Mesh,
	"seed003-dumbbell":         seed003Dumbbell,
	"seed004-lfn":              seed004LFN,
	"parking-lot":              parkingLot,
	// The algorithms and queues of today's networks (modern.go).
	"modern-bbr-cubic-shallow":    modernBBRCubicShallow,
	"modern-bbr-cubic-1bdp":       modernBBRCubic1BDP,
	"modern-bbr-cubic-deep":       modernBBRCubicDeep,
	"modern-bbr-random-loss":      bbrRandomLoss,
	"modern-bbr2-cubic-shallow":   modernBBR2CubicShallow,
	"modern-bbr2-cubic-1bdp":      modernBBR2Cubic1BDP,
	"modern-dctcp-2":              modernDCTCP2,
	"modern-dctcp-10":             modernDCTCP10,
	"modern-bufferbloat-droptail": modernBloatDropTail,
	"modern-bufferbloat-codel":    modernBloatCoDel,
	"modern-bufferbloat-pie":      modernBloatPIE,
	"modern-bufferbloat-fq_codel": modernBloatFQCoDel,
}

// BuiltinNames lists the built-in scenarios in sorted order.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Builtin returns a fresh, validated copy of the named built-in scenario. Its Description
// says where it comes from and what had to be interpreted.
func Builtin(name string) (*Scenario, error) {
	build, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("%w: unknown builtin scenario %q, want one of %v", ErrScenario, name, BuiltinNames())
	}
	s := build()
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("builtin %s: %w", name, err)
	}
	return s, nil
}

// SetAlgorithm sets the algorithm of every TCP flow of its kind (the CLI's --algo): a
// multi-path algorithm that of the multi-path flows, any other that of the single-path
// flows; then it validates the scenario. Parameter overrides of a flow whose algorithm changes are dropped: they were
// names of the old algorithm.
func (s *Scenario) SetAlgorithm(name string) error {
	alg, err := New(name)
	if err != nil {
		return fmt.Errorf("%w: --algo: %w", ErrScenario, err)
	}
	// A multi-path algorithm replaces the algorithm of the multi-path flows and a
	// single-path one that of the single-path flows, so that --algo lia or --algo cubic
	// both make sense on a scenario that has both kinds.
	// With no flow of its kind it applies to every flow.
	multi := IsMultipath(alg)
	kind := func(f *Flow) bool { return (len(f.Paths) > 1) == multi }
	any := slices.ContainsFunc(s.Flows, func(f Flow) bool { return kind(&f) })
	for i := range s.Flows {
		if any && !kind(&s.Flows[i]) {
			continue
		}
		if s.Flows[i].Algorithm != name {
			s.Flows[i].Algorithm = name
			s.Flows[i].Params = nil
		}
	}
	return s.Validate()
}
