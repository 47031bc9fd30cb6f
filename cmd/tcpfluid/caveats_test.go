package main

import (
	"strings"
	"testing"
)

// The response table says under it which figures fall outside their validity: Vegas on
// the uncongested path is Reno; Scalable's friendliness point 3.7e-3 lies inside
// [1e-4, 1e-2] and earns no caveat, but outside [1e-5, 1e-4] it is extrapolated.
func TestResponseTableCaveats(t *testing.T) {
	for _, c := range []struct {
		pMin, pMax string
		want, not  []string
	}{
		{"1e-4", "1e-2", []string{"! vegas: W̄ equals reno's at every measured loss rate"}, []string{"! scalable", "! reno"}},
		{"1e-5", "1e-4", []string{"! scalable: friendliness point p* = 0.0037 is outside the measured loss rates [1e-05, 1e-04]"}, []string{"! reno"}},
	} {
		out, err := runCLI(t, "response", "--algo", "reno,vegas,scalable", "--p-min", c.pMin, "--p-max", c.pMax, "--points", "3", "--format", "table")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("p in [%s, %s]: no %q in\n%s", c.pMin, c.pMax, w, out)
			}
		}
		for _, n := range c.not {
			if strings.Contains(out, n) {
				t.Errorf("p in [%s, %s]: unexpected %q in\n%s", c.pMin, c.pMax, n, out)
			}
		}
	}
}
