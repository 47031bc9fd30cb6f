// Package model is tcpfluid's domain: scenarios (links, paths, flows, cross traffic, timed
// events) in users' units, their validation and loading, results, and the
// congestion-control algorithms with the contract both engines (packages fluid and packet)
// run them by.
//
// # Algorithms
//
// An Algorithm is a documented parameter set (Params, Set) and a factory of per-flow
// controllers with two faces that implement the same law:
//
//   - the fluid face (FluidLaw): continuous state, x[0] = the window in packets, whose
//     derivatives the engine integrates between events, plus jump maps at losses and
//     timeouts and a guard that ends slow start;
//   - the event face (EventLaw): per-ACK, per-loss and per-timeout callbacks in the style of
//     Linux tcp_congestion_ops, driven by the packet-level simulator.
//
// A per-ACK increase f becomes the rate dW/dt = f·W/RTT (W/RTT ACKs per second); an
// increase stated per RTT becomes a rate by dividing by the RTT. Slow start is the
// exception to the naive mapping: one packet per ACK doubles the window each round, so its
// fluid form is dW/dt = W·ln2/RTT, not W/RTT (which grows by e per RTT).
//
// Registered algorithms, each in one file with both faces side by side (equations and
// sources: docs/models.md):
//
//	tahoe      Jacobson 1988: slow start from one packet after every loss
//	reno       RFC 5681: AIMD(1, 1/2), fast recovery
//	newreno    RFC 6582: Reno's law, recovery that survives partial ACKs
//	vegas      Brakmo & Peterson 1995: keeps α..β packets queued
//	scalable   Kelly 2003: +0.01 per ACK, −1/8 per loss
//	highspeed  RFC 3649: a(W), b(W) above 38 packets (closed form, or the Appendix B table)
//	cubic      RFC 9438: cubic in the time since the last loss, Reno-friendly region
//	compound   Tan et al. 2006: Reno window plus a delay-based window
//	bic        Xu, Harfoush, Rhee 2004: binary search towards the last maximum
//	htcp       Leith & Shorten 2004: increase growing with the time since the last loss
//	colo       Lee & Chung 2014 (seed 000): concave slow start, α(Diff), adaptive β — equations
//	           reconstructed from the paper's prose
//	lia        RFC 6356: MPTCP linked increases over several paths (Flow.Paths)
//	olia       Khalili et al. 2012: opportunistic linked increases
//	vlia       seed 001: LIA whose high-BDP subflow runs CUBIC behind a virtual Reno window
//	           (reconstruction)
//	dctcp      RFC 8257, Linux tcp_dctcp.c: Reno with an ECN-marked-fraction estimate α,
//	           cwnd ← cwnd·(1 − α/2) once per window of marks; fluid face after Alizadeh,
//	           Javanmard & Prabhakar 2011
//	bbr        BBR v1 (Linux tcp_bbr.c as of 5.10, draft-cardwell-iccrg-bbr): paced at the
//	           windowed-max delivery rate with a gain cycle, cwnd 2·BDP, Startup, Drain,
//	           ProbeRTT; fluid face after the structure of Scherrer et al. (IMC 2022)
//
// # Signals beyond the window
//
// signals.go adds optional interfaces for rate-based and ECN-reacting laws: RateSampler
// (per-ACK delivery-rate samples, RateSample), Pacer and FluidPacer (a pacing rate; the
// fluid face of a paced law is written in wall-clock time and reads
// Observation.DeliveryRate), FluidFlight (a paced law's flight, so that it sends at its
// pacing rate while its window has room, and its rate once the window is full),
// ECNReactor and FluidECNReactor (the reduction at an
// ECN-Echo; the fluid face may read Observation.MarkFrac), and ECNCapable (an algorithm
// whose flows always set ECT). aqm.go adds the queue kinds codel, fq_codel and pie and ECN
// marking (Link.ECN, Link.MarkThresholdPkts for DCTCP's step); Flow.ECN makes any sender
// react to marks as to a loss (RFC 3168), Flow.Pacing paces a window sender as Linux does
// (packet engine). modern.go has the built-ins that show them.
//
// Windows are in packets, times in seconds, rates in packets per second. After a loss no
// algorithm keeps less than 2 packets (RFC 5681); a timeout sets ssthresh = max(W/2, 2) and
// restarts slow start from one packet. The receiver window (FlowConfig.MaxCwnd) caps every
// window. Parameter errors wrap ErrParam and name algorithm.parameter, the value and the
// allowed range.
//
// # Flows, subflows and route changes
//
// A flow with several Paths is multi-path: one subflow per path, all driven by one law of
// a Multipath algorithm (x[k] is subflow k's window; Observation.Subflows carries every
// subflow's RTT). A RouteAware flow treats a link failure on its path as a route change
// (seed 002): it keeps its state through the outage and resumes at min(window before,
// ssthresh).
//
// # Writing an algorithm
//
// A user-defined algorithm implements Algorithm in its own package and calls Register in an
// init function; Configure then builds it by name with its parameters, and both engines
// (packages fluid and packet) and every analysis can run it. The kit makes that short:
// Base (name, description, parameters defined with Real and Switch, constraints with
// Require), Window (the slow-start threshold, mode and receiver-window cap with Reno's
// loss and timeout jumps) and WindowLaw, which turns a WindowRule — increase per RTT and
// the reduced window at a loss — into both faces. The optional interfaces of
// algorithm.go (RecoveryStyle, ResponseReferencer, ConvergeReferencer,
// AckIncrement, RecoveryEnder, SubflowSsthresh, Checker) are what the engines
// and analyses look for; each is asserted at compile time where it is implemented.
package model
