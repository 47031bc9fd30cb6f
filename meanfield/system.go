package meanfield

import (
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// system is a Network laid out as one state vector
//
//	y = [W_0 … W_{M−1} | q_0 (x_0) | q_1 (x_1) | …]
//
// with class i's window W_i (packets), link l's queue q_l and, for RED links, its
// averaged queue x_l, both in units of unit[l] packets (queue and lagQueue read them in
// packets).
type system struct {
	net    *Network
	m      int    // classes
	q, x   []int  // state index of each link's queue and RED average (−1 without RED or when quasi)
	quasi  []bool // RED average read from the queue's history instead (quasiStaticKTau)
	dim    int
	buf    []float64 // link buffers, +Inf for none
	unit   []float64 // packets per state unit of each link's queue and RED average
	gain   []float64 // RED gains K, 1/s
	cap    []float64 // class window caps, +Inf for none
	stop   []float64 // class stop times, +Inf for none
	via    [][]int   // classes crossing each link
	active []bool    // classes active in the current segment
	// past: the classes sent before t = 0 (a run from the equilibrium's history).
	past bool

	// Quantities of the last observe, per class and per link.
	tau  []float64  // RTT now, s
	rate []float64  // send rate per flow now, packets/s
	ack  []float64  // ACK rate per flow, W(t−τ)/τ(t−τ), packets/s
	seen []float64  // loss probability the ACKs report, p(t−τ)
	lam  []float64  // arrival rate at each link, packets/s
	sums []rateSum  // scratch of observe: each link's arrivals being summed
	der  [3]float64 // scratch of avgAt
}

// lagger serves class i's look-back: component k of the state at time t ≤ now, and its
// time derivatives (derivs writes the value and len(dst) − 1 derivatives).
type lagger interface {
	lag(i, k int, t float64) float64
	derivs(i, k int, t float64, dst []float64)
}

// quasiStaticKTau is the RED gain, in units of the smallest propagation RTT through the
// link, from which Simulate reads RED's average as the convolution of the stored queue
// instead of integrating it: x = q − q'/K + q”/K² − …, exact for the step polynomials
// up to the terms kept (three), so the error is of order (1/(K·τ))³ ≤ 10⁻⁶ of the
// queue's variation over an RTT, while an explicit solver would need K·T/3.3 steps.
const quasiStaticKTau = 100

// newSystem lays out n; quasi allows the quasi-static RED average and holds queues per
// flow (simulation only: the linearisation keeps the average as a state, except without
// averaging, K = ∞, where the average is the queue, and its queues in packets).
func newSystem(n *Network, quasi bool) *system {
	s := &system{net: n, m: len(n.Classes)}
	s.dim = s.m
	s.via = make([][]int, len(n.Links))
	for i := range n.Classes {
		for _, l := range n.Classes[i].Links {
			s.via[l] = append(s.via[l], i)
		}
	}
	for l := range n.Links {
		s.q = append(s.q, s.dim)
		s.dim++
		s.buf = append(s.buf, n.Links[l].buffer())
		// A simulation holds queues per flow crossing the link, so that the solver's
		// absolute tolerance means the same at 10 flows and at 10⁶: in packets, the kink
		// of a queue that empties would need steps ∝ 1/flows, below the solver's
		// minimum at 10⁶ flows. The linearisation keeps packets.
		unit := 1.0
		if quasi {
			for _, i := range s.via[l] {
				unit += n.Classes[i].Flows
			}
			unit = max(unit-1, 1)
		}
		s.unit = append(s.unit, unit)
		if n.Links[l].RED == nil {
			s.x, s.gain, s.quasi = append(s.x, -1), append(s.gain, 0), append(s.quasi, false)
			continue
		}
		k := n.Links[l].redGain()
		s.gain = append(s.gain, k)
		tmin := math.Inf(1)
		for _, i := range s.via[l] {
			tmin = min(tmin, n.Classes[i].PropRTTS)
		}
		if math.IsInf(k, 1) || (quasi && k*tmin >= quasiStaticKTau) {
			s.x, s.quasi = append(s.x, -1), append(s.quasi, true)
			continue
		}
		s.x, s.quasi = append(s.x, s.dim), append(s.quasi, false)
		s.dim++
	}
	for i := range n.Classes {
		c := &n.Classes[i]
		s.cap = append(s.cap, c.cap())
		stop := math.Inf(1)
		if c.StopS > 0 {
			stop = c.StopS
		}
		s.stop = append(s.stop, stop)
	}
	s.active = make([]bool, s.m)
	for i := range s.active {
		s.active[i] = true
	}
	s.tau = make([]float64, s.m)
	s.rate = make([]float64, s.m)
	s.ack = make([]float64, s.m)
	s.seen = make([]float64, s.m)
	s.lam = make([]float64, len(n.Links))
	s.sums = make([]rateSum, len(n.Links))
	return s
}

// activeAt reports whether class i sends at time t.
func (s *system) activeAt(i int, t float64) bool {
	return (t >= s.net.Classes[i].StartS || s.past) && t < s.stop[i]
}

// setActive sets the classes active in a segment that starts at t.
func (s *system) setActive(t float64) {
	for i := range s.active {
		s.active[i] = s.activeAt(i, t)
	}
}

// queue is link l's queue in state y, packets.
func (s *system) queue(l int, y []float64) float64 { return y[s.q[l]] * s.unit[l] }

// lagQueue is link l's queue at time t as class i's look-back reads it, packets.
func (s *system) lagQueue(i, l int, t float64, lg lagger) float64 {
	return lg.lag(i, s.q[l], t) * s.unit[l]
}

// clampQ is a queue value within [0, B].
func (s *system) clampQ(l int, q float64) float64 { return min(max(q, 0), s.buf[l]) }

// rtt is class i's RTT in state y, s.
func (s *system) rtt(i int, y []float64) float64 {
	c := &s.net.Classes[i]
	tau := c.PropRTTS
	for _, l := range c.Links {
		tau += s.clampQ(l, s.queue(l, y)) / s.net.Links[l].CapacityPktsPerS
	}
	return tau
}

// lagRTT is class j's RTT at time t as class i's look-back reads it, s.
func (s *system) lagRTT(i, j int, t float64, lg lagger) float64 {
	c := &s.net.Classes[j]
	tau := c.PropRTTS
	for _, l := range c.Links {
		tau += s.clampQ(l, s.lagQueue(i, l, t, lg)) / s.net.Links[l].CapacityPktsPerS
	}
	return tau
}

// full reports whether a queue value is at its buffer.
func (s *system) full(l int, q float64) bool {
	b := s.buf[l]
	return !math.IsInf(b, 1) && q >= b*(1-1e-9)
}

// logKeepAt is the log of the fraction of arrivals at link l that neither the queue nor
// the random loss removes at time t, as class i's look-back reads the state. Losses
// combine as 1 − Π(1 − p), summed in logs so that small probabilities keep their digits.
func (s *system) logKeepAt(i, l int, t float64, lg lagger) float64 {
	L := &s.net.Links[l]
	keep := math.Log1p(-L.LossP)
	if L.RED != nil {
		keep += math.Log1p(-redProb(L.RED, s.avgAt(i, l, t, lg)))
	}
	if s.full(l, s.lagQueue(i, l, t, lg)) {
		var sum rateSum
		for _, j := range s.via[l] {
			if s.activeAt(j, t) {
				sum.add(s.net.Classes[j].Flows, max(lg.lag(i, j, t), 0)/s.lagRTT(i, j, t, lg))
			}
		}
		if c, lam := L.CapacityPktsPerS, sum.value(); lam > c {
			keep += math.Log(c / lam)
		}
	}
	return keep
}

// avgAt is RED's average queue at link l at time t as class i's look-back reads it (class
// −1: now), packets.
func (s *system) avgAt(i, l int, t float64, lg lagger) float64 {
	if xi := s.x[l]; xi >= 0 {
		return lg.lag(i, xi, t) * s.unit[l]
	}
	d := s.der[:]
	lg.derivs(i, s.q[l], t, d)
	k := s.gain[l]
	return s.clampQ(l, (d[0]-d[1]/k+d[2]/(k*k))*s.unit[l])
}

// avgNow is RED's average at link l in state y at time t (the queue without RED).
func (s *system) avgNow(l int, t float64, y []float64, lg lagger) float64 {
	switch {
	case s.net.Links[l].RED == nil:
		return s.clampQ(l, s.queue(l, y))
	case s.x[l] >= 0:
		return y[s.x[l]] * s.unit[l]
	}
	return s.avgAt(-1, l, t, lg)
}

// observe computes the per-class and per-link quantities at (t, y).
func (s *system) observe(t float64, y []float64, lg lagger) {
	for l := range s.sums {
		s.sums[l] = rateSum{}
	}
	for i := range s.m {
		c := &s.net.Classes[i]
		s.tau[i] = s.rtt(i, y)
		if !s.active[i] {
			s.rate[i], s.ack[i], s.seen[i] = 0, 0, 0
			continue
		}
		s.rate[i] = max(y[i], 0) / s.tau[i]
		tl := t - s.tau[i]
		if tl < c.StartS && !s.past {
			s.ack[i], s.seen[i] = 0, 0
		} else {
			s.ack[i] = max(lg.lag(i, i, tl), 0) / s.lagRTT(i, i, tl, lg)
			keep := 0.0
			for _, l := range c.Links {
				keep += s.logKeepAt(i, l, tl, lg)
			}
			s.seen[i] = -math.Expm1(keep)
		}
		for _, l := range c.Links {
			s.sums[l].add(c.Flows, s.rate[i])
		}
	}
	for l := range s.lam {
		s.lam[l] = s.sums[l].value()
	}
}

// rateSum is a sum Σ n·r of flow counts n times per-flow rates r in double-double: the
// products' rounding errors by FMA and the additions' by Knuth's TwoSum, so that the
// rounded result is the exact sum's, whatever the order of the terms and however the
// flows are grouped (one term n·r or n terms r), but within about 2⁻¹⁰⁰ of a rounding
// tie. A drop-tail queue switches between filling and overflowing at its buffer, and
// would turn a last-bit difference between groupings of the same flows into a
// different run.
type rateSum struct{ hi, lo float64 }

func (s *rateSum) add(n, r float64) {
	p := n * r
	pe := math.FMA(n, r, -p) // n·r = p + pe exactly
	t := s.hi + p
	b := t - s.hi
	s.lo += (s.hi - (t - b)) + (p - b) + pe
	s.hi = t
}

func (s *rateSum) value() float64 { return s.hi + s.lo }

// field writes dy/dt at (t, y): for class i
//
//	dW/dt = Increase(W)/τ − lost(W) · W(t−τ)/τ(t−τ) · p(t−τ),
//
// for link l dq/dt = λ − C projected onto [0, B], and for RED dx/dt = K·(q − x).
func (s *system) field(dy, y []float64, t float64, lg lagger) {
	s.observe(t, y, lg)
	for i := range s.m {
		if !s.active[i] {
			dy[i] = 0
			continue
		}
		c := &s.net.Classes[i]
		w := y[i]
		o := model.Observation{Now: t, RTT: s.tau[i], BaseRTT: c.PropRTTS}
		inc := c.Law.Increase(w, o) / s.tau[i]
		if inc > 0 && w >= s.cap[i] {
			inc = 0
		}
		dy[i] = inc - lost(c.Law, w, o)*s.ack[i]*s.seen[i]
	}
	for l := range s.net.Links {
		qi := s.q[l]
		q := s.queue(l, y)
		d := s.lam[l] - s.net.Links[l].CapacityPktsPerS
		if (q <= 0 && d < 0) || (s.full(l, q) && d > 0) {
			d = 0
		}
		dy[qi] = d / s.unit[l]
		if xi := s.x[l]; xi >= 0 {
			dy[xi] = s.gain[l] * (s.clampQ(l, q)/s.unit[l] - y[xi])
		}
	}
}

// markNow is link l's loss probability for arrivals at (t, y) after observe: the queue's
// marking and overflow with the random loss.
func (s *system) markNow(l int, t float64, y []float64, lg lagger) float64 {
	L := &s.net.Links[l]
	keep := math.Log1p(-L.LossP)
	if L.RED != nil {
		keep += math.Log1p(-redProb(L.RED, s.avgNow(l, t, y, lg)))
	}
	if s.full(l, s.queue(l, y)) && s.lam[l] > L.CapacityPktsPerS {
		keep += math.Log(L.CapacityPktsPerS / s.lam[l])
	}
	return -math.Expm1(keep)
}

// departures is link l's service rate at (t, y) after observe, packets/s.
func (s *system) departures(l int, y []float64) float64 {
	c := s.net.Links[l].CapacityPktsPerS
	if y[s.q[l]] > 0 {
		return c
	}
	return min(s.lam[l], c)
}
