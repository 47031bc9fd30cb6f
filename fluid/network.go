package fluid

import (
	"fmt"
	"math"
	"sort"

	"github.com/tcpfluid/tcpfluid/model"
	"gonum.org/v1/gonum/mat"
)

// linkOrder sorts links so that every link comes after the links upstream of it on any
// path (Kahn's algorithm); fluid departures of an upstream link are the arrivals of the next.
func linkOrder(n int, paths map[string][]int) ([]int, error) {
	indeg := make([]int, n)
	next := make([][]int, n)
	seen := map[[2]int]bool{}
	names := make([]string, 0, len(paths))
	for name := range paths {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := paths[name]
		for k := 1; k < len(p); k++ {
			e := [2]int{p[k-1], p[k]}
			if !seen[e] {
				seen[e] = true
				next[e[0]] = append(next[e[0]], e[1])
				indeg[e[1]]++
			}
		}
	}
	var order, ready []int
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		l := ready[0]
		ready = ready[1:]
		order = append(order, l)
		for _, m := range next[l] {
			indeg[m]--
			if indeg[m] == 0 {
				ready = append(ready, m)
			}
		}
	}
	if len(order) != n {
		return nil, fmt.Errorf("%w: paths: links form a cycle; the fluid engine needs an upstream-to-downstream order", model.ErrScenario)
	}
	return order, nil
}

// evaluate computes rates, RTTs, arrivals and departures for state y at time t.
func (s *system) evaluate(t float64, y []float64) {
	for li := range s.links {
		l := &s.links[li]
		l.arrive = 0
		l.depart = 0
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		rtt := s.pathRTT(f, y)
		f.rtt = rtt
		f.rttSeen = f.propRTT
		f.rate, f.ackRef = 0, 0
		if f.active && s.pathUp(f.links) && t >= f.silentUntil {
			w := math.Min(y[f.off+f.sub], f.rwnd)
			f.ackRef = w * f.wire / rtt
			f.rate = s.form.inFlight(w, f.rwnd) * f.wire / rtt
			if s.x != nil {
				s.x.pace(f, t, y) // a paced law's rate (ext.go)
			}
		}
	}
	// Arrivals propagate downstream: the first link sees the sending rate, each later link
	// the share of the previous link's departures.
	for _, li := range s.order {
		l := &s.links[li]
		for fi := range s.flows {
			f := &s.flows[fi]
			for k, fl := range f.links {
				if fl != li {
					continue
				}
				if k == 0 {
					f.arrive[k] = f.rate
				} else {
					f.arrive[k] = s.departShare(f.links[k-1], f.arrive[k-1])
				}
				l.arrive += f.arrive[k]
			}
		}
		for ci := range s.cbr {
			c := &s.cbr[ci]
			for k, cl := range c.links {
				if cl != li {
					continue
				}
				if k == 0 {
					if t >= c.start && t < c.stop {
						c.arrive[k] = c.rate
					} else {
						c.arrive[k] = 0
					}
				} else {
					c.arrive[k] = s.departShare(c.links[k-1], c.arrive[k-1])
				}
				l.arrive += c.arrive[k]
			}
		}
		switch {
		case !l.up:
			l.depart = 0
		case l.mode == queueEmpty:
			l.depart = math.Min(l.arrive, l.capBps)
		default:
			l.depart = l.capBps
		}
		if l.red {
			l.lossPkt = redDropProb(l.redParams, y[l.off+lvREDAvg]/l.refBytes)
		}
	}
	for fi := range s.flows {
		f := &s.flows[fi]
		last := len(f.links) - 1
		f.deliver = s.departShare(f.links[last], f.arrive[last])
		// What the sender's latest RTT sample says: the queues it met one round trip ago,
		// q(t − RTT) ≈ q − RTT·dq/dt (first order), not the queues of now.
		for _, li := range f.links {
			l := &s.links[li]
			if l.capBps <= 0 {
				continue
			}
			q := y[l.off+lvQueue]
			if l.mode == queueBusy {
				q -= f.rtt * (l.arrive - l.depart)
			}
			f.rttSeen += math.Max(q, 0) / l.capBps
		}
	}
	if s.x != nil {
		s.x.evaluate(s, t, y) // marking and AQM signals (ext.go)
	}
}

func (s *system) pathUp(links []int) bool {
	for _, li := range links {
		if !s.links[li].up {
			return false
		}
	}
	return true
}

// departShare is the departure rate of a stream that arrives at link li at rate a: FIFO
// service shares the capacity in proportion to arrivals.
func (s *system) departShare(li int, a float64) float64 {
	l := &s.links[li]
	if l.arrive <= 0 || a <= 0 {
		return 0
	}
	return a * l.depart / l.arrive
}

// redDropProb is model.RED's drop probability at an average queue of avg packets (gentle off).
func redDropProb(r model.RED, avg float64) float64 {
	switch {
	case avg < r.MinThPkts:
		return 0
	case avg >= r.MaxThPkts:
		return 1
	default:
		return r.MaxP * (avg - r.MinThPkts) / (r.MaxThPkts - r.MinThPkts)
	}
}

// pathRTT is flow f's round-trip time in state yd: propagation plus its path's queues, s.
func (s *system) pathRTT(f *subflow, yd []float64) float64 {
	rtt := f.propRTT
	for _, li := range f.links {
		if l := &s.links[li]; l.capBps > 0 {
			rtt += yd[l.off+lvQueue] / l.capBps
		}
	}
	return rtt
}

func (s *system) ensure(t float64, y *mat.VecDense) {
	if t == s.cacheT && y == s.cacheY && s.cacheGen == s.gen {
		return
	}
	s.evaluate(t, y.RawVector().Data)
	s.cacheT, s.cacheY, s.cacheGen = t, y, s.gen
}

// state returns the driver's current state after refreshing the network quantities; the
// caller may change it in place and must then call jump.
func (s *system) state(t float64) []float64 {
	y := s.drv.Y()
	s.gen++
	s.ensure(t, y)
	return y.RawVector().Data
}
