package meanfield

import (
	"errors"
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// ErrNetwork is wrapped by every error about a Network or Settings that is the caller's
// input: the message names the field, its value and the allowed range.
var ErrNetwork = errors.New("invalid mean-field network")

// ErrSolve is wrapped by failures of the integration or of a root search that are not
// input errors (step limits, a non-finite state).
var ErrSolve = errors.New("mean-field solve")

// Network is the mean-field model's network: bottleneck links and classes of identical
// flows. Every quantity is in packets, packets/s and seconds.
type Network struct {
	Links   []Link
	Classes []Class
}

// Link is a queue served at a fixed rate.
type Link struct {
	Name string
	// CapacityPktsPerS is the service rate C, packets/s, > 0.
	CapacityPktsPerS float64
	// BufferPkts is the queue limit B, packets; 0 means no limit. Arrivals beyond it are
	// dropped (the fraction 1 − C/λ of the arrivals λ at a full queue).
	BufferPkts float64
	// RED, when set, marks arrivals with model.RED's profile of the averaged queue
	// (gentle off): 0 below MinThPkts, MaxP·(x − MinThPkts)/(MaxThPkts − MinThPkts)
	// up to MaxThPkts, 1 from there. The average follows x' = K·(q − x) with
	// K = −C·ln(1 − Weight), the per-packet EWMA at one sample per packet time;
	// Weight = 1 is no averaging, x = q.
	RED *model.RED
	// LossP is a random loss probability per packet in [0, 1), independent of the
	// queue; it combines with the queue's marking as 1 − (1 − p_queue)(1 − LossP).
	LossP float64
}

// Class is Flows identical long-lived flows with one law on one path.
type Class struct {
	Name string
	Law  Law
	// Flows is the number N of flows, > 0 (any real: the mean-field form only multiplies
	// by it).
	Flows float64
	// PropRTTS is the round-trip propagation delay, s, > 0; the RTT is
	// τ = PropRTTS + Σ q_l/C_l over the path.
	PropRTTS float64
	// Links is the path: indices into Network.Links, each at most once.
	Links []int
	// InitialCwndPkts is the window at the class's start, packets; default 1.
	InitialCwndPkts float64
	// MaxCwndPkts caps the window (the receiver window), packets; 0: no cap.
	MaxCwndPkts float64
	// StartS and StopS bound the class's activity, s; StopS = 0: to the end.
	StartS, StopS float64
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func fieldErr(at, format string, args ...any) error {
	return fmt.Errorf("%w: %s = %s", ErrNetwork, at, fmt.Sprintf(format, args...))
}

// Validate checks every field of the network.
func (n *Network) Validate() error {
	if n == nil {
		return fmt.Errorf("%w: network is nil", ErrNetwork)
	}
	if len(n.Links) == 0 {
		return fmt.Errorf("%w: links: none, want at least one", ErrNetwork)
	}
	if len(n.Classes) == 0 {
		return fmt.Errorf("%w: classes: none, want at least one", ErrNetwork)
	}
	for i := range n.Links {
		if err := n.Links[i].validate(fmt.Sprintf("links[%d]", i)); err != nil {
			return err
		}
	}
	for i := range n.Classes {
		c := &n.Classes[i]
		at := fmt.Sprintf("classes[%d]", i)
		switch {
		case c.Law == nil:
			return fmt.Errorf("%w: %s.law: nil, want a Law (LawOf)", ErrNetwork, at)
		case !finite(c.Flows) || c.Flows <= 0:
			return fieldErr(at+".flows", "%v, want a finite number > 0", c.Flows)
		case !finite(c.PropRTTS) || c.PropRTTS <= 0:
			return fieldErr(at+".prop_rtt_s", "%v s, want a finite number > 0", c.PropRTTS)
		case len(c.Links) == 0:
			return fmt.Errorf("%w: %s.links: empty, want a path of at least one link", ErrNetwork, at)
		case !finite(c.InitialCwndPkts) || c.InitialCwndPkts < 0:
			return fieldErr(at+".initial_cwnd_pkts", "%v packets, want ≥ 0 (0: one packet)", c.InitialCwndPkts)
		case !finite(c.MaxCwndPkts) || c.MaxCwndPkts < 0:
			return fieldErr(at+".max_cwnd_pkts", "%v packets, want ≥ 0 (0: no cap)", c.MaxCwndPkts)
		case c.MaxCwndPkts > 0 && c.MaxCwndPkts < model.MinLossWindow:
			return fieldErr(at+".max_cwnd_pkts", "%v packets, want ≥ %v", c.MaxCwndPkts, model.MinLossWindow)
		case !finite(c.StartS) || c.StartS < 0:
			return fieldErr(at+".start_s", "%v s, want ≥ 0", c.StartS)
		case !finite(c.StopS) || c.StopS < 0 || (c.StopS > 0 && c.StopS <= c.StartS):
			return fieldErr(at+".stop_s", "%v s, want 0 (the end) or > start_s (%v s)", c.StopS, c.StartS)
		}
		seen := map[int]bool{}
		for k, l := range c.Links {
			if l < 0 || l >= len(n.Links) {
				return fieldErr(fmt.Sprintf("%s.links[%d]", at, k), "%d, want 0 to %d", l, len(n.Links)-1)
			}
			if seen[l] {
				return fieldErr(fmt.Sprintf("%s.links[%d]", at, k), "%d, a link already on the path", l)
			}
			seen[l] = true
		}
	}
	return nil
}

func (l *Link) validate(at string) error {
	switch {
	case !finite(l.CapacityPktsPerS) || l.CapacityPktsPerS <= 0:
		return fieldErr(at+".capacity_pkts_per_s", "%v packets/s, want a finite number > 0", l.CapacityPktsPerS)
	case !finite(l.BufferPkts) || l.BufferPkts < 0:
		return fieldErr(at+".buffer_pkts", "%v packets, want ≥ 0 (0: no limit)", l.BufferPkts)
	case !finite(l.LossP) || l.LossP < 0 || l.LossP >= 1:
		return fieldErr(at+".loss_p", "%v, want 0 ≤ p < 1", l.LossP)
	}
	if r := l.RED; r != nil {
		switch {
		case !finite(r.MinThPkts) || r.MinThPkts < 0:
			return fieldErr(at+".red.min_thresh", "%v packets, want ≥ 0", r.MinThPkts)
		case !finite(r.MaxThPkts) || r.MaxThPkts <= r.MinThPkts:
			return fieldErr(at+".red.max_thresh", "%v packets, want > min_thresh (%v packets)", r.MaxThPkts, r.MinThPkts)
		case !finite(r.MaxP) || r.MaxP <= 0 || r.MaxP > 1:
			return fieldErr(at+".red.max_p", "%v, want 0 < max_p ≤ 1", r.MaxP)
		case !finite(r.Weight) || r.Weight <= 0 || r.Weight > 1:
			return fieldErr(at+".red.q_weight", "%v, want 0 < q_weight ≤ 1", r.Weight)
		}
	}
	return nil
}

// buffer is the queue limit, +Inf for none.
func (l *Link) buffer() float64 {
	if l.BufferPkts > 0 {
		return l.BufferPkts
	}
	return math.Inf(1)
}

// redGain is K = −C·ln(1 − w_q), 1/s: the per-packet EWMA of weight w_q sampled once per
// packet time 1/C (Hollot, Misra, Towsley and Gong's K = −ln(1 − α)/δ); +Inf for
// w_q = 1.
func (l *Link) redGain() float64 { return -l.CapacityPktsPerS * math.Log1p(-l.RED.Weight) }

// redProb is model.RED's marking probability at an average queue of x packets, linear
// between the thresholds and 1 above, as Hollot, Misra, Towsley and Gong model it (the
// hybrid engine follows ns-2's count process instead, fluid/network.go).
func redProb(r *model.RED, x float64) float64 {
	switch {
	case x < r.MinThPkts:
		return 0
	case x >= r.MaxThPkts:
		return 1
	}
	return r.MaxP * (x - r.MinThPkts) / (r.MaxThPkts - r.MinThPkts)
}

// REDSlope is L_red = MaxP/(MaxThPkts − MinThPkts), the slope of the marking profile,
// 1/packet.
func REDSlope(r *model.RED) float64 { return r.MaxP / (r.MaxThPkts - r.MinThPkts) }

// cap is the class's window cap, +Inf for none.
func (c *Class) cap() float64 {
	if c.MaxCwndPkts > 0 {
		return c.MaxCwndPkts
	}
	return math.Inf(1)
}

func (c *Class) initial() float64 {
	w := 1.0
	if c.InitialCwndPkts > 0 {
		w = c.InitialCwndPkts
	}
	return min(w, c.cap())
}

func (c *Class) name(i int) string {
	if c.Name != "" {
		return c.Name
	}
	return fmt.Sprintf("class%d", i)
}

func (l *Link) name(i int) string {
	if l.Name != "" {
		return l.Name
	}
	return fmt.Sprintf("link%d", i)
}
