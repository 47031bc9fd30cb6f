package model

import "fmt"

// The algorithms and queues of today's networks (issue 18): BBR against CUBIC, BBR under
// random loss, DCTCP's queue at its marking threshold, and CUBIC's queueing delay over
// drop-tail, CoDel, PIE and FQ-CoDel (bufferbloat). Every scenario is one bottleneck link;
// flows use Linux's initial window of 10 packets, 1460-byte packets (no header on the wire, the
// fluid engine's view) and window scaling, and SACK as Linux and ns-3 senders have it (the
// BBR ones with LostRetransmit: without it a BBR sender at 1% loss waits for its timer on
// every lost retransmission).

// Sizes shared by the modern built-ins.
const (
	modernCapacityBps = 100e6 // the wide-area bottleneck: 100 Mb/s ...
	modernRTTS        = 0.040 // ... and 40 ms (a BDP of 342.5 packets of 1460 bytes)
	modernInitCwnd    = 10    // packets: Linux's and ns-3's initial window (RFC 6928)
	dctcpCapacityBps  = 10e9  // the data-centre link of Alizadeh et al.: 10 Gb/s ...
	dctcpRTTS         = 100e-6
	dctcpK            = 65 // packets: the 10 Gb/s threshold of the DCTCP paper (SIGCOMM 2010 §3.4)
)

// modernFlow is a long-lived flow of the modern built-ins.
func modernFlow(name, algo string, startS float64) Flow {
	return Flow{Name: name, Algorithm: algo, Path: "p0", StartS: startS, InitialCwnd: modernInitCwnd, WindowScaling: true}
}

// modernLink is the wide-area bottleneck with a buffer of bufferBDP BDPs.
func modernLink(bufferBDP float64) Link {
	return Link{Name: "bottleneck", CapacityBps: modernCapacityBps, DelayS: modernRTTS / 2, BufferBDP: bufferBDP}
}

func onePath() []Path { return []Path{{Name: "p0", Links: []string{"bottleneck"}}} }

// bbrCubic is one BBR and one CUBIC flow over a buffer of bufferBDP BDPs.
func bbrCubic(name string, bufferBDP float64, note string) func() *Scenario {
	return func() *Scenario {
		return &Scenario{
			Name: name,
			Description: fmt.Sprintf("BBR v1 against CUBIC over a 100 Mb/s, 40 ms bottleneck with a %g-BDP drop-tail buffer: "+
				"BBR starts at 0 s, CUBIC at 0.1 s, for 60 s. %s", bufferBDP, note),
			DurationS: 60,
			Links:     []Link{modernLink(bufferBDP)},
			Paths:     onePath(),
			Flows:     []Flow{modernFlow("bbr", "bbr", 0), modernFlow("cubic", "cubic", 0.1)},
			SACK:      true, LostRetransmit: true,
		}
	}
}

// bbr2Cubic is one BBR v2 and one CUBIC flow over a buffer of bufferBDP BDPs.
func bbr2Cubic(name string, bufferBDP float64, note string) func() *Scenario {
	return func() *Scenario {
		s := bbrCubic(name, bufferBDP, "")()
		s.Description = fmt.Sprintf("BBR v2 (Linux tcp_bbr2.c, v2alpha) against CUBIC over a 100 Mb/s, 40 ms bottleneck with a "+
			"%g-BDP drop-tail buffer: BBR v2 starts at 0 s, CUBIC at 0.1 s, for 60 s. %s", bufferBDP, note)
		s.Flows[0] = modernFlow("bbr2", "bbr2", 0)
		return s
	}
}

// bbrRandomLoss is one BBR flow on a path with random loss.
func bbrRandomLoss() *Scenario {
	l := modernLink(1)
	l.Loss, l.LossP = LossRandom, 0.01
	return &Scenario{
		Name: "modern-bbr-random-loss",
		Description: "BBR v1 alone over a 100 Mb/s, 40 ms bottleneck with a 1-BDP drop-tail buffer and 1% random loss, " +
			"for 30 s: BBR keeps its rate where loss-based senders collapse (its throughput is flat in the loss rate " +
			"up to about 1 − 1/1.25 = 20%, where the probing phase can no longer raise the delivery rate). Sweep " +
			"links[0].loss.p for the response.",
		DurationS: 30,
		Links:     []Link{l},
		Paths:     onePath(),
		Flows:     []Flow{modernFlow("bbr", "bbr", 0)},
		SACK:      true, LostRetransmit: true,
	}
}

// dctcpStep is n DCTCP flows through a step-marking switch port.
func dctcpStep(n int) func() *Scenario {
	return func() *Scenario {
		s := &Scenario{
			Name: fmt.Sprintf("modern-dctcp-%d", n),
			Description: fmt.Sprintf("%d DCTCP flows through a 10 Gb/s data-centre link with a 100 µs RTT and DCTCP's step "+
				"marking at K = 65 packets (a 1000-packet buffer), starting 1 ms apart, for 0.5 s. The queue oscillates "+
				"about K: Alizadeh, Javanmard & Prabhakar (SIGMETRICS 2011) give its peak K + N and its amplitude "+
				"½·√(2N(C·RTT + K)) (packets), with α ≈ √(2/W*), W* = (C·RTT + K)/N.", n),
			DurationS: 0.5,
			Links: []Link{{Name: "bottleneck", CapacityBps: dctcpCapacityBps, DelayS: dctcpRTTS / 2, BufferPkts: 1000,
				MarkThresholdPkts: dctcpK}},
			Paths: onePath(),
			SACK:  true,
		}
		for i := range n {
			f := modernFlow(fmt.Sprintf("dctcp%d", i), "dctcp", 0.001*float64(i))
			s.Flows = append(s.Flows, f)
		}
		return s
	}
}

// bufferbloat is 10 CUBIC flows over the wide-area bottleneck with queue discipline q.
func bufferbloat(q QueueKind) func() *Scenario {
	return func() *Scenario {
		l := modernLink(1)
		l.Queue = q
		s := &Scenario{
			Name: "modern-bufferbloat-" + string(q),
			Description: fmt.Sprintf("Ten CUBIC flows, 1 ms apart, over a 100 Mb/s, 40 ms bottleneck with a 1-BDP buffer "+
				"and the %s queue, for 60 s. Drop-tail's standing queue sits near the buffer (a full BDP of delay); "+
				"CoDel keeps the sojourn time near its 5 ms target, PIE the queueing delay near its 15 ms one, "+
				"FQ-CoDel each flow's own queue near CoDel's target.", q),
			DurationS: 60,
			Links:     []Link{l},
			Paths:     onePath(),
			SACK:      true,
			// Ten flows at one overflow: each loses in proportion to what it sends (the
			// synchronized rule cuts all ten and leaves the standing queue 17% short of
			// ns-3.37's and the packet engine's).
			DropRule: DropProportional,
		}
		for i := range 10 {
			s.Flows = append(s.Flows, modernFlow(fmt.Sprintf("cubic%d", i), "cubic", 0.001*float64(i)))
		}
		return s
	}
}

// The modern built-ins, registered in builtins (builtin.go).
var (
	modernBBRCubicShallow = bbrCubic("modern-bbr-cubic-shallow", 0.2,
		"A shallow buffer: CUBIC loses at every probe of BBR, which ignores the losses and takes nearly all the link.")
	modernBBRCubic1BDP = bbrCubic("modern-bbr-cubic-1bdp", 1,
		"A 1-BDP buffer: BBR still takes most of the link (ns-3 3.37's TcpBbr against TcpCubic: 0.86 of it, 0.90 of the goodput).")
	modernBBRCubicDeep = bbrCubic("modern-bbr-cubic-deep", 10,
		"A deep buffer: CUBIC fills it, BBR's window (2·BtlBw·RTprop) limits it, and CUBIC takes the larger share.")
	modernBBR2CubicShallow = bbr2Cubic("modern-bbr2-cubic-shallow", 0.2,
		"A shallow buffer: where v1 takes nearly all the link and loses a tenth of what it sends, v2's loss threshold "+
			"sets inflight_hi at its probes' losses and leaves CUBIC about a fifth.")
	modernBBR2Cubic1BDP = bbr2Cubic("modern-bbr2-cubic-1bdp", 1,
		"A 1-BDP buffer: v2's bounds share the link about evenly with CUBIC (v1 takes most of it).")
	modernDCTCP2        = dctcpStep(2)
	modernDCTCP10       = dctcpStep(10)
	modernBloatDropTail = bufferbloat(QueueDropTail)
	modernBloatCoDel    = bufferbloat(QueueCoDel)
	modernBloatPIE      = bufferbloat(QueuePIE)
	modernBloatFQCoDel  = bufferbloat(QueueFQCoDel)
)
