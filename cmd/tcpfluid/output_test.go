package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// writeJSON's faster encoder (go-json) writes what encoding/json writes, byte for byte:
// floats in both notations and at their edges, escaped names, nulls and nesting.
func TestWriteJSONIsEncodingJSON(t *testing.T) {
	ct := 12.5
	res := &model.Result{Scenario: `a<b>&"c"`, Engine: "fluid", Seed: math.MaxUint64, DurationS: 1e21,
		Flows: []model.FlowResult{
			{Flow: 0, Name: "é#0", MeanThroughputBps: 1e-7, MeanCwndPkts: 123456789.123, SentPkts: 9.999999e20, CompletionTimeS: &ct},
			{Flow: 1, Name: "x\ty", MeanThroughputBps: 1e-6, MeanCwndPkts: -0.5, DroppedPkts: 5e-324, ActiveS: math.MaxFloat64},
		},
		Links: []model.LinkResult{{Link: "l0", MeanQueuePkts: 0.1 + 0.2, Utilisation: 1}},
	}
	for _, v := range []any{res, map[string]any{"points": []any{nil, 1.0, "s", []float64{}}}, []int{}} {
		var got, want bytes.Buffer
		if err := writeJSON(&got, v); err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("writeJSON wrote\n%s\nencoding/json writes\n%s", got.String(), want.String())
		}
	}
}

// A NaN that reached the output is reported as a bug, and nothing is written.
func TestWriteJSONRefusesNaN(t *testing.T) {
	var b bytes.Buffer
	err := writeJSON(&b, map[string]float64{"x": math.NaN()})
	if err == nil || !strings.Contains(err.Error(), "NaN in the JSON output") || b.Len() != 0 {
		t.Errorf("NaN: error %v, wrote %q", err, b.String())
	}
}
