package reference

// This file is the only glue between the reference package and tcpfluid's own engines: it
// calls them through their public API (response.MeasurePoint, validate.Point,
// response.Converge, response.Fairness), so that it is the one place to adapt when those
// APIs change.

import (
	"context"
	"time"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/response"
	"github.com/tcpfluid/tcpfluid/validate"
)

// Parameter sets: the constants tcpfluid runs an algorithm with when it is compared with
// a simulator, as a user who read the simulator's source would set them.
const (
	SetLinux   = "linux"   // the Linux 2.6.2x modules ns-2.35's TCP/Linux runs
	SetNS3     = "ns3"     // ns-3.37's TcpXxx classes
	SetDefault = "default" // tcpfluid's own defaults (the RFCs and papers)
)

// TcpfluidAlgorithm is the algorithm tcpfluid runs for algo under a parameter set: its
// variant of the set's name when the algorithm declares one (model.Varianter: "cubic@linux"),
// else algo with its defaults. docs/simulators.md lists what each implementation does that
// the variants do not express yet.
func TcpfluidAlgorithm(set, algo string) string {
	if set == SetDefault || set == "" {
		return algo
	}
	vs, _ := model.VariantsOf(algo)
	for _, v := range vs {
		if v.Name == set {
			return algo + model.VariantSep + set
		}
	}
	return algo
}

// EngineStats is a tcpfluid engine's number for one experiment, with its wall time.
type EngineStats struct {
	Engine       string             `json:"engine"` // fluid or packet
	Form         string             `json:"form,omitempty"`
	Params       map[string]float64 `json:"params,omitempty"`
	MeanCwndPkts float64            `json:"mean_cwnd_pkts,omitempty"`
	CI95Pkts     float64            `json:"ci95_pkts,omitempty"`
	GoodputBps   float64            `json:"goodput_bps,omitempty"`
	LossEvents   int                `json:"loss_events,omitempty"`
	// P is the loss rate per packet a response point ran at (FluidAtLoss: a simulator's
	// realized rate).
	P float64 `json:"p,omitempty"`
	// Converge: the fluid's recovery time from a loss at W = LossWindowPkts back to the
	// BDP, s; the window at that loss, packets (the simulator's, when one ran).
	RecoveryS      *float64 `json:"recovery_s,omitempty"`
	LossWindowPkts float64  `json:"loss_window_pkts,omitempty"`
	// Fairness: Jain's index and the flows' fractions of the bottleneck, means over the
	// seeds, and their spread when there are several.
	Jain      float64              `json:"jain,omitempty"`
	Shares    []float64            `json:"shares,omitempty"`
	OverSeeds *response.SeedSpread `json:"over_seeds,omitempty"`
	// FlowLossEvents and FlowTimeouts are each flow's over its whole run, means over the
	// seeds (fairness).
	FlowLossEvents []float64 `json:"flow_loss_events,omitempty"`
	FlowTimeouts   []float64 `json:"flow_timeouts,omitempty"`
	// Scenario: the scenario experiment's measurement.
	Scenario *ScenarioStats `json:"scenario,omitempty"`
	WallS    float64        `json:"wall_s"`
}

// FluidResponse is tcpfluid's fluid engine at a response point: response.MeasurePoint
// with the random loss model (Poisson losses of intensity p per packet).
func FluidResponse(ctx context.Context, algo string, p, rttS, mssBytes float64, params map[string]float64, seed uint64) (*EngineStats, error) {
	t0 := time.Now()
	pt, err := response.MeasurePoint(ctx, algo, p, response.Settings{LossModel: "random", RTTS: rttS, MSSBytes: mssBytes,
		Params: map[string]map[string]float64{algo: params}, Seed: seed, Workers: 1})
	if err != nil {
		return nil, err
	}
	return &EngineStats{Engine: "fluid", Form: "hybrid", Params: effectiveParams(algo, params), MeanCwndPkts: pt.MeanCwndPkts, CI95Pkts: pt.CI95Pkts,
		GoodputBps: pt.ThroughputBps, LossEvents: pt.LossEvents, P: p, WallS: time.Since(t0).Seconds()}, nil
}

// CountedResponse is tcpfluid's fluid engine in its hybrid-recovery form (counted as a
// packet sender counts and recovers) at a response point, random loss: what a simulator's
// run is compared with at the loss rate it realized (Row.FluidAtLoss).
func CountedResponse(ctx context.Context, algo string, p, rttS, mssBytes float64, params map[string]float64, seed uint64) (*EngineStats, error) {
	t0 := time.Now()
	pt, err := response.MeasurePoint(ctx, algo, p, response.Settings{LossModel: "random", Form: fluid.FormHybridRecovery, RTTS: rttS,
		MSSBytes: mssBytes, Params: map[string]map[string]float64{algo: params}, Seed: seed, Workers: 1})
	if err != nil {
		return nil, err
	}
	return &EngineStats{Engine: "fluid", Form: fluid.FormHybridRecovery, Params: effectiveParams(algo, params), MeanCwndPkts: pt.MeanCwndPkts,
		CI95Pkts: pt.CI95Pkts, GoodputBps: pt.ThroughputBps, LossEvents: pt.LossEvents, P: p, WallS: time.Since(t0).Seconds()}, nil
}

// PacketResponse is tcpfluid's packet engine at a response point (validate.Point,
// random loss); it also returns the fluid's hybrid-recovery form over the same losses.
func PacketResponse(ctx context.Context, algo string, p, rttS, mssBytes float64, params map[string]float64, seed uint64) (pkt, fluid *EngineStats, err error) {
	v, err := validate.Point(ctx, validate.PointSpec{Algorithm: algo, Params: effectiveParams(algo, params), LossModel: "random", P: p,
		RTTS: rttS, MSSBytes: mssBytes, Seed: seed})
	if err != nil {
		return nil, nil, err
	}
	pkt = &EngineStats{Engine: "packet", Params: effectiveParams(algo, params), WallS: v.PacketWallS}
	fluid = &EngineStats{Engine: "fluid", Form: v.Form, Params: effectiveParams(algo, params), WallS: v.FluidWallS}
	for _, m := range v.Metrics {
		switch m.Metric {
		case "mean_cwnd_pkts":
			pkt.MeanCwndPkts, fluid.MeanCwndPkts = m.Packet, m.Fluid
		case "mean_throughput_bps":
			pkt.GoodputBps, fluid.GoodputBps = m.Packet, m.Fluid
		}
	}
	if v.Point != nil {
		pkt.LossEvents = v.Point.Losses
	}
	return pkt, fluid, nil
}

// FluidConverge is tcpfluid's recovery time (response.Converge) in the fluid form form
// (fluid.FormHybrid or fluid.FormHybridRecovery): from the window just after a loss at
// lossWindowPkts (0: the BDP) back to the BDP, on a link of bw bit/s with a 1-BDP buffer.
// The reference harness passes the simulator's own window at its first loss, so that
// tcpfluid starts from the simulator's initial condition.
func FluidConverge(ctx context.Context, algo, form string, bw, rttS, mssBytes, lossWindowPkts float64, params map[string]float64) (*EngineStats, error) {
	t0 := time.Now()
	bdp := bw * rttS / (8 * mssBytes)
	lw := 1.0
	if lossWindowPkts > 0 {
		lw = lossWindowPkts / bdp
	}
	rep, err := response.Converge(ctx, response.ConvergeSettings{Algorithms: []string{algo}, BandwidthsBps: []float64{bw},
		RTTS: rttS, MSSBytes: []float64{mssBytes}, Params: map[string]map[string]float64{algo: params},
		LossWindowBDP: lw, Form: form, Workers: 1})
	if err != nil {
		return nil, err
	}
	st := &EngineStats{Engine: "fluid", Form: rep.Form, Params: effectiveParams(algo, params), WallS: time.Since(t0).Seconds()}
	if len(rep.Results) > 0 {
		st.RecoveryS = rep.Results[0].RecoveryTimeS
		st.LossWindowPkts = rep.Results[0].LossWindowPkts
	}
	return st, nil
}

// TcpfluidFairness is tcpfluid's run of the fairness experiment spec in one engine
// (response.EngineFluid in form, fluid.FormHybrid or fluid.FormHybridRecovery, or
// response.EnginePacket, form "") over seeds: FairnessSettings(spec) with
// the tested flows running tf (a variant of spec.Algorithm, "cubic@linux") with params,
// the friendliness mode's competitors against (its variant of Reno), in the fluid engine
// the random drop rule (a full queue's drops fall on flows at random in proportion to their
// arrivals, as on a drop-tail queue whose senders jitter: ns-2's overhead_), and the spec's
// jitter: the packet engine's senders wait it, the fluid's counted form counts the ACKs a
// sender that waits it counts (fluid.Settings.SendJitterS). Jain and Shares are the means
// over the seeds.
func TcpfluidFairness(ctx context.Context, engine, form string, spec FairnessSpec, tf, against string, params map[string]float64, seeds []uint64) (*EngineStats, error) {
	t0 := time.Now()
	s := FairnessSettings(spec)
	s.Algorithms, s.Params, s.Seeds, s.Engine, s.Form, s.Workers = []string{tf}, map[string]map[string]float64{tf: params}, seeds, engine, form, 1
	if s.Mode == response.ModeFriendliness && against != "" {
		s.Against = against
	}
	if engine != response.EnginePacket {
		s.DropRule = model.DropRandom
	}
	if engine == response.EnginePacket || form == fluid.FormHybridRecovery {
		s.JitterS = spec.JitterS
	}
	rep, err := response.Fairness(ctx, s)
	if err != nil {
		return nil, err
	}
	st := &EngineStats{Engine: engine, Form: rep.Form, Params: effectiveParams(tf, params), WallS: time.Since(t0).Seconds()}
	if len(rep.Results) > 0 {
		r := &rep.Results[0]
		st.Jain, st.Shares, st.OverSeeds = r.JainMean(), r.ShareMeans(), r.OverSeeds
		st.FlowLossEvents, st.FlowTimeouts = r.LossMeans()
	}
	return st, nil
}

// effectiveParams is every parameter algo ran with: its variant's constants, params over
// them, and the defaults of the rest; a report names the constants it compares.
func effectiveParams(algo string, params map[string]float64) map[string]float64 {
	a, err := model.Configure(algo, params)
	if err != nil {
		return params
	}
	out := map[string]float64{}
	for _, p := range a.Params() {
		out[p.Name] = p.Value
	}
	return out
}

// ScenarioWithParams is scenario sc with every flow's algorithm replaced by its variant of
// the parameter set (TcpfluidAlgorithm): what tcpfluid runs beside ns-3.
func ScenarioWithParams(sc *model.Scenario, set string) *model.Scenario {
	out := *sc
	out.Flows = append([]model.Flow(nil), sc.Flows...)
	for i := range out.Flows {
		out.Flows[i].Algorithm = TcpfluidAlgorithm(set, out.Flows[i].Algorithm)
	}
	return &out
}

// TcpfluidScenario runs scenario sc in both of tcpfluid's engines as `tcpfluid validate`
// does (validate.Scenario: its fluid form, SACK and send jitter) and measures each as a
// scenario experiment; the wall time is both engines'.
func TcpfluidScenario(ctx context.Context, sc *model.Scenario, seed uint64) (fluid, packet *EngineStats, err error) {
	t0 := time.Now()
	v, err := validate.Scenario(ctx, sc, seed)
	if err != nil {
		return nil, nil, err
	}
	wall := time.Since(t0).Seconds()
	fs, err := ScenarioStatsOf(sc, v.Fluid)
	if err != nil {
		return nil, nil, err
	}
	ps, err := ScenarioStatsOf(sc, v.Packet)
	if err != nil {
		return nil, nil, err
	}
	return &EngineStats{Engine: "fluid", Form: v.Form, Scenario: fs, WallS: wall},
		&EngineStats{Engine: "packet", Scenario: ps, WallS: wall}, nil
}
