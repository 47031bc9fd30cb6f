// Package response measures what congestion-control papers publish on runs of the fluid
// engine: response functions (mean window against loss rate, fitted as c/p^d), the time
// to fill a link and to recover after a loss, and fairness (Jain's index, RTT fairness,
// TCP friendliness). Every result carries the published reference it is compared with —
// the algorithm's own (model.ResponseReferencer, model.ConvergeReferencer) — and says
// which engine, loss model and fluid form produced it. Parameter sweeps are package sweep;
// the validation of the fluid engine against the packet engine is package validate.
//
// Units: windows in packets (segments of MSSBytes bytes), times in seconds, rates in
// bit/s.
package response
