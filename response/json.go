package response

import (
	"encoding/json"
	"math"
)

// JSON of the reports: a figure that is undefined — a fit of fewer than two points, an
// RTT exponent over RTTs that are all equal, any NaN or infinity — is null, never NaN
// (which encoding/json refuses) and never a stand-in 0.

// finitePtr is v, or nil (null) when v is NaN or infinite.
func finitePtr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// finiteOf is *p when p is set and finite, else nil.
func finiteOf(p *float64) *float64 {
	if p == nil {
		return nil
	}
	return finitePtr(*p)
}

// MarshalJSON writes c, d and r2 as null when the fit is undefined (fewer than two
// points, FitPoints) or not finite.
func (r AlgorithmResponse) MarshalJSON() ([]byte, error) {
	type plain AlgorithmResponse
	out := struct {
		plain
		C    *float64 `json:"c"`
		D    *float64 `json:"d"`
		R2   *float64 `json:"r2"`
		RefC *float64 `json:"reference_c_at_rtt,omitempty"`
	}{plain: plain(r), RefC: finitePtr(r.RefC)}
	if r.RefC == 0 {
		out.RefC = nil
	}
	if r.FitPoints >= 2 {
		out.C, out.D, out.R2 = finitePtr(r.C), finitePtr(r.D), finitePtr(r.R2)
	}
	return json.Marshal(out)
}

// MarshalJSON writes undefined figures of a point as null, in Point's field order.
func (p Point) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		P             float64  `json:"p"`
		MeanCwndPkts  *float64 `json:"mean_cwnd_pkts"`
		CI95Pkts      *float64 `json:"ci95_pkts"`
		ThroughputBps *float64 `json:"throughput_bps"`
		LossEvents    int      `json:"loss_events"`
		WarmupLosses  int      `json:"warmup_losses"`
		SimulatedS    *float64 `json:"simulated_s"`
	}{p.P, finitePtr(p.MeanCwndPkts), finitePtr(p.CI95Pkts), finitePtr(p.ThroughputBps), p.LossEvents, p.WarmupLosses, finitePtr(p.SimulatedS)})
}

// MarshalJSON writes an undefined exponent (RTTs all equal) as null.
func (e RTTExponent) MarshalJSON() ([]byte, error) {
	type plain RTTExponent
	return json.Marshal(struct {
		plain
		E  *float64 `json:"e"`
		R2 *float64 `json:"r2"`
	}{plain(e), finitePtr(e.E), finitePtr(e.R2)})
}

// MarshalJSON writes undefined figures as null; in rtt mode the RTT-unfairness exponent
// and its R² are always present, null when undefined (the flows' RTTs all equal).
func (r FairnessResult) MarshalJSON() ([]byte, error) {
	type plain FairnessResult
	out := struct {
		plain
		Jain        *float64 `json:"jain"`
		Utilisation *float64 `json:"utilisation"`
		RTTExponent *float64 `json:"rtt_unfairness_exponent,omitempty"`
		RTTExpR2    *float64 `json:"rtt_unfairness_r2,omitempty"`
	}{plain: plain(r), Jain: finitePtr(r.Jain), Utilisation: finitePtr(r.Utilisation),
		RTTExponent: finiteOf(r.RTTExponent), RTTExpR2: finiteOf(r.RTTExpR2)}
	if r.mode != ModeRTT || out.RTTExponent != nil {
		return json.Marshal(out)
	}
	return json.Marshal(struct {
		plain
		Jain        *float64 `json:"jain"`
		Utilisation *float64 `json:"utilisation"`
		RTTExponent *float64 `json:"rtt_unfairness_exponent"`
		RTTExpR2    *float64 `json:"rtt_unfairness_r2"`
	}{out.plain, out.Jain, out.Utilisation, nil, nil})
}

// MarshalJSON writes undefined shares as null.
func (s Share) MarshalJSON() ([]byte, error) {
	type plain Share
	return json.Marshal(struct {
		plain
		ThroughputBps *float64 `json:"throughput_bps"`
		Fraction      *float64 `json:"fraction"`
	}{plain(s), finitePtr(s.ThroughputBps), finitePtr(s.Fraction)})
}

// MarshalJSON writes an undefined index as null.
func (j JainPoint) MarshalJSON() ([]byte, error) {
	type plain JainPoint
	return json.Marshal(struct {
		plain
		Jain *float64 `json:"jain"`
	}{plain(j), finitePtr(j.Jain)})
}

// MarshalJSON writes undefined times and differences as null.
func (r ConvergeResult) MarshalJSON() ([]byte, error) {
	type plain ConvergeResult
	return json.Marshal(struct {
		plain
		FillTimeS           *float64 `json:"fill_time_s"`
		RecoveryTimeS       *float64 `json:"recovery_time_s"`
		FillSlowStartS      *float64 `json:"fill_slow_start_s,omitempty"`
		FillClosedFormS     *float64 `json:"fill_closed_form_s"`
		RecoveryClosedFormS *float64 `json:"recovery_closed_form_s"`
		FillRelDiff         *float64 `json:"fill_rel_diff"`
		RecoveryRelDiff     *float64 `json:"recovery_rel_diff"`
	}{plain(r), finiteOf(r.FillTimeS), finiteOf(r.RecoveryTimeS), finiteOf(r.FillSlowStartS), finiteOf(r.FillClosedFormS),
		finiteOf(r.RecoveryClosedFormS), finiteOf(r.FillRelDiff), finiteOf(r.RecoveryRelDiff)})
}
