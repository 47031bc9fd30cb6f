package response

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Undefined figures are null in the JSON, never NaN (which encoding/json refuses) or a
// stand-in 0: the RTT-unfairness exponent of flows whose RTTs are all equal, the fit of a
// single point.
func TestJSONUndefinedIsNull(t *testing.T) {
	rep, err := Fairness(context.Background(), FairnessSettings{Mode: ModeRTT, RTTsS: []float64{0.05, 0.05}, DurationS: 100})
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.RTTExponent != nil {
		t.Errorf("RTT exponent of equal RTTs = %v, want nil", *r.RTTExponent)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, `"rtt_unfairness_exponent":null`) || !strings.Contains(s, `"jain":`) {
		t.Errorf("rtt-mode JSON lacks a null exponent: %s", s)
	}
	resp, err := Response(context.Background(), Settings{Algorithms: []string{"reno"}, PMin: 1e-4, PMax: 1e-4, Points: 1, RTTExponentP: -1})
	if err != nil {
		t.Fatal(err)
	}
	b, err = json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Results []map[string]any
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"c", "d", "r2"} {
		if got, ok := v.Results[0][k]; !ok || got != nil {
			t.Errorf("one-point fit: %s = %v (present %v), want null", k, got, ok)
		}
	}
	if got := v.Results[0]["fit_points"]; got != 1.0 {
		t.Errorf("fit_points = %v, want 1", got)
	}
	// A defined figure keeps its value to the last bit.
	x := 0.1 + 0.2
	b, _ = json.Marshal(JainPoint{TS: 1, Jain: x})
	var jp JainPoint
	if err := json.Unmarshal(b, &jp); err != nil || jp.Jain != x {
		t.Errorf("JainPoint round trip %s: %v, %v", b, jp.Jain, err)
	}
	b, _ = json.Marshal(JainPoint{TS: 1, Jain: math.NaN()})
	if string(b) != `{"t_s":1,"jain":null}` {
		t.Errorf("NaN Jain: %s", b)
	}
}

// Settings a library caller gets wrong are errors naming the field, never a silent default
// or a NaN result.
func TestSettingsRefused(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"negative loss", func() error { _, err := Fairness(ctx, FairnessSettings{LossP: -1}); return err }, "loss rate p = -1"},
		{"NaN loss", func() error { _, err := Fairness(ctx, FairnessSettings{LossP: math.NaN()}); return err }, "loss rate p = NaN"},
		{"negative access", func() error { _, err := Fairness(ctx, FairnessSettings{AccessBps: -5}); return err }, "access rate -5"},
		{"NaN buffer", func() error { _, err := Fairness(ctx, FairnessSettings{BufferBDP: math.NaN()}); return err }, "buffer NaN"},
		{"window past the measurement", func() error { _, err := Fairness(ctx, FairnessSettings{DurationS: 100, WindowS: 60}); return err }, "window 60 s"},
		{"infinite window", func() error { _, err := Fairness(ctx, FairnessSettings{WindowS: math.Inf(1)}); return err }, "window +Inf"},
		{"BDP below a packet", func() error {
			_, err := Converge(ctx, ConvergeSettings{Algorithms: []string{"reno"}, BandwidthsBps: []float64{1000}})
			return err
		}, "at least 1 packet"},
		{"NaN target CI", func() error {
			_, err := Response(ctx, Settings{Algorithms: []string{"reno"}, TargetRelCI: math.NaN()})
			return err
		}, "target relative CI"},
		{"zero exponent RTT", func() error {
			_, err := Response(ctx, Settings{Algorithms: []string{"reno"}, RTTExponentRTTs: []float64{0.1, -1}})
			return err
		}, "RTT-exponent rtt -1"},
	} {
		err := tc.run()
		if !errors.Is(err, model.ErrSettings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a settings error naming %q", tc.name, err, tc.want)
		}
	}
}
