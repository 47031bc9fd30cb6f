// Package ode integrates initial value problems y' = f(t, y) for the fluid engine of
// tcpfluid: hybrid systems that flow between events and jump at them, with optional
// delayed terms y(t−τ).
//
// The API follows the shape of gonum.org/v1/exp/ode — an IVP, an Integrator with
// Init/Step/State — so either could be swapped for the other. On top of that shape it adds
//
//   - dense output: the Dense interface exposes the continuous extension of the last
//     accepted step (Interpolate) and a restart after a jump (Reset);
//   - event location: a Driver integrates to a target time exactly, evaluates guard
//     functions g(t, y) after each accepted step and locates the first crossing in the
//     requested Direction on the dense output; a level that only needs recording where a
//     component reaches it is located after the step instead (Driver.Reach, from
//     DriverSettings.StopAt, which may also cut the step where the caller must act), so
//     that thousands of such levels do not stop the integration one by one;
//   - delays: a History stores the dense output of the accepted steps for look-ups of
//     y(t−τ) with constant or state-dependent τ.
//
// Two integrators are provided: DormandPrince, the adaptive explicit Runge–Kutta pair of
// order 5(4) with its order-4 continuous extension (Dormand and Prince 1980; dense output
// of Shampine 1986, as tabulated in Hairer, Nørsett and Wanner, Solving Ordinary
// Differential Equations I, 2nd ed., §II.5–II.6), and RK4, the classical fixed-step
// fourth-order method with a cubic Hermite dense output.
//
// Integration runs forward in time only. Time is in the caller's unit (seconds in
// tcpfluid); tolerances are in the units of the state components.
//
// Bad numbers never panic: malformed problems return ErrBadIVP, bad settings
// ErrBadSettings, a NaN or ±Inf state or derivative ErrNonFinite naming the component and
// time, a step size driven below the minimum ErrStepUnderflow, and runaway integrations
// ErrMaxSteps or the wrapped context error. All errors wrap these sentinels.
//
// Hot paths do not allocate: a Driver stepping with events, the integrators' Step and a
// History in steady state all run at zero allocations per step. None of the types is safe
// for concurrent use.
package ode
