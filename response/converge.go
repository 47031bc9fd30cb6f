package response

import (
	"context"
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/internal/settings"
	"github.com/tcpfluid/tcpfluid/model"
)

// ConvergeSettings configures Converge. Zero fields take the documented defaults.
type ConvergeSettings struct {
	Algorithms    []string  // default ClassicAlgorithms
	BandwidthsBps []float64 // link rates, bit/s; default 1 Gb/s and 10 Gb/s
	RTTS          float64   // round-trip time, s; default 0.1
	MSSBytes      []float64 // packet sizes, bytes; default 1000 and 1500
	Params        map[string]map[string]float64
	// SlowStart adds FillSlowStartS: the fill time from the initial window in slow start.
	SlowStart bool
	// LossWindowBDP is the window at the recovery run's loss, in bandwidth-delay products
	// of each link: default 1, a loss at W = BDP; at most 2, the most a one-BDP buffer
	// holds. A sender that sees its loss a round trip after slow start ends loses above
	// the BDP: ns-2.35's TCP/Linux CUBIC at 8654 packets of a BDP of 8333 (1.0385), BIC at
	// 9091 (1.0909), because their pre-loss growth is 3.8% and 9.1% per round trip
	// (docs/simulators.md "Converge"). The recovery time is still measured back to the BDP.
	LossWindowBDP float64
	// Form is the fluid form: fluid.FormHybrid (default), or fluid.FormHybridRecovery,
	// which holds the window for the recovery round trip after the loss and starts a law's
	// post-loss clock when that ends, as a packet sender does (the form to compare with
	// ns-2 and ns-3).
	Form    string
	Workers int // default runtime.GOMAXPROCS(0)
}

// ConvergeResult is one algorithm on one link: the JSON of `tcpfluid converge`.
type ConvergeResult struct {
	Algorithm    string  `json:"algorithm"`
	BandwidthBps float64 `json:"bandwidth_bps"`
	RTTS         float64 `json:"rtt_s"`
	MSSBytes     float64 `json:"mss_bytes"`
	BDPPkts      float64 `json:"bdp_pkts"`
	// LossWindowPkts is the window at the recovery run's loss, packets (LossWindowBDP·BDP).
	LossWindowPkts float64 `json:"loss_window_pkts"`
	// FillTimeS is from W = 1 in congestion avoidance (no slow start) until W = BDP.
	FillTimeS *float64 `json:"fill_time_s"`
	// RecoveryTimeS is from the window just after a loss at W = LossWindowPkts (default the
	// BDP) back to the BDP.
	RecoveryTimeS *float64 `json:"recovery_time_s"`
	// FillSlowStartS is the fill time from the initial window with slow start.
	FillSlowStartS *float64 `json:"fill_slow_start_s,omitempty"`
	// Closed forms where one exists (docs/references.md) and the relative differences; the
	// recovery's closed forms are for a loss at the BDP, null at any other loss window.
	FillClosedFormS     *float64 `json:"fill_closed_form_s"`
	RecoveryClosedFormS *float64 `json:"recovery_closed_form_s"`
	FillRelDiff         *float64 `json:"fill_rel_diff"`
	RecoveryRelDiff     *float64 `json:"recovery_rel_diff"`
	ClosedFormNote      string   `json:"closed_form_note,omitempty"`
}

// ConvergeReport is the result of Converge.
type ConvergeReport struct {
	Form    string           `json:"form"`
	Engine  string           `json:"engine"`
	Results []ConvergeResult `json:"results"`
}

func (s *ConvergeSettings) defaults() error {
	if len(s.Algorithms) == 0 {
		s.Algorithms = ClassicAlgorithms
	}
	if err := settings.Algorithms(s.Algorithms, s.Params); err != nil {
		return err
	}
	if len(s.BandwidthsBps) == 0 {
		s.BandwidthsBps = []float64{1e9, 1e10}
	}
	for _, b := range s.BandwidthsBps {
		if !(b > 0) || math.IsInf(b, 0) {
			return fmt.Errorf("%w: bandwidth %v bit/s, want > 0", model.ErrSettings, b)
		}
	}
	if len(s.MSSBytes) == 0 {
		s.MSSBytes = []float64{1000, 1500}
	}
	for i := range s.MSSBytes {
		if err := settings.MSS(&s.MSSBytes[i]); err != nil {
			return err
		}
	}
	if err := settings.RTT(&s.RTTS); err != nil {
		return err
	}
	settings.Default(&s.LossWindowBDP, 1)
	if !(s.LossWindowBDP > 0 && s.LossWindowBDP <= 2) {
		return fmt.Errorf("%w: loss window %v bdp, want a window in (0, 2] bandwidth-delay products (above 2 a one-BDP buffer has overflowed)",
			model.ErrSettings, s.LossWindowBDP)
	}
	if err := defaultForm(&s.Form); err != nil {
		return err
	}
	// The fill starts from one packet and the recovery from LossWindowBDP BDPs.
	for _, bw := range s.BandwidthsBps {
		for _, mss := range s.MSSBytes {
			if bdp := bw * s.RTTS / (8 * mss); !(bdp >= 1) || math.IsInf(bdp, 0) {
				return fmt.Errorf("%w: bandwidth %v bit/s × rtt %v s is %v packets of %v bytes, want a bandwidth-delay product of at least 1 packet",
					model.ErrSettings, bw, s.RTTS, bdp, mss)
			}
		}
	}
	return settings.Workers(&s.Workers)
}

// Converge measures fill and recovery times of every algorithm on every link: one flow
// on a path of the given rate and RTT with a buffer of one BDP, so that nothing queues
// before the window reaches the BDP.
func Converge(ctx context.Context, s ConvergeSettings) (*ConvergeReport, error) {
	if err := s.defaults(); err != nil {
		return nil, err
	}
	type job struct {
		algo     string
		bw, mss  float64
		resIndex int
	}
	var jobs []job
	var results []ConvergeResult
	for _, algo := range s.Algorithms {
		for _, bw := range s.BandwidthsBps {
			for _, mss := range s.MSSBytes {
				bdp := bw * s.RTTS / (8 * mss)
				results = append(results, ConvergeResult{Algorithm: algo, BandwidthBps: bw, RTTS: s.RTTS, MSSBytes: mss, BDPPkts: bdp,
					LossWindowPkts: s.LossWindowBDP * bdp})
				jobs = append(jobs, job{algo, bw, mss, len(results) - 1})
			}
		}
	}
	err := settings.Parallel(ctx, s.Workers, len(jobs), func(ctx context.Context, j int) error {
		jb := jobs[j]
		r := &results[jb.resIndex]
		var err error
		if r.FillTimeS, err = convergeRun(ctx, jb.algo, s, jb.bw, jb.mss, fillRun); err != nil {
			return err
		}
		if r.RecoveryTimeS, err = convergeRun(ctx, jb.algo, s, jb.bw, jb.mss, recoveryRun); err != nil {
			return err
		}
		if s.SlowStart {
			if r.FillSlowStartS, err = convergeRun(ctx, jb.algo, s, jb.bw, jb.mss, slowStartRun); err != nil {
				return err
			}
		}
		closedForms(r, s.Params[jb.algo], s.LossWindowBDP == 1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &ConvergeReport{Form: s.Form, Engine: "fluid", Results: results}, nil
}

type convergeKind int

const (
	fillRun convergeKind = iota
	recoveryRun
	slowStartRun
)

// convergeRun returns the time for the window to reach the BDP, or nil when it never
// does (an algorithm whose window settles below the BDP, such as Vegas's target).
func convergeRun(ctx context.Context, algo string, s ConvergeSettings, bw, mss float64, kind convergeKind) (*float64, error) {
	bdp := bw * s.RTTS / (8 * mss)
	sc := &model.Scenario{
		Name:  "converge",
		Links: []model.Link{{Name: "l0", CapacityBps: bw, DelayS: s.RTTS / 2, BufferBDP: 1}},
		Paths: []model.Path{{Name: "p0", Links: []string{"l0"}}},
		Flows: []model.Flow{{Name: algo, Algorithm: algo, Params: s.Params[algo], Path: "p0", MSSBytes: mss, WindowScaling: true}},
	}
	f := &sc.Flows[0]
	// CUBIC approaches the BDP on its plateau, where W_max − W(K − δ) = C·δ³: a window error
	// ε moves the crossing by (ε/C)^(1/3), so the solver runs 10^4 times tighter than usual.
	set := fluid.Settings{Watch: []fluid.Watch{{Flow: 0, CwndPkts: bdp}}, StopAtWatch: true, RelTol: 1e-10, AbsTol: 1e-9, Form: s.Form}
	if Responds(algo) != nil || kind == slowStartRun {
		// A paced law (BBR) has no plateau to cross, and its rate changes at every switch:
		// at 1e-10 the solver's step underflowed at the first of them past a second. A slow
		// start crosses the BDP steeply (1e-7 and 1e-6 agree to 0.1 ms), and in the counted
		// form its first ACKs, a round trip in, underflowed the step at 1e-10 too.
		set.RelTol, set.AbsTol = 0, 0
	}
	// The slowest law here, Reno from one packet, needs BDP RTTs; give every run ten times
	// the longest plausible time, then report nil if the window never arrives.
	sc.DurationS = 10 * bdp * s.RTTS
	switch kind {
	case fillRun:
		f.InitialCwnd, f.InitialSsthresh = 1, 1
	case recoveryRun:
		// The loss comes at the flow's start, before a window above the BDP can queue.
		w := s.LossWindowBDP * bdp
		f.InitialCwnd, f.InitialSsthresh = w, w
		set.InjectLoss = []int{0}
	case slowStartRun:
		f.InitialCwnd = 0 // the scenario default, one packet
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", model.ErrSettings, err)
	}
	res, err := fluid.Run(ctx, sc, set)
	if err != nil {
		return nil, fmt.Errorf("%s converge at %g bit/s, %g bytes: %w", algo, bw, mss, err)
	}
	if len(res.Crossings) == 0 {
		return nil, nil
	}
	t := res.Crossings[0].SinceStartS
	return &t, nil
}

// closedForms fills in the closed-form times of the algorithm at its parameters, where it
// has them (model.ConvergeReferencer); the recovery's only when the loss is at the BDP
// (atBDP), the window the closed forms assume.
func closedForms(r *ConvergeResult, params map[string]float64, atBDP bool) {
	a, err := model.Configure(r.Algorithm, params)
	if err != nil {
		return
	}
	ref, ok := a.(model.ConvergeReferencer)
	if !ok {
		return
	}
	// The flow's round trip is the path's propagation and its packet's transmission (store
	// and forward; without header bytes its ACKs take none): 8 µs more at 1 Gb/s, 1000 B.
	cf := ref.ConvergeReference(r.BDPPkts, r.RTTS+8*r.MSSBytes/r.BandwidthBps)
	if !atBDP {
		cf.RecoveryS = nil
	}
	r.FillClosedFormS, r.RecoveryClosedFormS, r.ClosedFormNote = cf.FillS, cf.RecoveryS, cf.Note
	r.FillRelDiff, r.RecoveryRelDiff = relDiff(r.FillTimeS, cf.FillS), relDiff(r.RecoveryTimeS, cf.RecoveryS)
}

func ptr(v float64) *float64 { return &v }

func relDiff(got, want *float64) *float64 {
	if got == nil || want == nil || *want == 0 {
		return nil
	}
	return ptr(*got / *want - 1)
}
