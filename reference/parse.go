package reference

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// LossRecord is one window reduction of a flow (or, for ns-2, the first counter tick after
// one): its time, the flow's cumulative ∫cwnd dt and acknowledged packets then, and how
// many reductions the flow has had up to and including it.
type LossRecord struct {
	TS           float64 `json:"t_s"`
	CwndTimePktS float64 `json:"cwnd_time_pkt_s"`
	AckedPkts    float64 `json:"acked_pkts"`
	Index        int     `json:"index"`
}

// Sample is a flow's cumulative acknowledged packets and window at a time.
type Sample struct {
	TS        float64 `json:"t_s"`
	AckedPkts float64 `json:"acked_pkts"`
	CwndPkts  float64 `json:"cwnd_pkts"`
}

// FlowRun is what one simulator run says about one flow.
type FlowRun struct {
	Flow       int
	Module     string
	Losses     []LossRecord
	Samples    []Sample
	EndS       float64
	CwndTime   float64 // ∫cwnd dt over the whole run, packet·s
	AckedPkts  float64
	SentPkts   float64 // data packets sent, retransmissions included
	Retrans    float64 // retransmitted packets (ns-2 only; -1 unknown)
	Reductions int     // window reductions: recoveries and timeouts
	Timeouts   int
	// FirstLossS is the first reduction's time, CwndAtLossPkts the window then (ns-3: the
	// window when the sender entered recovery; ns-2: its largest traced window before).
	FirstLossS     float64
	CwndAtLossPkts float64
	// MinAfterPkts is the smallest window after the first reduction (until BackS); BackS is
	// when it came back to the watched window after falling below it (NaN: never).
	MinAfterPkts float64
	BackS        float64
	// ECNReductions are the window reductions for ECN marks (ns-3: entries into CA_CWR).
	ECNReductions int
}

// QueueRun is the bottleneck's queue over a run (ns-3's Q record): ∫ packets waiting dt
// (queue disc and device queue, packet·s) up to TS, the data packets the bottleneck sent,
// the queue disc's summed sojourn times (s) over the packets it dequeued, its drops and
// the device's, and its ECN marks.
type QueueRun struct {
	TS, QueueTimePktS, TxDataPkts, SojournSumS, Dequeued, Drops, Marks float64
}

// Run is a parsed simulator run.
type Run struct {
	Simulator string
	Config    map[string]string
	Flows     []FlowRun
	Drops     float64 // packets the loss model dropped
	Queue     *QueueRun
}

// maxFlows bounds a flow index in a simulator's output: a reference experiment has a few
// flows, and a corrupt index must not allocate without bound.
const maxFlows = 10000

func fields(line string) []string { return strings.Fields(line) }

func atof(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// ParseNS3 reads the ns-3 program's stdout.
func ParseNS3(r io.Reader) (*Run, error) {
	run := &Run{Simulator: NS3, Config: map[string]string{}}
	flow := func(s string) (*FlowRun, error) {
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 || i >= maxFlows {
			return nil, fmt.Errorf("%w: ns-3 output: flow %q", ErrRun, s)
		}
		for len(run.Flows) <= i {
			run.Flows = append(run.Flows, FlowRun{Flow: len(run.Flows), FirstLossS: math.NaN(), BackS: math.NaN(), Retrans: -1, MinAfterPkts: math.NaN()})
		}
		return &run.Flows[i], nil
	}
	// record is the flow of a per-flow record of at least n fields (the flow's index second).
	record := func(f []string, n int, line string) (*FlowRun, error) {
		if len(f) < n {
			return nil, fmt.Errorf("%w: ns-3 output: short %s record %q", ErrRun, f[0], line)
		}
		return flow(f[1])
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	ended := false
	for sc.Scan() {
		f := fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "C":
			if len(f) >= 3 {
				key := f[1]
				if key == "algo" && len(f) >= 4 {
					fr, err := flow(f[2])
					if err != nil {
						return nil, err
					}
					fr.Module = f[3]
					continue
				}
				run.Config[key] = strings.Join(f[2:], " ")
			}
		case "L":
			fr, err := record(f, 9, sc.Text())
			if err != nil {
				return nil, err
			}
			rec := LossRecord{TS: atof(f[2]), CwndTimePktS: atof(f[3]), AckedPkts: atof(f[4]), Index: len(fr.Losses) + 1}
			if len(fr.Losses) == 0 {
				fr.FirstLossS, fr.CwndAtLossPkts = rec.TS, atof(f[7])
			}
			fr.Losses = append(fr.Losses, rec)
		case "X":
			fr, err := record(f, 3, sc.Text())
			if err != nil {
				return nil, err
			}
			fr.BackS = atof(f[2])
		case "M":
			fr, err := record(f, 3, sc.Text())
			if err != nil {
				return nil, err
			}
			if v := atof(f[2]); v >= 0 {
				fr.MinAfterPkts = v
			}
		case "S":
			if len(f) < 5 {
				continue
			}
			fr, err := flow(f[2])
			if err != nil {
				return nil, err
			}
			fr.Samples = append(fr.Samples, Sample{TS: atof(f[1]), AckedPkts: atof(f[3]), CwndPkts: atof(f[4])})
		case "F":
			fr, err := record(f, 3, sc.Text())
			if err != nil {
				return nil, err
			}
			fr.ECNReductions, _ = strconv.Atoi(f[2])
		case "Q":
			if len(f) < 8 {
				return nil, fmt.Errorf("%w: ns-3 output: short Q record %q", ErrRun, sc.Text())
			}
			run.Queue = &QueueRun{TS: atof(f[1]), QueueTimePktS: atof(f[2]), TxDataPkts: atof(f[3]), SojournSumS: atof(f[4]),
				Dequeued: atof(f[5]), Drops: atof(f[6]), Marks: atof(f[7])}
		case "E":
			fr, err := record(f, 9, sc.Text())
			if err != nil {
				return nil, err
			}
			fr.EndS, fr.CwndTime, fr.AckedPkts, fr.SentPkts = atof(f[2]), atof(f[3]), atof(f[4]), atof(f[5])
			run.Drops = atof(f[6])
			rec, _ := strconv.Atoi(f[7])
			to, _ := strconv.Atoi(f[8])
			fr.Reductions, fr.Timeouts = rec+to, to
			ended = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !ended {
		return nil, fmt.Errorf("%w: ns-3 output has no end record (did the program crash?)", ErrRun)
	}
	return run, nil
}

type ns2Tick struct {
	t                 float64
	cuts, timeouts    int
	acked, sent, cwnd float64
}

// ParseNS2 reads an ns-2 run: the script's stdout and its trace of cwnd_ and ssthresh_.
// Loss records are the counter ticks at which ncwndcuts_ grew (at most one tick, TickS,
// after the reduction); their ∫cwnd dt comes from the exact trace. watch is the converge
// experiment's window (0: none).
func ParseNS2(stdout io.Reader, trace io.Reader, watch float64) (*Run, error) {
	run := &Run{Simulator: NS2, Config: map[string]string{}}
	addr := map[string]int{} // "addr port" -> flow
	var ticks [][]ns2Tick
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	ended := false
	ensure := func(i int) {
		for len(run.Flows) <= i {
			run.Flows = append(run.Flows, FlowRun{Flow: len(run.Flows), FirstLossS: math.NaN(), BackS: math.NaN(), MinAfterPkts: math.NaN()})
			ticks = append(ticks, nil)
		}
	}
	for sc.Scan() {
		f := fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "C":
			if len(f) >= 6 && f[1] == "flow" {
				i, err := strconv.Atoi(f[2])
				if err != nil {
					return nil, fmt.Errorf("%w: ns-2 output: %q", ErrRun, sc.Text())
				}
				ensure(i)
				addr[f[3]+" "+f[4]] = i
				run.Flows[i].Module = f[5]
			} else if len(f) >= 3 {
				run.Config[f[1]] = strings.Join(f[2:], " ")
			}
		case "T", "E":
			if len(f) < 8 {
				return nil, fmt.Errorf("%w: ns-2 output: short record %q", ErrRun, sc.Text())
			}
			i, err := strconv.Atoi(f[2])
			if err != nil || i < 0 || i >= maxFlows {
				return nil, fmt.Errorf("%w: ns-2 output: flow %q", ErrRun, f[2])
			}
			ensure(i)
			cuts, _ := strconv.Atoi(f[3])
			to, _ := strconv.Atoi(f[4])
			tk := ns2Tick{t: atof(f[1]), cuts: cuts, timeouts: to, acked: atof(f[5]), sent: atof(f[6])}
			if f[0] == "T" {
				tk.cwnd = atof(f[7])
				ticks[i] = append(ticks[i], tk)
				continue
			}
			fr := &run.Flows[i]
			fr.EndS, fr.Reductions, fr.Timeouts, fr.AckedPkts, fr.SentPkts = tk.t, cuts, to, tk.acked, tk.sent
			fr.Retrans = atof(f[7])
			if len(f) >= 9 {
				run.Drops = atof(f[8])
			}
			ticks[i] = append(ticks[i], tk)
			ended = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !ended {
		return nil, fmt.Errorf("%w: ns-2 output has no end record (did ns stop early?)", ErrRun)
	}
	// Query times: every tick; the first loss lies in the first tick interval whose cuts grew.
	type state struct {
		cwnd, lastT, area float64
		q                 []ns2Tick
		qi                int
		firstA, firstB    float64 // the interval holding the first reduction
		lost, below       bool
		maxBefore         float64
	}
	st := make([]state, len(run.Flows))
	for i := range st {
		st[i].q = ticks[i]
		st[i].firstA, st[i].firstB = math.Inf(1), math.Inf(1)
		prev := 0.0
		for _, tk := range ticks[i] {
			if tk.cuts > 0 {
				st[i].firstA, st[i].firstB = prev, tk.t
				break
			}
			prev = tk.t
		}
	}
	resolve := func(i int, upTo float64) {
		s := &st[i]
		fr := &run.Flows[i]
		for s.qi < len(s.q) && s.q[s.qi].t <= upTo {
			tk := s.q[s.qi]
			area := s.area + s.cwnd*(tk.t-s.lastT)
			if s.qi == len(s.q)-1 && tk.t == fr.EndS {
				fr.CwndTime = area
			}
			prevCuts := 0
			if s.qi > 0 {
				prevCuts = s.q[s.qi-1].cuts
			}
			if tk.cuts > prevCuts {
				fr.Losses = append(fr.Losses, LossRecord{TS: tk.t, CwndTimePktS: area, AckedPkts: tk.acked, Index: tk.cuts})
			}
			fr.Samples = append(fr.Samples, Sample{TS: tk.t, AckedPkts: tk.acked, CwndPkts: tk.cwnd})
			s.qi++
		}
	}
	tr := bufio.NewScanner(trace)
	tr.Buffer(make([]byte, 1<<20), 1<<20)
	for tr.Scan() {
		f := fields(tr.Text())
		if len(f) < 7 {
			continue
		}
		i, ok := addr[f[1]+" "+f[2]]
		if !ok {
			continue
		}
		t, v := atof(f[0]), atof(f[6])
		resolve(i, t)
		s := &st[i]
		fr := &run.Flows[i]
		switch f[5] {
		case "cwnd_":
			s.area += s.cwnd * (t - s.lastT)
			s.lastT, s.cwnd = t, v
			if !s.lost {
				s.maxBefore = math.Max(s.maxBefore, v)
				continue
			}
			if math.IsNaN(fr.BackS) && (math.IsNaN(fr.MinAfterPkts) || v < fr.MinAfterPkts) {
				fr.MinAfterPkts = v
			}
			if watch > 0 && v < watch {
				s.below = true
			}
			if watch > 0 && s.below && v >= watch && math.IsNaN(fr.BackS) {
				fr.BackS = t
			}
		case "ssthresh_":
			if !s.lost && t > s.firstA && t <= s.firstB {
				s.lost = true
				fr.FirstLossS, fr.CwndAtLossPkts = t, s.maxBefore
			}
		}
	}
	if err := tr.Err(); err != nil {
		return nil, err
	}
	for i := range st {
		resolve(i, math.Inf(1))
		fr := &run.Flows[i]
		if fr.CwndTime == 0 {
			fr.CwndTime = st[i].area + st[i].cwnd*(fr.EndS-st[i].lastT)
		}
		sort.Slice(fr.Samples, func(a, b int) bool { return fr.Samples[a].TS < fr.Samples[b].TS })
	}
	return run, nil
}
