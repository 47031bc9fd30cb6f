package model

import "fmt"

// Active queue management and explicit congestion notification: the queue kinds beyond
// drop-tail and RED, and the ECN marking a link can do. Both engines implement them
// (packet: codel.go, pie.go, fqcodel.go, ecn.go; fluid: aqm.go, ecn.go).
//
//	codel     CoDel (RFC 8289; Linux sch_codel, ns-3 CoDelQueueDisc): drops (or marks) at
//	          dequeue once the sojourn time has stayed above target for an interval, the
//	          next drops interval/√count apart while it stays above.
//	fq_codel  FQ-CoDel (RFC 8290; Linux sch_fq_codel, ns-3 FqCoDelQueueDisc): one queue per
//	          flow served by deficit round robin with a quantum of bytes, new flows first,
//	          CoDel on each queue; a full buffer drops from the longest queue's head.
//	pie       PIE (RFC 8033; Linux sch_pie, ns-3 PieQueueDisc): a drop (or mark) probability
//	          p on arrival, updated every t_update from the queueing delay (the sojourn time
//	          of the packet last dequeued): p += α·(delay − target) + β·(delay − previous
//	          delay), α and β scaled down while p is small (RFC 8033 §4.2).
//
// ECN (RFC 3168): a link with ECN marks the packets of ECN-capable flows (Flow.ECN, or an
// algorithm that needs it such as DCTCP) CE where its discipline would drop them early —
// RED, CoDel, FQ-CoDel, and PIE while p ≤ PIE.ECNMaxProb (RFC 8033 §5.1) — and drops the
// others as before; a full buffer drops whatever arrives. MarkThresholdPkts K is DCTCP's
// step marking (RFC 8257 §3.1; Alizadeh et al. 2010) on a drop-tail queue: every
// ECN-capable packet that arrives to find more than K packets in the queue (the one being
// sent included) is marked; it implies ECN.

// CoDel holds CoDel's parameters (RFC 8289 §4.2–4.3; defaults of Linux sch_codel and
// ns-3 CoDelQueueDisc).
type CoDel struct {
	TargetS   float64 // acceptable standing sojourn time, s; default 5 ms
	IntervalS float64 // the window the sojourn time must stay above target, s; default 100 ms
}

// PIE holds PIE's parameters (RFC 8033 §4–5; defaults of the RFC, Linux sch_pie and
// ns-3 PieQueueDisc).
type PIE struct {
	TargetS   float64 // QDELAY_REF, the target queueing delay, s; default 15 ms
	TUpdateS  float64 // T_UPDATE, the period of the probability update, s; default 15 ms
	Alpha     float64 // α, per second of delay error; default 0.125
	Beta      float64 // β, per second of delay change; default 1.25
	MaxBurstS float64 // MAX_BURST, the burst allowance after the queue was idle, s; default 150 ms
	// ECNMaxProb is the highest drop probability at which ECN-capable packets are marked
	// instead of dropped (RFC 8033 §5.1 mark_ecnth); default 0.1.
	ECNMaxProb float64
}

// Scale is RFC 8033's auto-tuning factor of α and β at drop probability p (§4.2, as Linux
// sch_pie and ns-3 PieQueueDisc apply it), shared by both engines.
func (PIE) Scale(p float64) float64 {
	switch {
	case p < 1e-6:
		return 1.0 / 2048
	case p < 1e-5:
		return 1.0 / 512
	case p < 1e-4:
		return 1.0 / 128
	case p < 1e-3:
		return 1.0 / 32
	case p < 1e-2:
		return 1.0 / 8
	case p < 1e-1:
		return 1.0 / 2
	}
	return 1
}

// FQCoDel holds FQ-CoDel's parameters (RFC 8290 §4–5; defaults of Linux sch_fq_codel).
// Every flow and CBR source has its own queue: the hash of RFC 8290 §4.1.1 with as many
// buckets as sources and no collision (Linux and ns-3 hash into 1024 buckets, where a few
// flows collide with probability about n²/2048). The buffer (Link.BufferPkts) is the
// total limit.
type FQCoDel struct {
	QuantumBytes float64 // DRR quantum, bytes; default 1514 (Linux: the interface MTU plus its link header)
	CoDel                // each queue's CoDel; defaults 5 ms and 100 ms
}

// AQM defaults resolved by Validate.
const (
	DefaultCoDelTargetS   = 0.005 // RFC 8289 §4.4
	DefaultCoDelIntervalS = 0.100 // RFC 8289 §4.3
	DefaultPIETargetS     = 0.015 // RFC 8033 §4.1 QDELAY_REF
	DefaultPIETUpdateS    = 0.015 // RFC 8033 §4.2 T_UPDATE
	DefaultPIEAlpha       = 0.125 // RFC 8033 §4.2, 1/s
	DefaultPIEBeta        = 1.25  // RFC 8033 §4.2, 1/s
	DefaultPIEMaxBurstS   = 0.150 // RFC 8033 §4.3 MAX_BURST
	DefaultPIEECNMaxProb  = 0.1   // RFC 8033 §5.1 mark_ecnth
	DefaultFQQuantumBytes = 1514  // Linux sch_fq_codel: psched_mtu of an Ethernet device
)

// IsAQM reports whether the queue kind is one of CoDel, FQ-CoDel and PIE.
func (k QueueKind) IsAQM() bool {
	return k == QueueCoDel || k == QueueFQCoDel || k == QueuePIE
}

// Marks reports whether the link marks ECN-capable packets (ECN or step marking).
func (l *Link) Marks() bool { return l.ECN || l.MarkThresholdPkts > 0 }

// resolveAQM checks a link's ECN and AQM settings against its queue kind and fills the
// defaults of its discipline.
func (l *Link) resolveAQM(at string) error {
	if !finite(l.MarkThresholdPkts) || l.MarkThresholdPkts < 0 {
		return fieldErr(at+".mark_threshold", "%v packets, want >= 0 (0: no step marking)", l.MarkThresholdPkts)
	}
	if l.MarkThresholdPkts > 0 {
		if l.Queue != QueueDropTail {
			return fieldErr(at+".mark_threshold", "%v packets on queue %q, want step marking on a %q queue", l.MarkThresholdPkts, l.Queue, QueueDropTail)
		}
		l.ECN = true
	}
	if l.ECN && l.Queue == QueueDropTail && l.MarkThresholdPkts == 0 {
		return fieldErr(at+".ecn", "true on a %q queue without mark_threshold, want a marking queue (%q, %q, %q, %q) or a mark_threshold",
			QueueDropTail, QueueRED, QueueCoDel, QueueFQCoDel, QueuePIE)
	}
	if l.Queue != QueueCoDel && l.Queue != QueueFQCoDel && l.CoDel != (CoDel{}) {
		return fieldErr(at+".codel", "%+v, want unset unless queue is %q or %q", l.CoDel, QueueCoDel, QueueFQCoDel)
	}
	if l.Queue != QueuePIE && l.PIE != (PIE{}) {
		return fieldErr(at+".pie", "%+v, want unset unless queue is %q", l.PIE, QueuePIE)
	}
	if l.Queue != QueueFQCoDel && l.FQCoDel != (FQCoDel{}) {
		return fieldErr(at+".fq_codel", "%+v, want unset unless queue is %q", l.FQCoDel, QueueFQCoDel)
	}
	switch l.Queue {
	case QueueCoDel:
		return l.CoDel.resolve(at + ".codel")
	case QueueFQCoDel:
		if l.CoDel != (CoDel{}) {
			return fieldErr(at+".codel", "%+v on queue %q, want the per-queue CoDel in fq_codel's target and interval", l.CoDel, QueueFQCoDel)
		}
		if l.FQCoDel.QuantumBytes == 0 {
			l.FQCoDel.QuantumBytes = DefaultFQQuantumBytes
		}
		if !finite(l.FQCoDel.QuantumBytes) || l.FQCoDel.QuantumBytes < 1 {
			return fieldErr(at+".fq_codel.quantum", "%v bytes, want >= 1", l.FQCoDel.QuantumBytes)
		}
		return l.FQCoDel.CoDel.resolve(at + ".fq_codel")
	case QueuePIE:
		return l.PIE.resolve(at + ".pie")
	}
	return nil
}

func (c *CoDel) resolve(at string) error {
	if c.TargetS == 0 {
		c.TargetS = DefaultCoDelTargetS
	}
	if c.IntervalS == 0 {
		c.IntervalS = DefaultCoDelIntervalS
	}
	switch {
	case !finite(c.TargetS) || c.TargetS <= 0:
		return fieldErr(at+".target", "%v s, want > 0", c.TargetS)
	case !finite(c.IntervalS) || c.IntervalS < c.TargetS:
		return fieldErr(at+".interval", "%v s, want >= target (%v s)", c.IntervalS, c.TargetS)
	}
	return nil
}

func (p *PIE) resolve(at string) error {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&p.TargetS, DefaultPIETargetS)
	def(&p.TUpdateS, DefaultPIETUpdateS)
	def(&p.Alpha, DefaultPIEAlpha)
	def(&p.Beta, DefaultPIEBeta)
	def(&p.MaxBurstS, DefaultPIEMaxBurstS)
	def(&p.ECNMaxProb, DefaultPIEECNMaxProb)
	for _, c := range []struct {
		key  string
		v    float64
		unit string
	}{{"target", p.TargetS, " s"}, {"t_update", p.TUpdateS, " s"}, {"alpha", p.Alpha, " 1/s"}, {"beta", p.Beta, " 1/s"}} {
		if !finite(c.v) || c.v <= 0 {
			return fieldErr(at+"."+c.key, "%v%s, want > 0", c.v, c.unit)
		}
	}
	if !finite(p.MaxBurstS) || p.MaxBurstS < 0 {
		return fieldErr(at+".max_burst", "%v s, want >= 0", p.MaxBurstS)
	}
	if !finite(p.ECNMaxProb) || p.ECNMaxProb < 0 || p.ECNMaxProb > 1 {
		return fieldErr(at+".ecn_max_p", "%v, want 0 <= ecn_max_p <= 1", p.ECNMaxProb)
	}
	return nil
}

// queueKinds is the error text of an unknown queue kind; it keeps the drop-tail and RED
// wording of earlier releases.
func queueKinds(k QueueKind) string {
	return fmt.Sprintf("%q, want %q or %q, or an AQM: %q, %q or %q", k, QueueDropTail, QueueRED, QueueCoDel, QueueFQCoDel, QueuePIE)
}
