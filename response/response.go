package response

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/internal/settings"
	"github.com/tcpfluid/tcpfluid/model"
)

// ClassicAlgorithms are the algorithms of the classic study, in the order reports show them.
var ClassicAlgorithms = []string{"tahoe", "reno", "newreno", "vegas", "scalable", "highspeed", "cubic", "compound", "bic", "htcp"}

// Settings configures Response. Zero fields take the documented defaults.
type Settings struct {
	Algorithms []string // default ClassicAlgorithms
	LossModel  string   // "periodic" (default) or "random"
	PMin, PMax float64  // loss rates per packet; defaults 1e-7 and 1e-2
	Points     int      // log-spaced loss rates; default 11
	RTTS       float64  // round-trip time, s; default 0.1
	MSSBytes   float64  // packet size, bytes; default 1460
	// Params are algorithm parameter overrides: Params["cubic"]["beta"] = 0.8.
	Params map[string]map[string]float64
	Seed   uint64 // random-loss seed; each point derives its own from it
	// Workers is the number of points run at once; default runtime.GOMAXPROCS(0).
	Workers int
	// WarmupLosses are loss events discarded before measuring; default 0: automatic, until
	// the loss cycles show no trend (at least 100, at most 10,000; cycles.go).
	WarmupLosses int
	// MinLosses and MaxLosses bound the measured loss events of one point. Defaults:
	// periodic 50 and 50 (the sawtooth is deterministic), random 400 and 25,600.
	MinLosses, MaxLosses int
	// Form is the fluid form: fluid.FormHybrid (default, the textbook sawtooth) or
	// fluid.FormHybridRecovery, which counts as a packet sender does (the window holds for
	// the recovery round trip, and implementations act at its end: model.RecoveryEnder).
	Form string
	// Stepped integrates every point with the solver's steps, also where the algorithm's
	// law has a closed-form flow between losses that the engine would follow instead
	// (fluid.Settings.Exact, model.ExactFlow: Reno's family, Scalable); for checking.
	Stepped bool
	// TargetRelCI is the relative half width of the 95% confidence interval of the mean
	// window at which a random-loss point stops; default 0.02.
	TargetRelCI float64
	// RTTExponentRTTs are the RTTs (s) at which each algorithm's RTT exponent e of
	// W̄ ∝ τ^e is fitted, at loss rate RTTExponentP; defaults 0.02, 0.05, 0.1, 0.2, 0.4 s
	// and 1e-6. Set RTTExponentP < 0 to skip it.
	RTTExponentRTTs []float64
	RTTExponentP    float64
}

func (s *Settings) defaults() error {
	if len(s.Algorithms) == 0 {
		s.Algorithms = ClassicAlgorithms
	}
	if err := settings.Algorithms(s.Algorithms, s.Params); err != nil {
		return err
	}
	for _, a := range s.Algorithms {
		if err := Responds(a); err != nil {
			return err
		}
	}
	if err := settings.LossModel(&s.LossModel); err != nil {
		return err
	}
	if err := defaultForm(&s.Form); err != nil {
		return err
	}
	settings.Default(&s.PMin, 1e-7)
	settings.Default(&s.PMax, 1e-2)
	if !(s.PMin > 0 && s.PMin <= s.PMax && s.PMax < 1) {
		return fmt.Errorf("%w: loss rates p-min %v, p-max %v: want 0 < p-min <= p-max < 1", model.ErrSettings, s.PMin, s.PMax)
	}
	if s.Points == 0 {
		s.Points = 11
	}
	if s.Points < 1 || s.Points > 1000 || (s.Points == 1 && s.PMin != s.PMax) {
		return fmt.Errorf("%w: points %d, want 1 to 1000 (1 only when p-min = p-max)", model.ErrSettings, s.Points)
	}
	if err := settings.RTT(&s.RTTS); err != nil {
		return err
	}
	if err := settings.MSS(&s.MSSBytes); err != nil {
		return err
	}
	if err := settings.Workers(&s.Workers); err != nil {
		return err
	}
	if s.MinLosses == 0 {
		s.MinLosses = map[string]int{"periodic": 50, "random": 400}[s.LossModel]
	}
	if s.MaxLosses == 0 {
		s.MaxLosses = map[string]int{"periodic": 50, "random": 25600}[s.LossModel]
	}
	if s.WarmupLosses < 0 || s.MinLosses < 2 || s.MaxLosses < s.MinLosses {
		return fmt.Errorf("%w: loss events warm-up %d, min %d, max %d: want warm-up >= 0 (0: automatic) and 2 <= min <= max", model.ErrSettings, s.WarmupLosses, s.MinLosses, s.MaxLosses)
	}
	settings.Default(&s.TargetRelCI, 0.02)
	if !(s.TargetRelCI > 0) || math.IsInf(s.TargetRelCI, 0) {
		return fmt.Errorf("%w: target relative CI %v, want > 0", model.ErrSettings, s.TargetRelCI)
	}
	if len(s.RTTExponentRTTs) == 0 {
		s.RTTExponentRTTs = []float64{0.02, 0.05, 0.1, 0.2, 0.4}
	}
	for _, r := range s.RTTExponentRTTs {
		if !(r > 0) || math.IsInf(r, 0) {
			return fmt.Errorf("%w: RTT-exponent rtt %v s, want > 0", model.ErrSettings, r)
		}
	}
	settings.Default(&s.RTTExponentP, 1e-6)
	if math.IsNaN(s.RTTExponentP) || s.RTTExponentP >= 1 {
		return fmt.Errorf("%w: RTT-exponent loss rate %v, want 0 < p < 1 (< 0: none)", model.ErrSettings, s.RTTExponentP)
	}
	return nil
}

// defaultForm defaults a fluid form to fluid.FormHybrid and accepts it or
// fluid.FormHybridRecovery, the forms a response point or a converge run can take.
func defaultForm(form *string) error {
	switch *form {
	case "":
		*form = fluid.FormHybrid
	case fluid.FormHybrid, fluid.FormHybridRecovery:
	default:
		return fmt.Errorf("%w: form %q, want %s or %s", model.ErrSettings, *form, fluid.FormHybrid, fluid.FormHybridRecovery)
	}
	return nil
}

// responseReference is the published response function of an algorithm at its
// parameters (model.ResponseReferencer), under a loss model.
func responseReference(algo string, params map[string]float64, lossModel string) (model.ResponseReference, bool) {
	a, err := model.Configure(algo, params)
	if err != nil {
		return model.ResponseReference{}, false
	}
	r, ok := a.(model.ResponseReferencer)
	if !ok {
		return model.ResponseReference{}, false
	}
	return r.ResponseReference(model.LossModel(lossModel))
}

// Point is one measured point of a response function.
type Point struct {
	P             float64 `json:"p"`
	MeanCwndPkts  float64 `json:"mean_cwnd_pkts"`
	CI95Pkts      float64 `json:"ci95_pkts"` // half width of the 95% confidence interval (per loss cycle, cycles.go)
	ThroughputBps float64 `json:"throughput_bps"`
	LossEvents    int     `json:"loss_events"`   // measured loss cycles (after the warm-up)
	WarmupLosses  int     `json:"warmup_losses"` // loss events discarded before them
	SimulatedS    float64 `json:"simulated_s"`
}

// Friendliness is where an algorithm's response function crosses Reno's: above p* it
// behaves like Reno.
type Friendliness struct {
	PStar     float64 `json:"p_star"`
	WStarPkts float64 `json:"w_star_pkts"`
	// Extrapolated: p* lies outside the measured loss rates (CaveatExtrapolated).
	Extrapolated bool `json:"extrapolated"`
}

// AlgorithmResponse is one algorithm's response function and its fit.
type AlgorithmResponse struct {
	Algorithm string `json:"algorithm"`
	// C, D and R2 fit log W̄ = log C − D·log p over the points with p <= FitPMax.
	C         float64                  `json:"c"`
	D         float64                  `json:"d"`
	R2        float64                  `json:"r2"`
	FitPMax   float64                  `json:"fit_p_max"`
	FitPoints int                      `json:"fit_points"`
	Reference *model.ResponseReference `json:"reference"`
	RefC      float64                  `json:"reference_c_at_rtt,omitempty"` // reference C·τ^E at this RTT
	Friendly  *Friendliness            `json:"friendliness"`
	RTTExp    *RTTExponent             `json:"rtt_exponent,omitempty"`
	Points    []Point                  `json:"points"`
	Params    map[string]float64       `json:"params,omitempty"`
	// Caveats say which of the derived figures above fall outside their validity.
	Caveats []Caveat `json:"caveats"`
}

// RTTExponent is e in W̄ ∝ τ^e, fitted at one loss rate over several RTTs.
type RTTExponent struct {
	E    float64   `json:"e"`
	R2   float64   `json:"r2"`
	P    float64   `json:"p"`
	RTTs []float64 `json:"rtts_s"`
}

// ResponseReport is the result of Response; its JSON is `tcpfluid response --format json`.
type ResponseReport struct {
	RTTS      float64             `json:"rtt_s"`
	MSSBytes  float64             `json:"mss_bytes"`
	LossModel string              `json:"loss_model"`
	Form      string              `json:"form"`
	Engine    string              `json:"engine"`
	Seed      uint64              `json:"seed"`
	Results   []AlgorithmResponse `json:"results"`
}

// LossRates returns n loss rates log-spaced from pMin to pMax.
func LossRates(pMin, pMax float64, n int) []float64 {
	if n == 1 {
		return []float64{pMin}
	}
	ps := make([]float64, n)
	floats.LogSpan(ps, pMin, pMax)
	return ps
}

// Response measures the response function of every algorithm at every loss rate, with
// the points run in parallel.
func Response(ctx context.Context, s Settings) (*ResponseReport, error) {
	if err := s.defaults(); err != nil {
		return nil, err
	}
	ps := LossRates(s.PMin, s.PMax, s.Points)
	type job struct{ a, i int }
	var jobs []job
	for a := range s.Algorithms {
		for i := range ps {
			jobs = append(jobs, job{a, i})
		}
	}
	points := make([][]Point, len(s.Algorithms))
	for a := range points {
		points[a] = make([]Point, len(ps))
	}
	exps := make([][]float64, len(s.Algorithms))
	for a := range exps {
		exps[a] = make([]float64, len(s.RTTExponentRTTs))
	}
	// RTT-exponent runs are extra jobs: index i >= len(ps) means RTT number i-len(ps).
	if s.RTTExponentP > 0 {
		for a := range s.Algorithms {
			for k := range s.RTTExponentRTTs {
				jobs = append(jobs, job{a, len(ps) + k})
			}
		}
	}
	err := settings.Parallel(ctx, s.Workers, len(jobs), func(ctx context.Context, j int) error {
		jb := jobs[j]
		algo := s.Algorithms[jb.a]
		if jb.i < len(ps) {
			pt, err := MeasurePoint(ctx, algo, ps[jb.i], s)
			points[jb.a][jb.i] = pt
			return err
		}
		rs := s
		rs.RTTS = s.RTTExponentRTTs[jb.i-len(ps)]
		pt, err := MeasurePoint(ctx, algo, s.RTTExponentP, rs)
		exps[jb.a][jb.i-len(ps)] = pt.MeanCwndPkts
		return err
	})
	if err != nil {
		return nil, err
	}
	rep := &ResponseReport{RTTS: s.RTTS, MSSBytes: s.MSSBytes, LossModel: s.LossModel, Form: s.Form, Engine: "fluid", Seed: s.Seed}
	for a, algo := range s.Algorithms {
		ar := AlgorithmResponse{Algorithm: algo, Points: points[a], Params: s.Params[algo]}
		if ref, ok := responseReference(algo, s.Params[algo], s.LossModel); ok {
			ar.Reference = &ref
			ar.RefC = ref.EffectiveC(s.RTTS)
		}
		ar.FitPMax = s.PMax
		if ar.Reference != nil && ar.Reference.PMax > 0 {
			ar.FitPMax = ar.Reference.PMax
		}
		ar.C, ar.D, ar.R2, ar.FitPoints = Fit(points[a], ar.FitPMax)
		if s.RTTExponentP > 0 && distinct(s.RTTExponentRTTs) {
			e, r2 := fitPower(s.RTTExponentRTTs, exps[a])
			ar.RTTExp = &RTTExponent{E: e, R2: r2, P: s.RTTExponentP, RTTs: s.RTTExponentRTTs}
		}
		rep.Results = append(rep.Results, ar)
	}
	reno, _ := responseReference("reno", nil, s.LossModel)
	renoC, renoD := reno.C, reno.D
	var renoResult *AlgorithmResponse
	for i := range rep.Results {
		if rep.Results[i].Algorithm == "reno" && rep.Results[i].FitPoints >= 2 {
			renoC, renoD = rep.Results[i].C, rep.Results[i].D
			renoResult = &rep.Results[i]
		}
	}
	for i := range rep.Results {
		rep.Results[i].Friendly = crossing(rep.Results[i], renoC, renoD)
	}
	for i := range rep.Results {
		rep.Results[i].Caveats = caveats(rep.Results[i], renoResult)
	}
	return rep, nil
}

// crossing is where the algorithm's fitted response function meets Reno's, or nil when
// the exponents are equal to within 0.02 (a Reno-like algorithm never departs from Reno).
func crossing(ar AlgorithmResponse, renoC, renoD float64) *Friendliness {
	if ar.FitPoints < 2 || math.Abs(ar.D-renoD) < 0.02 || ar.C <= 0 {
		return nil
	}
	p := math.Pow(ar.C/renoC, 1/(ar.D-renoD))
	if !(p > 0 && p < 1) {
		return nil
	}
	lo, hi, _ := pRange(ar.Points)
	return &Friendliness{PStar: p, WStarPkts: renoC / math.Pow(p, renoD), Extrapolated: p < lo || p > hi}
}

// Fit fits log W̄ = log c − d·log p by least squares over the points with p <= pMax and
// returns c, d, the coefficient of determination and the number of points used.
func Fit(points []Point, pMax float64) (c, d, r2 float64, n int) {
	var xs, ys []float64
	for _, pt := range points {
		if pt.P <= pMax*(1+1e-9) && pt.MeanCwndPkts > 0 {
			xs = append(xs, pt.P)
			ys = append(ys, pt.MeanCwndPkts)
		}
	}
	if len(xs) < 2 {
		return 0, 0, 0, len(xs)
	}
	logC, slope, r2 := fitLogLog(xs, ys)
	return math.Exp(logC), -slope, r2, len(xs)
}

// fitPower fits y = k·x^e on log-log axes and returns e and R².
func fitPower(xs, ys []float64) (e, r2 float64) {
	_, e, r2 = fitLogLog(xs, ys)
	return e, r2
}

// fitLogLog fits log y = a + b·log x by least squares and returns a, b and R².
func fitLogLog(xs, ys []float64) (a, b, r2 float64) {
	lx, ly := logs(xs), logs(ys)
	if len(lx) < 2 {
		return 0, 0, 0
	}
	a, b = stat.LinearRegression(lx, ly, nil, false)
	r2 = stat.RSquared(lx, ly, nil, a, b)
	if math.IsNaN(r2) {
		r2 = 1 // every y equal: a perfect, flat fit
	}
	return a, b, r2
}

func logs(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Log(x)
	}
	return out
}

// MeasurePoint runs one long-lived flow of algo at loss rate p on an uncongested path
// with round-trip time s.RTTS until its mean window is stable, in one run that goes on as
// long as the measurement needs (stopper): the warm-up ends when the loss cycles show no
// trend (or after WarmupLosses loss events, when given); then at least MinLosses cycles
// are measured, and for random loss as many more as it needs until the 95% confidence
// interval of the mean window (per cycle, cycles.go) is within TargetRelCI of the mean or
// MaxLosses is reached.
func MeasurePoint(ctx context.Context, algo string, p float64, s Settings) (Point, error) {
	if err := s.defaults(); err != nil {
		return Point{}, err
	}
	if !(p > 0 && p < 1) {
		return Point{}, fmt.Errorf("%w: loss rate p = %v, want 0 < p < 1", model.ErrSettings, p)
	}
	return measure(ctx, algo, p, s)
}

func measure(ctx context.Context, algo string, p float64, s Settings) (Point, error) {
	sc, err := PointScenario(algo, s.Params[algo], s.RTTS, s.MSSBytes)
	if err != nil {
		return Point{}, err
	}
	sc.Links[0].Loss, sc.Links[0].LossP = model.LossModel(s.LossModel), p
	st := newStopper(&s)
	// The run ends when the stopper has seen enough; the duration and StopAfterLosses only
	// bound it: one loss per 1/p packets at one packet per RTT at least.
	sc.DurationS = float64(st.maxEvents()) * s.RTTS / p * 4
	res, err := fluid.Run(ctx, sc, fluid.Settings{
		Seed: settings.PointSeed(s.Seed, algo, p, s.RTTS), StopAfterLosses: st.maxEvents(), RecordLosses: true,
		LossStop: st.enough, Exact: !s.Stepped, Form: s.Form,
	})
	if err != nil {
		return Point{}, fmt.Errorf("%s at p = %g: %w", algo, p, err)
	}
	ls := res.Losses
	if len(ls) <= st.start+st.n {
		return Point{}, fmt.Errorf("%w: %s at p = %g: %d loss events in %g s, want %d", model.ErrEngine, algo, p, len(ls), res.DurationS, st.start+st.n+1)
	}
	first, last := ls[st.start], ls[st.start+st.n]
	dt := last.TS - first.TS
	m := meanOver(ls, st.start, st.start+st.n)
	return Point{
		P:             p,
		MeanCwndPkts:  m.mean,
		CI95Pkts:      m.half,
		ThroughputBps: (last.DeliveredPkts - first.DeliveredPkts) * s.MSSBytes * 8 / dt,
		LossEvents:    st.n,
		WarmupLosses:  st.start,
		SimulatedS:    res.DurationS,
	}, nil
}

// Responds reports, as an error wrapping model.ErrSettings, an algorithm that has no
// response function: a paced, rate-based law (BBR) sends at its delivery-rate estimate,
// which the response point's path, without a bottleneck, never bounds (its rate, and the
// solver's work, would grow without end).
func Responds(algo string) error {
	a, err := model.New(algo)
	if err != nil {
		return nil // an unknown name is refused where the scenario is built
	}
	if _, paced := a.NewFluid(model.FlowConfig{}).(model.FluidPacer); paced {
		return fmt.Errorf("%w: algorithm %s: a paced, rate-based law has no response function (on a path without a bottleneck "+
			"its delivery-rate estimate grows without end); run it beside a bottleneck with random loss instead, "+
			"as tcpfluid run --builtin modern-bbr-random-loss --algo %s does", model.ErrSettings, algo, algo)
	}
	return nil
}

// PointScenario is one flow on a path so fast that it never queues: the response function
// is a property of the algorithm and the loss process alone. The receiver window is
// unlimited (Scalable reaches 7.5·10^5 packets at p = 1e-7). A paced law is refused
// (Responds).
func PointScenario(algo string, params map[string]float64, rttS, mssBytes float64) (*model.Scenario, error) {
	if err := Responds(algo); err != nil {
		return nil, err
	}
	sc := &model.Scenario{
		Name:      "response-point",
		DurationS: 1,
		Links:     []model.Link{{Name: "l0", CapacityBps: 1e18, DelayS: rttS / 2, BufferPkts: 1e9}},
		Paths:     []model.Path{{Name: "p0", Links: []string{"l0"}}},
		Flows: []model.Flow{{Name: algo, Algorithm: algo, Params: params, Path: "p0",
			MSSBytes: mssBytes, WindowScaling: true}},
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", model.ErrSettings, err)
	}
	sc.Flows[0].RwndBytes = 1e18
	return sc, nil
}
