package model

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Param is one documented algorithm parameter.
type Param struct {
	Name    string  `json:"name"`  // short name used in --param algo.name=value
	Value   float64 `json:"value"` // current value
	Default float64 `json:"default"`
	Unit    string  `json:"unit"` // "packets", "s", "1" for dimensionless, ...
	Min     float64 `json:"-"`    // allowed range; ±Inf for unbounded (JSON: null)
	Max     float64 `json:"-"`
	Source  string  `json:"source"` // where the default comes from
	Doc     string  `json:"doc"`
	// Whole restricts the value to integers (switches such as 0/1 and table selectors).
	Whole bool `json:"whole,omitempty"`
}

// MarshalJSON writes an unbounded range end as null, since JSON has no infinity.
func (p Param) MarshalJSON() ([]byte, error) {
	type plain Param
	bound := func(v float64) *float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	return json.Marshal(struct {
		plain
		Min *float64 `json:"min"`
		Max *float64 `json:"max"`
	}{plain(p), bound(p.Min), bound(p.Max)})
}

// ParamDef binds one documented parameter to the field of an algorithm that holds its
// value, so the laws read plain fields. Make one with Real or Switch.
type ParamDef struct {
	Param
	value *float64
}

// Real defines a real-valued parameter with a unit, an allowed range [min, max] and a
// source, and sets *value to its default def.
func Real(value *float64, name string, def float64, unit string, min, max float64, source, doc string) ParamDef {
	*value = def
	return ParamDef{Param: Param{Name: name, Default: def, Unit: unit, Min: min, Max: max, Source: source, Doc: doc}, value: value}
}

// Switch defines a 0/1 parameter and sets *value to its default def.
func Switch(value *float64, name string, def float64, source, doc string) ParamDef {
	d := Real(value, name, def, "1", 0, 1, source, doc)
	d.Whole = true
	return d
}

// Constraint is a relation between parameters that Base.Check tests once all are set. Its
// error names every parameter involved and its value.
type Constraint func() error

// Ordered is the constraint *lo ≤ *hi between the parameters named loName and hiName.
func Ordered(loName string, lo *float64, hiName string, hi *float64) Constraint {
	return func() error {
		if *lo > *hi {
			return fmt.Errorf("%s = %v and %s = %v, want %s ≤ %s", loName, *lo, hiName, *hi, loName, hiName)
		}
		return nil
	}
}

// Base gives an algorithm its name, its one-line description and a documented,
// range-checked parameter set; it implements Name, Describe, Params, Set and Checker.
// Algorithms embed it (NewBase) and keep their parameter values in fields the ParamDefs
// point into.
type Base struct {
	name        string
	describe    string
	defs        []ParamDef
	constraints []Constraint
	recovery    Recovery // a variant's recovery (New); RecoveryDefault for the algorithm's own
}

// NewBase is the Base of an algorithm with the given parameters, in the order Params
// lists them.
func NewBase(name, describe string, defs ...ParamDef) Base {
	return Base{name: name, describe: describe, defs: defs}
}

func (b *Base) setRecovery(r Recovery)    { b.recovery = r }
func (b *Base) variantRecovery() Recovery { return b.recovery }

// Require adds relations between parameters that Check tests.
func (b *Base) Require(cs ...Constraint) { b.constraints = append(b.constraints, cs...) }

// Name is the registered name of the algorithm.
func (b *Base) Name() string { return b.name }

// Describe is one line: what the algorithm is and its source.
func (b *Base) Describe() string { return b.describe }

// Params lists the parameters in a fixed order with their current values.
func (b *Base) Params() []Param {
	out := make([]Param, len(b.defs))
	for i, d := range b.defs {
		out[i] = d.Param
		out[i].Value = *d.value
	}
	return out
}

// Set changes one parameter within its own range. The error wraps ErrParam and names
// algorithm.parameter, the rejected value and the allowed range (or the known names).
func (b *Base) Set(name string, value float64) error {
	for _, d := range b.defs {
		if d.Name != name {
			continue
		}
		if math.IsNaN(value) || value < d.Min || value > d.Max {
			unit := ""
			if d.Unit != "1" {
				unit = " " + d.Unit
			}
			return fmt.Errorf("%w: %s.%s = %v is outside [%v, %v]%s", ErrParam, b.name, name, value, d.Min, d.Max, unit)
		}
		if d.Whole && value != math.Trunc(value) {
			return fmt.Errorf("%w: %s.%s = %v must be a whole number in [%v, %v]", ErrParam, b.name, name, value, d.Min, d.Max)
		}
		*d.value = value
		return nil
	}
	known := make([]string, len(b.defs))
	for i, d := range b.defs {
		known[i] = d.Name
	}
	if len(known) == 0 {
		return fmt.Errorf("%w: %s has no parameters (got %s = %v)", ErrParam, b.name, name, value)
	}
	return fmt.Errorf("%w: %s has no parameter %q (known: %s)", ErrParam, b.name, name, strings.Join(known, ", "))
}

// Check tests the relations between parameters (Require), in the order they were added.
func (b *Base) Check() error {
	for _, c := range b.constraints {
		if err := c(); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrParam, b.name, err)
		}
	}
	return nil
}

var _ Checker = (*Base)(nil)
