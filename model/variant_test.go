package model

import (
	"errors"
	"math"
	"testing"
)

func param(t *testing.T, a Algorithm, name string) float64 {
	t.Helper()
	for _, p := range a.Params() {
		if p.Name == name {
			return p.Value
		}
	}
	t.Fatalf("%s has no parameter %s", a.Name(), name)
	return 0
}

// A variant is its algorithm with the variant's parameters on top of the defaults; the
// user's parameters go on top of the variant's; unknown variants and algorithms without
// variants are errors naming what is known.
func TestVariants(t *testing.T) {
	a, err := New("cubic@linux")
	if err != nil {
		t.Fatal(err)
	}
	if b := param(t, a, "beta"); b != 819.0/1024 {
		t.Errorf("cubic@linux beta %v, want 819/1024", b)
	}
	a, err = Configure("cubic@ns3", map[string]float64{"beta": 0.75})
	if err != nil {
		t.Fatal(err)
	}
	if b, f := param(t, a, "beta"), param(t, a, "reno_friendly"); b != 0.75 || f != 0 {
		t.Errorf("cubic@ns3 with beta 0.75: beta %v, reno_friendly %v; want 0.75 and the variant's 0", b, f)
	}
	if d, _ := New("cubic"); math.Abs(param(t, d, "beta")-0.7) > 1e-12 {
		t.Errorf("cubic's default beta %v, want 0.7 (a variant must not leak into the defaults)", param(t, d, "beta"))
	}
	for _, bad := range []string{"cubic@bsd", "tahoe@linux", "nope@linux"} {
		if _, err := New(bad); !errors.Is(err, ErrUnknownAlgorithm) {
			t.Errorf("New(%q): %v, want ErrUnknownAlgorithm", bad, err)
		}
	}
	if vs, err := VariantsOf("cubic"); err != nil || len(vs) != 2 || vs[0].Name != "linux" || vs[0].Source == "" {
		t.Errorf("VariantsOf(cubic) = %+v, %v; want linux and ns3 with their sources", vs, err)
	}
}

// A variant's recovery is the algorithm's recovery (RecoveryOf); without one the
// algorithm keeps its own.
func TestVariantRecovery(t *testing.T) {
	newAlg := func() *recoveryVariantAlg {
		return &recoveryVariantAlg{renoFamily: *newRenoFamily("varianttest", "test", RecoveryReno, false)}
	}
	if a := newAlg(); RecoveryOf(a) != RecoveryReno {
		t.Errorf("own recovery %v, want RecoveryReno", RecoveryOf(a))
	}
	a := newAlg()
	if err := applyVariant(a, "varianttest", "tahoe"); err != nil {
		t.Fatal(err)
	}
	if r := RecoveryOf(a); r != RecoveryTahoe {
		t.Errorf("variant recovery %v, want RecoveryTahoe", r)
	}
}

type recoveryVariantAlg struct{ renoFamily }

func (a *recoveryVariantAlg) Variants() []Variant {
	return []Variant{{Name: "tahoe", Source: "test", Recovery: RecoveryTahoe}}
}
