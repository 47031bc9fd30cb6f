package meanfield

import (
	"errors"
	"fmt"
	"strings"

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
	return max(0, w-max(l.After(w, o), model.MinLossWindow))
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

// RuleLaw is the mean-field law of a memoryless window rule (model.MeanFielder); the
// caller vouches that the rule keeps no state.
func RuleLaw(name string, rule model.WindowRule) Law { return ruleLaw{name: name, rule: rule} }

// LawOf is the mean-field law of the registered algorithm name with the parameters
// params (model.Configure), fresh for the caller.
func LawOf(name string, params map[string]float64) (Law, error) {
	a, err := model.Configure(name, params)
	if err != nil {
		return nil, err
	}
	return LawFor(a)
}

// LawFor is the mean-field law of a configured algorithm: its memoryless window rule
// (model.MeanFielder); any other algorithm is refused with ErrNoMeanField.
func LawFor(a model.Algorithm) (Law, error) {
	if h, ok := a.(model.MeanFielder); ok && !model.IsMultipath(a) {
		if rule, ok := h.MeanFieldRule(); ok && rule != nil {
			return RuleLaw(a.Name(), rule), nil
		}
	}
	return nil, fmt.Errorf("%w: algorithm %q: its law is not a memoryless window rule (a function of the window alone, with a loss that keeps the window); those are %s",
		ErrNoMeanField, a.Name(), strings.Join(memoryless(), ", "))
}

// memoryless lists the registered algorithms that have a mean-field form.
func memoryless() []string {
	var out []string
	for _, n := range model.Algorithms() {
		if a, err := model.New(n); err == nil {
			if h, ok := a.(model.MeanFielder); ok && !model.IsMultipath(a) {
				if _, ok := h.MeanFieldRule(); ok {
					out = append(out, n)
				}
			}
		}
	}
	return out
}
