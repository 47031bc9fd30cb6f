package reference

import (
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// KindScenario is a tcpfluid scenario with one bottleneck link (the modern built-ins: BBR,
// DCTCP, CoDel, PIE, FQ-CoDel) run in ns-3 with the same link, queue discipline and flows.
const KindScenario = "scenario"

// NS3WireHeaderBytes is what ns-3.37 puts on the wire around a segment's payload: 20 bytes
// of IPv4, 20 of TCP, 12 of the timestamp option and 2 of PPP.
const NS3WireHeaderBytes = 54

// QueueDisc is the ns-3 queue disc at the bottleneck of a scenario experiment, with its
// attributes. Kind is one of fifo, red-step, codel, fq_codel, pie.
type QueueDisc struct {
	Kind string `json:"kind"`
	// MarkThresholdPkts is red-step's K: RedQueueDisc with QW 1, MinTh = MaxTh = K, not
	// gentle, UseEcn, no hard drop (the step marking of DCTCP's ns-3 example).
	MarkThresholdPkts float64 `json:"mark_threshold_pkts,omitempty"`
	// ECN: codel, fq_codel and pie mark ECN-capable packets instead of dropping them.
	ECN bool `json:"ecn,omitempty"`
	// CoDel and FQ-CoDel: Target and Interval, s.
	TargetS   float64 `json:"target_s,omitempty"`
	IntervalS float64 `json:"interval_s,omitempty"`
	// PIE: QueueDelayReference (TargetS), Tupdate, A, B, MaxBurstAllowance.
	TUpdateS  float64 `json:"t_update_s,omitempty"`
	Alpha     float64 `json:"alpha,omitempty"`
	Beta      float64 `json:"beta,omitempty"`
	MaxBurstS float64 `json:"max_burst_s,omitempty"`
}

// scenarioAccessDelayS is the one-way delay of the scenario experiment's access and exit
// links, s: the simulators' least, taken off the bottleneck's delay.
const scenarioAccessDelayS = 1e-6

// ScenarioOf builds the ns-3 experiment of a validated tcpfluid scenario whose flows all
// cross one link and nothing else. The dumbbell's access and exit links run at ten times
// the bottleneck's rate with 1 µs of delay (taken off the bottleneck's, so that the round
// trip is the scenario's), and every rate is scaled by ns-3's wire size over tcpfluid's
// ((MSS + 54) / (MSS + header)): each engine then carries the same packets per second,
// and a buffer or threshold in packets means the same in both.
func ScenarioOf(sc *model.Scenario) (*Experiment, error) {
	bad := func(f string, a ...any) error {
		return fmt.Errorf("%w: scenario %q: %s", ErrExperiment, sc.Name, fmt.Sprintf(f, a...))
	}
	if len(sc.Links) != 1 || len(sc.Flows) == 0 {
		return nil, bad("%d links and %d flows: the scenario experiment takes one link and at least one flow", len(sc.Links), len(sc.Flows))
	}
	if len(sc.CBR) > 0 || len(sc.Events) > 0 {
		return nil, bad("CBR sources and link events have no ns-3 counterpart here")
	}
	l := sc.Links[0]
	f0 := sc.Flows[0]
	if l.DelayS <= 2*scenarioAccessDelayS {
		return nil, bad("links[0].delay %v s, want > %v s", l.DelayS, 2*scenarioAccessDelayS)
	}
	scale := (f0.MSSBytes + NS3WireHeaderBytes) / (f0.MSSBytes + f0.HeaderBytes)
	bw := l.CapacityBps * scale
	e := &Experiment{
		Kind: KindScenario, Name: "scenario-" + sc.Name, Topology: TopoDumbbell,
		BandwidthBps: bw, DelayS: l.DelayS - 2*scenarioAccessDelayS, BufferPkts: int(l.BufferPkts),
		AccessBps: 10 * bw, OutBps: 10 * bw, OutDelayS: scenarioAccessDelayS, OutBufferPkts: 100000,
		MSSBytes: f0.MSSBytes, HeaderBytes: NS3WireHeaderBytes, RwndPkts: FairnessRwndPkts,
		InitialCwnd: int(f0.InitialCwnd), Seed: 1, DurationS: sc.DurationS, TickS: sc.DurationS,
		Scenario: sc.Name, NoSACK: !sc.SACK,
	}
	if l.Loss == model.LossRandom {
		e.LossP = l.LossP
	} else if l.Loss != "" && l.Loss != model.LossNone {
		return nil, bad("links[0].loss %q: only random loss has an ns-3 counterpart here", l.Loss)
	}
	q, err := queueDiscOf(l)
	if err != nil {
		return nil, bad("%v", err)
	}
	e.Queue = q
	// The largest window a flow can use is the path's BDP and the buffer; ns-3's
	// TcpTxBuffer walks its whole list on every SACK, so the send buffer holds four times that.
	bdp := l.CapacityBps * 2 * l.DelayS / (8 * (f0.MSSBytes + f0.HeaderBytes))
	e.SndBufBytes = int(math.Max(1<<20, 4*(bdp+l.BufferPkts)*f0.MSSBytes))
	for i, f := range sc.Flows {
		p := sc.PathIndex(f.Path)
		if len(f.Paths) > 0 || p < 0 || len(sc.PathLinks(p)) != 1 {
			return nil, bad("flows[%d] does not cross links[0] alone", i)
		}
		switch {
		case f.MSSBytes != f0.MSSBytes || f.HeaderBytes != f0.HeaderBytes:
			return nil, bad("flows[%d]: %v + %v bytes, flows[0] %v + %v: the experiment has one packet size", i, f.MSSBytes, f.HeaderBytes, f0.MSSBytes, f0.HeaderBytes)
		case f.InitialCwnd != f0.InitialCwnd:
			return nil, bad("flows[%d].initial_cwnd %v, flows[0]'s %v: the experiment has one", i, f.InitialCwnd, f0.InitialCwnd)
		case f.DelayedAck || f.SizeBytes > 0 || f.RwndBytes < model.DefaultScaledRwndBytes || f.InitialSsthresh > 0 || len(f.Params) > 0 || (f.StopS > 0 && f.StopS < sc.DurationS):
			return nil, bad("flows[%d]: delayed ACKs, a size, a receiver window below 1 GiB, an initial ssthresh, parameters or a stop have no counterpart here", i)
		}
		e.ECN = e.ECN || f.ECN
		e.Flows = append(e.Flows, Flow{Algorithm: f.Algorithm, StartS: f.StartS, AccessDelayS: scenarioAccessDelayS, AccessBufferPkts: 100000})
	}
	return e, e.Validate()
}

// queueDiscOf maps a link's queue to ns-3's queue disc (nil: the device's drop-tail queue,
// as the other experiments have it).
func queueDiscOf(l model.Link) (*QueueDisc, error) {
	switch l.Queue {
	case "", model.QueueDropTail:
		if l.MarkThresholdPkts > 0 {
			return &QueueDisc{Kind: "red-step", MarkThresholdPkts: l.MarkThresholdPkts}, nil
		}
		return &QueueDisc{Kind: "fifo"}, nil
	case model.QueueCoDel:
		return &QueueDisc{Kind: "codel", ECN: l.ECN, TargetS: l.CoDel.TargetS, IntervalS: l.CoDel.IntervalS}, nil
	case model.QueueFQCoDel:
		c := l.FQCoDel.CoDel
		return &QueueDisc{Kind: "fq_codel", ECN: l.ECN, TargetS: c.TargetS, IntervalS: c.IntervalS}, nil
	case model.QueuePIE:
		p := l.PIE
		return &QueueDisc{Kind: "pie", ECN: l.ECN, TargetS: p.TargetS, TUpdateS: p.TUpdateS, Alpha: p.Alpha, Beta: p.Beta, MaxBurstS: p.MaxBurstS}, nil
	}
	return nil, fmt.Errorf("links[0].queue %q: RED without a step threshold is not mapped to ns-3 here", l.Queue)
}

// args is the queue disc as the ns-3 program's command line.
func (q *QueueDisc) args() []string {
	a := []string{"--queueDisc=" + q.Kind, fmt.Sprintf("--discEcn=%t", q.ECN)}
	switch q.Kind {
	case "red-step":
		a = append(a, "--markK="+num(q.MarkThresholdPkts))
	case "codel", "fq_codel":
		a = append(a, "--codelTarget="+num(q.TargetS), "--codelInterval="+num(q.IntervalS))
	case "pie":
		a = append(a, "--pieTarget="+num(q.TargetS), "--pieTupdate="+num(q.TUpdateS), "--pieA="+num(q.Alpha),
			"--pieB="+num(q.Beta), "--pieMaxBurst="+num(q.MaxBurstS))
	}
	return a
}
