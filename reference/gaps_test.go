package reference

import (
	"slices"
	"testing"
)

// assertGaps fails for each key out of tolerance that the list of known gaps does not
// hold and for each key it holds that is back within tolerance, so that the list is
// always the truth.
func assertGaps(t *testing.T, list string, out, known []string) {
	t.Helper()
	for _, k := range out {
		if !slices.Contains(known, k) {
			t.Errorf("%s: out of tolerance against ns-3 and not in %s", k, list)
		}
	}
	for _, k := range known {
		if !slices.Contains(out, k) {
			t.Errorf("%s: a known gap that is now within tolerance: take it off %s", k, list)
		}
	}
}
