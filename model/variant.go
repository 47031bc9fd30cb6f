package model

import (
	"fmt"
	"slices"
	"strings"
)

// VariantSep separates an algorithm's name from one of its variants: "cubic@linux".
const VariantSep = "@"

// Variant is one implementation of an algorithm as a parameter set: the constants and
// rules a simulator or a kernel runs where they differ from the algorithm's defaults (the
// RFC or the paper), and the loss recovery that implementation wraps around the law.
type Variant struct {
	Name   string             `json:"name"`   // "linux", "ns3"
	Source string             `json:"source"` // the implementation it follows: file, function, version
	Params map[string]float64 `json:"params"` // set on top of the defaults, before any the user sets
	// Recovery is the implementation's loss recovery; RecoveryDefault (the zero value)
	// keeps the algorithm's own.
	Recovery Recovery `json:"recovery,omitempty"`
}

// Varianter is implemented by algorithms with named variants (the algorithm's file
// declares them). New("cubic@linux") is the algorithm with its "linux" variant applied.
type Varianter interface {
	Variants() []Variant
}

// recoverySetter is how New gives an algorithm its variant's recovery: algorithms built on
// Base have it.
type recoverySetter interface {
	setRecovery(Recovery)
}

// SplitVariant splits "cubic@linux" into "cubic" and "linux"; a name without a variant
// has an empty one.
func SplitVariant(name string) (algo, variant string) {
	algo, variant, _ = strings.Cut(name, VariantSep)
	return algo, variant
}

// VariantsOf lists the variants of the named algorithm (none for an algorithm without).
func VariantsOf(name string) ([]Variant, error) {
	a, err := New(name)
	if err != nil {
		return nil, err
	}
	if v, ok := a.(Varianter); ok {
		return v.Variants(), nil
	}
	return nil, nil
}

// applyVariant sets variant v of algorithm a (registered as algo): its parameters, each
// within its range, and its recovery.
func applyVariant(a Algorithm, algo, variant string) error {
	vr, _ := a.(Varianter)
	var names []string
	if vr != nil {
		for _, v := range vr.Variants() {
			if v.Name != variant {
				names = append(names, v.Name)
				continue
			}
			for _, k := range sortedKeys(v.Params) {
				if err := a.Set(k, v.Params[k]); err != nil {
					return fmt.Errorf("variant %s%s%s: %w", algo, VariantSep, variant, err)
				}
			}
			if v.Recovery != RecoveryDefault {
				rs, ok := a.(recoverySetter)
				if !ok {
					return fmt.Errorf("%w: variant %s%s%s sets recovery %d, which %s cannot take (it does not embed model.Base)",
						ErrParam, algo, VariantSep, variant, v.Recovery, algo)
				}
				rs.setRecovery(v.Recovery)
			}
			return nil
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("%w: algorithm %s has no variants (got %s%s%s)", ErrUnknownAlgorithm, algo, algo, VariantSep, variant)
	}
	return fmt.Errorf("%w: algorithm %s has no variant %q (known: %s)", ErrUnknownAlgorithm, algo, variant, strings.Join(names, ", "))
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
