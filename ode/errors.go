package ode

import "errors"

// Sentinel errors. Returned errors wrap one of these with the offending field, value and
// time; test with errors.Is.
var (
	// ErrBadIVP reports a malformed initial value problem: nil Func, nil or empty Y0,
	// non-finite T0 or Y0.
	ErrBadIVP = errors.New("ode: malformed initial value problem")
	// ErrBadSettings reports a setting outside its allowed range.
	ErrBadSettings = errors.New("ode: invalid setting")
	// ErrBadArgument reports an invalid argument to a method: a target time before the
	// current time, a step that is not positive, a state of the wrong length.
	ErrBadArgument = errors.New("ode: invalid argument")
	// ErrNonFinite reports a NaN or ±Inf state, derivative or guard value.
	ErrNonFinite = errors.New("ode: non-finite value")
	// ErrStepUnderflow reports that the error control drove the step size below the
	// minimum step.
	ErrStepUnderflow = errors.New("ode: step size underflow")
	// ErrMaxSteps reports that a Driver reached its DriverSettings.MaxSteps.
	ErrMaxSteps = errors.New("ode: maximum number of steps reached")
)
