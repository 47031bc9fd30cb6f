package meanfield

import (
	"errors"
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// ErrNoMeanField is returned (wrapped) by LawOf and LawFor for an algorithm whose law is
// not a function of the window alone, so that a population of its flows has no mean-field
// form.
var ErrNoMeanField = errors.New("no mean-field form")

// Law is a congestion-avoidance law as functions of the window: the two numbers of
// model.WindowRule, without the rule's discrete state. The mean-field form integrates,
// for a class of flows with window W and round-trip time τ,
//
//	dW/dt = Increase(W)/τ − (W − max(After(W), model.MinLossWindow))⁺ · W(t−τ)/τ(t−τ) · p(t−τ).
//
// A Law may be stateful scratch (the stop-gap adapters below are): one Law serves one
// goroutine; LawOf makes a fresh one per call.
type Law interface {
	// Name is the algorithm's registered name, for reports.
	Name() string
	// Increase is the window increase per RTT in congestion avoidance at window w,
	// packets (model.WindowRule.PerRTT).
	Increase(w float64, o model.Observation) float64
	// After is the window a loss event leaves at window w, packets, before the
	// model.MinLossWindow floor (model.WindowRule.Congestion without its bookkeeping).
	After(w float64, o model.Observation) float64
}

// lost is the window a loss event removes at window w, packets: w minus what the law
// leaves, floored at model.MinLossWindow as every sender floors it (RFC 5681 eq. 4), and
// never negative (a loss does not grow a window below the floor).
func lost(l Law, w float64, o model.Observation) float64 {
	return math.Max(0, w-math.Max(l.After(w, o), model.MinLossWindow))
}

// AIMD is the additive-increase, multiplicative-decrease law: +A packets per RTT, B·W
// after a loss. Reno is AIMD{1, 0.5}, whose mean-field form is the equation of Misra,
// Gong and Towsley (SIGCOMM 2000).
type AIMD struct {
	Label string  // reported name; "aimd" when empty
	A     float64 // packets per RTT, > 0
	B     float64 // fraction of the window kept at a loss, in [0, 1)
}

// Reno is AIMD(1, 1/2).
func Reno() AIMD { return AIMD{Label: "reno", A: 1, B: 0.5} }

// Name implements Law.
func (a AIMD) Name() string {
	if a.Label == "" {
		return "aimd"
	}
	return a.Label
}

// Increase implements Law.
func (a AIMD) Increase(float64, model.Observation) float64 { return a.A }

// After implements Law.
func (a AIMD) After(w float64, _ model.Observation) float64 { return a.B * w }

// MeanFieldRuler is the hook this package asks of model (see the package documentation):
// an algorithm whose WindowRule is memoryless — PerRTT and Congestion depend on the
// window and the observation only, and Congestion records nothing — hands the rule out,
// ok = false otherwise. model.WindowLaw would implement it for the laws that declare
// themselves memoryless, so every built-in and external WindowLaw gets it by embedding.
// LawFor uses it whenever an algorithm implements it.
type MeanFieldRuler interface {
	MeanFieldRule() (rule model.WindowRule, ok bool)
}

// ruleLaw is the mean-field law of a memoryless model.WindowRule.
type ruleLaw struct {
	name string
	rule model.WindowRule
}

func (r ruleLaw) Name() string { return r.name }
func (r ruleLaw) Increase(w float64, o model.Observation) float64 {
	return r.rule.PerRTT(w, o)
}
func (r ruleLaw) After(w float64, o model.Observation) float64 { return r.rule.Congestion(w, o) }

// RuleLaw is the mean-field law of a memoryless window rule (see MeanFieldRuler); the
// caller vouches that the rule keeps no state.
func RuleLaw(name string, rule model.WindowRule) Law { return ruleLaw{name: name, rule: rule} }

// STOP-GAP until model exports the MeanFieldRuler hook: the built-in memoryless window
// laws, by registered name. Their rule types are unexported, so their laws are read
// through the exported fluid face (faceLaw). Remove this table, faceLaw and newFaceLaw
// when model.WindowLaw implements MeanFieldRule.
var stopGapMemoryless = map[string]bool{"reno": true, "newreno": true, "scalable": true, "highspeed": true}

// refusals says why the mean-field form refuses the other built-in algorithms.
var refusals = map[string]string{
	"tahoe": "a loss restarts slow start from one packet, a jump the mean window does not average",
	"cubic": "CUBIC's window is a function of the time since the last loss (W_max + C·(t − K)³), not of the window, " +
		"so a population's mean window has no law of its own; use the hybrid form",
	"bic":      "BIC's increase depends on W_max, the window at the last loss, not on the window alone",
	"htcp":     "H-TCP's increase depends on the time since the last loss",
	"compound": "Compound's delay window is a second state variable",
	"vegas":    "Vegas has no loss-driven law: its window follows the queueing delay",
	"colo":     "COLO's decrease adapts to the queue seen at past losses",
	"lia":      "multi-path laws couple subflows",
	"olia":     "multi-path laws couple subflows",
	"vlia":     "multi-path laws couple subflows",
}

// LawOf is the mean-field law of the registered algorithm name with the parameters
// params (model.Configure), fresh for the caller.
func LawOf(name string, params map[string]float64) (Law, error) {
	a, err := model.Configure(name, params)
	if err != nil {
		return nil, err
	}
	return LawFor(a)
}

// LawFor is the mean-field law of a configured algorithm: its MeanFieldRule when it
// implements MeanFieldRuler, else (stop-gap) its fluid face for the built-in memoryless
// window laws; any other algorithm is refused with ErrNoMeanField and the reason.
func LawFor(a model.Algorithm) (Law, error) {
	name := a.Name()
	if h, ok := a.(MeanFieldRuler); ok {
		if rule, ok := h.MeanFieldRule(); ok && rule != nil {
			return RuleLaw(name, rule), nil
		}
		return nil, refusal(name)
	}
	if stopGapMemoryless[name] && !model.IsMultipath(a) {
		return newFaceLaw(a)
	}
	return nil, refusal(name)
}

func refusal(name string) error {
	why, ok := refusals[name]
	if !ok {
		why = "its law does not declare itself a function of the window alone (meanfield.MeanFieldRuler)"
	}
	return fmt.Errorf("%w: algorithm %q: %s", ErrNoMeanField, name, why)
}

// faceLaw (STOP-GAP) reads a memoryless one-window law through its exported fluid face:
// out of slow start, Deriv at x = [w] is PerRTT(w)/RTT, and OnLoss leaves
// max(Congestion(w), MinLossWindow). It keeps scratch state: one goroutine only.
type faceLaw struct {
	name  string
	face  model.FluidLaw
	x, dx []float64
}

func newFaceLaw(a model.Algorithm) (Law, error) {
	face := a.NewFluid(model.FlowConfig{InitialCwnd: 2 * model.MinLossWindow, InitialSsthresh: model.MinLossWindow, MSSBytes: 1460})
	if face.Vars() != 1 {
		return nil, fmt.Errorf("%w: algorithm %q: its fluid face has %d state variables, want one window", ErrNoMeanField, a.Name(), face.Vars())
	}
	f := &faceLaw{name: a.Name(), face: face, x: make([]float64, 1), dx: make([]float64, 1)}
	o := model.Observation{RTT: 1, BaseRTT: 1}
	face.Init(f.x, o)
	face.Switch(f.x, o) // congestion avoidance from here on; a loss keeps it there
	return f, nil
}

func (f *faceLaw) Name() string { return f.name }

func (f *faceLaw) Increase(w float64, o model.Observation) float64 {
	f.x[0] = w
	f.face.Deriv(f.dx, f.x, o)
	return f.dx[0] * model.ClockRTT(o)
}

func (f *faceLaw) After(w float64, o model.Observation) float64 {
	f.x[0] = w
	f.face.OnLoss(f.x, o)
	return f.x[0]
}
