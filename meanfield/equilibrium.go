package meanfield

import (
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// Regimes of a link at equilibrium.
const (
	// RegimeIdle: the arrivals do not fill the link; the queue is empty.
	RegimeIdle = "idle"
	// RegimeDelay: a standing queue below RED's min_thresh (or without RED) limits the
	// flows through their RTT alone.
	RegimeDelay = "delay"
	// RegimeRED: the averaged queue lies in RED's linear range.
	RegimeRED = "red"
	// RegimeSaturated: the average sits at RED's max_thresh, where the profile jumps to 1;
	// the marking there is whatever balances the flows.
	RegimeSaturated = "red-saturated"
	// RegimeFull: the queue sits at its buffer and drops the excess.
	RegimeFull = "full"
)

// Equilibrium is the mean-field network's fixed point: every class's window balances its
// increase against its losses, Increase(W) = lost(W)·W·p, and every link with a queue
// serves exactly its capacity, Σ N·W/τ = C.
type Equilibrium struct {
	Classes []ClassEquilibrium `json:"classes"`
	Links   []LinkEquilibrium  `json:"links"`
	// Smooth reports that the field is differentiable at the fixed point (no queue at its
	// buffer or at RED's jump), so that the linearisation exists; Note says why not.
	Smooth bool   `json:"smooth"`
	Note   string `json:"note,omitempty"`

	y []float64 // the state vector
}

// ClassEquilibrium is one class at equilibrium.
type ClassEquilibrium struct {
	Name         string  `json:"name"`
	Algorithm    string  `json:"algorithm"`
	Flows        float64 `json:"flows"`
	CwndPkts     float64 `json:"cwnd_pkts"`
	RTTS         float64 `json:"rtt_s"`
	RatePktsPerS float64 `json:"rate_pkts_per_s"` // per flow
	LossP        float64 `json:"loss_p"`          // per packet, along the path
	// Capped reports a window held at its MaxCwndPkts.
	Capped bool `json:"capped,omitempty"`
}

// LinkEquilibrium is one link at equilibrium.
type LinkEquilibrium struct {
	Name            string  `json:"name"`
	Regime          string  `json:"regime"`
	QueuePkts       float64 `json:"queue_pkts"`
	AvgQueuePkts    float64 `json:"avg_queue_pkts"` // RED's average; the queue without RED
	MarkP           float64 `json:"mark_p"`         // the queue's marking or overflow fraction
	LossP           float64 `json:"loss_p"`         // with the random loss
	ArrivalPktsPerS float64 `json:"arrival_pkts_per_s"`
	Utilisation     float64 `json:"utilisation"`
}

// eqLink is a link's equilibrium coordinate u ∈ [0, 2]: u ≤ 1 is the queue u·Q, Q the
// top of the smooth range (the buffer, or RED's max_thresh below it), with the marking
// of that queue; u ∈ (1, 2] holds the queue at Q and raises the marking from its value
// just below Q to 1. The arrivals fall as u grows, so each link's u is found by
// bisection.
type eqLink struct {
	top  float64 // Q, packets (+Inf without a buffer or RED)
	u    float64
	q, p float64 // queue and the queue's marking at u
}

func (s *system) eqTop(l int) float64 {
	top := s.buf[l]
	if r := s.net.Links[l].RED; r != nil {
		top = min(top, r.MaxThPkts)
	}
	return top
}

// setU sets link l's coordinate and the queue and marking it stands for.
func (s *system) setU(e *eqLink, l int, u float64) {
	e.u = u
	L := &s.net.Links[l]
	below := func(q float64) float64 {
		if L.RED == nil || q >= L.RED.MaxThPkts {
			if L.RED != nil {
				return L.RED.MaxP
			}
			return 0
		}
		return redProb(L.RED, q)
	}
	if math.IsInf(e.top, 1) {
		// No top: u ∈ [0, 1) maps onto [0, ∞) queues, u/(1 − u) times a scale.
		scale := L.CapacityPktsPerS // one second of queue
		if u >= 1 {
			e.q, e.p = math.Inf(1), below(math.Inf(1))
			return
		}
		e.q = scale * u / (1 - u)
		e.p = below(e.q)
		return
	}
	if u <= 1 {
		e.q = u * e.top
		e.p = below(e.q)
		if u == 1 && L.RED == nil {
			e.p = 0
		}
		return
	}
	e.q = e.top
	p0 := below(e.top)
	if L.RED != nil && e.top >= L.RED.MaxThPkts {
		p0 = L.RED.MaxP
	}
	e.p = p0 + (u-1)*(1-p0)
}

// eqWindow solves Increase(W) = lost(W)·W·p for the class's window, packets: +Inf when
// nothing limits it, its cap when the balance lies above the cap.
func eqWindow(c *Class, p float64, o model.Observation) (w float64, capped bool) {
	cp := c.cap()
	h := func(w float64) float64 { return c.Law.Increase(w, o) - lost(c.Law, w, o)*w*p }
	if p <= 0 {
		return cp, !math.IsInf(cp, 1)
	}
	lo, hi := float64(model.MinLossWindow), 2.0*model.MinLossWindow
	for h(hi) > 0 {
		if hi >= cp {
			return cp, true
		}
		if hi > 1e15 {
			return math.Inf(1), false
		}
		lo, hi = hi, 2*hi
	}
	if hi > cp && h(cp) > 0 {
		return cp, true
	}
	for range 200 {
		mid := math.Sqrt(lo * hi)
		if !(mid > lo && mid < hi) {
			break
		}
		if h(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, false
}

// Equilibrium computes the network's fixed point: for one link by bisection on its
// coordinate, for several by Gauss–Seidel sweeps of those bisections until no coordinate
// moves (at most 500 sweeps). Every class is taken as active.
func (n *Network) Equilibrium() (*Equilibrium, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return newSystem(n, false).equilibrium()
}

func (s *system) equilibrium() (*Equilibrium, error) {
	n := s.net
	links := make([]eqLink, len(n.Links))
	for l := range links {
		links[l].top = s.eqTop(l)
		s.setU(&links[l], l, 0)
	}
	w := make([]float64, s.m)
	capped := make([]bool, s.m)
	tau := make([]float64, s.m)
	pc := make([]float64, s.m)
	// classes solves every class's window at the current coordinates.
	classes := func() {
		for i := range s.m {
			c := &n.Classes[i]
			tau[i], pc[i] = c.PropRTTS, 0
			keep := 0.0
			for _, l := range c.Links {
				tau[i] += min(links[l].q, s.buf[l]) / n.Links[l].CapacityPktsPerS
				keep += math.Log1p(-links[l].p) + math.Log1p(-n.Links[l].LossP)
			}
			pc[i] = -math.Expm1(keep)
			w[i], capped[i] = eqWindow(c, pc[i], model.Observation{RTT: tau[i], BaseRTT: c.PropRTTS})
		}
	}
	excess := func(l int) float64 {
		lam := 0.0
		for _, i := range s.via[l] {
			lam += n.Classes[i].Flows * w[i] / tau[i]
		}
		return lam - n.Links[l].CapacityPktsPerS
	}
	solve := func(l int) {
		e := &links[l]
		s.setU(e, l, 0)
		classes()
		if excess(l) <= 0 {
			return
		}
		lo, hi := 0.0, 2.0
		for range 200 {
			mid := (lo + hi) / 2
			if !(mid > lo && mid < hi) {
				break
			}
			s.setU(e, l, mid)
			classes()
			if excess(l) > 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		s.setU(e, l, hi) // the side where the link is not overloaded
		classes()
	}
	sweeps := 1
	if len(links) > 1 {
		sweeps = 500
	}
	converged := false
	for range sweeps {
		moved := 0.0
		for l := range links {
			before := links[l].u
			solve(l)
			moved = max(moved, math.Abs(links[l].u-before))
		}
		if moved <= 1e-13 || len(links) == 1 {
			converged = true
			break
		}
	}
	classes()
	for i := range s.m {
		if math.IsInf(w[i], 1) {
			return nil, fmt.Errorf("%w: class %s has no equilibrium window: nothing on its path marks or drops (set a loss, RED, a buffer or a window cap)", ErrNetwork, n.Classes[i].name(i))
		}
	}
	if !converged {
		return nil, fmt.Errorf("%w: equilibrium: the coordinate sweeps over %d links did not settle in %d sweeps", ErrSolve, len(links), sweeps)
	}
	for l := range links {
		if excess(l) > 1e-9*n.Links[l].CapacityPktsPerS {
			return nil, fmt.Errorf("%w: link %s cannot carry its classes even when it drops every packet above "+
				"model.MinLossWindow: %.6g packets/s arrive at %.6g packets/s capacity", ErrNetwork,
				n.Links[l].name(l), excess(l)+n.Links[l].CapacityPktsPerS, n.Links[l].CapacityPktsPerS)
		}
	}
	eq := &Equilibrium{Smooth: true, y: make([]float64, s.dim)}
	for i := range s.m {
		c := &n.Classes[i]
		eq.Classes = append(eq.Classes, ClassEquilibrium{Name: c.name(i), Algorithm: c.Law.Name(), Flows: c.Flows,
			CwndPkts: w[i], RTTS: tau[i], RatePktsPerS: w[i] / tau[i], LossP: pc[i], Capped: capped[i]})
		eq.y[i] = w[i]
		if capped[i] {
			eq.Smooth = false
			eq.Note = fmt.Sprintf("class %s holds its window at the cap %v packets", c.name(i), c.MaxCwndPkts)
		}
	}
	for l := range links {
		L := &n.Links[l]
		e := &links[l]
		lam := excess(l) + L.CapacityPktsPerS
		le := LinkEquilibrium{Name: L.name(l), QueuePkts: e.q, AvgQueuePkts: e.q, MarkP: e.p,
			LossP: -math.Expm1(math.Log1p(-e.p) + math.Log1p(-L.LossP)), ArrivalPktsPerS: lam, Utilisation: min(lam/L.CapacityPktsPerS, 1)}
		switch {
		case e.u == 0:
			le.Regime = RegimeIdle
		case e.u >= 1 && L.RED != nil && e.top >= L.RED.MaxThPkts:
			le.Regime = RegimeSaturated
		case e.u >= 1:
			le.Regime = RegimeFull
		case L.RED != nil && e.q >= L.RED.MinThPkts:
			le.Regime = RegimeRED
		default:
			le.Regime = RegimeDelay
		}
		if le.Regime == RegimeSaturated || le.Regime == RegimeFull {
			eq.Smooth = false
			eq.Note = fmt.Sprintf("link %s is %s: its loss is not a smooth function of the state there", L.name(l), le.Regime)
		}
		if le.Regime == RegimeRED && e.q == L.RED.MinThPkts {
			eq.Smooth = false
			eq.Note = fmt.Sprintf("link %s sits on RED's min_thresh kink", L.name(l))
		}
		eq.Links = append(eq.Links, le)
		eq.y[s.q[l]] = e.q / s.unit[l]
		if xi := s.x[l]; xi >= 0 {
			eq.y[xi] = e.q / s.unit[l]
		}
	}
	return eq, nil
}
