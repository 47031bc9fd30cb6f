package model

import "math"

// BBR v2 as Google's v2alpha release has it (Linux net/ipv4/tcp_bbr2.c, github.com/google/bbr
// branch v2alpha; draft-cardwell-iccrg-bbr-congestion-control-02 describes the same
// algorithm). It keeps v1's model, Startup, Drain, pacing and window (bbr.go) and adds
// bounds that loss sets:
//
//   - BtlBw is the maximum delivery rate over the last one or two bandwidth probes
//     (bw_hi), not over 10 rounds.
//   - ProbeBW is a cycle of four phases: DOWN (pacing gain 0.75) until the flight is down
//     to the BDP and to 85% of inflight_hi, CRUISE (gain 1) until it is time to probe —
//     2 to 3 s after DOWN began (a random draw), or sooner after min(63, BDP) rounds, a
//     Reno flow's time between losses —, REFILL (gain 1) for one round, then UP (gain
//     1.25) until the flight reaches 1.25·BDP after a min RTT, or inflight_hi if the
//     previous probe went too high, or the loss rate goes too high.
//   - Loss is too high when the packets lost since a packet left exceed loss_thresh (2%)
//     of the flight it left with. In Startup, at a round's end with at least
//     full_loss_cnt (8) losses in it, that ends Startup; while probing it sets the long-term
//     bound inflight_hi = max(that flight, (1 − beta)·BDP) and ends the probe. inflight_hi
//     grows in UP while the window is full at it, by 1, 2, 4, … packets per round, and
//     whenever a higher flight proves safe.
//   - Outside probing, every round with a loss cuts the short-term bounds bw_lo and
//     inflight_lo by beta (30%), but not below the rate and the volume delivered in that
//     round; REFILL and the end of ProbeRTT reset them.
//   - The window is bounded: by inflight_hi in DOWN, REFILL and UP, by 85% of it in CRUISE
//     and ProbeRTT, and by inflight_lo. Recovery holds no packet conservation; a timeout
//     restarts from one packet and restores the window once it is repaired.
//   - ProbeRTT comes every 5 s (probe_rtt_win) and holds half the BDP, not 4 packets.
//
// Not modelled: ECN (v2alpha leaves it off by default: bbr_ecn_enable), the ACK-aggregation
// allowance, undo of spurious recoveries. The min-RTT filter is one 5-s filter (v2alpha
// keeps a 10-s one refreshed from the 5-s one, which agree while ProbeRTT runs every 5 s).
// v3 (draft-ietf-ccwg-bbr) changes gains and the loss response again and is not here.
//
// The event face follows bbr2_main per ACK (bbrEvent.onRateSampleV2); the packet engine
// gives each rate sample the flow's lost count (RateSample.Lost, TxInFlight). The fluid
// face (bbr2fluid.go) extends v1's with inflight_hi as a state variable and the loss rate
// read from the flow's lost packets (Observation.LostPkts).
func init() {
	Register("bbr2", func() Algorithm {
		a := &bbr{v2: true}
		a.Base = NewBase("bbr2", "BBR v2: BBR's model with loss-set bounds inflight_hi and inflight_lo and the DOWN/CRUISE/REFILL/UP cycle (Linux tcp_bbr2.c, v2alpha)",
			Real(&a.p.highGain, "high_gain", 2/math.Ln2, "1", 1, 10, "Linux tcp_bbr2.c bbr_high_gain, bbr_startup_cwnd_gain",
				"Startup's pacing and cwnd gain"),
			Real(&a.p.cwndGain, "cwnd_gain", 2, "1", 1, 10, "Linux tcp_bbr2.c bbr_cwnd_gain",
				"cwnd in ProbeBW, in BDPs"),
			Real(&a.p.probeGain, "probe_gain", 1.25, "1", 1, 4, "Linux tcp_bbr2.c bbr_pacing_gain[BBR_BW_PROBE_UP], bbr_bw_probe_pif_gain",
				"pacing gain of UP, and the flight (in BDPs) that ends it"),
			Real(&a.p.drainGain, "drain_gain", 0.75, "1", 0.1, 1, "Linux tcp_bbr2.c bbr_pacing_gain[BBR_BW_PROBE_DOWN]",
				"pacing gain of DOWN"),
			Real(&a.p.minRTTWin, "probe_rtt_win", 5, "s", 0.1, 1000, "Linux tcp_bbr2.c bbr_probe_rtt_win_ms",
				"length of the min-RTT filter; ProbeRTT when it expires"),
			Real(&a.p.probeRTTTime, "probe_rtt_time", 0.2, "s", 0, 10, "Linux tcp_bbr2.c bbr_probe_rtt_mode_ms",
				"time at the ProbeRTT window"),
			Real(&a.p2.probeRTTGain, "probe_rtt_cwnd_gain", 0.5, "1", 0, 1, "Linux tcp_bbr2.c bbr_probe_rtt_cwnd_gain",
				"the ProbeRTT window, in BDPs (at least 4 packets)"),
			Real(&a.p.fullBwThresh, "full_bw_thresh", 1.25, "1", 1, 4, "Linux tcp_bbr2.c bbr_full_bw_thresh",
				"Startup ends when BtlBw grows by less than this factor ..."),
			Real(&a.p.fullBwCnt, "full_bw_cnt", 3, "rounds", 1, 100, "Linux tcp_bbr2.c bbr_full_bw_cnt",
				"... in this many rounds"),
			Real(&a.p2.fullLossCnt, "full_loss_cnt", 8, "packets", 0, 15, "Linux tcp_bbr2.c bbr_full_loss_cnt",
				"Startup also ends at a round with this many losses and a loss rate above loss_thresh (0: never)"),
			Real(&a.p2.lossThresh, "loss_thresh", 0.02, "1", 0.001, 0.5, "Linux tcp_bbr2.c bbr_loss_thresh",
				"the loss rate, of a flight, that is too high"),
			Real(&a.p2.beta, "beta", 0.3, "1", 0, 0.9, "Linux tcp_bbr2.c bbr_beta",
				"the cut of bw_lo and inflight_lo per round with loss, and of inflight_hi's floor"),
			Real(&a.p2.headroom, "inflight_headroom", 0.15, "1", 0, 0.9, "Linux tcp_bbr2.c bbr_inflight_headroom",
				"the fraction of inflight_hi left free in CRUISE and ProbeRTT"),
			Real(&a.p2.probeBase, "probe_wait_base", 2, "s", 0.01, 100, "Linux tcp_bbr2.c bbr_bw_probe_base_us",
				"least time from DOWN to the next probe ..."),
			Real(&a.p2.probeRand, "probe_wait_rand", 1, "s", 0, 100, "Linux tcp_bbr2.c bbr_bw_probe_rand_us",
				"... plus a uniform draw up to this"),
			Real(&a.p2.maxRounds, "probe_max_rounds", 63, "rounds", 1, 255, "Linux tcp_bbr2.c bbr_bw_probe_max_rounds",
				"most rounds between probes (fewer when the BDP is smaller: Reno's time between losses)"),
			Real(&a.p.margin, "pacing_margin", 0.01, "1", 0, 0.5, "Linux tcp_bbr2.c bbr_pacing_margin_percent",
				"pace this fraction below gain·bw"),
			Switch(&a.p.tso, "tso_budget", 1, "Linux tcp_bbr2.c bbr_quantization_budget",
				"1: add three TSO bursts (and evenness) to the target cwnd; 0: none"))
		return a
	})
}

// bbr2Params are v2's constants beyond v1's.
type bbr2Params struct {
	probeRTTGain, fullLossCnt, lossThresh, beta, headroom float64
	probeBase, probeRand, maxRounds                       float64
}

// The v2 ProbeBW phases, as cycleIdx (cycleGain gives UP 1.25 and DOWN 0.75, as v1's
// phases 0 and 1).
const (
	bbr2Up     = 0
	bbr2Down   = 1
	bbr2Cruise = 2
	bbr2Refill = 3
)

// What the ACKs arriving say of a bandwidth probe (tcp_bbr2.c bbr_ack_phase).
const (
	bbr2AcksInit = iota
	bbr2AcksRefilling
	bbr2AcksProbeStarting
	bbr2AcksProbeFeedback
	bbr2AcksProbeStopping
)

// bbr2State is v2's state in the shared model; on is false for v1.
type bbr2State struct {
	on bool
	p  bbr2Params

	bwHi                      [2]float64 // packets/s: the max over the previous and the current probe
	bwLo, inflightLo          float64    // short-term bounds, packets/s and packets; +Inf when unset
	inflightHi                float64    // long-term bound, packets; +Inf when unset
	bwLatest, inflightLatest  float64    // the round's largest rate sample and delivered count
	lossInRound               bool
	probeUpRounds             int
	probeUpCnt, probeUpAcks   float64 // packets delivered per inflight_hi increment, and since the last
	probeWait                 float64 // s after DOWN began
	roundsSinceProbe          int
	ackPhase                  int
	probeSamples              bool // the rate samples arriving reflect a probe
	prevProbeTooHigh, stopped bool // the last probe went too high; it stopped at inflight_hi
	restartRound              bool // a phase began that starts a new round
}

// initV2 resets v2's state for a new flow.
func (m *bbrModel) initV2() {
	p := m.v2.p
	m.v2 = bbr2State{on: true, p: p, bwLo: math.Inf(1), inflightLo: math.Inf(1), inflightHi: math.Inf(1),
		probeUpCnt: math.Inf(1)}
}

// probing reports whether the flow probes for bandwidth now: Startup, REFILL and UP.
func (m *bbrModel) probing() bool {
	return m.mode == bbrStartup || (m.mode == bbrProbeBW && (m.cycleIdx == bbr2Refill || m.cycleIdx == bbr2Up))
}

// headroomHi is inflight_hi less its headroom, at least 4 packets; +Inf while unset.
func (m *bbrModel) headroomHi() float64 { return m.headroomOf(m.v2.inflightHi) }

// headroomOf is inflight_hi h less its headroom.
func (m *bbrModel) headroomOf(h float64) float64 {
	if math.IsInf(h, 1) {
		return h
	}
	return max(h-max(math.Floor(h*m.v2.p.headroom), 1), bbrMinCwnd)
}

// cwndCap is the bound on the window: inflight_hi while probing or draining in ProbeBW,
// with headroom in CRUISE and ProbeRTT, and inflight_lo; at least 4 packets.
func (m *bbrModel) cwndCap() float64 { return m.capAt(m.v2.inflightHi) }

// capAt is cwndCap with inflight_hi h.
func (m *bbrModel) capAt(h float64) float64 {
	c := math.Inf(1)
	switch {
	case m.mode == bbrProbeBW && m.cycleIdx != bbr2Cruise:
		c = h
	case m.mode == bbrProbeRTT || m.mode == bbrProbeBW:
		c = m.headroomOf(h)
	}
	return max(min(c, m.v2.inflightLo), bbrMinCwnd)
}

// probeRTTCwnd is ProbeRTT's window: v1's 4 packets, v2's half the BDP (at least 4).
func (m *bbrModel) probeRTTCwnd() float64 {
	if !m.v2.on || m.v2.p.probeRTTGain == 0 {
		return bbrMinCwnd
	}
	return max(bbrMinCwnd, m.bdp(m.bwEst(), m.v2.p.probeRTTGain))
}

// tooHigh reports whether lost packets out of a flight of inflight are a loss rate above
// loss_thresh.
func (m *bbrModel) tooHigh(lost, inflight float64) bool {
	return lost > 0 && inflight > 0 && lost > inflight*m.v2.p.lossThresh
}

// adaptLower cuts the short-term bounds at the end of a round with loss, outside probing.
func (m *bbrModel) adaptLower(cwnd float64) {
	v := &m.v2
	if m.probing() || !v.lossInRound {
		return
	}
	if math.IsInf(v.bwLo, 1) {
		v.bwLo = m.maxBw()
	}
	if math.IsInf(v.inflightLo, 1) {
		v.inflightLo = cwnd
	}
	v.bwLo = max(v.bwLatest, v.bwLo*(1-v.p.beta))
	v.inflightLo = max(v.inflightLatest, v.inflightLo*(1-v.p.beta))
}

// resetSignals starts a phase that adapts the lower bounds afresh.
func (m *bbrModel) resetSignals() {
	m.v2.lossInRound, m.v2.bwLatest, m.v2.inflightLatest = false, 0, 0
}

// resetLower drops the short-term bounds.
func (m *bbrModel) resetLower() { m.v2.bwLo, m.v2.inflightLo = math.Inf(1), math.Inf(1) }

// draw is a uniform number in [0, 1) from the flow's seed.
func (m *bbrModel) draw() float64 {
	m.seed = mixBits(m.seed + 0x9e3779b97f4a7c15)
	return float64(m.seed>>11) / (1 << 53)
}

// startDown begins a ProbeBW cycle: DOWN, and the draw of the time to the next probe.
func (m *bbrModel) startDown(now float64) {
	v := &m.v2
	m.resetSignals()
	v.probeUpCnt = math.Inf(1)
	v.roundsSinceProbe = int(m.draw() * 2) // bbr_bw_probe_rand_rounds
	v.probeWait = v.p.probeBase + m.draw()*v.p.probeRand
	m.cycleStamp = now
	v.ackPhase = bbr2AcksProbeStopping
	v.restartRound = true
	m.cycleIdx = bbr2Down
	m.updateGains()
}

// startCruise moves from DOWN to CRUISE.
func (m *bbrModel) startCruise() {
	m.v2.inflightLo = min(m.v2.inflightLo, m.v2.inflightHi)
	m.cycleIdx = bbr2Cruise
	m.updateGains()
}

// startRefill refills the pipe at the estimated bandwidth for a round before UP.
func (m *bbrModel) startRefill() {
	v := &m.v2
	m.resetLower()
	v.probeUpRounds, v.probeUpAcks, v.stopped = 0, 0, false
	v.ackPhase = bbr2AcksRefilling
	v.restartRound = true
	m.cycleIdx = bbr2Refill
	m.updateGains()
}

// startUp begins probing above the estimated bandwidth.
func (m *bbrModel) startUp(now, cwnd float64) {
	m.v2.ackPhase = bbr2AcksProbeStarting
	m.v2.restartRound = true
	m.cycleStamp = now
	m.cycleIdx = bbr2Up
	m.updateGains()
	m.raiseSlope(cwnd)
}

// raiseSlope doubles the growth of inflight_hi per round in UP.
func (m *bbrModel) raiseSlope(cwnd float64) {
	v := &m.v2
	growth := math.Ldexp(1, v.probeUpRounds)
	v.probeUpRounds = min(v.probeUpRounds+1, 30)
	v.probeUpCnt = max(math.Floor(cwnd/growth), 1)
}

// targetInflight is the BDP, at most the window.
func (m *bbrModel) targetInflight(cwnd float64) float64 {
	return min(m.inflight(m.bwEst(), 1), cwnd)
}

// timeToProbe reports whether the next probe is due: the drawn wait since DOWN began, or
// the rounds a Reno flow of this BDP takes between losses.
func (m *bbrModel) timeToProbe(now, cwnd float64) bool {
	rounds := min(m.v2.p.maxRounds, m.targetInflight(cwnd))
	return now-m.cycleStamp > m.v2.probeWait || float64(m.v2.roundsSinceProbe) >= rounds
}

// timeToCruise reports whether DOWN has drained the flight to its target.
func (m *bbrModel) timeToCruise(inflight float64) bool {
	return inflight <= m.headroomHi() && inflight <= m.inflight(m.maxBw(), 1)
}

// handleTooHigh is the response to a loss rate too high while probing: inflight_hi at the
// flight that lost (no lower than (1 − beta) of the BDP), and DOWN if in UP.
func (m *bbrModel) handleTooHigh(now, txInFlight, cwnd float64) {
	v := &m.v2
	v.prevProbeTooHigh = true
	v.probeSamples = false
	v.inflightHi = max(txInFlight, m.targetInflight(cwnd)*(1-v.p.beta))
	if m.mode == bbrProbeBW && m.cycleIdx == bbr2Up {
		m.startDown(now)
	}
}

// exitProbeRTT returns to ProbeBW's CRUISE, or to Startup before the pipe was full.
func (m *bbrModel) exitProbeRTT(now float64) {
	m.resetLower()
	if !m.fullBwReached {
		m.mode = bbrStartup
		m.updateGains()
		return
	}
	m.mode = bbrProbeBW
	m.startDown(now)
	m.startCruise()
}

// queueTooHighInStartup ends Startup at a loss rate too high, with inflight_hi at the BDP.
func (m *bbrModel) queueTooHighInStartup() {
	m.fullBwReached = true
	m.v2.inflightHi = m.inflight(m.maxBw(), 1)
}
