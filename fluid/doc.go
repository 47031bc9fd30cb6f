// Package fluid is tcpfluid's fluid engine: it runs a validated model.Scenario as one
// hybrid dynamical system and returns a model.Result (Run).
//
// The state vector (layout.go) holds every link's queue and counters and every flow's law
// variables and counters; ode's Dormand–Prince solver integrates it between events. Queues
// have three modes (empty, busy, full) switched at located events (queues.go); losses are
// located events too (losses.go): periodic and random loss as integrated intensities
// crossing thresholds, drop-tail overflow with the synchronized or proportional rule and a
// reaction one RTT later, RED as an intensity from the averaged queue. A queue serves its
// sources first in, first out: each at its share of what the link admitted a queueing
// delay before (fifo.go), the solver stopping where those shares jump (fifobreaks.go).
// With many flows the reactions of different flows share solver stops (merge.go) and the
// proportional rule's drops are found after the steps that hold them (polldrops.go).
// Link failures,
// delay changes and the retransmission timers they cause are in outages.go.
//
// The engine uses only the algorithm contract of package model: FluidLaw, and the optional
// model.AckIncrement, model.RecoveryEnder, model.SubflowSsthresh and
// model.RecoveryStyle. Every law is clocked by the flow's ACKs (field.go): the engine
// multiplies a law's derivatives by the ratio of the flow's delivery rate to W/RTT, the
// rate the law is written at (model.FluidLaw.Deriv).
//
// ECN marking (step, RED), CoDel, FQ-CoDel, PIE and paced laws (model/signals.go) live in
// an extension (ext.go, aqm.go) with its own state block and guards, created only for the
// scenarios that use them: every other scenario runs exactly as before. FQ-CoDel's flow
// queues are the link's streams, served by max–min fairness (fq.go).
//
// Every result names its form (form.go): FormHybrid, the textbook sawtooth, or
// FormHybridRecovery, which counts as a packet sender does (a window held for one RTT
// after each loss, ⌊W⌋ packets in flight, per-ACK increases at the window reached in the
// round) and is the form compared with the packet engine.
package fluid
