package response

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"

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
	Workers   int // default runtime.GOMAXPROCS(0)
}

// ConvergeResult is one algorithm on one link: the JSON of `tcpfluid converge`.
type ConvergeResult struct {
	Algorithm    string  `json:"algorithm"`
	BandwidthBps float64 `json:"bandwidth_bps"`
	RTTS         float64 `json:"rtt_s"`
	MSSBytes     float64 `json:"mss_bytes"`
	BDPPkts      float64 `json:"bdp_pkts"`
	// FillTimeS is from W = 1 in congestion avoidance (no slow start) until W = BDP.
	FillTimeS *float64 `json:"fill_time_s"`
	// RecoveryTimeS is from the window just after a loss at W = BDP back to the BDP.
	RecoveryTimeS *float64 `json:"recovery_time_s"`
	// FillSlowStartS is the fill time from the initial window with slow start.
	FillSlowStartS *float64 `json:"fill_slow_start_s,omitempty"`
	// Closed forms where one exists (REFERENCE.md) and the relative differences.
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
	for _, a := range s.Algorithms {
		if _, err := model.New(a); err != nil {
			return fmt.Errorf("%w: algorithm: %w", ErrSettings, err)
		}
	}
	if len(s.BandwidthsBps) == 0 {
		s.BandwidthsBps = []float64{1e9, 1e10}
	}
	for _, b := range s.BandwidthsBps {
		if !(b > 0) || math.IsInf(b, 0) {
			return fmt.Errorf("%w: bandwidth %v bit/s, want > 0", ErrSettings, b)
		}
	}
	if len(s.MSSBytes) == 0 {
		s.MSSBytes = []float64{1000, 1500}
	}
	for i := range s.MSSBytes {
		if err := checkMSS(&s.MSSBytes[i]); err != nil {
			return err
		}
	}
	if err := checkRTT(&s.RTTS); err != nil {
		return err
	}
	return checkWorkers(&s.Workers)
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
				results = append(results, ConvergeResult{Algorithm: algo, BandwidthBps: bw, RTTS: s.RTTS, MSSBytes: mss, BDPPkts: bdp})
				jobs = append(jobs, job{algo, bw, mss, len(results) - 1})
			}
		}
	}
	err := parallel(ctx, s.Workers, len(jobs), func(ctx context.Context, j int) error {
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
		closedForms(r, s.Params[jb.algo])
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &ConvergeReport{Form: model.FormHybrid, Engine: "fluid", Results: results}, nil
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
	set := model.FluidSettings{Watch: []model.Watch{{Flow: 0, CwndPkts: bdp}}, StopAtWatch: true, RelTol: 1e-10, AbsTol: 1e-9}
	// The slowest law here, Reno from one packet, needs BDP RTTs; give every run ten times
	// the longest plausible time, then report nil if the window never arrives.
	sc.DurationS = 10 * bdp * s.RTTS
	switch kind {
	case fillRun:
		f.InitialCwnd, f.InitialSsthresh = 1, 1
	case recoveryRun:
		f.InitialCwnd, f.InitialSsthresh = bdp, bdp
		set.InjectLoss = []int{0}
	case slowStartRun:
		f.InitialCwnd = 0 // the scenario default, one packet
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSettings, err)
	}
	res, err := model.RunFluid(ctx, sc, set)
	if err != nil {
		return nil, fmt.Errorf("%s converge at %g bit/s, %g bytes: %w", algo, bw, mss, err)
	}
	if len(res.Crossings) == 0 {
		return nil, nil
	}
	t := res.Crossings[0].SinceStartS
	return &t, nil
}

// closedForms fills in the closed-form times where the algorithm has one at its default
// parameters (REFERENCE.md "Time to fill a link and to recover").
func closedForms(r *ConvergeResult, params map[string]float64) {
	if len(params) > 0 {
		r.ClosedFormNote = "closed forms are for default parameters; none shown"
		return
	}
	bdp, rtt := r.BDPPkts, r.RTTS
	var fill, rec *float64
	switch r.Algorithm {
	case "reno", "newreno", "tahoe", "vegas":
		// +1 packet per RTT: from 1 to BDP, and from BDP/2 back to BDP.
		fill, rec = ptr((bdp-1)*rtt), ptr(bdp/2*rtt)
		r.ClosedFormNote = "AIMD(1, 1/2): (BDP−1)·RTT and BDP/2·RTT"
	case "scalable":
		// Reno up to the legacy window of 16 packets, then ×(1+a) per RTT; after a loss
		// ln(1/(1−b))/ln(1+a) RTTs (Kelly 2003: 13.42 RTTs).
		const a, b, legacy = 0.01, 0.125, 16.0
		fill = ptr(((legacy - 1) + math.Log(bdp/legacy)/math.Log1p(a)) * rtt)
		rec = ptr(math.Log(1/(1-b)) / math.Log1p(a) * rtt)
		r.ClosedFormNote = "per-RTT compounding (1+a)^n; the fluid face grows continuously, e^(a·n), 0.5% faster"
	case "highspeed":
		// dW/dt = a(W)/RTT: the time is RTT·∫ dw/a(w), by Gauss–Legendre quadrature.
		fill = ptr(rtt * integrateInverse(model.HighSpeedA, 1, bdp))
		rec = ptr(rtt * integrateInverse(model.HighSpeedA, (1-model.HighSpeedB(bdp))*bdp, bdp))
		r.ClosedFormNote = "RTT·∫dw/a(w) with RFC 3649's closed-form a(w)"
	case "cubic":
		rec = ptr(model.CubicK(bdp, 0.4, 0.7))
		r.ClosedFormNote = "K = cbrt(W_max(1−β)/C)"
	}
	r.FillClosedFormS, r.RecoveryClosedFormS = fill, rec
	r.FillRelDiff, r.RecoveryRelDiff = relDiff(r.FillTimeS, fill), relDiff(r.RecoveryTimeS, rec)
}

// integrateInverse is ∫_lo^hi dw/a(w), split at the Reno-region boundary (38 packets),
// where a(w) has a kink, and integrated piecewise with 64-point Gauss–Legendre.
func integrateInverse(a func(float64) float64, lo, hi float64) float64 {
	inv := func(w float64) float64 { return 1 / a(w) }
	const kink = 38
	if lo < kink && hi > kink {
		return quad.Fixed(inv, lo, kink, 64, nil, 0) + quad.Fixed(inv, kink, hi, 64, nil, 0)
	}
	return quad.Fixed(inv, lo, hi, 64, nil, 0)
}

func ptr(v float64) *float64 { return &v }

func relDiff(got, want *float64) *float64 {
	if got == nil || want == nil || *want == 0 {
		return nil
	}
	return ptr(*got / *want - 1)
}
