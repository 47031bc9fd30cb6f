package model

// Signals beyond the window and the RTT: delivery-rate samples, pacing and ECN. These are
// optional capabilities of an Algorithm, a FluidLaw or an EventLaw, in the style of the
// optional interfaces of algorithm.go; each is asserted at compile time where it is
// implemented (bbr.go, dctcp.go). An algorithm without them runs as before in both
// engines: a window sender, clocked by its ACKs, that reacts to a CE mark as to a loss when
// its flow is ECN-capable (Flow.ECN).

// RateSample is one per-ACK delivery-rate sample, as the packet engine measures it after
// draft-cheng-iccrg-delivery-rate-estimation (Linux tcp_rate.c, ns-3's TcpRateOps): the
// packets delivered between the transmission of the most recently sent packet this ACK
// delivers and this ACK, over the longer of the send and the ACK intervals of that span.
type RateSample struct {
	// Delivered is the packets delivered (cumulatively ACKed or SACKed) over IntervalS.
	Delivered float64
	// IntervalS is the sample's interval, s; a sample with IntervalS ≤ 0 is not valid (no
	// packet of this ACK was timed), but its other fields are.
	IntervalS float64
	// PriorDelivered is the connection's delivered count when the sampled packet was sent,
	// packets: a round trip of packet-timed rounds ends when it passes the delivered count
	// at the round's start (Linux bbr next_rtt_delivered).
	PriorDelivered float64
	// DeliveredTotal is the connection's delivered count after this ACK, packets.
	DeliveredTotal float64
	// AckedSacked is the packets this ACK newly delivered (ACKed or SACKed).
	AckedSacked float64
	// PriorInFlight and InFlight are the packets in flight before and after this ACK.
	PriorInFlight, InFlight float64
	// Losses is the packets this ACK newly marks lost (the packet engine: one when the ACK
	// starts a loss recovery, else 0).
	Losses float64
	// NewlyLost is the packets this ACK's scoreboard newly takes as lost (Linux's
	// rs->losses); Lost is the packets taken as lost since the sampled packet left, and
	// TxInFlight the packets in flight, with it, when it left (Linux's rs->lost and
	// rs->tx_in_flight, which BBR v2 compares). Zero unless the law is a LossSampler.
	NewlyLost, Lost, TxInFlight float64
	// AppLimited: the sender had nothing to send when the sampled packet left; the packet
	// engine's senders are never application-limited before their data run out.
	AppLimited bool
	// InRecovery: the sender is repairing a loss (fast recovery, or after a timeout) when
	// the sample is taken.
	InRecovery bool
}

// Valid reports whether the sample carries a delivery rate.
func (rs RateSample) Valid() bool { return rs.IntervalS > 0 && rs.Delivered >= 0 }

// Rate is the sample's delivery rate, packets/s (0 for an invalid sample).
func (rs RateSample) Rate() float64 {
	if !rs.Valid() {
		return 0
	}
	return rs.Delivered / rs.IntervalS
}

// Optional capabilities of an EventLaw.
type (
	// RateSampler is an event law that reads the delivery rate (BBR): the packet engine
	// keeps per-packet delivery state for its flow and calls OnRateSample for every ACK that
	// delivers data, in loss recovery as well as outside it (Linux cong_control), after
	// OnAck when OnAck is called and before the sender uses the window.
	RateSampler interface {
		OnRateSample(rs RateSample, o Observation)
	}

	// LossSampler is a RateSampler that reads the losses in its samples (RateSample's
	// NewlyLost, Lost and TxInFlight: BBR v2); the packet engine counts them only for a law
	// whose SamplesLoss is true.
	LossSampler interface {
		SamplesLoss() bool
	}

	// Pacer is an event law that sets a pacing rate (BBR): the packet engine spaces the
	// flow's transmissions at least 1/PacingRate apart, retransmissions included. A
	// non-positive or infinite rate means no pacing.
	Pacer interface {
		// PacingRate is the current pacing rate, packets/s.
		PacingRate() float64
	}

	// ECNReactor is an event law that reacts to ECN marks in its own way (DCTCP). Without
	// it an ECN-capable flow's law hears an ECN-Echo as OnLoss, at most once per window of
	// data and never in loss recovery (RFC 3168 §6.1.2), and no packet is retransmitted.
	ECNReactor interface {
		// ECNAck reports every ACK that delivers data: acked packets newly delivered, ce of
		// them CE-marked. The packet engine's receivers echo every mark exactly (an ACK
		// covers packets of one CE state, as DCTCP's receiver, RFC 8257 §3.2, ensures with
		// delayed ACKs). Called before OnAck and OnRateSample, in recovery as well.
		ECNAck(acked, ce float64, o Observation)
		// ECNReduce is the window reduction at an ECN-Echo, at most once per window of data
		// and never in loss recovery (RFC 3168 §6.1.2); the engine calls it instead of OnLoss.
		ECNReduce(o Observation)
	}
)

// Optional capabilities of a FluidLaw.
type (
	// FluidPacer is the fluid face of a paced, rate-based law (BBR): the engine sends at
	// min(window/RTT, PacingRate) instead of window/RTT (see FluidFlight). Its derivatives are written in
	// wall-clock time, not at the ACK clock of FluidLaw.Deriv: the engine neither scales
	// them by the ratio of the delivery rate to W/RTT nor holds them through fast recovery,
	// since the law reads the delivery rate itself (Observation.DeliveryRate). Its Switch
	// may change its window and its pacing rate (the engine re-evaluates the network
	// after it). A non-positive or infinite rate means the window alone sets the sending
	// rate.
	FluidPacer interface {
		// PacingRate is the pacing rate at state x, packets/s. Like Deriv it must not change
		// the law.
		PacingRate(x []float64, o Observation) float64
	}

	// FluidFlight is a FluidPacer that knows its packets in flight. A window caps what a
	// packet sender has unacknowledged, not its rate: a paced sender whose flight is below
	// its window sends at its pacing rate even where the window over the RTT now, inflated
	// by a queue its probe builds, is less. The engine then sends at the pacing rate, less
	// as the flight nears the window, down to its FullRate when it is there (FlightSlack).
	FluidFlight interface {
		// Flight is the packets in flight at state x, at most the window (the engine's
		// counts, Observation.SentPkts and LeftPkts, say what has been sent and has left
		// the path). Like Deriv it must not change the law.
		Flight(x []float64, o Observation) float64
		// FullRate is the rate, packets/s, the flow sends at while its flight fills its
		// window: the rate its ACKs return at, and the window's growth. Like Deriv it must
		// not change the law.
		FullRate(x []float64, o Observation) float64
	}

	// FluidECNReactor is the fluid face of an ECNReactor: the engine calls ECNReduce at a
	// located mark event of the flow (at most once per window of data, as a loss) instead
	// of OnLoss. A law may also read the marked fraction, Observation.MarkFrac, in Deriv
	// and reduce its window there continuously (DCTCP's fluid model); its ECNReduce then
	// only changes modes (slow start ends).
	FluidECNReactor interface {
		ECNReduce(x []float64, o Observation)
	}
)

// ECNCapable is an Algorithm whose flows always set ECT on their packets (DCTCP needs
// ECN: Linux TCP_CONG_NEEDS_ECN), whatever Flow.ECN says.
type ECNCapable interface {
	ECN() bool
}

// UsesECN reports whether a flow with algorithm a is ECN-capable: Flow.ECN (flowECN) or an
// algorithm that needs ECN.
func UsesECN(a Algorithm, flowECN bool) bool {
	if flowECN {
		return true
	}
	e, ok := a.(ECNCapable)
	return ok && e.ECN()
}
