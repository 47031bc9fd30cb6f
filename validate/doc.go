// Package validate runs one scenario, or one response point, in the fluid engine (in its
// hybrid-recovery form, which counts as a packet sender does) and in the packet engine
// with the same seed, and compares them metric by metric against stated tolerances
// (metric.go). Flows that share no link run as separate groups (groups.go) so both
// engines draw the same random losses. A scenario with a registered headline
// (RegisterHeadline; package seeds registers the seeds') adds the quantities its source
// reports.
package validate
