package model

import (
	"fmt"
	"math"
	"strings"
)

// paramSpec binds one documented parameter to the field of an algorithm's settings that
// holds its value.
type paramSpec struct {
	Param
	value *float64
	// whole restricts the value to integers (switches such as 0/1 and table selectors).
	whole bool
}

// algoBase gives an algorithm its name, its one-line description and a documented,
// range-checked parameter set. Algorithms embed it and keep their parameter values in a
// settings struct that the specs point into, so the laws read plain fields.
type algoBase struct {
	name     string
	describe string
	specs    []paramSpec
	// consistent, when set, checks relations between parameters after a change; the change
	// is undone when it returns an error.
	consistent func() error
}

// Name is the registered name of the algorithm.
func (b *algoBase) Name() string { return b.name }

// Describe is one line: what the algorithm is and its source.
func (b *algoBase) Describe() string { return b.describe }

// Params lists the parameters in a fixed order with their current values.
func (b *algoBase) Params() []Param {
	out := make([]Param, len(b.specs))
	for i, s := range b.specs {
		out[i] = s.Param
		out[i].Value = *s.value
	}
	return out
}

// Set changes one parameter. The error wraps ErrParam and names algorithm.parameter, the
// rejected value and the allowed range (or the known names).
func (b *algoBase) Set(name string, value float64) error {
	for i := range b.specs {
		s := &b.specs[i]
		if s.Name != name {
			continue
		}
		if math.IsNaN(value) || value < s.Min || value > s.Max {
			unit := ""
			if s.Unit != "1" {
				unit = " " + s.Unit
			}
			return fmt.Errorf("%w: %s.%s = %v is outside [%v, %v]%s", ErrParam, b.name, name, value, s.Min, s.Max, unit)
		}
		if s.whole && value != math.Trunc(value) {
			return fmt.Errorf("%w: %s.%s = %v must be a whole number in [%v, %v]", ErrParam, b.name, name, value, s.Min, s.Max)
		}
		old := *s.value
		*s.value = value
		if b.consistent != nil {
			if err := b.consistent(); err != nil {
				*s.value = old
				return fmt.Errorf("%w: %s.%s = %v: %v", ErrParam, b.name, name, value, err)
			}
		}
		return nil
	}
	known := make([]string, len(b.specs))
	for i, s := range b.specs {
		known[i] = s.Name
	}
	if len(known) == 0 {
		return fmt.Errorf("%w: %s has no parameters (got %s = %v)", ErrParam, b.name, name, value)
	}
	return fmt.Errorf("%w: %s has no parameter %q (known: %s)", ErrParam, b.name, name, strings.Join(known, ", "))
}

// spec is a short constructor for a real-valued parameter whose current value starts at
// its default.
func spec(value *float64, name string, def float64, unit string, min, max float64, source, doc string) paramSpec {
	*value = def
	return paramSpec{
		Param: Param{Name: name, Default: def, Unit: unit, Min: min, Max: max, Source: source, Doc: doc},
		value: value,
	}
}

// switchSpec is a 0/1 parameter.
func switchSpec(value *float64, name string, def float64, source, doc string) paramSpec {
	s := spec(value, name, def, "1", 0, 1, source, doc)
	s.whole = true
	return s
}

// ordered is a consistency check: parameter lo may not exceed parameter hi.
func ordered(loName string, lo float64, hiName string, hi float64) error {
	if lo > hi {
		return fmt.Errorf("requires %s (%v) ≤ %s (%v)", loName, lo, hiName, hi)
	}
	return nil
}
