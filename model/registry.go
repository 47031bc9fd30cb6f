package model

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

// ErrUnknownAlgorithm is returned (wrapped) by New for a name that is not registered.
var ErrUnknownAlgorithm = errors.New("unknown algorithm")

// ErrParam is returned (wrapped) for an unknown parameter name, a value outside its range
// or parameters that contradict one another.
var ErrParam = errors.New("invalid algorithm parameter")

var (
	registryMu sync.RWMutex
	registry   = map[string]func() Algorithm{}
)

// Register makes an algorithm available by name to New and Configure. It panics on a
// duplicate name, which is a programming error.
func Register(name string, ctor func() Algorithm) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("model: algorithm registered twice: " + name)
	}
	registry[name] = ctor
}

// New returns a fresh instance of the named algorithm with default parameters, or with
// those of a variant: "cubic@linux" (Varianter), the parameters checked together.
func New(name string) (Algorithm, error) {
	algo, variant := SplitVariant(name)
	registryMu.RLock()
	ctor, ok := registry[algo]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w: algorithm %q (known: %v)", ErrUnknownAlgorithm, name, Algorithms())
	}
	a := ctor()
	if variant == "" {
		return a, nil
	}
	if err := applyVariant(a, algo, variant); err != nil {
		return nil, err
	}
	if c, ok := a.(Checker); ok {
		if err := c.Check(); err != nil {
			return nil, &ParamError{Err: fmt.Errorf("variant %s: %w", name, err)}
		}
	}
	return a, nil
}

// Configure returns a fresh instance of the named algorithm (or variant, "cubic@linux")
// with every parameter of params set on top (in name order, each checked against its
// range) and then the parameters checked together once (Checker). It is how both engines,
// validation and sweeps build an algorithm, so a set of parameters is accepted or refused
// as a whole, whatever the order it was given in.
func Configure(name string, params map[string]float64) (Algorithm, error) {
	a, err := New(name)
	if err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(params) {
		if err := a.Set(k, params[k]); err != nil {
			return nil, &ParamError{Param: k, Err: err}
		}
	}
	if c, ok := a.(Checker); ok {
		if err := c.Check(); err != nil {
			return nil, &ParamError{Err: err}
		}
	}
	return a, nil
}

// ParamError is Configure's error about a parameter set: Param names the parameter whose
// value or name was refused, or is empty when the parameters contradict one another (the
// message then names every one involved). It unwraps to an error wrapping ErrParam.
type ParamError struct {
	Param string
	Err   error
}

func (e *ParamError) Error() string { return e.Err.Error() }
func (e *ParamError) Unwrap() error { return e.Err }

// Algorithms lists the registered algorithm names in sorted order (without variants:
// VariantsOf lists an algorithm's).
func Algorithms() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// MultipathAlgorithms lists the registered multi-path algorithms in sorted order.
func MultipathAlgorithms() []string {
	var out []string
	for _, n := range Algorithms() {
		if a, err := New(n); err == nil && IsMultipath(a) {
			out = append(out, n)
		}
	}
	return out
}
