// Package packet is tcpfluid's packet-level validator: a small, fast discrete-event
// simulator of the same model.Scenario the fluid engine runs, driving each algorithm's
// event face (model.EventLaw). It is not ns-2, but the TCP mechanics that decide the
// numbers follow ns-2.35's one-way Agent/TCP family and the RFCs, and its seed-003 results
// are checked against ns-2.35 itself (testdata/seed003_ns2.json).
//
// # Use
//
//	r, err := packet.Run(ctx, scenario, packet.Settings{Seed: 1, SampleS: 0.1})
//
// The scenario must be validated (scenario.Validate()). The Result has the fluid engine's
// shape with Engine "packet"; Settings.RecordLosses and StopAfterLosses record loss events
// and end a run at row 0's n-th, as the fluid engine's settings of the same names do.
// Settings.SACK gives the senders selective acknowledgements (Linux's recovery) and
// Settings.JitterS random sender jitter against drop-tail phase effects; both are off by
// default, as in ns-2.
//
// # Network
//
// Events sit in a binary heap ordered by time, then by scheduling order, so a run is a
// deterministic function of the scenario and Settings.Seed. A link serializes packets at
// its capacity (bytes·8/capacity), then delays them by its propagation delay. Its buffer
// holds at most BufferPkts packets including the one being serialized (ns-2's DropTail
// with queue-limit N keeps N−1 waiting plus one on the wire). Drop-tail drops arrivals to
// a full buffer; RED (ns-2.35's REDQueue at its defaults, gentle_ and wait_) drops by the
// EWMA of the queue with a count-spread probability, none while at most one packet waits,
// ageing the average over idle time as if 500-byte packets had
// left. Random loss drops each packet of a source arriving at the link with probability p,
// independently: the gap from one loss of the source to its next is ⌈E/λ⌉ packets with
// E ~ Exp(1) and λ = −ln(1−p), a Geometric(p) variate, drawn from the source's own PCG
// stream on that link (seeded by Settings.Seed), so one source's losses do not depend on
// other traffic. On the first random-loss link of its path each flow (or subflow) draws
// from the stream the fluid engine uses for the same flow's random-loss thresholds with
// the same seed (E/p packets there): a comparison of the engines sees every flow's losses
// after the same numbers of its packets, common random numbers that leave the engines'
// difference instead of two independent samples' noise. (Each source's k-th random-loss
// link has its own stream.) With Settings.JitterS each data packet waits a
// further U(0, JitterS) at its sender, in order, before its first link; a replica of ns-2's
// TCP/Linux sender (RecoveryLinux*) instead waits as ns-2's overhead_ makes it wait, each
// send decision U(0, JitterS) and then every packet the window allows (ns2send.go).
// Periodic loss drops every (1/p)-th packet of each source crossing the link. A link-down
// loses the packets queued on it and on its wire, and every arrival until link-up; a delay
// change applies to packets that leave the link afterwards. A flow's data follow its
// path's links in order; ACKs return over an uncongested path with the same propagation
// delays, serialized (the flow's HeaderBytes each) but never queued, and are lost if a
// link of the path goes down while they travel. CBR sources send PacketBytes every
// PacketBytes·8/RateBps seconds from StartS to StopS.
//
// # TCP
//
// Every flow is one sender and receiver per path: a multi-path flow (model.Flow.Paths) has
// one subflow per path, each with its own sequence space, RTT estimator, recovery state,
// timers and receiver, all driven by the flow's one model.MultipathEventLaw: subflow k
// sends within CwndOf(k), and OnAck, OnLoss and OnTimeout name it in Observation.Subflow
// with every subflow's RTT and base RTT in Observation.Subflows (a slice filled in place,
// no allocation per event). A finite flow's data are shared: whichever subflow sends new
// data next takes the next packet of the file, and the flow completes when every packet
// has been sent and each subflow has all it sent acknowledged (no reinjection of a stalled
// subflow's data on another).
//
// Sequence numbers count packets. The sender keeps snd.una, the next packet to send and
// snd.max, and sends while next − snd.una < ⌊min(cwnd + inflation, rwnd/MSS)⌋ (at least
// one): ns-2's integer window, so 65535 bytes of receiver window carry 44 packets of 1460
// bytes. The receiver acknowledges every packet cumulatively (ns-2's TCPSink), or, with
// model.Flow.DelayedAck, every second in-order packet or after DelayedAckS, and out-of-order
// or gap-filling packets at once (RFC 5681 §4.2). ACKs echo the send time of the packet
// that triggered them, like TCP timestamps.
//
// Loss recovery follows the law's Recovery(). On the third duplicate ACK, unless snd.una
// has not passed the data outstanding at the previous loss event (ns-2's bugFix_, RFC
// 6582 §3.2), the engine calls OnLoss and then: Tahoe goes back to snd.una and resends from
// the law's window (one packet), re-sending data the receiver may hold (ns-2's TcpAgent);
// Reno retransmits the lost packet, inflates the window by one packet per duplicate ACK and
// leaves recovery at the first new ACK, so a second loss in the window waits for the timer;
// NewReno stays in recovery until the data outstanding at the loss is acknowledged,
// retransmitting at each partial ACK and deflating by the data it acknowledges (RFC 6582),
// the timer restarting at the first partial ACK only (ns-2's newreno_changes1_). The first
// two duplicate ACKs each send a new packet (limited transmit, RFC 3042; ns-2's singledup_).
//
// The law's OnAck is called for every ACK of new data outside NewReno's recovery, with the
// number of packets it acknowledges less those that duplicate ACKs already reported as
// delivered (at least one): the ACK that ends a recovery or follows a Tahoe retransmission
// then moves the window by about one packet, as ns-2's per-ACK increase does, not by the
// whole window it covers. The Observation's RTT is the latest sample (ACK arrival minus the
// echoed send time; an ns-2 TCP/Linux sender's from ACKs of new data only), BaseRTT the
// minimum so far; before the first sample both are the path's
// propagation and serialization round trip.
//
// The retransmission timer is RFC 6298's: SRTT and RTTVAR (gains 1/8 and 1/4) from one
// timed packet per round trip, never a retransmitted one (Karn), RTO = SRTT +
// max(ClockGranularityS, 4·RTTVAR), at least Settings.MinRTOS, InitialRTOS before the first
// sample, doubled at each timeout up to MaxRTOS and reset by the next valid sample; after
// more than three backoffs the next sample restarts the estimator. A timeout calls
// OnTimeout and goes back to snd.una; a timeout repeated before any ACK calls it again, so
// that, as ns-2's TcpAgent, a sender at one packet halves ssthresh to 2 (RFC 5681 would
// hold it).
//
// With Settings.SACK every ACK reports the out-of-order packet that triggered it, and the
// sender recovers from its scoreboard (sack.go): fast recovery at the third duplicate ACK
// retransmits the first hole at once and then, while the packets in flight (RFC 6675's
// pipe) are fewer than the law's window, every packet below the highest SACKed one (FACK,
// Linux's default until 4.15) before new data; a timeout keeps the scoreboard and resends
// only what is not SACKed. The law's Recovery() is then not used, except for the
// reference simulators' recoveries below.
//
// A single-path flow whose law recovers as model.RecoveryLinux, RecoveryLinuxMinCwnd or
// RecoveryPRR (the variants reno@linux, reno@ns3, newreno@ns3, ...) is a SACK sender
// whatever Settings.SACK says, and recovers as the simulator that variant reproduces
// (recovery.go): ns-2.35 TCP/Linux's scoreboard (a hole is lost once the fourth packet
// above it is SACKed, a lost retransmission is found by the SACKs of later packets), rate
// halving and, with min_cwnd, the restart at ssthresh/2 and slow start back (Linux 2.6.2x
// tcp_fastretrans_alert, tcp_moderate_cwnd); or ns-3.37's RFC 6675 loss rule with
// TcpPrrRecovery (RFC 6937) and its minimum RTO of 1 s. The window the flow reports is the
// one the simulator traces: ns-2's rate-halving allowance, ns-3's pipe + sndcnt. An ns-2
// TCP/Linux sender also keeps that agent's timer (ns2rtt.go): a sample from every ACK's
// echoed timestamp, the receiver echoing as TCPSink/Sack1 with ts_echo_rfc1323_ (the
// timestamp of the packet the ACK was due for, so duplicate ACKs repeat it), 1 ms ticks and
// no floor under RTTVAR, so its timeout on a steady path is SRTT plus a few milliseconds.
//
// A route-aware sender (model.Flow.RouteAware, seed 002) learns of a failure on its path
// when the link goes down: it stops sending, holds its timer (no timeout, no backoff, no
// call to the law) and keeps its state. When the path is whole again it resumes at once
// from snd.una, retransmitting what the failed link lost, with the window
// min(W before the outage, ssthresh) (at least 2 packets) and ssthresh unchanged: the law
// has no setter, so it is re-created from the flow's algorithm and parameters with those
// two as InitialCwnd and InitialSsthresh, which is all the state of Tahoe, Reno and
// NewReno (laws with more state, such as CUBIC's W_max, restart it). A subflow of a
// multi-path flow cannot re-create the law it shares: it resumes with the law's window for
// it, which the outage left as it was. Other senders time out as usual.
//
// # ECN, AQMs, pacing and delivery-rate samples
//
// A link with ECN or a step threshold (model.Link.MarkThresholdPkts) marks the packets of
// ECN-capable flows CE where its discipline would drop them early; CoDel (RFC 8289, at
// dequeue), PIE (RFC 8033, at arrival) and FQ-CoDel (RFC 8290: a queue per source, deficit
// round robin, CoDel per queue) are in aqm.go, codel.go, pie.go and fqcodel.go. The receiver
// echoes every mark (ACKs of one CE state each); the sender reduces once per window at an
// echo and raises no window until that window is acknowledged (CWR). A law that sets a
// pacing rate (model.Pacer), or a flow with model.Flow.Pacing, is paced; a
// model.RateSampler gets Linux's per-ACK delivery-rate samples, in recovery too; and
// Settings.LostRetransmit detects a lost retransmission from the SACKs of packets sent
// after it (signals.go). Flows and links that use none of these run exactly as before.
//
// # ns-2 defaults adopted, and not
//
// From ns-2.35's ns-default.tcl: ACK per packet (TCPSink), three duplicate ACKs
// (numdupacks_), limited transmit (singledup_ 1), no burst limit (maxburst_ 0), minimum RTO
// 0.2 s (minrto_; RFC 6298 says 1 s, set Settings.MinRTOS for it), maximum 60 s (maxrto_),
// G = 0.01 s (tcpTick_), the receiver window as initial ssthresh (ssthresh_ = window_;
// here unless the flow sets InitialSsthresh), and the integer window. Not adopted: ns-2
// quantizes RTT samples to tcpTick_ (here they are exact, except for the TCP/Linux
// senders above); it opens with a 40-byte SYN and
// a two-packet window (syn_, windowInit_ 2; here the flow's InitialCwnd, default 1, with
// no handshake); its initial RTO is 3 s (here 1 s, RFC 6298); its Reno truncates ssthresh
// to whole packets (the laws in model/ do not).
//
// Header bytes: each flow's model.Flow.HeaderBytes is added to every data segment on the
// wire (serialization and buffer occupancy in time, not the data counted in throughput and
// goodput) and is the size of its ACKs; 0, the default, is the fluid engine's view (MSS =
// packet). ns-2's Agent/TCP, /Reno and /Newreno put packetSize_ + 40 bytes on the wire and
// send 40-byte ACKs, but Agent/TCP/Vegas sends packetSize_ bytes (its own output() adds no
// header): the seed003-dumbbell builtin has 40, and the seed-003 comparison sets 0 for Vegas.
//
// # Results
//
// One row per flow, and one per subflow of a multi-path flow (Flow the scenario's index,
// Subflow k, Name "name/k", Path the subflow's), as the fluid engine's. Per row:
// MeanThroughputBps counts every data byte (MSS payload) arriving at the receiver,
// GoodputBps the first copy of each, both over the active time (StartS to StopS, to the
// completion of a finite transfer, or to the end); MeanCwndPkts is the time-average of the
// law's cwnd over the active time (the un-inflated window, ns-2's cwnd_); LossEvents counts
// fast retransmits and timeouts; SentPkts every data packet sent, DeliveredPkts every one
// received (copies included), DroppedPkts every one lost anywhere. The sender stops at
// StopS; packets already sent are still delivered and counted. Per link: MeanQueuePkts is
// the time-average of the packets waiting in the buffer (not the one being serialized, as
// ns-2's queue length and ns-3's queue disc count),
// Utilisation the busy fraction of the run, DroppedPkts every packet its queue dropped
// (full, RED, or the link down; the link's random or periodic losses count for the flow
// only). With Settings.SampleS > 0 the trace holds, at k·SampleS for k = 1, 2, …, one row
// per flow or subflow that has started and not ended (cwnd, ssthresh, the data rate
// delivered over the last interval, the latest RTT, the packets queued along its path, the
// packets delivered so far) and one per link (Flow −1, queue in packets).
//
// # Seed 003
//
// Run on model.Builtin("seed003-dumbbell") as above (TestSeed003Table), the engine gives
// Tahoe 29 / 1421 / 651.61 kbit/s, Reno 25 / 1372 / 629.53, NewReno 34 / 1450 / 654.06 and
// Vegas (ns-2's α 1, β 3) 0 / 1479 / 725.70 for dropped at the bottleneck / received /
// throughput, against Table 3's 28 / 1418 / 649.64, 29 / 1419 / 637.38, 30 / 1462 / 659.95
// and 0 / 1475 / 723.24. ns-2.35 on the same script reproduces Table 3 exactly, and shows
// that the table's "dropped" counts only the bottleneck: the slow-start overshoot also drops
// 54 packets at the 50-packet access queue, in ns-2 and here alike. Moving both CBR starts
// by 0–19 ms moves ns-2's drop counts by ±20% (Reno 19–31); over those 20 runs the engine's
// means agree with ns-2's within 9% (drops) and 1% (received, throughput).
//
// # Reno at a drop-tail overflow
//
// One Reno flow with a one-BDP buffer keeps the link busy when an overflow costs one packet:
// the window halves to the BDP. When it costs two in one window, Reno's fast recovery ends
// at the first partial ACK and the second loss waits for the timer: slow start up to a
// quarter of the peak, and the link idles for minutes at 100 Mb/s and 240 ms. Which of
// the two happens depends on the phase of the ACK clock against the queue, in ns-2.35 as
// here: on a 10 Mb/s dumbbell (access 20 Mb/s, 10 ms; bottleneck delay D; one-BDP buffers;
// 1460-byte packets with 40-byte headers; 600 s) ns-2's Reno times out after a
// congestion-avoidance overflow for D = 92, 96, 100, 102, 106 and 110 ms of 90, 92, …,
// 110 ms, this engine for D = 96, 102 and 110 ms, with the same counts there (4, 6 and 3
// timeouts). On seed 000's dumbbell with 1500-byte packets on the wire both engines halve
// at 749 s without a timeout (ns-2: 4056.8 → 2029 packets, here 4057.0 → 2029.0).
package packet
