package model

import "math"

// Scalable TCP (Kelly 2003, "Scalable TCP: improving performance in highspeed wide area
// networks"; Linux tcp_scalable.c). Above a legacy window: W += a per ACK (a = 0.01) and
// W ← (1 − b)·W on a loss (b = 0.125); at or below it: Reno. Multiplicative increase makes
// the recovery time after a loss independent of the rate: ln(1/(1−b))/ln(1+a) = 13.42 RTTs.
//
// Fluid face, x = [W]: dW/dt = a·W/RTT above the legacy window (a per ACK × W/RTT ACKs/s),
// whose continuous growth recovers in ln(1/(1−b))/a = 13.35 RTTs; the event face compounds
// per round, W ← W·(1+a) each RTT, and recovers in the 13.42 RTTs above.
//
// Linux's parameter set adds one packet per min(W, 50) ACKs — Reno below 50 packets and
// a = 0.02 above, because it assumes delayed ACKs — and applies b at every window; set
// scalable.a=0.02 and scalable.legacy_window=50 for it.

func init() {
	Register("scalable", func() Algorithm {
		a := &scalable{}
		a.Base = NewBase("scalable", "Scalable TCP: MIMD, +a per ACK and −b·W per loss above a legacy window, Reno below (Kelly 2003)",
			Real(&a.p.a, "a", 0.01, "packets/ACK", 1e-4, 1, "Kelly 2003 (Linux tcp_scalable.c: 0.02 with delayed ACKs)",
				"window increase per acknowledged packet above the legacy window"),
			Real(&a.p.b, "b", 0.125, "1", 0.01, 0.5, "Kelly 2003; Linux tcp_scalable.c (1/8)",
				"fraction of the window removed by a loss above the legacy window"),
			Real(&a.p.legacy, "legacy_window", 16, "packets", 0, 1e9, "Kelly 2003 (Linux tcp_scalable.c: 50)",
				"at or below this window Scalable behaves as Reno"))
		a.WindowLaw = WindowLaw{Rule: func() WindowRule { return &scalableRule{a.p} }, Memoryless: true}
		return a
	})
}

type scalableParams struct{ a, b, legacy float64 }

type scalable struct {
	Base
	WindowLaw
	p scalableParams
}

var (
	_ Algorithm          = (*scalable)(nil)
	_ Varianter          = (*scalable)(nil)
	_ ResponseReferencer = (*scalable)(nil)
	_ ConvergeReferencer = (*scalable)(nil)
)

// ResponseReference: above the legacy window a periodic-loss cycle grows the window from
// (1 − b)·W to W in b·W/a packets = 1/p, and the window's time average over the
// exponential rise is b·W/ln(1/(1 − b)), so W̄ = a/(ln(1/(1 − b))·p): 0.0749/p at the
// defaults (Kelly 2003).
func (s *scalable) ResponseReference(LossModel) (ResponseReference, bool) {
	return ResponseReference{C: s.p.a / -math.Log1p(-s.p.b), D: 1,
		Source: "Kelly 2003 (derived for periodic loss above the legacy window)", PMax: 1e-3}, true
}

// ConvergeReference: Reno up to the legacy window, then ×(1+a) per RTT; after a loss
// ln(1/(1−b))/ln(1+a) RTTs (13.42 at the defaults).
func (s *scalable) ConvergeReference(bdpPkts, rttS float64) ConvergeReference {
	legacy := math.Max(s.p.legacy, 1)
	fill := ((legacy - 1) + math.Log(bdpPkts/legacy)/math.Log1p(s.p.a)) * rttS
	rec := -math.Log1p(-s.p.b) / math.Log1p(s.p.a) * rttS
	return ConvergeReference{FillS: &fill, RecoveryS: &rec,
		Note: "per-RTT compounding (1+a)^n; the fluid face grows continuously, e^(a·n), 0.5% faster"}
}

type scalableRule struct{ p scalableParams }

func (*scalableRule) Start(Observation) {}

func (r *scalableRule) PerRTT(w float64, _ Observation) float64 {
	if w > r.p.legacy {
		return r.p.a * w
	}
	return 1
}

func (r *scalableRule) Congestion(w float64, _ Observation) float64 {
	if w > r.p.legacy {
		return (1 - r.p.b) * w
	}
	return w / 2
}

// Variants: Linux's tcp_scalable.c and ns-3.37's TcpScalable add one packet per 50 ACKs
// (a = 0.02) above a window of 50 packets.
func (a *scalable) Variants() []Variant {
	return []Variant{
		{Name: "linux", Source: "Linux tcp_scalable.c: +1 per min(cwnd, 50) ACKs", Params: map[string]float64{"a": 0.02, "legacy_window": 50}},
		{Name: "ns3", Source: "ns-3.37 TcpScalable: AIFactor 50", Params: map[string]float64{"a": 0.02, "legacy_window": 50}},
	}
}
