package meanfield

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// param reads an algorithm's current parameter value by name.
func param(t *testing.T, a model.Algorithm, name string) float64 {
	t.Helper()
	for _, p := range a.Params() {
		if p.Name == name {
			return p.Value
		}
	}
	t.Fatalf("%s has no parameter %q", a.Name(), name)
	return 0
}

// TestLawOfBuiltins checks the generic construction against each built-in law's
// published rule: Reno's +1 and W/2, Scalable's a·W and (1 − b)·W above the legacy
// window (Reno below), HighSpeed's RFC 3649 a(W) and (1 − b(W))·W through model's
// exported HighSpeedA and HighSpeedB. Both read the same float64 operations, so they
// agree to rounding.
func TestLawOfBuiltins(t *testing.T) {
	o := model.Observation{RTT: 0.1, BaseRTT: 0.1}
	ws := []float64{4, 5.5, 12, 16, 16.5, 38, 39, 100, 1e3, 1e4, 83000, 1e5}
	sc, err := model.Configure("scalable", nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b, legacy := param(t, sc, "a"), param(t, sc, "b"), param(t, sc, "legacy_window")
	for _, c := range []struct {
		name     string
		inc, aft func(w float64) float64
	}{
		{"reno", func(float64) float64 { return 1 }, func(w float64) float64 { return w / 2 }},
		{"newreno", func(float64) float64 { return 1 }, func(w float64) float64 { return w / 2 }},
		{"scalable", func(w float64) float64 {
			if w > legacy {
				return a * w
			}
			return 1
		}, func(w float64) float64 {
			if w > legacy {
				return (1 - b) * w
			}
			return w / 2
		}},
		{"highspeed", model.HighSpeedA, func(w float64) float64 { return (1 - model.HighSpeedB(w)) * w }},
	} {
		law, err := LawOf(c.name, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if law.Name() != c.name {
			t.Errorf("law name %q, want %q", law.Name(), c.name)
		}
		for _, w := range ws {
			if got, want := law.Increase(w, o), c.inc(w); math.Abs(got-want) > 1e-12*math.Max(1, want) {
				t.Errorf("%s: Increase(%g) = %.15g packets/RTT, want %.15g", c.name, w, got, want)
			}
			// The stop-gap reads the sender's loss jump, which floors at MinLossWindow.
			want := math.Max(c.aft(w), model.MinLossWindow)
			if got := law.After(w, o); math.Abs(got-want) > 1e-12*w {
				t.Errorf("%s: After(%g) = %.15g packets, want %.15g", c.name, w, got, want)
			}
		}
	}
	// Parameters reach the law.
	law, err := LawOf("scalable", map[string]float64{"a": 0.02, "legacy_window": 50})
	if err != nil {
		t.Fatal(err)
	}
	if got := law.Increase(100, o); math.Abs(got-2) > 1e-12 {
		t.Errorf("scalable a = 0.02: Increase(100) = %v, want 2", got)
	}
	if got := law.Increase(40, o); got != 1 {
		t.Errorf("scalable legacy_window = 50: Increase(40) = %v, want 1 (Reno)", got)
	}
}

// TestLawOfRefuses: laws with memory have no mean-field form, and the error names the ones
// that do.
func TestLawOfRefuses(t *testing.T) {
	for _, name := range []string{"cubic", "bic", "htcp", "tahoe", "vegas", "compound", "colo", "lia", "olia", "vlia"} {
		_, err := LawOf(name, nil)
		if !errors.Is(err, ErrNoMeanField) || !strings.Contains(err.Error(), `"`+name+`"`) ||
			!strings.Contains(err.Error(), "not a memoryless window rule") || !strings.Contains(err.Error(), "highspeed, newreno, reno, scalable") {
			t.Errorf("%s: error %v, want ErrNoMeanField naming the algorithm and the laws that have the form", name, err)
		}
	}
	if _, err := LawOf("nosuch", nil); !errors.Is(err, model.ErrUnknownAlgorithm) {
		t.Errorf("unknown algorithm: %v, want model.ErrUnknownAlgorithm", err)
	}
	if _, err := LawOf("reno", map[string]float64{"beta": 1}); !errors.Is(err, model.ErrParam) {
		t.Errorf("bad parameter: %v, want model.ErrParam", err)
	}
}

// hooked is an algorithm outside model that offers the MeanFieldRule hook itself.
type hooked struct {
	model.Base
	model.WindowLaw
	memoryless bool
}

type hookedRule struct{}

func (hookedRule) Start(model.Observation)                           {}
func (hookedRule) PerRTT(float64, model.Observation) float64         { return 3 }
func (hookedRule) Congestion(w float64, _ model.Observation) float64 { return 0.8 * w }

func (h *hooked) MeanFieldRule() (model.WindowRule, bool) { return hookedRule{}, h.memoryless }

// TestMeanFieldHook: an algorithm with the hook gets its rule's law; one that declines is
// refused.
func TestMeanFieldHook(t *testing.T) {
	h := &hooked{Base: model.NewBase("hooked", "test"), memoryless: true}
	h.WindowLaw = model.WindowLaw{Rule: func() model.WindowRule { return hookedRule{} }}
	law, err := LawFor(h)
	if err != nil {
		t.Fatal(err)
	}
	o := model.Observation{RTT: 1}
	if law.Increase(10, o) != 3 || law.After(10, o) != 8 || law.Name() != "hooked" {
		t.Errorf("hooked law: Increase %v, After %v, name %q; want 3, 8, hooked", law.Increase(10, o), law.After(10, o), law.Name())
	}
	h.memoryless = false
	if _, err := LawFor(h); !errors.Is(err, ErrNoMeanField) {
		t.Errorf("declined hook: %v, want ErrNoMeanField", err)
	}
	// The floor: a loss never leaves less than MinLossWindow, and never grows the window.
	if got := lost(AIMD{A: 1, B: 0.1}, 10, o); got != 8 {
		t.Errorf("lost(AIMD b = 0.1, 10) = %v packets, want 8 (floor 2)", got)
	}
	if got := lost(Reno(), 1.5, o); got != 0 {
		t.Errorf("lost(Reno, 1.5) = %v packets, want 0 below the floor", got)
	}
}
