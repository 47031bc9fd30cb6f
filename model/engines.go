package model

// What the fluid engine (package fluid) and the packet engine (package packet) share, so
// that they can be compared like with like.

// RandomStream is the second word of the PCG generator the fluid engine seeds with its
// seed for the random-loss thresholds of its first flow; flow (or subflow) entry i draws
// from stream RandomStream ^ i. The packet engine draws each source's losses on the first
// random-loss link of its path from the same stream, so that both engines see every flow's
// losses after the same numbers of its packets (common random numbers).
const RandomStream = 0x7cf1d

// MinRTOS is the retransmission timer's floor, s: ns-2.35's and Linux's 0.2 s (RFC 6298
// says 1 s), in both engines.
const MinRTOS = 0.2

// InitialRTOS is the retransmission timer before the first RTT sample, s (RFC 6298 §2.1;
// ns-2 uses 3 s), in both engines.
const InitialRTOS = 1.0

// ClockGranularityS is G in RTO = SRTT + max(G, 4·RTTVAR), s (ns-2's tcpTick_ 0.01).
const ClockGranularityS = 0.01

// MaxRTOS caps a backed-off retransmission timer, s (RFC 6298 §2.5; ns-2's maxrto_).
const MaxRTOS = 60.0

// MinResumeWindow is the smallest window a route-aware sender resumes with after an
// outage, packets.
const MinResumeWindow = 2
