package main

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// run --jitter reaches the fluid's counted form, whose linux variants count only the ACKs
// a jittered ns-2 sender counts (fluid.Settings.SendJitterS): the command's result is the
// library's with that setting, and not the one without.
func TestRunJitterInCountedForm(t *testing.T) {
	args := []string{"run", "--builtin", "seed000-dumbbell", "--algo", "reno@linux", "--form", "hybrid-recovery",
		"--sack", "--duration", "20s", "--format", "json"}
	out, code, line := runStatus(t, append(args, "--jitter", "240us")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, line)
	}
	var got model.Result
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	sc, err := model.Builtin("seed000-dumbbell")
	if err != nil {
		t.Fatal(err)
	}
	sc.DurationS = 20
	for i := range sc.Flows {
		sc.Flows[i].Algorithm = "reno@linux"
	}
	lib := func(jitterS float64) float64 {
		res, err := fluid.Run(t.Context(), sc, fluid.Settings{Seed: 1, Form: fluid.FormHybridRecovery, SACK: true, SendJitterS: jitterS})
		if err != nil {
			t.Fatal(err)
		}
		return res.Flows[0].MeanCwndPkts
	}
	with, without := lib(240e-6), lib(0)
	// The command's settings (its fold and reaction defaults) may move the last bits.
	if w := got.Flows[0].MeanCwndPkts; math.Abs(w-with) > 1e-9*with || math.Abs(w-without) < 0.01*without {
		t.Errorf("run --jitter 240us: mean window %v packets, want the library's %v with the jitter (%v without)", w, with, without)
	}
}
