package model

import "math"

// MPTCP coupled congestion control: one law per multi-path flow, one window per subflow
// (FlowConfig.Subflows of them; a single-path flow is one subflow). Subflow k's window is
// x[k] in the fluid face and CwndOf(k) in the event face; its RTT is
// Observation.Subflows[k].RTT (Observation.RTT when Subflows is nil, as for a single-path
// flow). Every subflow has its own slow start, ssthresh and receiver-window cap (the
// machinery of slowstart.go), and a timeout restarts its slow start from one packet.
//
// LIA (RFC 6356, Raiciu, Handley & Wischik 2011). Per ACK on subflow i in congestion
// avoidance
//
//	W_i += min(α/W_total, 1/W_i),   α = W_total·max_k(W_k/τ_k²)/(Σ_k W_k/τ_k)²,
//
// so α/W_total = max_k(W_k/τ_k²)/(Σ_k W_k/τ_k)²; a loss on i halves W_i. Per ACK, not per
// packet acknowledged: RFC 6356 scales by bytes acknowledged, but Linux's implementation
// (mptcp_coupled.c of the multipath-tcp.org kernel, which seed 001 modified) counts one
// increase per ACK whatever it acknowledges, and docs/models.md says "per ACK". The two differ
// only when an ACK covers several packets: behind a delayed-ACK receiver (Flow.DelayedAck)
// LIA grows half as fast. Slow start counts packets in both. Fluid face: the ACK rate
// W_i/(τ_i·b), b packets per ACK, makes dW_i/dt = min(α/W_total, 1/W_i)·W_i/(τ_i·b). With
// b = 1, n identical subflows get α = 1/n, each grows 1/n² packets per RTT and the flow 1/n
// per RTT; with loss rate p on every path the equilibrium α/W_total = p·W_i/2 gives
// W_total = sqrt(2/p), one Reno flow's window. The total never grows faster than a Reno flow on the shortest path:
// dW_total/dt ≤ max_k(W_k/τ_k²)/(Σ W_k/τ_k) ≤ 1/τ_min.
//
// OLIA (Khalili, Gast, Popovic & Le Boudec, "MPTCP is not Pareto-optimal", CoNEXT 2012 and
// IEEE/ACM ToN 2013; draft-khalili-mptcp-congestion-control; Linux mptcp_olia.c). Per
// packet acknowledged on subflow r
//
//	W_r += (W_r/τ_r²)/(Σ_p W_p/τ_p)² + ε_r/W_r,
//
// halving on loss. ℓ_r = max(ℓ1_r, ℓ2_r) packets, ℓ2_r acknowledged since r's last loss and
// ℓ1_r between its last two; the presumed best paths B maximise ℓ_r/τ_r² (the path where a
// Reno flow would get most), M is the set of paths with the largest window, and the
// collected paths are B∖M. If B∖M is empty every ε_r = 0; otherwise
// ε_r = 1/(n·|B∖M|) for r in B∖M, ε_r = −1/(n·|M|) for r in M, and 0 for the others, so
// Σ ε_r = 0: windows move from the largest paths to the best ones. Linux compares integer
// windows, so windows within one packet of the largest are in M; here membership of M ramps
// linearly from 0 to 1 over the last tie_pkts packets below the largest window, and the ε
// are scaled by min(|B∖M|, 1), which keeps the fluid law continuous (a discontinuous
// right-hand side would chatter where W_r meets the largest window). With crisp
// memberships the ε are exactly the paper's. The fluid state is x = [W_0..W_{n−1},
// ℓ2_0..ℓ2_{n−1}], dℓ2_r/dt = W_r/τ_r.
//
// VLIA (seed 001: Kim, Han & Lee, "Design of congestion control for performance improvement
// of MPTCP in high BDP multipath networks", JITAE 10(2), 2020) — a reconstruction (R): the
// paper gives its design in prose and its equations were not legible. A subflow whose path
// has a BDP above bdp_threshold_pkts runs CUBIC on its own (the CUBIC law of cubic.go, both
// faces, with this algorithm's c, beta, fast_convergence and reno_friendly); the other
// subflows run LIA, in whose α and W_total a CUBIC subflow counts as the virtual Reno window
//
//	W_vR = W_cubic/R,  R = (mean CUBIC window)/(mean Reno window) at the same loss rate p.
//
// CUBIC's mean window is k_c·(τ/p)^(3/4) with k_c = (C·(3+β)/(4(1−β)))^(1/4) (RFC 8312
// §5.1; 1.054 at C = 0.4 packets/s³, β = 0.7) and Reno's sqrt(3/(2p)); eliminating p gives
// W_vR = sqrt(3/2)·(W_cubic/k_c)^(2/3)/sqrt(τ) packets, τ in seconds (CUBIC's C carries
// seconds, so the formula is not unit-free). Below W = 1.5^(3/2)·k_c^(−2)·τ^(−3/2) (52 packets
// at τ = 0.1 s) the formula exceeds W_cubic; there CUBIC's Reno-friendly region makes it a
// Reno flow, so W_vR = min(W_cubic, formula). The paper then multiplies the virtual window by sqrt(α)
// (LIA's mean window differs from Reno's by that factor) and uses the result in α; that
// second step is the switch sqrt_alpha (off by default: docs/models.md counts W_vR itself).
//
// The paper's flowchart (its Fig. 2) classifies the subflows when the connection is set up.
// Subflow k's BDP estimate starts at its path's BDP known at setup (FlowConfig.PathBDP: the
// narrowest link's capacity times the round-trip propagation delay, what a sender learns
// from its interface rate and the handshake RTT) and, at every congestion event (a loss, a
// timeout, or the end of slow start at ssthresh), becomes max(estimate, W_k·BaseRTT_k/RTT_k)
// packets, the sending rate times the base RTT: at a loss from a full drop-tail queue that
// the subflow has to itself this is exactly the path's BDP (W = BDP + buffer,
// RTT = BaseRTT·(1 + buffer/BDP)). A subflow whose estimate exceeds the threshold runs CUBIC
// from then on (from the start when the setup value does; at that event otherwise, so its
// first loss is already a CUBIC reduction); before that it runs LIA, whose slow start is
// CUBIC's. Without PathBDP the classification waits for the congestion events. The default
// threshold, 1000 packets, lies between seed 001's paths (171 and 4166 packets of 1460
// bytes); the seed gives no number.
// The fluid state is x = [W_0..W_{n−1}, W_est,0..W_est,n−1], the second half CUBIC's
// Reno-friendly estimate of the subflows in CUBIC mode (constant for the others).

// Multi-path algorithm kinds.
const (
	coupledLIA = iota
	coupledOLIA
	coupledVLIA
)

// mptcpDefaultBDPThreshold is VLIA's default BDP threshold in packets (see above).
const mptcpDefaultBDPThreshold = 1000

// oliaBestRelTol is the relative tolerance within which two paths' ℓ/τ² tie for best.
const oliaBestRelTol = 1e-9

func init() {
	Register("lia", func() Algorithm {
		a := &mptcp{kind: coupledLIA}
		a.Base = NewBase("lia", "MPTCP LIA: per ACK W_i += min(α/W_total, 1/W_i), halving per subflow (RFC 6356)")
		return a
	})
	Register("olia", func() Algorithm {
		a := &mptcp{kind: coupledOLIA}
		a.Base = NewBase("olia", "MPTCP OLIA: opportunistic linked increases, windows moved towards the best paths (Khalili et al., CoNEXT 2012)",
			Real(&a.p.tie, "tie_pkts", 1, "packets", 1e-3, 100, "Linux mptcp_olia.c compares integer windows",
				"windows within this many packets of the largest count as largest (set M); membership ramps linearly across it"))
		return a
	})
	Register("vlia", func() Algorithm {
		a := &mptcp{kind: coupledVLIA}
		a.Base = NewBase("vlia", "VLIA (reconstruction of seed 001, Kim, Han & Lee, JITAE 2020): CUBIC on subflows whose "+
			"BDP exceeds a threshold, counted in LIA's α as a virtual Reno window; LIA on the others",
			Real(&a.p.bdpThreshold, "bdp_threshold_pkts", mptcpDefaultBDPThreshold, "packets", 1, 1e9,
				"chosen here (seed 001 gives none): between its paths' 171 and 4166 packets",
				"a subflow whose path BDP at setup, or W·BaseRTT/RTT at a congestion event, exceeds this runs CUBIC"),
			Real(&a.p.cubic.c, "c", 0.4, "packets/s³", 0.01, 10, "RFC 9438 §5",
				"CUBIC subflows: scale of the cubic curve"),
			Real(&a.p.cubic.beta, "beta", 0.7, "1", 0.5, 0.95, "RFC 9438 §4.6",
				"CUBIC subflows: fraction of the window kept after a loss"),
			Switch(&a.p.cubic.fastConvergence, "fast_convergence", 1, "RFC 9438 §4.7",
				"CUBIC subflows: 1 lowers W_max to W·(1+β)/2 after a loss below the previous W_max"),
			Switch(&a.p.cubic.friendly, "reno_friendly", 1, "RFC 9438 §4.3",
				"CUBIC subflows: 1 uses the Reno-friendly estimate where it exceeds the cubic curve"),
			Switch(&a.p.sqrtAlpha, "sqrt_alpha", 0, "seed 001 §3 (its second step); docs/models.md omits it",
				"1 multiplies each virtual Reno window by sqrt(α) (α computed with the virtual windows) before the α the LIA subflows use"))
		return a
	})
}

// mptcpParams holds the parameters of the three multi-path algorithms.
type mptcpParams struct {
	tie          float64 // OLIA: width of the M-set tie ramp, packets
	bdpThreshold float64 // VLIA: packets
	sqrtAlpha    float64 // VLIA: 0/1
	cubic        cubicParams
}

// mptcp is LIA, OLIA or VLIA.
type mptcp struct {
	Base
	kind int
	p    mptcpParams
}

// Multipath reports that the algorithm couples the windows of several subflows.
func (a *mptcp) Multipath() bool { return true }

var (
	_ Algorithm         = (*mptcp)(nil)
	_ Multipath         = (*mptcp)(nil)
	_ FluidLaw          = (*coupledFluid)(nil)
	_ AckIncrement      = (*coupledFluid)(nil)
	_ SubflowSsthresh   = (*coupledFluid)(nil)
	_ MultipathEventLaw = (*coupledEvent)(nil)
	_ SubflowSsthresh   = (*coupledEvent)(nil)
)

func (a *mptcp) NewFluid(c FlowConfig) FluidLaw {
	f := &coupledFluid{coupled: newCoupled(a.kind, a.p, c)}
	if a.kind == coupledVLIA {
		f.cf = make([]cubicFluid, f.n)
	}
	return f
}

func (a *mptcp) NewEvent(c FlowConfig) EventLaw {
	e := &coupledEvent{coupled: newCoupled(a.kind, a.p, c)}
	e.cwnd = make([]float64, e.n)
	for k := range e.cwnd {
		e.cwnd[k] = e.cwnd0
	}
	switch a.kind {
	case coupledOLIA:
		e.acked = make([]float64, e.n)
	case coupledVLIA:
		e.ce = make([]cubicEvent, e.n)
		for k := range e.n {
			if e.cubic[k] {
				e.toCubic(k)
			}
		}
	}
	return e
}

// LIAAlpha is RFC 6356's aggressiveness factor α = W_total·max_k(W_k/τ_k²)/(Σ_k W_k/τ_k)²
// for subflow windows w (packets) and round-trip times rtt (s): 1 for one path, 1/n for n
// identical paths. It is 0 when no window is positive and panics when the lengths differ.
func LIAAlpha(w, rtt []float64) float64 {
	if len(w) != len(rtt) {
		panic("model: LIAAlpha: windows and RTTs differ in length")
	}
	var s liaSums
	for k := range w {
		s.add(w[k], rtt[k])
	}
	return s.alpha()
}

// VirtualRenoWindow is VLIA's stand-in for a CUBIC window wCubic (packets) on a path with
// round-trip time rttS (s): the Reno window with the same mean-window loss rate,
// sqrt(3/2)·(wCubic/k_c)^(2/3)/sqrt(rttS), k_c = (c·(3+beta)/(4(1−beta)))^(1/4) for CUBIC's
// c (packets/s³) and beta, capped at wCubic. Example: 8000 packets at 0.15 s with c = 0.4,
// beta = 0.7 stand for 1221 Reno packets.
func VirtualRenoWindow(wCubic, rttS, c, beta float64) float64 {
	if wCubic <= 0 {
		return 0
	}
	kc := math.Pow(c*(3+beta)/(4*(1-beta)), 0.25)
	v := math.Sqrt(1.5) * math.Pow(wCubic/kc, 2.0/3) / math.Sqrt(max(rttS, MinClockRTT))
	return min(v, wCubic)
}

// liaSums accumulates what LIA's α needs over the subflows.
type liaSums struct {
	total float64 // Σ W, packets
	rate  float64 // Σ W/τ, packets/s
	best  float64 // max W/τ², packets/s²
}

func (s *liaSums) add(w, rtt float64) {
	s.total += w
	s.rate += w / rtt
	s.best = max(s.best, w/(rtt*rtt))
}

func (s *liaSums) alpha() float64 {
	if s.rate <= 0 {
		return 0
	}
	return s.total * s.best / (s.rate * s.rate)
}

// perAck is LIA's increase per packet acknowledged on a subflow of window w:
// min(α/W_total, 1/w) = min(max(W/τ²)/(Σ W/τ)², 1/w).
func (s *liaSums) perAck(w float64) float64 {
	inc := 1 / max(w, 1)
	if s.rate > 0 {
		inc = min(inc, s.best/(s.rate*s.rate))
	}
	return inc
}

// subflowObs is the observation o seen from subflow k: its RTT and base RTT.
func subflowObs(o Observation, k int) Observation {
	if k < len(o.Subflows) {
		o.RTT, o.BaseRTT = o.Subflows[k].RTT, o.Subflows[k].BaseRTT
	}
	o.Subflow = k
	return o
}

// coupled is the discrete state both faces of a multi-path law share.
type coupled struct {
	kind  int
	p     mptcpParams
	n     int
	cwnd0 float64  // packets, every subflow's initial window
	start Window   // every subflow's window state at the flow's start
	win   []Window // per subflow (a VLIA subflow in CUBIC mode uses its CUBIC face's)
	gap   []float64
	bdp   []float64 // VLIA: BDP estimate per subflow, packets
	cubic []bool
	// pathBDP is each subflow's path BDP known at setup (FlowConfig.PathBDP), packets.
	pathBDP []float64
	// ackRate is the ACKs per packet delivered, 1/b: what an increase counted per ACK
	// (LIA, VLIA's LIA subflows) scales by in the fluid face.
	ackRate float64
}

func newCoupled(kind int, p mptcpParams, c FlowConfig) coupled {
	n := max(c.Subflows, 1)
	cwnd, w := NewWindow(c)
	cp := coupled{kind: kind, p: p, n: n, cwnd0: cwnd, start: w, ackRate: 1 / c.packetsPerAck(),
		win: make([]Window, n), gap: make([]float64, n), bdp: make([]float64, n), cubic: make([]bool, n),
		pathBDP: make([]float64, n)}
	copy(cp.pathBDP, c.PathBDP)
	cp.reset()
	return cp
}

// reset puts every subflow in its state at the flow's start: a VLIA subflow whose path
// BDP known at setup exceeds the threshold starts in CUBIC mode.
func (c *coupled) reset() {
	for k := range c.n {
		c.win[k] = c.start
		c.gap[k], c.bdp[k] = 0, c.pathBDP[k]
		c.cubic[k] = c.kind == coupledVLIA && c.bdp[k] > c.p.bdpThreshold
	}
}

// subflow is the subflow a callback concerns (subflow 0 when o names none of this flow's).
func (c *coupled) subflow(o Observation) int {
	if o.Subflow >= 0 && o.Subflow < c.n {
		return o.Subflow
	}
	return 0
}

// sums is LIA's α input over windows w; VLIA counts a CUBIC subflow as its virtual Reno
// window (times sqrt(α) with sqrt_alpha).
func (c *coupled) sums(w []float64, o Observation) liaSums {
	var s liaSums
	virtual := false
	for k := range c.n {
		rtt := ClockRTT(subflowObs(o, k))
		wk := w[k]
		if c.kind == coupledVLIA && c.cubic[k] {
			wk = VirtualRenoWindow(wk, rtt, c.p.cubic.c, c.p.cubic.beta)
			virtual = true
		}
		s.add(wk, rtt)
	}
	if !virtual || c.p.sqrtAlpha != 1 {
		return s
	}
	scale := math.Sqrt(s.alpha())
	s = liaSums{}
	for k := range c.n {
		rtt := ClockRTT(subflowObs(o, k))
		wk := w[k]
		if c.cubic[k] {
			wk = scale * VirtualRenoWindow(wk, rtt, c.p.cubic.c, c.p.cubic.beta)
		}
		s.add(wk, rtt)
	}
	return s
}

// perAck is the congestion-avoidance increase of (non-CUBIC) subflow k per packet
// acknowledged, packets; interLoss is OLIA's ℓ2 per subflow.
func (c *coupled) perAck(k int, w, interLoss []float64, s liaSums, o Observation) float64 {
	if c.kind != coupledOLIA {
		return s.perAck(w[k])
	}
	rtt := ClockRTT(subflowObs(o, k))
	wk := max(w[k], 1)
	inc := c.oliaEpsilon(k, w, interLoss, o) / wk
	if s.rate > 0 {
		inc += wk / (rtt * rtt) / (s.rate * s.rate)
	}
	return inc
}

// oliaEpsilon is OLIA's ε_k for windows w and packets acknowledged since each subflow's
// last loss interLoss (ℓ2).
func (c *coupled) oliaEpsilon(k int, w, interLoss []float64, o Observation) float64 {
	if c.n < 2 {
		return 0
	}
	var wMax, vMax float64
	for p := range c.n {
		wMax = max(wMax, w[p])
		vMax = max(vMax, c.oliaValue(p, interLoss, o))
	}
	var sumM, sumC float64
	for p := range c.n {
		m, col := c.oliaMember(p, w, interLoss, o, wMax, vMax)
		sumM += m
		sumC += col
	}
	if sumC == 0 {
		return 0
	}
	m, col := c.oliaMember(k, w, interLoss, o, wMax, vMax)
	return min(sumC, 1) * (col/sumC - m/sumM) / float64(c.n)
}

// oliaValue is ℓ_p/τ_p², ℓ_p = max(ℓ1_p, ℓ2_p) packets.
func (c *coupled) oliaValue(p int, interLoss []float64, o Observation) float64 {
	rtt := ClockRTT(subflowObs(o, p))
	return max(c.gap[p], interLoss[p]) / (rtt * rtt)
}

// oliaMember is subflow p's membership of M (largest windows) and of the collected paths
// B∖M, each in [0, 1].
func (c *coupled) oliaMember(p int, w, interLoss []float64, o Observation, wMax, vMax float64) (m, collected float64) {
	m = min(max((w[p]-wMax)/c.p.tie+1, 0), 1)
	if c.oliaValue(p, interLoss, o) >= vMax*(1-oliaBestRelTol) {
		collected = 1 - m
	}
	return m, collected
}

// observe updates VLIA's BDP estimate of subflow k at a congestion event with window w
// (packets) and reports whether the subflow now switches to CUBIC.
func (c *coupled) observe(k int, w float64, ok Observation) bool {
	if c.kind != coupledVLIA || c.cubic[k] {
		return false
	}
	c.bdp[k] = max(c.bdp[k], w*MinimumRTT(ok)/ClockRTT(ok))
	if c.bdp[k] > c.p.bdpThreshold {
		c.cubic[k] = true
		return true
	}
	return false
}

// lossGap records OLIA's inter-loss distance at a loss of subflow k: ℓ1 = ℓ2, ℓ2 = 0 (as
// Linux, only when something was acknowledged since the last loss).
func (c *coupled) lossGap(k int, interLoss []float64) {
	if c.kind == coupledOLIA && interLoss[k] > 0 {
		c.gap[k] = interLoss[k]
		interLoss[k] = 0
	}
}

// coupledFluid is the fluid face: x = [W_0..W_{n−1}] (LIA), followed by ℓ2 (OLIA) or
// W_est (VLIA) per subflow.
type coupledFluid struct {
	coupled
	cf []cubicFluid // VLIA: subflow k's CUBIC face once it is in CUBIC mode
}

func (f *coupledFluid) Vars() int {
	if f.kind == coupledLIA {
		return f.n
	}
	return 2 * f.n
}

func (f *coupledFluid) Init(x []float64, _ Observation) {
	f.reset()
	for k := range f.n {
		x[k] = f.cwnd0
		if f.kind == coupledVLIA && f.cubic[k] {
			f.toCubic(k)
		}
	}
	switch f.kind {
	case coupledOLIA:
		for k := range f.n {
			x[f.n+k] = 0
		}
	case coupledVLIA:
		for k := range f.n {
			x[f.n+k] = f.cwnd0
		}
	}
}

func (f *coupledFluid) aux(x []float64) []float64 {
	if f.kind == coupledLIA {
		return nil
	}
	return x[f.n : 2*f.n]
}

func (f *coupledFluid) Deriv(dx, x []float64, o Observation) {
	n := f.n
	w, aux := x[:n], f.aux(x)
	s := f.sums(w, o)
	for k := range n {
		ok := subflowObs(o, k)
		rtt := ClockRTT(ok)
		if f.kind == coupledVLIA {
			if f.cubic[k] {
				sub := [2]float64{x[k], x[n+k]}
				var dsub [2]float64
				f.cf[k].Deriv(dsub[:], sub[:], ok)
				dx[k], dx[n+k] = dsub[0], dsub[1]
				continue
			}
			dx[n+k] = 0
		}
		win := &f.win[k]
		var rate float64
		if win.SlowStart {
			rate = SlowStartRate(w[k], rtt)
		} else {
			rate = f.perAck(k, w, aux, s, o) * w[k] / rtt
			if f.kind != coupledOLIA {
				rate *= f.ackRate
			}
		}
		if rate < 0 && w[k] <= 1 {
			rate = 0 // OLIA's negative ε never takes a window below one packet
		}
		dx[k] = win.Limit(w[k], rate)
		if f.kind == coupledOLIA {
			dx[n+k] = w[k] / rtt // packets acknowledged per second
		}
	}
}

// AckIncrement is subflow 0's (the recovery form corrects single-path flows only): one
// packet per ACK in slow start, the coupled increase per ACK after it, and a VLIA subflow
// in CUBIC mode as CUBIC.
func (f *coupledFluid) AckIncrement(x []float64, o Observation) float64 {
	switch {
	case f.kind == coupledVLIA && f.cubic[0]:
		sub := [2]float64{x[0], x[f.n]}
		return f.cf[0].AckIncrement(sub[:], subflowObs(o, 0))
	case f.win[0].SlowStart:
		return 1
	}
	w := x[:f.n]
	d := f.perAck(0, w, f.aux(x), f.sums(w, o), o)
	if f.kind != coupledOLIA {
		d *= f.ackRate
	}
	return max(d, 0)
}

// guardOf is subflow k's slow-start guard.
func (f *coupledFluid) guardOf(k int, x []float64) float64 {
	if f.kind == coupledVLIA && f.cubic[k] {
		return f.cf[k].win.Guard(x[k])
	}
	return f.win[k].Guard(x[k])
}

func (f *coupledFluid) Guard(x []float64, _ Observation) float64 {
	g := -1.0
	for k := range f.n {
		g = max(g, f.guardOf(k, x))
	}
	return g
}

// Switch ends slow start on the subflow whose guard crossed (the largest guard).
func (f *coupledFluid) Switch(x []float64, o Observation) {
	k, g := 0, math.Inf(-1)
	for j := range f.n {
		if gj := f.guardOf(j, x); gj > g {
			k, g = j, gj
		}
	}
	ok := subflowObs(o, k)
	if f.observe(k, x[k], ok) {
		f.toCubic(k)
	}
	if f.kind == coupledVLIA && f.cubic[k] {
		sub := [2]float64{x[k], x[f.n+k]}
		f.cf[k].Switch(sub[:], ok)
		x[k], x[f.n+k] = sub[0], sub[1]
		return
	}
	f.win[k].SlowStart = false
}

func (f *coupledFluid) OnLoss(x []float64, o Observation) { f.congestion(x, o, false) }

func (f *coupledFluid) OnTimeout(x []float64, o Observation) { f.congestion(x, o, true) }

// congestion applies a loss detected by duplicate ACKs, or a timeout, to the subflow o
// names: a VLIA subflow may switch to CUBIC at it, and one in CUBIC mode takes CUBIC's jump.
func (f *coupledFluid) congestion(x []float64, o Observation, timeout bool) {
	k := f.subflow(o)
	ok := subflowObs(o, k)
	f.lossGap(k, f.aux(x))
	if f.observe(k, x[k], ok) {
		f.toCubic(k)
	}
	if f.kind == coupledVLIA && f.cubic[k] {
		sub := [2]float64{x[k], x[f.n+k]}
		if timeout {
			f.cf[k].OnTimeout(sub[:], ok)
		} else {
			f.cf[k].OnLoss(sub[:], ok)
		}
		x[k], x[f.n+k] = sub[0], sub[1]
		return
	}
	if timeout {
		x[k] = f.win[k].Timeout(x[k])
	} else {
		x[k] = f.win[k].FluidLoss(x[k]/2, false)
	}
}

// toCubic hands subflow k to a fresh CUBIC face with its current window state.
func (f *coupledFluid) toCubic(k int) {
	f.cf[k] = cubicFluid{win: f.win[k], cubicEpoch: newCubicEpoch(f.p.cubic)}
}

// SsthreshOf is subflow k's slow-start threshold in packets (0: none yet).
func (f *coupledFluid) SsthreshOf(k int) float64 {
	if k < 0 || k >= f.n {
		return 0
	}
	if f.kind == coupledVLIA && f.cubic[k] {
		return f.cf[k].win.Reported()
	}
	return f.win[k].Reported()
}

// Ssthresh is the sum of the subflows' thresholds, as the flow's window is their sum.
func (f *coupledFluid) Ssthresh() float64 { return sumOver(f.n, f.SsthreshOf) }

// sumOver is Σ of(k) over n subflows.
func sumOver(n int, of func(k int) float64) float64 {
	var s float64
	for k := range n {
		s += of(k)
	}
	return s
}

// coupledEvent is the event face: one window per subflow.
type coupledEvent struct {
	coupled
	cwnd  []float64    // packets per subflow
	acked []float64    // OLIA: ℓ2, packets acknowledged since each subflow's last loss
	ce    []cubicEvent // VLIA: subflow k's CUBIC face once it is in CUBIC mode
}

// Cwnd is the flow's window: the sum of the subflows'.
func (e *coupledEvent) Cwnd() float64 { return sumOver(e.n, e.CwndOf) }

// CwndOf is subflow k's window in packets (0 for a subflow the flow does not have).
func (e *coupledEvent) CwndOf(k int) float64 {
	if k < 0 || k >= e.n {
		return 0
	}
	return e.cwnd[k]
}

// SsthreshOf is subflow k's slow-start threshold in packets (0: none yet).
func (e *coupledEvent) SsthreshOf(k int) float64 {
	if k < 0 || k >= e.n {
		return 0
	}
	if e.kind == coupledVLIA && e.cubic[k] {
		return e.ce[k].win.Reported()
	}
	return e.win[k].Reported()
}

// Ssthresh is the sum of the subflows' thresholds.
func (e *coupledEvent) Ssthresh() float64 { return sumOver(e.n, e.SsthreshOf) }

// toCubic hands subflow k to a fresh CUBIC face with its current window state.
func (e *coupledEvent) toCubic(k int) {
	e.ce[k] = cubicEvent{cwnd: e.cwnd[k], win: e.win[k], cubicEpoch: newCubicEpoch(e.p.cubic)}
}

func (e *coupledEvent) OnAck(acked float64, o Observation) {
	k := e.subflow(o)
	ok := subflowObs(o, k)
	if e.kind == coupledOLIA {
		e.acked[k] += acked
	}
	if e.kind == coupledVLIA && e.cubic[k] {
		e.ce[k].OnAck(acked, ok)
		e.cwnd[k] = e.ce[k].cwnd
		return
	}
	win := &e.win[k]
	wasSlowStart := win.SlowStart
	left := win.AckSlowStart(&e.cwnd[k], acked)
	if wasSlowStart && !win.SlowStart && e.observe(k, e.cwnd[k], ok) {
		e.toCubic(k)
		if left > 0 {
			e.ce[k].OnAck(left, ok)
		}
		e.cwnd[k] = e.ce[k].cwnd
		return
	}
	if left > 0 {
		if e.kind != coupledOLIA {
			left = min(left, 1) // one increase per ACK
		}
		s := e.sums(e.cwnd, o)
		e.cwnd[k] += win.Limit(e.cwnd[k], left*e.perAck(k, e.cwnd, e.acked, s, o))
		e.cwnd[k] = max(e.cwnd[k], 1)
	}
	e.cwnd[k] = win.Clamp(e.cwnd[k])
}

func (e *coupledEvent) OnLoss(o Observation) { e.congestion(o, false) }

func (e *coupledEvent) OnTimeout(o Observation) { e.congestion(o, true) }

// congestion is the event face of coupledFluid.congestion.
func (e *coupledEvent) congestion(o Observation, timeout bool) {
	k := e.subflow(o)
	ok := subflowObs(o, k)
	e.lossGap(k, e.acked)
	if e.observe(k, e.cwnd[k], ok) {
		e.toCubic(k)
	}
	switch {
	case e.kind == coupledVLIA && e.cubic[k] && timeout:
		e.ce[k].OnTimeout(ok)
		e.cwnd[k] = e.ce[k].cwnd
	case e.kind == coupledVLIA && e.cubic[k]:
		e.ce[k].OnLoss(ok)
		e.cwnd[k] = e.ce[k].cwnd
	case timeout:
		e.cwnd[k] = e.win[k].Timeout(e.cwnd[k])
	default:
		e.cwnd[k] = e.win[k].Loss(e.cwnd[k]/2, false)
	}
}
