package model

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
		a := &scalable{algoBase: algoBase{name: "scalable",
			describe: "Scalable TCP: MIMD, +a per ACK and −b·W per loss above a legacy window, Reno below (Kelly 2003)"}}
		a.specs = []paramSpec{
			spec(&a.p.a, "a", 0.01, "packets/ACK", 1e-4, 1, "Kelly 2003 (Linux tcp_scalable.c: 0.02 with delayed ACKs)",
				"window increase per acknowledged packet above the legacy window"),
			spec(&a.p.b, "b", 0.125, "1", 0.01, 0.5, "Kelly 2003; Linux tcp_scalable.c (1/8)",
				"fraction of the window removed by a loss above the legacy window"),
			spec(&a.p.legacy, "legacy_window", 16, "packets", 0, 1e9, "Kelly 2003 (Linux tcp_scalable.c: 50)",
				"at or below this window Scalable behaves as Reno"),
		}
		return a
	})
}

type scalableParams struct{ a, b, legacy float64 }

type scalable struct {
	algoBase
	p scalableParams
}

func (s *scalable) NewFluid(c FlowConfig) FluidLaw {
	return newWindowFluid(c, &scalableRule{s.p}, false)
}

func (s *scalable) NewEvent(c FlowConfig) EventLaw {
	return newWindowEvent(c, &scalableRule{s.p}, false, RecoveryNewReno)
}

type scalableRule struct{ p scalableParams }

func (*scalableRule) start(Observation) {}

func (r *scalableRule) perRTT(w float64, _ Observation) float64 {
	if w > r.p.legacy {
		return r.p.a * w
	}
	return 1
}

func (r *scalableRule) congestion(w float64, _ Observation) float64 {
	if w > r.p.legacy {
		return (1 - r.p.b) * w
	}
	return w / 2
}
