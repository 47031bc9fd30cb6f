package model

import (
	"maps"
	"slices"
)

// Scenario is a network and the traffic on it, in the units users write: bit/s, bytes and
// seconds. The engines convert to packets and packets/s internally. Validate checks every
// field and resolves defaults; both engines run only validated scenarios.
type Scenario struct {
	Name        string
	Description string
	DurationS   float64 // simulated time, s
	Links       []Link
	Paths       []Path
	Flows       []Flow
	CBR         []CBR        // constant-bit-rate (UDP) cross traffic
	Events      []TimedEvent // link down/up, delay change
	// DropRule selects which flows see a loss when a drop-tail queue overflows in the
	// fluid engine. Default DropSynchronized.
	DropRule DropRule
	// SACK gives every sender selective acknowledgements (RFC 2018, loss recovery after
	// RFC 6675), in both engines, as a stack configured with them does (Linux by default,
	// ns-3's TcpSocketBase::Sack); packet.Settings.SACK and fluid.Settings.SACK give them
	// to a scenario that does not say. Default false: the cumulative ACKs of ns-2's agents.
	SACK bool
	// LostRetransmit lets a SACK sender see a lost retransmission from the SACK of a
	// packet sent after it, without waiting for its timer (Linux's RACK; ns-2's FACK
	// scoreboard), in the packet engine (packet.Settings.LostRetransmit); in the fluid
	// engine a recovery at a full queue lasts while its retransmissions are lost again
	// (fluid/lostrtx.go). It needs SACK.
	LostRetransmit bool
	// SendJitterS holds each data packet at its sender for a further U(0, SendJitterS) s
	// in the packet engine (packet.Settings.JitterS, ns-2's overhead_), against the
	// drop-tail phase effects of a deterministic ACK clock, which decide who loses at an
	// overflow and which the fluid engine has none of; the fluid engine's replicas of
	// ns-2's TCP/Linux sender count the ACKs such a sender counts
	// (fluid.Settings.SendJitterS). Default 0: no jitter.
	SendJitterS float64

	index *nameIndex // names → indices, built by Validate
}

// QueueKind is a bottleneck queue discipline.
type QueueKind string

const (
	QueueDropTail QueueKind = "droptail"
	QueueRED      QueueKind = "red"
	// The AQMs of aqm.go: CoDel (RFC 8289), FQ-CoDel (RFC 8290) and PIE (RFC 8033).
	QueueCoDel   QueueKind = "codel"
	QueueFQCoDel QueueKind = "fq_codel"
	QueuePIE     QueueKind = "pie"
)

// DropRule is the fluid engine's rule for which flows see a drop-tail overflow.
type DropRule string

const (
	// DropSynchronized: every flow crossing the full queue sees one loss event; in the
	// fluid's counted form with send jitter, one that reaches the queue from a link no
	// faster, whose share of the overflow's drops is m packets, escapes it with probability
	// e^(−m), drawn from the seed (fluid/escape.go).
	DropSynchronized DropRule = "synchronized"
	// DropProportional: each flow crossing the full queue takes its share of the dropped
	// excess, in proportion to its arrivals, and sees a loss event for every whole packet of
	// it (deterministic: no random draw).
	DropProportional DropRule = "proportional"
	// DropRandom: as DropProportional, but which packets a full queue drops is chance:
	// each flow's share of the dropped excess is the mean of a Poisson count of its drops,
	// drawn from the seed, so that a flow whose share of an overflow is one packet sees none
	// with probability 1/e (a drop-tail queue whose senders jitter, ns-2's overhead_).
	DropRandom DropRule = "random"
)

// Proportional reports whether rule r shares a full queue's drops among the flows in
// proportion to their arrivals (DropProportional and DropRandom).
func (r DropRule) Proportional() bool { return r == DropProportional || r == DropRandom }

// DropRules are the rules a scenario may name.
var DropRules = []string{string(DropSynchronized), string(DropProportional), string(DropRandom)}

// LossModel is a link's non-congestion loss process.
type LossModel string

const (
	LossNone     LossModel = "none"
	LossRandom   LossModel = "random"   // Bernoulli per packet; fluid: Poisson of intensity p·rate
	LossPeriodic LossModel = "periodic" // one loss each 1/p packets a flow sends across the link
)

// Link is a unidirectional bottleneck-capable link; the reverse (ACK) direction is taken
// as uncongested with the same propagation delay.
type Link struct {
	Name        string
	CapacityBps float64 // bit/s, > 0
	DelayS      float64 // one-way propagation delay, s, >= 0
	// BufferPkts is the queue limit in packets. When BufferBDP > 0 it is resolved by
	// Validate as BufferBDP × (bandwidth-delay product of the link's slowest path, in
	// packets of the largest MSS using it), rounded up.
	BufferPkts float64
	BufferBDP  float64
	Queue      QueueKind // default drop-tail
	RED        RED
	Loss       LossModel // default none
	LossP      float64   // loss probability per packet, [0, 1)
	// ECN, MarkThresholdPkts, CoDel, PIE and FQCoDel are the explicit congestion
	// notification and AQM settings of aqm.go; all unset is a plain drop-tail or RED queue.
	ECN               bool
	MarkThresholdPkts float64
	CoDel             CoDel
	PIE               PIE
	FQCoDel           FQCoDel
}

// RED holds Floyd–Jacobson RED parameters (ns-2 defaults in Validate when zero).
type RED struct {
	MinThPkts float64
	MaxThPkts float64
	MaxP      float64 // drop probability at MaxThPkts
	Weight    float64 // EWMA weight of the average queue
}

// Path is a sequence of links from sender to receiver.
type Path struct {
	Name  string
	Links []string // link names in order
}

// Flow is one TCP connection (or, later, one multi-path connection).
type Flow struct {
	Name      string
	Algorithm string             // registered algorithm name
	Params    map[string]float64 // algorithm parameter overrides
	Path      string
	// Paths makes the flow multi-path (MPTCP): one subflow per path, in order. It needs a
	// Multipath algorithm and leaves Path empty.
	Paths []string
	// RouteAware makes a Reno-family sender treat a link failure on its path as a route
	// change (seed 002): it sends nothing and keeps its state during the outage, and resumes
	// at min(window before the outage, ssthresh) instead of timing out to one packet.
	RouteAware bool
	// DelayedAck makes the flow's receiver acknowledge every second in-order packet, as
	// Linux and RFC 1122 receivers do (out-of-order packets at once, a timer for a lone
	// one). Laws that grow per packet acknowledged do not notice; laws that count ACKs
	// (LIA and VLIA, as Linux's mptcp_coupled.c) grow half as fast.
	DelayedAck bool
	StartS     float64 // s
	StopS      float64 // s; 0 means the end of the scenario
	SizeBytes  float64 // 0: long-lived; else a finite transfer of this many bytes
	MSSBytes   float64 // packet size in bytes; default 1460
	// HeaderBytes is the TCP/IP header each data packet carries on the wire on top of its
	// MSSBytes of data; ACKs are this size too. Default 0: the MSS is the whole packet and
	// ACKs take no time to send. ns-2's Agent/TCP family (Tahoe, Reno, NewReno) uses 40.
	HeaderBytes float64
	// RwndBytes is the receiver window; default 65535 without window scaling and
	// 2^30 bytes with it. Without scaling it may not exceed 65535.
	RwndBytes     float64
	WindowScaling bool
	InitialCwnd   float64 // packets, default 1
	// InitialSsthresh is the first slow-start threshold in packets; 0 means the receiver
	// window (slow start until the first loss).
	InitialSsthresh float64
	// ECN makes the flow ECN-capable (RFC 3168): its packets carry ECT, queues with ECN
	// mark them instead of dropping them early, and its law reacts to the echoed marks
	// (aqm.go). Algorithms that need ECN (DCTCP, model.ECNCapable) have it whatever this says.
	ECN bool
	// Pacing makes the packet engine pace the flow's transmissions as Linux paces a window
	// sender (tcp_update_pacing_rate: 2·cwnd/SRTT in slow start, 1.2·cwnd/SRTT after) when
	// its law sets no pacing rate of its own (model.Pacer). The fluid engine's senders are
	// paced by construction.
	Pacing bool
}

// CBR is constant-bit-rate cross traffic over a path.
type CBR struct {
	Name        string
	Path        string
	RateBps     float64 // bit/s
	PacketBytes float64 // bytes, default 1000
	StartS      float64
	StopS       float64 // 0: the end of the scenario
}

// EventKind is a timed change of the network.
type EventKind string

const (
	EventLinkDown    EventKind = "link-down"
	EventLinkUp      EventKind = "link-up"
	EventDelayChange EventKind = "delay-change"
)

// TimedEvent changes a link at a time.
type TimedEvent struct {
	AtS    float64
	Kind   EventKind
	Link   string
	DelayS float64 // new one-way delay for delay-change (and optionally link-up), s
}

// PacketsPerAck is the in-order packets one ACK of the flow's receiver acknowledges.
func (f *Flow) PacketsPerAck() float64 {
	if f.DelayedAck {
		return 2
	}
	return 1
}

// PathNames is the flow's paths: Paths for a multi-path flow, else its one Path.
func (f *Flow) PathNames() []string {
	if len(f.Paths) > 0 {
		return f.Paths
	}
	return []string{f.Path}
}

// Clone returns a deep copy of the scenario: changing the copy leaves s as it was.
func (s *Scenario) Clone() *Scenario {
	c := *s
	c.Links = slices.Clone(s.Links)
	c.Paths = slices.Clone(s.Paths)
	for i := range c.Paths {
		c.Paths[i].Links = slices.Clone(s.Paths[i].Links)
	}
	c.Flows = slices.Clone(s.Flows)
	for i := range c.Flows {
		c.Flows[i].Params = maps.Clone(s.Flows[i].Params)
		c.Flows[i].Paths = slices.Clone(s.Flows[i].Paths)
	}
	c.CBR = slices.Clone(s.CBR)
	c.Events = slices.Clone(s.Events)
	return &c
}

// SetDuration changes the simulated time to durationS seconds; what lies beyond the new
// end goes: timed events after it are dropped and stop times after it become "the end".
// The scenario must be validated again.
func (s *Scenario) SetDuration(durationS float64) {
	s.DurationS = durationS
	for i := range s.Flows {
		if s.Flows[i].StopS > durationS {
			s.Flows[i].StopS = 0
		}
	}
	for i := range s.CBR {
		if s.CBR[i].StopS > durationS {
			s.CBR[i].StopS = 0
		}
	}
	s.Events = slices.DeleteFunc(s.Events, func(e TimedEvent) bool { return e.AtS > durationS })
}
