package response

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// ErrOutOfTolerance is returned (wrapped) by callers that turn a failed validation into an
// error, such as `tcpfluid validate`, which exits with code 1 on it.
var ErrOutOfTolerance = errors.New("fluid and packet engines disagree beyond tolerance")

// ValidationForm is the fluid form every validation runs: FormHybridRecovery counts as a
// packet sender does (it holds the window for one round trip after each loss event, as
// fast recovery does, keeps ⌊W⌋ packets in flight and grows per ACK at the window reached
// in the round), so the two engines model the same cycle.
const ValidationForm = fluid.FormHybridRecovery

// Scenario tolerances: the largest relative difference between the engines that Validate
// accepts. Where the engines model the same thing they agree far inside them: one Reno
// flow on seed 000's dumbbell through an overflow and back (response tests) differs by
// 0.06% in mean window, 0.04% in throughput and 0.2% in mean queue. What the tolerances
// are meant to catch is what the fluid laws leave out: a packet sender's retransmission
// timeouts (after slow start overshoots a buffer, or when several losses share a Reno
// window), whole packets, and start-up transients that dominate short runs. validate
// prints the timeouts it saw as notes.
const (
	// TolThroughput bounds mean_throughput_bps. Whole packets alone cost a packet sender
	// half a packet per round (⌊W⌋ of W), 4% at W = 12; 10% leaves room for that and for
	// the fluid's smoother start-up, no more.
	TolThroughput = 0.10
	// TolCwnd bounds mean_cwnd_pkts: the window is throughput × RTT, and the RTT includes
	// the queue, so it carries the throughput's difference and the queue's.
	TolCwnd = 0.10
	// TolLossEvents bounds loss_events: the fluid's synchronized drop-tail rule gives one
	// loss event per overflow and per flow, a packet sender one fast retransmit per window
	// with losses, and one more event for a timeout; 25% lets one event in four differ.
	TolLossEvents = 0.25
	// TolQueue bounds mean_queue_pkts of congested links (overflowed in either engine, or
	// at least 90% busy). Both queues move between the same bounds, but a queue's mean is
	// the difference of two large rates integrated, and moves most when the flows' timing
	// differs; relative to at least one packet.
	TolQueue = 0.20
	// TolUtilisation bounds the utilisation of congested links: with the same capacity
	// and offered load, busy time differs only by idle periods, which only timeouts and
	// start-up create; 3% is about one idle round trip in 30. An uncongested link's
	// utilisation is the load its flows offer, Σ throughput / capacity, and is held to
	// TolThroughput.
	TolUtilisation = 0.03
	// TolJain bounds Jain's index over the flows' mean throughputs (more than one flow):
	// 5% is the index's change when two equal flows split 60/40.
	TolJain = 0.05
)

// Point tolerances, ValidatePoint's: the (periodic 3%, random 5%) for both the
// mean window and the throughput.
const (
	// TolPointPeriodic bounds a point under periodic loss. The sawtooth is deterministic;
	// the engines' mean windows differ by whole-packet effects (a packet sender's window
	// moves in per-ACK steps over rounds of ⌊W⌋ packets, and each cycle retransmits one of
	// its 1/p packets) of a fraction of a packet, below 3% once W̄ > 15.
	TolPointPeriodic = 0.03
	// TolPointRandom bounds a point under random loss. Both engines see the same loss
	// sequence (common random numbers), and each metric carries the paired 95% interval
	// of the difference, which the tests keep below half the tolerance.
	TolPointRandom = 0.05
)

// Metric is one quantity measured in both engines. RelErr = |Fluid − Packet| /
// max(|Packet|, scale): the packet engine is the reference (it is checked against ns-2),
// and for quantities that can be near zero (queues, loss counts) a scale of one packet or
// one event keeps a difference of a fraction of a packet from counting as a large error.
type Metric struct {
	Metric string `json:"metric"`
	Flow   *int   `json:"flow,omitempty"`
	// Subflow is set for a subflow of a multi-path flow (one result row per subflow).
	Subflow   *int    `json:"subflow,omitempty"`
	Link      string  `json:"link,omitempty"`
	Fluid     float64 `json:"fluid"`
	Packet    float64 `json:"packet"`
	RelErr    float64 `json:"rel_err"`
	Tolerance float64 `json:"tolerance"`
	OK        bool    `json:"ok"`
	// CI95 is the half width of the 95% confidence interval of RelErr when the metric is
	// statistical (random loss): paired batch means of the two engines.
	CI95 *float64 `json:"ci95,omitempty"`
	// Headline marks a quantity the scenario's source reports (Headlines).
	Headline bool `json:"headline,omitempty"`
	// Informational metrics are reported but do not decide Validation.OK (see Validate).
	Informational bool `json:"informational,omitempty"`
	// Check "sign": OK when both engines' values are positive (an ordering the source
	// claims, such as one flow delivering more than another); RelErr and Tolerance are
	// then the relative difference and 0, for information.
	Check string `json:"check,omitempty"`
}

// Validation is the side-by-side comparison of the engines; its JSON is
// `tcpfluid validate --format json`.
type Validation struct {
	Scenario string     `json:"scenario,omitempty"`
	Point    *PointSpec `json:"point,omitempty"`
	Form     string     `json:"form"`
	DropRule string     `json:"drop_rule,omitempty"`
	Seed     uint64     `json:"seed"`
	Metrics  []Metric   `json:"metrics"`
	OK       bool       `json:"ok"`
	// Notes say what the engines did that the metrics alone do not show, such as packet
	// senders' retransmission timeouts, which the fluid laws do not model.
	Notes []string `json:"notes,omitempty"`
	// Headline says what the scenario's headline metrics are and why (Headlines).
	Headline string `json:"headline,omitempty"`
	// SACK and JitterS are the packet engine's settings besides the seed (Validate).
	SACK    bool    `json:"sack,omitempty"`
	JitterS float64 `json:"jitter_s,omitempty"`
	// Groups is the number of independent groups of flows Validate ran one at a time.
	Groups int `json:"groups,omitempty"`
	// Fluid and Packet are the engines' results (for a point: over the whole run,
	// warm-up included).
	Fluid  *model.Result `json:"-"`
	Packet *model.Result `json:"-"`
}

// Failed lists the gating metrics out of tolerance (not the informational ones).
func (v *Validation) Failed() []Metric {
	var out []Metric
	for _, m := range v.Metrics {
		if !m.OK && !m.Informational {
			out = append(out, m)
		}
	}
	return out
}

// add appends a metric and updates the verdict.
func (v *Validation) add(m Metric) {
	v.Metrics = append(v.Metrics, m)
	v.OK = v.OK && (m.OK || m.Informational)
}

// compare builds a metric from the two values with the packet value as the reference and
// scale as the smallest denominator.
func compare(name string, fluid, pkt, scale, tol float64) Metric {
	den := math.Max(math.Abs(pkt), scale)
	e := 0.0
	if den > 0 {
		e = math.Abs(fluid-pkt) / den
	} else if fluid != pkt {
		e = math.Inf(1)
	}
	if math.IsInf(e, 0) || math.IsNaN(e) {
		// Only a zero reference without a scale gets here; report the absolute difference
		// as the error rather than an infinity JSON cannot carry.
		e = math.Abs(fluid - pkt)
	}
	return Metric{Metric: name, Fluid: fluid, Packet: pkt, RelErr: e, Tolerance: tol, OK: e <= tol}
}

// Validate runs a validated scenario in both engines with the same seed (the fluid in
// ValidationForm) and compares, per flow (per subflow of a multi-path flow), the mean
// window, the mean throughput and the loss events; per congested link the mean queue, and
// per link the utilisation; and Jain's index over the flows when there are several
// (the generic metrics, tolerances Tol*). A scenario with a headline (Headlines, by
// scenario name) adds the quantities its source reports, within TolHeadline.
//
// Flows that share no link with each other are separate experiments, and each group runs
// alone in both engines (results merged back in scenario order): alone, the group's first
// flow draws its random losses from the stream the fluid engine uses (packet.Settings),
// so both engines see the same losses and their difference is the models', not the noise
// of two loss sequences (seed000-colo-random-loss: four such groups). With the
// proportional drop rule the packet senders get jitter of two packet times at the slowest
// link (packet.Settings.JitterS), without which a drop-tail queue's phase effect, not
// random drops in proportion to arrivals, decides which flow loses at an overflow.
//
// The Validation's OK is false when a gating metric is out of tolerance. With a headline,
// the generic metrics of a flow whose packet sender timed out, and of the links it
// crosses, inform but do not gate: the fluid laws model at most Reno's timeout at a second
// loss in a window it repairs, not when a packet sender's timer fires, its backoff and the
// go-back-N that follows, which move the mean window and queue far more than the data
// delivered; what the timeouts cost is what the headline measures. The error is for runs
// that failed.
func Validate(ctx context.Context, sc *model.Scenario, seed uint64) (*Validation, error) {
	set := packet.Settings{Seed: seed}
	hl, haveHeadline := Headlines[sc.Name]
	if haveHeadline {
		set.SACK = hl.SACK
	}
	if sc.DropRule == model.DropProportional {
		set.JitterS = phaseJitterS(sc)
	}
	groups := independentGroups(sc)
	var fl, pk *model.Result
	for _, g := range groups {
		sub := g.scenario(sc)
		f, err := fluid.Run(ctx, sub, fluid.Settings{Seed: seed, Form: ValidationForm})
		if err != nil {
			return nil, fmt.Errorf("fluid engine: %w", err)
		}
		p, err := packet.Run(ctx, sub, set)
		if err != nil {
			return nil, fmt.Errorf("packet engine: %w", err)
		}
		fl, pk = g.merge(sc, fl, f), g.merge(sc, pk, p)
	}
	sortResult(fl)
	sortResult(pk)
	v := &Validation{Scenario: sc.Name, Form: ValidationForm, DropRule: string(fl.DropRule), Seed: seed, OK: true, Fluid: fl, Packet: pk,
		SACK: set.SACK, JitterS: set.JitterS, Groups: len(groups)}
	if len(fl.Flows) != len(pk.Flows) {
		return nil, fmt.Errorf("%w: the fluid engine has %d flow rows, the packet engine %d", model.ErrEngine, len(fl.Flows), len(pk.Flows))
	}
	// informs: rows whose packet sender timed out, and the links they cross (only with a
	// headline, which then carries the comparison).
	informs := make([]bool, len(fl.Flows))
	informLink := map[string]bool{}
	for r := range fl.Flows {
		if haveHeadline && pk.Flows[r].Timeouts > 0 {
			informs[r] = true
			for _, l := range sc.Paths[sc.PathIndex(fl.Flows[r].Path)].Links {
				informLink[l] = true
			}
		}
	}
	var fx, px []float64
	for r := range fl.Flows {
		f, p := fl.Flows[r], pk.Flows[r]
		for _, m := range []Metric{
			compare("mean_cwnd_pkts", f.MeanCwndPkts, p.MeanCwndPkts, 1, TolCwnd),
			compare("mean_throughput_bps", f.MeanThroughputBps, p.MeanThroughputBps, 0, TolThroughput),
			compare("loss_events", float64(f.LossEvents), float64(p.LossEvents), 1, TolLossEvents),
		} {
			m.setRow(sc, f)
			m.Informational = informs[r]
			v.add(m)
		}
		fx = append(fx, f.MeanThroughputBps)
		px = append(px, p.MeanThroughputBps)
	}
	for i, l := range sc.Links {
		f, p := fl.Links[i], pk.Links[i]
		if congested(f) || congested(p) {
			m := compare("mean_queue_pkts", f.MeanQueuePkts, p.MeanQueuePkts, 1, TolQueue)
			m.Link, m.Informational = l.Name, informLink[l.Name]
			v.add(m)
		}
		m := compare("utilisation", f.Utilisation, p.Utilisation, 0, utilisationTolerance(f, p))
		m.Link, m.Informational = l.Name, informLink[l.Name]
		v.add(m)
	}
	if len(fl.Flows) > 1 {
		m := compare("jain", Jain(fx), Jain(px), 0, TolJain)
		m.Informational = len(informLink) > 0
		v.add(m)
	}
	if haveHeadline {
		v.Headline = hl.About
		for _, m := range hl.Metrics(sc, fl, pk) {
			m.Headline = true
			v.add(m)
		}
	}
	v.notes(sc, haveHeadline, informs)
	return v, nil
}

// notes explains timeouts, headers, groups, SACK, jitter and informational metrics.
func (v *Validation) notes(sc *model.Scenario, haveHeadline bool, informs []bool) {
	if v.Groups > 1 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d groups of flows share no link: each ran alone in both engines, with common random numbers", v.Groups))
	}
	if v.SACK {
		v.Notes = append(v.Notes, "packet senders use SACK recovery (packet.Settings.SACK): "+Headlines[sc.Name].SACKWhy)
	}
	if v.JitterS > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("drop rule proportional: packet senders hold each packet a further U(0, %.3g ms), two packet times at the slowest link, against drop-tail phase effects", 1e3*v.JitterS))
	}
	for r, f := range v.Packet.Flows {
		if n := f.Timeouts; n > 0 || v.Fluid.Flows[r].Timeouts > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("%s: the packet sender timed out %d time(s) in %d loss events, the fluid %d time(s)",
				rowName(f), n, f.LossEvents, v.Fluid.Flows[r].Timeouts))
		}
	}
	for i, f := range sc.Flows {
		if f.HeaderBytes > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("flow %d (%s): %g header bytes per packet on the wire in the packet engine; the fluid engine sends MSS-byte packets",
				i, f.Name, f.HeaderBytes))
		}
	}
	for r, in := range informs {
		if in {
			v.Notes = append(v.Notes, fmt.Sprintf("%s: the packet sender timed out, so its generic metrics and its links' inform and the headline decides", rowName(v.Packet.Flows[r])))
		}
	}
	if haveHeadline {
		v.Notes = append(v.Notes, "headline: "+v.Headline)
	}
}

// rowName names a result row: "flow 0 (name)".
func rowName(f model.FlowResult) string { return fmt.Sprintf("flow %d (%s)", f.Flow, f.Name) }

// setRow makes a metric about result row f: its flow and, for a subflow of a multi-path
// flow, its subflow.
func (m *Metric) setRow(sc *model.Scenario, f model.FlowResult) {
	i := f.Flow
	m.Flow = &i
	if len(sc.Flows[i].PathNames()) > 1 {
		k := f.Subflow
		m.Subflow = &k
	}
}

// phaseJitterS is two packet times, s, of the largest packet any TCP flow puts on the
// wire at the slowest link: the sender jitter Validate gives packet senders under the
// proportional drop rule. One packet time (Floyd and Jacobson's) still leaves seed 001's
// MPTCP subflow on path 2 three times its share of a 400 s run; two remove the phase
// effect, and more (1 ms, 2 ms) change the shares no further.
func phaseJitterS(sc *model.Scenario) float64 {
	var bytes float64
	for _, f := range sc.Flows {
		bytes = math.Max(bytes, f.MSSBytes+f.HeaderBytes)
	}
	slowest := math.Inf(1)
	for _, l := range sc.Links {
		slowest = math.Min(slowest, l.CapacityBps)
	}
	if !(slowest > 0) || math.IsInf(slowest, 1) {
		return 0
	}
	return 2 * bytes * 8 / slowest
}

// group is a set of flows and CBR sources that share links with one another and with no
// other; Validate runs each alone.
type group struct {
	flows, cbrs, links []int // indices in the scenario
}

// independentGroups partitions a scenario's flows and CBR sources by the links they share
// (the connected components of "crosses a link of"), in the order of their first flow.
func independentGroups(sc *model.Scenario) []group {
	parent := make([]int, len(sc.Links))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	linksOf := func(paths []string) []int {
		var ls []int
		for _, p := range paths {
			for _, name := range sc.Paths[sc.PathIndex(p)].Links {
				ls = append(ls, sc.LinkIndex(name))
			}
		}
		return ls
	}
	flowLinks := make([][]int, len(sc.Flows))
	for i := range sc.Flows {
		flowLinks[i] = linksOf(sc.Flows[i].PathNames())
	}
	cbrLinks := make([][]int, len(sc.CBR))
	for i := range sc.CBR {
		cbrLinks[i] = linksOf([]string{sc.CBR[i].Path})
	}
	for _, ls := range append(append([][]int{}, flowLinks...), cbrLinks...) {
		for _, l := range ls[1:] {
			parent[find(l)] = find(ls[0])
		}
	}
	byRoot := map[int]int{}
	var gs []group
	at := func(l int) *group {
		r := find(l)
		k, ok := byRoot[r]
		if !ok {
			k = len(gs)
			byRoot[r] = k
			gs = append(gs, group{})
		}
		return &gs[k]
	}
	for i, ls := range flowLinks {
		g := at(ls[0])
		g.flows = append(g.flows, i)
	}
	for i, ls := range cbrLinks {
		g := at(ls[0])
		g.cbrs = append(g.cbrs, i)
	}
	for l := range sc.Links {
		if _, ok := byRoot[find(l)]; ok || len(gs) == 0 {
			g := at(l)
			g.links = append(g.links, l)
		} else {
			gs[0].links = append(gs[0].links, l) // a link no flow crosses idles in any group
		}
	}
	return gs
}

// scenario is the group alone: its flows, CBR sources, links, the paths over them and the
// timed events of its links; still valid, since the scenario was.
func (g group) scenario(sc *model.Scenario) *model.Scenario {
	if len(g.flows) == len(sc.Flows) && len(g.cbrs) == len(sc.CBR) {
		return sc
	}
	s := sc.Clone()
	s.Flows, s.CBR, s.Links, s.Paths, s.Events = nil, nil, nil, nil, nil
	for _, i := range g.flows {
		s.Flows = append(s.Flows, sc.Flows[i])
	}
	for _, i := range g.cbrs {
		s.CBR = append(s.CBR, sc.CBR[i])
	}
	in := map[string]bool{}
	for _, l := range g.links {
		s.Links = append(s.Links, sc.Links[l])
		in[sc.Links[l].Name] = true
	}
	for _, p := range sc.Paths {
		if !slices.ContainsFunc(p.Links, func(l string) bool { return !in[l] }) {
			s.Paths = append(s.Paths, p)
		}
	}
	for _, e := range sc.Events {
		if in[e.Link] {
			s.Events = append(s.Events, e)
		}
	}
	return s
}

// merge adds a group's result r to the scenario-wide result into (nil for the first
// group), mapping its flows and links back to the scenario's indices.
func (g group) merge(sc *model.Scenario, into, r *model.Result) *model.Result {
	if into == nil {
		into = &model.Result{Scenario: sc.Name, Engine: r.Engine, Form: r.Form, DropRule: r.DropRule, Seed: r.Seed, DurationS: r.DurationS,
			Links: make([]model.LinkResult, len(sc.Links))}
	}
	for _, f := range r.Flows {
		f.Flow = g.flows[f.Flow]
		into.Flows = append(into.Flows, f)
	}
	for _, l := range r.Links {
		into.Links[sc.LinkIndex(l.Link)] = l
	}
	return into
}

// sortResult orders a merged result's rows by flow, then subflow: the scenario's order.
func sortResult(r *model.Result) {
	sort.SliceStable(r.Flows, func(a, b int) bool {
		fa, fb := r.Flows[a], r.Flows[b]
		return fa.Flow < fb.Flow || (fa.Flow == fb.Flow && fa.Subflow < fb.Subflow)
	})
}

// TolHeadline bounds every headline metric: the 10%.
const TolHeadline = 0.10

// TenGigabytes is seed 001's file, bytes (10 Gbyte, decimal).
const TenGigabytes = 10e9

// Headline is what a scenario's source reports, checked in both engines by Validate.
type Headline struct {
	// About says what the metrics are and why they are the source's.
	About string
	// Metrics computes the headline metrics from both engines' results.
	Metrics func(sc *model.Scenario, fluid, pkt *model.Result) []Metric
	// SACK runs the packet senders with SACK recovery (packet.Settings.SACK); SACKWhy
	// says why the source's senders had it.
	SACK    bool
	SACKWhy string
}

// Headlines are the built-in scenarios' headline checks, by scenario name. The packet
// engine's runs are the reference; each metric is within TolHeadline, or a sign check.
var Headlines = map[string]Headline{
	"seed000-dumbbell": {
		About:   "the Reno flow's goodput over the 100 s run (seed 000's dumbbell, the throughput its figures show)",
		Metrics: perFlow("goodput_bps", goodput, 0),
	},
	"seed000-colo-random-loss": {
		About: "each algorithm's goodput under random loss 1e-5 over 300 s (seed 000: COLO keeps the highest throughput); " +
			"each copy of the dumbbell runs alone, so both engines draw the same losses",
		Metrics: perFlow("goodput_bps", goodput, 0),
	},
	"seed000-slow-start": {
		About: "each flow's dropped packets: the 30 s run is the slow start, its overflow and the recovery from it; " +
			"and COLO's drops below Reno's in both engines (seed 000: COLO loses fewer packets in slow start)",
		Metrics: seed000SlowStartMetrics,
	},
	"seed001-mptcp": {
		About: "each MPTCP subflow's share of its path's capacity (the flow's throughput on each path) within 0.1, and the time " +
			"to download 10 GB at the flow's mean goodput, 8e10 bit / Σ subflow goodput (seed 001: LIA 95 + 20 Mb/s, VLIA 397 + 25, " +
			"3.67 times faster)",
		Metrics: seed001Metrics,
		SACK:    true,
		SACKWhy: "seed 001's testbed runs Linux (Ubuntu 14.04, kernel 3.13: SACK and FACK on)",
	},
	"seed002-mesh": {
		About: "each flow's data delivered by 120 s, unique packets (seed 002's Fig. 7, the sequence number received), " +
			"and the route-aware sender's lead over each baseline, positive in both engines",
		Metrics: seed002Metrics,
	},
	"seed004-lfn": {
		About:   "each flow's completion time of the 50 MB FTP transfer (seed 004: about 10 Mb/s without window scaling, 45 with)",
		Metrics: perFlow("completion_time_s", completion, 0),
	},
}

// goodput is a row's goodput, bit/s.
func goodput(f model.FlowResult) float64 { return f.GoodputBps }

// completion is a row's completion time, s (0 for a transfer that did not complete).
func completion(f model.FlowResult) float64 {
	if f.CompletionTimeS == nil {
		return 0
	}
	return *f.CompletionTimeS
}

// uniquePkts is the data a row delivered, unique packets of MSSBytes.
func uniquePkts(sc *model.Scenario, f model.FlowResult) float64 {
	return f.GoodputBps * f.ActiveS / (8 * sc.Flows[f.Flow].MSSBytes)
}

// perFlow is a headline of one quantity per result row, with the given scale (see compare).
func perFlow(name string, q func(model.FlowResult) float64, scale float64) func(*model.Scenario, *model.Result, *model.Result) []Metric {
	return func(sc *model.Scenario, fl, pk *model.Result) []Metric {
		var ms []Metric
		for r := range fl.Flows {
			m := compare(name, q(fl.Flows[r]), q(pk.Flows[r]), scale, TolHeadline)
			m.setRow(sc, fl.Flows[r])
			ms = append(ms, m)
		}
		return ms
	}
}

// seed001Metrics: every multi-path flow's share of each path's capacity (its subflow's
// goodput over the path's slowest link, the paper's "10–20% of path 1" and "80%"), within
// TolHeadline as an absolute difference of shares (scale 1), and its 10 GB download time,
// within TolHeadline relative. A share, not the subflow's goodput relative to itself: the
// subflow on path 2 takes about a tenth of a path it shares with a Reno flow, and its
// window there grows at a rate proportional to itself (W₂/(τ₂·W₁) per second under LIA),
// so it settles where the loss events it draws just balance that growth: a few loss events
// more or fewer in 1000 s move it by a quarter (VLIA: 10.7 Mb/s fluid, 14.1 packet, 0.034
// of the path), while what the paper reports, the shares and the total, hardly move.
func seed001Metrics(sc *model.Scenario, fl, pk *model.Result) []Metric {
	var ms []Metric
	for i := range sc.Flows {
		if len(sc.Flows[i].PathNames()) < 2 {
			continue
		}
		var fTotal, pTotal float64
		for r := range fl.Flows {
			if fl.Flows[r].Flow != i {
				continue
			}
			capacity := pathCapacity(sc, fl.Flows[r].Path)
			m := compare("path_share", fl.Flows[r].GoodputBps/capacity, pk.Flows[r].GoodputBps/capacity, 1, TolHeadline)
			m.setRow(sc, fl.Flows[r])
			ms = append(ms, m)
			fTotal += fl.Flows[r].GoodputBps
			pTotal += pk.Flows[r].GoodputBps
		}
		download := func(bps float64) float64 {
			if bps > 0 {
				return TenGigabytes * 8 / bps
			}
			return 0
		}
		m := compare("download_10GB_s", download(fTotal), download(pTotal), 0, TolHeadline)
		k := i
		m.Flow = &k
		ms = append(ms, m)
	}
	return ms
}

// seed000SlowStartMetrics: each flow's drops, and how many fewer COLO drops than Reno.
func seed000SlowStartMetrics(sc *model.Scenario, fl, pk *model.Result) []Metric {
	drops := func(f model.FlowResult) float64 { return f.DroppedPkts }
	ms := perFlow("dropped_pkts", drops, 1)(sc, fl, pk)
	row := func(r *model.Result, algo string) (model.FlowResult, bool) {
		for _, f := range r.Flows {
			if f.Algorithm == algo {
				return f, true
			}
		}
		return model.FlowResult{}, false
	}
	fc, okC := row(fl, "colo")
	fr, okR := row(fl, "reno")
	if !okC || !okR {
		return ms
	}
	pc, _ := row(pk, "colo")
	pr, _ := row(pk, "reno")
	m := compare("colo_drops_below_reno_pkts", fr.DroppedPkts-fc.DroppedPkts, pr.DroppedPkts-pc.DroppedPkts, 1, 0)
	m.Check = "sign"
	m.OK = m.Fluid > 0 && m.Packet > 0
	m.setRow(sc, fc)
	return append(ms, m)
}

// pathCapacity is the capacity of a path's slowest link, bit/s.
func pathCapacity(sc *model.Scenario, path string) float64 {
	c := math.Inf(1)
	for _, l := range sc.Paths[sc.PathIndex(path)].Links {
		c = math.Min(c, sc.Links[sc.LinkIndex(l)].CapacityBps)
	}
	return c
}

// seed002Metrics: each flow's unique packets delivered by the end, and each route-aware
// flow's lead over the best flow that is not.
func seed002Metrics(sc *model.Scenario, fl, pk *model.Result) []Metric {
	ms := perFlow("delivered_unique_pkts", func(f model.FlowResult) float64 { return uniquePkts(sc, f) }, 1)(sc, fl, pk)
	best := func(r *model.Result, aware bool) float64 {
		b := math.Inf(-1)
		for _, f := range r.Flows {
			if sc.Flows[f.Flow].RouteAware == aware {
				b = math.Max(b, uniquePkts(sc, f))
			}
		}
		return b
	}
	if fb, pb := best(fl, false), best(pk, false); !math.IsInf(fb, -1) {
		for r, f := range fl.Flows {
			if !sc.Flows[f.Flow].RouteAware {
				continue
			}
			m := compare("route_aware_lead_pkts", uniquePkts(sc, f)-fb, uniquePkts(sc, pk.Flows[r])-pb, 1, 0)
			m.Check = "sign"
			m.OK = m.Fluid > 0 && m.Packet > 0
			m.setRow(sc, f)
			ms = append(ms, m)
		}
	}
	return ms
}

// utilisationTolerance is TolUtilisation for a link congested in either engine, else
// TolThroughput: an uncongested link carries the load its flows offer.
func utilisationTolerance(f, p model.LinkResult) float64 {
	if congested(f) || congested(p) {
		return TolUtilisation
	}
	return TolThroughput
}

// congested reports whether a link's queue dropped packets (its loss process does not
// count) or the link was at least 90% busy.
func congested(l model.LinkResult) bool { return l.DroppedPkts > 0 || l.Utilisation >= 0.9 }

// PointSpec is one response point: one long-lived flow alone on an uncongested path of
// round-trip time RTTS whose only loss is the loss process.
type PointSpec struct {
	Algorithm string             `json:"algorithm"`
	Params    map[string]float64 `json:"params,omitempty"`
	LossModel string             `json:"loss_model"` // periodic or random
	P         float64            `json:"p"`          // loss rate per packet
	RTTS      float64            `json:"rtt_s"`      // default 0.1 s
	MSSBytes  float64            `json:"mss_bytes"`  // default 1460 bytes
	Seed      uint64             `json:"seed"`
	// WarmupLosses loss events of the packet engine are discarded; default 20.
	WarmupLosses int `json:"warmup_losses"`
	// Losses are the packet engine's measured loss events; defaults: periodic 20 (the
	// sawtooth is deterministic), random 400, or as many as 10^8 packets hold below
	// p = 4e-6 (at least 40: 100 at p = 1e-6, a packet run of a minute or so).
	Losses int `json:"losses"`
	// StartCwndPkts is the window both engines start from in congestion avoidance, set by
	// ValidatePoint from a fluid pre-run (see startWindow).
	StartCwndPkts float64 `json:"start_cwnd_pkts"`
	// Batches are the batch means of the paired confidence interval (random loss only);
	// default 10.
	Batches int `json:"batches"`
}

func (s *PointSpec) defaults() error {
	if _, err := model.New(s.Algorithm); err != nil {
		return fmt.Errorf("%w: algorithm: %w", ErrSettings, err)
	}
	if err := checkLossModel(&s.LossModel); err != nil {
		return err
	}
	if !(s.P > 0 && s.P < 1) {
		return fmt.Errorf("%w: loss rate p = %v, want 0 < p < 1", ErrSettings, s.P)
	}
	if err := checkRTT(&s.RTTS); err != nil {
		return err
	}
	if err := checkMSS(&s.MSSBytes); err != nil {
		return err
	}
	if s.WarmupLosses == 0 {
		s.WarmupLosses = 20
	}
	if s.Losses == 0 {
		s.Losses = 20
		if s.LossModel == "random" {
			s.Losses = int(math.Max(40, math.Min(400, math.Round(1e8*s.P))))
		}
	}
	if s.Batches == 0 {
		s.Batches = 10
	}
	if s.LossModel == "periodic" {
		s.Batches = 1 // deterministic: no confidence interval
	}
	if s.WarmupLosses < 0 || s.Losses < 1 || (s.LossModel == "random" && (s.Batches < 2 || s.Losses < s.Batches)) {
		return fmt.Errorf("%w: warm-up %d, losses %d, batches %d: want warm-up >= 0, losses >= 1, and for random loss batches >= 2 and losses >= batches",
			ErrSettings, s.WarmupLosses, s.Losses, s.Batches)
	}
	return nil
}

// ValidatePoint runs one response point in both engines and compares the mean window
// and the mean throughput over the same stretch of losses. The packet engine runs
// WarmupLosses + Losses loss events; its measurement runs from the loss that ends the
// warm-up to the last, and the fluid's (ValidationForm) over the loss events nearest to
// the same delivered-packet counts. Under random loss both engines draw from the seed's
// common stream (packet.Settings documents it), so each sees its losses after the same
// numbers of packets, and RelErr carries a paired 95% confidence interval from Batches
// batch means. Tolerances: TolPointPeriodic, TolPointRandom.
func ValidatePoint(ctx context.Context, spec PointSpec) (*Validation, error) {
	if err := spec.defaults(); err != nil {
		return nil, err
	}
	sc, err := uncongested(spec.Algorithm, spec.Params, spec.RTTS, spec.MSSBytes)
	if err != nil {
		return nil, err
	}
	sc.Links[0].Loss, sc.Links[0].LossP = model.LossModel(spec.LossModel), spec.P
	total := spec.WarmupLosses + spec.Losses
	// The duration only bounds the runs, which end at their loss counts: one loss per 1/p
	// packets at no less than one packet per RTT, with room for timeouts.
	sc.DurationS = float64(2*total+2*startLosses) * spec.RTTS / spec.P * 4
	if spec.StartCwndPkts, err = startWindow(ctx, sc, spec.Seed); err != nil {
		return nil, err
	}
	sc.Flows[0].InitialCwnd, sc.Flows[0].InitialSsthresh = spec.StartCwndPkts, spec.StartCwndPkts
	pk, err := packet.Run(ctx, sc, packet.Settings{Seed: spec.Seed, StopAfterLosses: total + 1, RecordLosses: true})
	if err != nil {
		return nil, fmt.Errorf("packet engine: %w", err)
	}
	if len(pk.Losses) < total+1 {
		return nil, fmt.Errorf("%w: packet engine: %s at p = %g: %d loss events in %g s, want %d", model.ErrEngine, spec.Algorithm, spec.P, len(pk.Losses), pk.DurationS, total+1)
	}
	// The fluid merges losses inside one recovery and never times out: it needs at most
	// as many loss events as the packet engine to deliver as much, and the margin covers
	// the rest.
	fl, err := fluid.Run(ctx, sc, fluid.Settings{Seed: spec.Seed, Form: ValidationForm,
		StopAfterLosses: 2*total + 10, RecordLosses: true})
	if err != nil {
		return nil, fmt.Errorf("fluid engine: %w", err)
	}
	pb := make([]int, spec.Batches+1) // packet loss records delimiting the batches
	fb := make([]int, spec.Batches+1) // the fluid's nearest in delivered packets
	for b := range pb {
		pb[b] = spec.WarmupLosses + b*spec.Losses/spec.Batches
		fb[b] = nearestDelivered(fl.Losses, pk.Losses[pb[b]].DeliveredPkts)
		if fb[b] < 0 {
			return nil, fmt.Errorf("%w: fluid engine: %s at p = %g delivered %g packets in %d loss events, want %g to match the packet engine",
				model.ErrEngine, spec.Algorithm, spec.P, fl.Flows[0].DeliveredPkts, len(fl.Losses), pk.Losses[pb[b]].DeliveredPkts)
		}
	}
	last := spec.Batches
	fw, fr := stretch(fl.Losses[fb[0]], fl.Losses[fb[last]], spec.MSSBytes)
	pw, pr := stretch(pk.Losses[pb[0]], pk.Losses[pb[last]], spec.MSSBytes)
	tol := TolPointPeriodic
	if spec.LossModel == "random" {
		tol = TolPointRandom
	}
	v := &Validation{Point: &spec, Form: ValidationForm, Seed: spec.Seed, OK: true, Fluid: fl, Packet: pk}
	if n := pk.Flows[0].Timeouts; n > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("the packet sender timed out %d time(s) in %d loss events, the fluid %d time(s)",
			n, pk.Flows[0].LossEvents, fl.Flows[0].Timeouts))
	}
	cwnd := compare("mean_cwnd_pkts", fw, pw, 0, tol)
	thr := compare("mean_throughput_bps", fr, pr, 0, tol)
	if spec.LossModel == "random" {
		// Paired batch means of the relative differences: the batches span the same losses
		// in both engines, so their errors cancel in the difference.
		dw, dr := make([]float64, spec.Batches), make([]float64, spec.Batches)
		for b := range dw {
			fbw, fbr := stretch(fl.Losses[fb[b]], fl.Losses[fb[b+1]], spec.MSSBytes)
			pbw, pbr := stretch(pk.Losses[pb[b]], pk.Losses[pb[b+1]], spec.MSSBytes)
			dw[b], dr[b] = (fbw-pbw)/pw, (fbr-pbr)/pr
		}
		cw, cr := ci95(dw), ci95(dr)
		cwnd.CI95, thr.CI95 = &cw, &cr
	}
	v.add(cwnd)
	v.add(thr)
	return v, nil
}

// startLosses is the length of the fluid pre-run that finds a point's starting window.
const startLosses = 60

// startWindow is the fluid's mean window over the second half of a pre-run of startLosses
// loss events from slow start, packets: the window both engines of a point start from,
// in congestion avoidance, so that their warm-up is short. MIMD and CUBIC sawtooths
// approach their cycle by a factor of 1 − b or less per loss, so from slow start's overshoot
// (10^5 packets at p = 10^-6) they would need a hundred losses or more; from the fluid's
// mean they are within a few percent at once.
func startWindow(ctx context.Context, sc *model.Scenario, seed uint64) (float64, error) {
	fl, err := fluid.Run(ctx, sc, fluid.Settings{Seed: seed, Form: ValidationForm, StopAfterLosses: startLosses, RecordLosses: true})
	if err != nil {
		return 0, fmt.Errorf("fluid engine: %w", err)
	}
	if len(fl.Losses) < startLosses {
		return 0, fmt.Errorf("%w: fluid engine: %d loss events in %g s, want %d", model.ErrEngine, len(fl.Losses), fl.DurationS, startLosses)
	}
	w, _ := stretch(fl.Losses[startLosses/2], fl.Losses[startLosses-1], 1)
	return math.Max(w, 1), nil
}

// stretch is the mean window (packets) and throughput (bit/s) between two loss records.
func stretch(a, b model.LossRecord, mssBytes float64) (cwnd, bps float64) {
	dt := b.TS - a.TS
	if !(dt > 0) {
		return 0, 0
	}
	return (b.CwndTimePktS - a.CwndTimePktS) / dt, (b.DeliveredPkts - a.DeliveredPkts) * mssBytes * 8 / dt
}

// nearestDelivered is the index of flow 0's loss record whose delivered count is nearest
// to d, or -1 when the records end before d.
func nearestDelivered(ls []model.LossRecord, d float64) int {
	best := -1
	for i, l := range ls {
		if l.Flow != 0 {
			continue
		}
		if best < 0 || math.Abs(l.DeliveredPkts-d) < math.Abs(ls[best].DeliveredPkts-d) {
			best = i
		}
		if l.DeliveredPkts > d {
			return best
		}
	}
	return -1
}

// ci95 is the half width of the 95% confidence interval of the mean of xs (Student t).
func ci95(xs []float64) float64 {
	_, sd := stat.MeanStdDev(xs, nil)
	n := float64(len(xs))
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * sd / math.Sqrt(n)
}

// Seed003Table3 is Table 3 of seed 003 (REFERENCE.md, "Seed 003"), in the paper's order:
// TCP packets dropped at the bottleneck, TCP packets received ("sent", which counts the
// SYN) and mean throughput (unique data × 8 / 9 s, bit/s).
var Seed003Table3 = []Table3Row{
	{Algorithm: "tahoe", Table: Table3Numbers{DroppedPkts: 28, DeliveredPkts: 1418, GoodputBps: 649.64e3}},
	{Algorithm: "reno", Table: Table3Numbers{DroppedPkts: 29, DeliveredPkts: 1419, GoodputBps: 637.38e3}},
	{Algorithm: "newreno", Table: Table3Numbers{DroppedPkts: 30, DeliveredPkts: 1462, GoodputBps: 659.95e3}},
	{Algorithm: "vegas", Table: Table3Numbers{DroppedPkts: 0, DeliveredPkts: 1475, GoodputBps: 723.24e3}},
}

// Seed003Ranking is Table 3's throughput ranking, highest first.
var Seed003Ranking = []string{"vegas", "newreno", "tahoe", "reno"}

// TolTable3 bounds the packet engine's delivered packets and goodput against Table 3
// (the 10%). Drops are not held to it: ns-2.35 itself, with both CBR starts
// moved by 0–19 ms, drops 19–31 packets with Reno (packet/testdata/seed003_ns2.json).
const TolTable3 = 0.10

// Table3Numbers are one engine's (or the paper's) three numbers of Table 3.
type Table3Numbers struct {
	DroppedPkts   float64 `json:"dropped_pkts"`   // TCP packets dropped at the bottleneck n3-n4
	DeliveredPkts float64 `json:"delivered_pkts"` // TCP packets received, copies included ("sent")
	GoodputBps    float64 `json:"goodput_bps"`    // unique data bits delivered / active time ("throughput")
}

// Table3Row is one algorithm of Table 3 with both engines.
type Table3Row struct {
	Algorithm string        `json:"algorithm"`
	Table     Table3Numbers `json:"table3"`
	Fluid     Table3Numbers `json:"fluid"`
	Packet    Table3Numbers `json:"packet"`
	// OK: the packet engine's delivered packets and goodput are within TolTable3 of the
	// table, and a table row without drops (Vegas) has none.
	OK bool `json:"ok"`
}

// Table3Report is seed 003's experiment in both engines; its JSON is
// `tcpfluid validate --table3 --format json`.
type Table3Report struct {
	Scenario  string      `json:"scenario"`
	Form      string      `json:"form"`
	Seed      uint64      `json:"seed"`
	Tolerance float64     `json:"tolerance"`
	Rows      []Table3Row `json:"rows"`
	// RankingOK: the packet engine ranks the algorithms' goodput as Table 3 does.
	RankingOK bool `json:"ranking_ok"`
	OK        bool `json:"ok"`
}

// Seed003Scenario is the seed003-dumbbell builtin with every flow running algo as
// ns-2.35's agent of that name runs it: Tahoe, Reno and NewReno with the builtin's 40-byte
// headers; Vegas (Agent/TCP/Vegas) with bare 552-byte segments, its output() adding no
// header, and ns-default.tcl's v_alpha_ 1, v_beta_ 3, v_gamma_ 1 packets.
func Seed003Scenario(algo string) (*model.Scenario, error) {
	sc, err := model.Builtin("seed003-dumbbell")
	if err != nil {
		return nil, err
	}
	if err := sc.SetAlgorithm(algo); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSettings, err)
	}
	if algo == "vegas" {
		for i := range sc.Flows {
			sc.Flows[i].HeaderBytes = 0
			sc.Flows[i].Params = map[string]float64{"alpha": 1, "beta": 3, "gamma": 1}
		}
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSettings, err)
	}
	return sc, nil
}

// Seed003Experiment runs seed 003's four algorithms (Seed003Scenario) in both engines
// (the fluid in ValidationForm) and sets each row beside Table 3. Drops are counted at the
// bottleneck: the flow's drops less those on n0-n3, which only the flow crosses.
func Seed003Experiment(ctx context.Context, seed uint64) (*Table3Report, error) {
	rep := &Table3Report{Scenario: "seed003-dumbbell", Form: ValidationForm, Seed: seed, Tolerance: TolTable3, OK: true}
	goodput := map[string]float64{}
	for _, row := range Seed003Table3 {
		sc, err := Seed003Scenario(row.Algorithm)
		if err != nil {
			return nil, err
		}
		fl, err := fluid.Run(ctx, sc, fluid.Settings{Seed: seed, Form: ValidationForm})
		if err != nil {
			return nil, fmt.Errorf("%s: fluid engine: %w", row.Algorithm, err)
		}
		pk, err := packet.Run(ctx, sc, packet.Settings{Seed: seed})
		if err != nil {
			return nil, fmt.Errorf("%s: packet engine: %w", row.Algorithm, err)
		}
		row.Fluid, row.Packet = table3Numbers(sc, fl), table3Numbers(sc, pk)
		t, p := row.Table, row.Packet
		row.OK = math.Abs(p.DeliveredPkts-t.DeliveredPkts) <= TolTable3*t.DeliveredPkts &&
			math.Abs(p.GoodputBps-t.GoodputBps) <= TolTable3*t.GoodputBps &&
			(t.DroppedPkts > 0 || p.DroppedPkts == 0)
		rep.OK = rep.OK && row.OK
		goodput[row.Algorithm] = p.GoodputBps
		rep.Rows = append(rep.Rows, row)
	}
	rep.RankingOK = true
	for i := 1; i < len(Seed003Ranking); i++ {
		rep.RankingOK = rep.RankingOK && goodput[Seed003Ranking[i-1]] > goodput[Seed003Ranking[i]]
	}
	rep.OK = rep.OK && rep.RankingOK
	return rep, nil
}

// table3Numbers reads Table 3's numbers of seed003-dumbbell's flow tcp0 from a result.
func table3Numbers(sc *model.Scenario, r *model.Result) Table3Numbers {
	f := r.Flows[0]
	access := r.Links[sc.LinkIndex("n0-n3")].DroppedPkts
	return Table3Numbers{DroppedPkts: math.Max(f.DroppedPkts-access, 0), DeliveredPkts: f.DeliveredPkts, GoodputBps: f.GoodputBps}
}
