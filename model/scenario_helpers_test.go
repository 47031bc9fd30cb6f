package model_test

import (
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Scenario tests use registered algorithms: reno, and cubic's beta (the fraction of the
// window kept after a loss) to exercise parameter validation.
const (
	scnAlgo      = "reno"
	scnParamAlgo = "cubic"
	scnParam     = "beta"
)

// scnParamRange is the allowed range of cubic's beta, as its own Params documents it.
func scnParamRange(t *testing.T) (lo, hi float64) {
	t.Helper()
	alg, err := model.New(scnParamAlgo)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range alg.Params() {
		if p.Name == scnParam {
			return p.Min, p.Max
		}
	}
	t.Fatalf("%s has no parameter %s", scnParamAlgo, scnParam)
	return 0, 0
}

// scnWantErr fails unless err is non-nil and its message holds every substring.
func scnWantErr(t *testing.T, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got nil error, want one containing %q", subs)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
}

// scnRelClose reports whether got is within rel (relative) of want.
func scnRelClose(got, want, rel float64) bool {
	d := got - want
	if d < 0 {
		d = -d
	}
	m := want
	if m < 0 {
		m = -m
	}
	return d <= rel*m
}
