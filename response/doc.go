// Package response measures what congestion-control papers publish on runs of the
// engines: response functions (mean window against loss rate, fitted as c/p^d), the time
// to fill a link and to recover after a loss, fairness (Jain's index, RTT fairness, TCP
// friendliness), parameter sweeps (grids, shards, merges) and the validation of the fluid
// engine against the packet-level one (scenarios, response points, seed 003's Table 3).
// Every result carries the published reference it is compared with (REFERENCE.md of the
// specification) and says which engine, loss model and fluid form produced it.
//
// Units: windows in packets (segments of MSSBytes bytes), times in seconds, rates in
// bit/s.
package response
