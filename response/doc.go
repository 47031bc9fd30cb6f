// Package response measures what congestion-control papers publish on runs of the
// fluid engine: response functions (mean window against loss rate, fitted as c/p^d),
// the time to fill a link and to recover after a loss, and fairness (Jain's index, RTT
// fairness, TCP friendliness). Every result carries the published reference it is
// compared with (REFERENCE.md of the specification) and says which loss model and which
// fluid form produced it.
//
// Units: windows in packets (segments of MSSBytes bytes), times in seconds, rates in
// bit/s.
package response
