package model

import (
	"math"
)

// BBR v1 (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, ACM Queue 2016;
// draft-cardwell-iccrg-bbr-congestion-control-00; Linux net/ipv4/tcp_bbr.c as of Linux
// 5.10 without its ACK-aggregation allowance and long-term (policer) bandwidth sampling;
// ns-3 TcpBbr). A rate-based sender with a model of the path:
//
//   - BtlBw, the windowed maximum of the delivery-rate samples over the last 10 rounds
//     (packet-timed round trips); RTprop, the minimum RTT over the last 10 s.
//   - Startup paces at 2/ln2·BtlBw with cwnd 2/ln2·BDP until BtlBw has grown by less than
//     25% in 3 rounds; Drain paces at ln2/2·BtlBw until the packets in flight fall to the
//     BDP; ProbeBW cycles the pacing gain through 1.25, 0.75, 1, 1, 1, 1, 1, 1, one RTprop
//     each (the 1.25 phase lasts until the flight reaches 1.25·BDP or a loss, the 0.75 one
//     ends early once the flight is down to the BDP), from a phase other than 0.75;
//     ProbeRTT, when RTprop has not been refreshed for 10 s, caps cwnd at 4 packets for
//     200 ms and a round, then restores it.
//   - The pacing rate is gain·BtlBw·(1 − 1%) and cwnd = cwnd_gain·BtlBw·RTprop (cwnd_gain 2
//     in ProbeBW) plus Linux's quantization budget — three TSO bursts of max(rate·1 ms,
//     2) packets, rounded up to an even number, and 2 more in the 1.25 phase (parameter
//     tso_budget; 0 drops it, for a sender without TSO) — growing towards it by the packets
//     delivered and cut to it at once.
//   - Losses: packet conservation for the first round of a recovery (cwnd = packets in
//     flight + delivered), the cwnd of before the recovery restored when it ends; BBR
//     otherwise ignores loss, which is why v1 keeps its rate under random loss up to
//     about 20% (where Linux's policer detection, not modelled here, would step in). A
//     timeout restarts from one packet and restores the old cwnd once it is repaired.
//
// The ProbeBW starting phase is drawn from {0, 2, …, 7} as Linux draws it, from a hash of
// the flow's start time (the model has no random stream per flow), so a run is a
// deterministic function of its scenario.
//
// Event face (after tcp_bbr.c, bbr_main): every ACK's delivery-rate sample (RateSampler;
// the packet engine measures them as Linux's tcp_rate.c) updates the model, the pacing rate
// (Pacer) and cwnd; OnAck does nothing. The packet engine should run BBR with SACK, as
// Linux does: without it a duplicate ACK names no packet and yields no rate sample.
//
// Fluid face (bbrfluid.go), x = [W, D, S] with W the cwnd, D the packets delivered (dD/dt
// = Observation.DeliveryRate) and S the packets sent, after the structure of the fluid
// model of Scherrer, Legner, Perrig & Schmid (IMC 2022, BBRv1): the flow sends at
// its pacing rate while its flight leaves room in its window, at its full-window rate once
// it fills it — in Startup the rate its ACKs return at, with the window's growth; W/RTT from
// Drain on (FluidPacer, FluidFlight), its derivatives are wall-clock time, and its model
// changes at located events. Delivery-rate samples go into the 10-round max filter at each
// round's end (the packets delivered over the round, which lasts the RTT at its start) and
// when the flight sent up to a gain-cycle phase's end has reached the receiver (the
// packets delivered over the RTT before then: a packet sender's best-aligned samples of a
// probe). RTprop takes the RTT whenever it falls 1% below it, as a packet sender's takes
// any ACK's lower sample, and not only at a round's end. The gain-cycle phases, Drain's end and ProbeRTT are guards on time and on the
// packets in flight (at most W: sent less what left the path a base RTT ago, the engine's
// counts), which fall as the flow slows down even while another flow keeps the queue full. W grows at the delivery rate
// towards its target (in Startup at the rate the ACKs return, the deliveries of a base RTT
// before, so that it doubles each round as a packet sender's does) and is cut to it at
// every round's end; a loss cuts it to the
// packets in flight, and the window of before the recovery comes back where the
// hybrid-recovery form ends the recovery (RecoveryEnder).
func init() {
	Register("bbr", func() Algorithm {
		a := &bbr{}
		a.Base = NewBase("bbr", "BBR v1: paces at the windowed-max delivery rate with a gain cycle, cwnd 2·BDP, ProbeRTT (Linux tcp_bbr.c, draft-cardwell-iccrg-bbr)",
			Real(&a.p.highGain, "high_gain", 2/math.Ln2, "1", 1, 10, "Linux tcp_bbr.c bbr_high_gain = 2885/1000",
				"Startup's pacing and cwnd gain: 2/ln2 doubles the sending rate each round"),
			Real(&a.p.cwndGain, "cwnd_gain", 2, "1", 1, 10, "Linux tcp_bbr.c bbr_cwnd_gain",
				"cwnd in ProbeBW, in BDPs"),
			Real(&a.p.probeGain, "probe_gain", 1.25, "1", 1, 4, "Linux tcp_bbr.c bbr_pacing_gain[0]",
				"pacing gain of the gain cycle's probing phase"),
			Real(&a.p.drainGain, "drain_gain", 0.75, "1", 0.1, 1, "Linux tcp_bbr.c bbr_pacing_gain[1]",
				"pacing gain of the gain cycle's draining phase"),
			Real(&a.p.bwRounds, "bw_rounds", 10, "rounds", 1, 100, "Linux tcp_bbr.c bbr_bw_rtts = CYCLE_LEN + 2",
				"length of the delivery-rate max filter"),
			Real(&a.p.minRTTWin, "min_rtt_win", 10, "s", 0.1, 1000, "Linux tcp_bbr.c bbr_min_rtt_win_sec",
				"length of the RTprop min filter; ProbeRTT when it expires"),
			Real(&a.p.probeRTTTime, "probe_rtt_time", 0.2, "s", 0, 10, "Linux tcp_bbr.c bbr_probe_rtt_mode_ms",
				"time at 4 packets in ProbeRTT"),
			Real(&a.p.fullBwThresh, "full_bw_thresh", 1.25, "1", 1, 4, "Linux tcp_bbr.c bbr_full_bw_thresh",
				"Startup ends when BtlBw grows by less than this factor ..."),
			Real(&a.p.fullBwCnt, "full_bw_cnt", 3, "rounds", 1, 100, "Linux tcp_bbr.c bbr_full_bw_cnt",
				"... in this many rounds"),
			Real(&a.p.margin, "pacing_margin", 0.01, "1", 0, 0.5, "Linux tcp_bbr.c bbr_pacing_margin_percent",
				"pace this fraction below gain·BtlBw"),
			Switch(&a.p.tso, "tso_budget", 1, "Linux tcp_bbr.c bbr_quantization_budget; ns-3 TcpBbr::QuantizationBudget",
				"1: add three TSO bursts (and evenness) to the target cwnd; 0: none"))
		return a
	})
}

// BBR's fixed constants.
const (
	bbrMinCwnd   = 4 // packets: bbr_cwnd_min_target, ProbeRTT's cwnd
	bbrInitCwnd  = 10
	bbrCycleLen  = 8
	bbrMaxRounds = 100
)

type bbrParams struct {
	highGain, cwndGain, probeGain, drainGain float64
	bwRounds, minRTTWin, probeRTTTime        float64
	fullBwThresh, fullBwCnt, margin, tso     float64
}

type bbr struct {
	Base
	p  bbrParams
	v2 bool       // BBR v2 (bbr2.go)
	p2 bbr2Params // v2's constants
}

var _ WindowRestorer = (*bbr)(nil)

// RestoresWindow: BBR returns to its saved cwnd at the end of ProbeRTT and of a recovery.
func (*bbr) RestoresWindow() {}

var (
	_ Algorithm          = (*bbr)(nil)
	_ ResponseReferencer = (*bbr)(nil)
	_ FluidLaw           = (*bbrFluid)(nil)
	_ FluidPacer         = (*bbrFluid)(nil)
	_ FluidFlight        = (*bbrFluid)(nil)
	_ RecoveryEnder      = (*bbrFluid)(nil)
	_ EventLaw           = (*bbrEvent)(nil)
	_ RateSampler        = (*bbrEvent)(nil)
	_ LossSampler        = (*bbrEvent)(nil)
	_ Pacer              = (*bbrEvent)(nil)
)

// ResponseReference: BBR has no loss response function (v1 does not reduce its rate on
// loss up to about 20%, v2 not below its loss threshold of 2%).
func (a *bbr) ResponseReference(LossModel) (ResponseReference, bool) {
	return ResponseReference{}, false
}

func (a *bbr) NewFluid(c FlowConfig) FluidLaw {
	f := &bbrFluid{}
	a.initModel(&f.bbrModel, c)
	f.init0 = f.bbrModel
	return f
}

func (a *bbr) NewEvent(c FlowConfig) EventLaw {
	e := &bbrEvent{}
	a.initModel(&e.bbrModel, c)
	return e
}

// initModel sets up a flow's model, v2's state too for BBR v2.
func (a *bbr) initModel(m *bbrModel, c FlowConfig) {
	m.init(a.p, c)
	if a.v2 {
		m.v2.p = a.p2
		m.initV2()
	}
}

// BBR modes.
const (
	bbrStartup = iota
	bbrDrain
	bbrProbeBW
	bbrProbeRTT
)

// bbrGains is the ProbeBW pacing-gain cycle; index 1 is the draining phase.
func (p *bbrParams) cycleGain(i int) float64 {
	switch i {
	case 0:
		return p.probeGain
	case 1:
		return p.drainGain
	}
	return 1
}

// bbrModel is the path model and mode machine both faces share.
type bbrModel struct {
	p       bbrParams
	maxCwnd float64 // packets; +Inf without a receiver window
	cwnd0   float64

	mode                 int
	bw                   [bbrMaxRounds]float64 // per-round maximum delivery rate, packets/s
	bwRound              [bbrMaxRounds]int     // the round each slot holds
	round                int
	fullBw               float64
	fullBwCnt            int
	fullBwReached        bool
	minRTT, minRTTStamp  float64 // s
	cycleIdx             int
	cycleStamp           float64 // s
	pacingGain, cwndGain float64
	pacingRate           float64 // packets/s; 0 before the first sample
	priorCwnd            float64 // packets
	probeRTTDone         float64 // s; 0 until the flight is down to 4 packets in ProbeRTT
	probeRTTRoundDone    bool
	started              bool
	seed                 uint64    // the ProbeBW phase draws: a hash of the start time
	v2                   bbr2State // BBR v2's bounds and probing state (bbr2.go); off for v1
}

func (m *bbrModel) init(p bbrParams, c FlowConfig) {
	*m = bbrModel{p: p, maxCwnd: math.Inf(1), minRTT: math.Inf(1)}
	if c.MaxCwnd > 0 && !math.IsInf(c.MaxCwnd, 0) {
		m.maxCwnd = c.MaxCwnd
	}
	m.cwnd0 = 1
	if c.InitialCwnd > 0 && !math.IsInf(c.InitialCwnd, 0) {
		m.cwnd0 = min(c.InitialCwnd, m.maxCwnd)
	}
	m.pacingGain, m.cwndGain = p.highGain, p.highGain
}

// start takes the first observation: RTprop from the RTT, and the ProbeBW phase draw.
func (m *bbrModel) start(o Observation) {
	if m.started {
		return
	}
	m.started = true
	m.minRTT, m.minRTTStamp = ClockRTT(o), o.Now
	m.seed = math.Float64bits(o.Now) ^ 0x9e3779b97f4a7c15
}

// maxBw is the windowed maximum delivery rate, packets/s: v1's over bw_rounds rounds,
// v2's over the last one or two bandwidth probes.
func (m *bbrModel) maxBw() float64 {
	if m.v2.on {
		return max(m.v2.bwHi[0], m.v2.bwHi[1])
	}
	b := 0.0
	n := int(m.p.bwRounds)
	for i := 0; i < n; i++ {
		if m.round-m.bwRound[i] < n && m.bw[i] > b {
			b = m.bw[i]
		}
	}
	return b
}

// sampleBw adds a delivery-rate sample (packets/s) of the current round to the filter.
func (m *bbrModel) sampleBw(rate float64) {
	if !(rate > 0) || math.IsInf(rate, 0) {
		return
	}
	if m.v2.on {
		m.v2.bwHi[1] = max(m.v2.bwHi[1], rate)
		return
	}
	i := m.round % int(m.p.bwRounds)
	if m.bwRound[i] != m.round {
		m.bwRound[i], m.bw[i] = m.round, 0
	}
	m.bw[i] = max(m.bw[i], rate)
}

// bdp is gain·BtlBw·RTprop in packets, rounded up; the initial window before any RTT.
func (m *bbrModel) bdp(bw, gain float64) float64 {
	if math.IsInf(m.minRTT, 0) || !(bw > 0) {
		return max(m.cwnd0, bbrInitCwnd)
	}
	return math.Ceil(bw * m.minRTT * gain)
}

// tsoSegs is Linux's bbr_tso_segs_goal at the current pacing rate: a millisecond of it
// (sk_pacing_shift 10), at least 2 packets (1 below 1.2 Mb/s of 1500-byte packets), at
// most 44 packets (64 KB of 1460-byte ones).
func (m *bbrModel) tsoSegs() float64 {
	minSegs := 2.0
	if m.pacingRate*1500*8 < 1.2e6 {
		minSegs = 1
	}
	return min(max(math.Floor(m.pacingRate/1024), minSegs), 44)
}

// inflight is the target flight at a gain: the BDP plus the quantization budget.
func (m *bbrModel) inflight(bw, gain float64) float64 {
	w := m.bdp(bw, gain)
	if m.p.tso == 1 {
		w += 3 * m.tsoSegs()
		w = 2 * math.Ceil(w/2)
	}
	if m.mode == bbrProbeBW && m.cycleIdx == 0 {
		w += 2
	}
	return w
}

// bwEst is the bandwidth BBR paces at and sizes its window for: BtlBw, for v2 at most its
// short-term lower bound bw_lo (tcp_bbr2.c bbr_bw).
func (m *bbrModel) bwEst() float64 {
	if m.v2.on {
		return min(m.maxBw(), m.v2.bwLo)
	}
	return m.maxBw()
}

// targetCwnd is cwnd_gain·BDP with the budget, at least 4 packets.
func (m *bbrModel) targetCwnd() float64 {
	return max(m.inflight(m.bwEst(), m.cwndGain), bbrMinCwnd)
}

// setPacing sets the pacing rate from BtlBw and the gain: never lower in Startup.
func (m *bbrModel) setPacing() {
	rate := m.pacingGain * m.bwEst() * (1 - m.p.margin)
	if m.fullBwReached || rate > m.pacingRate {
		m.pacingRate = rate
	}
}

// initPacing is the pacing rate before any bandwidth sample: high_gain·cwnd/RTT.
func (m *bbrModel) initPacing(cwnd float64, o Observation) {
	if m.pacingRate == 0 {
		m.pacingRate = m.p.highGain * cwnd / ClockRTT(o) * (1 - m.p.margin)
	}
}

// updateGains sets the gains of the mode.
func (m *bbrModel) updateGains() {
	switch m.mode {
	case bbrStartup:
		m.pacingGain, m.cwndGain = m.p.highGain, m.p.highGain
	case bbrDrain:
		m.pacingGain, m.cwndGain = 1/m.p.highGain, m.p.highGain
	case bbrProbeBW:
		m.pacingGain, m.cwndGain = m.p.cycleGain(m.cycleIdx), m.p.cwndGain
	case bbrProbeRTT:
		m.pacingGain, m.cwndGain = 1, 1
	}
}

// enterProbeBW starts the gain cycle at a phase other than the draining one.
func (m *bbrModel) enterProbeBW(now float64) {
	m.mode = bbrProbeBW
	m.seed = mixBits(m.seed + 0x9e3779b97f4a7c15)
	r := int(m.seed % (bbrCycleLen - 1))
	m.cycleIdx = (bbrCycleLen - 1 - r + 1) % bbrCycleLen
	m.cycleStamp = now
	m.updateGains()
}

// mixBits is SplitMix64's finalizer.
func mixBits(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// advanceCycle moves to the next phase of the gain cycle.
func (m *bbrModel) advanceCycle(now float64) {
	m.cycleIdx = (m.cycleIdx + 1) % bbrCycleLen
	m.cycleStamp = now
	m.updateGains()
}

// enterProbeRTT starts ProbeRTT, saving the window cwnd (v2: the probe's feedback ends
// and a round starts).
func (m *bbrModel) enterProbeRTT(cwnd float64, inRecovery bool) {
	m.mode = bbrProbeRTT
	m.updateGains()
	m.saveCwnd(cwnd, inRecovery)
	if m.v2.on {
		m.v2.ackPhase, m.v2.restartRound = bbr2AcksProbeStopping, true
	}
}

// leaveProbeRTT ends ProbeRTT: v1 to Startup or a ProbeBW phase, v2 to CRUISE.
func (m *bbrModel) leaveProbeRTT(now float64) {
	if m.v2.on {
		m.exitProbeRTT(now)
		return
	}
	m.resetMode(now)
}

// leaveDrain starts ProbeBW: v1 at a drawn phase, v2 in DOWN.
func (m *bbrModel) leaveDrain(now float64) {
	if m.v2.on {
		m.mode = bbrProbeBW
		m.startDown(now)
		return
	}
	m.enterProbeBW(now)
}

// resetMode leaves ProbeRTT for Startup or ProbeBW.
func (m *bbrModel) resetMode(now float64) {
	if !m.fullBwReached {
		m.mode = bbrStartup
		m.updateGains()
		return
	}
	m.enterProbeBW(now)
}

// checkFullBw counts a round without 25% growth of BtlBw (at a round's start).
func (m *bbrModel) checkFullBw() {
	if m.fullBwReached {
		return
	}
	if b := m.maxBw(); b >= m.fullBw*m.p.fullBwThresh {
		m.fullBw, m.fullBwCnt = b, 0
		return
	}
	m.fullBwCnt++
	m.fullBwReached = m.fullBwCnt >= int(m.p.fullBwCnt)
}

// minRTTExpired reports whether RTprop has not been refreshed for the filter's length.
func (m *bbrModel) minRTTExpired(now float64) bool { return now > m.minRTTStamp+m.p.minRTTWin }

// saveCwnd remembers the cwnd to restore after a recovery or ProbeRTT.
func (m *bbrModel) saveCwnd(cwnd float64, inRecovery bool) {
	if !inRecovery && m.mode != bbrProbeRTT {
		m.priorCwnd = cwnd
	} else {
		m.priorCwnd = max(m.priorCwnd, cwnd)
	}
}

// bbrEvent is BBR's event face.
type bbrEvent struct {
	bbrModel
	cwnd             float64
	nextRTTDelivered float64
	conservation     bool
	prevRecovery     bool
	timedOut         bool
	ev2              bbr2Event
}

func (e *bbrEvent) Cwnd() float64 {
	if e.cwnd == 0 {
		return e.cwnd0
	}
	return e.cwnd
}

// Ssthresh: BBR has none.
func (e *bbrEvent) Ssthresh() float64 { return 0 }

// PacingRate is the current pacing rate, packets/s (0 before the first ACK: unpaced).
func (e *bbrEvent) PacingRate() float64 { return e.pacingRate }

// SamplesLoss: v2 reads the losses in its rate samples; v1 does not.
func (e *bbrEvent) SamplesLoss() bool { return e.v2.on }

// OnAck does nothing: BBR's model moves on rate samples (OnRateSample).
func (e *bbrEvent) OnAck(float64, Observation) {
	if e.cwnd == 0 {
		e.cwnd = e.cwnd0
	}
}

// OnLoss notes the cwnd before the recovery; packet conservation follows in the rate
// samples of the recovery (Linux bbr_ssthresh, then bbr_set_cwnd_to_recover_or_restore).
func (e *bbrEvent) OnLoss(Observation) {
	e.saveCwnd(e.Cwnd(), e.prevRecovery)
}

// OnTimeout restarts from one packet (Linux tcp_enter_loss) and treats the timeout as the
// end of a round (bbr_set_state).
func (e *bbrEvent) OnTimeout(o Observation) {
	if e.v2.on {
		e.onTimeoutV2()
		return
	}
	e.saveCwnd(e.Cwnd(), e.prevRecovery)
	e.cwnd = 1
	e.fullBw = 0
	e.prevRecovery, e.timedOut = true, true
	e.round++
}

// OnRateSample is Linux's bbr_main: the model, then the pacing rate and cwnd.
func (e *bbrEvent) OnRateSample(rs RateSample, o Observation) {
	if e.cwnd == 0 {
		e.cwnd = e.cwnd0
	}
	e.start(o)
	e.initPacing(e.cwnd, o)
	if e.v2.on {
		e.onRateSampleV2(rs, o)
		return
	}
	now := o.Now
	// bbr_update_bw: packet-timed rounds and the max filter.
	roundStart := false
	if rs.Valid() {
		if rs.PriorDelivered >= e.nextRTTDelivered {
			e.nextRTTDelivered = rs.DeliveredTotal
			e.round++
			roundStart = true
			e.conservation = false
		}
		if !rs.AppLimited || rs.Rate() >= e.maxBw() {
			e.sampleBw(rs.Rate())
		}
	}
	// bbr_update_cycle_phase
	if e.mode == bbrProbeBW && e.nextPhase(rs, now) {
		e.advanceCycle(now)
	}
	// bbr_check_full_bw_reached, bbr_check_drain
	if roundStart && !rs.AppLimited {
		e.checkFullBw()
	}
	if e.mode == bbrStartup && e.fullBwReached {
		e.mode = bbrDrain
		e.updateGains()
	}
	if e.mode == bbrDrain && rs.InFlight <= e.inflight(e.maxBw(), 1) {
		e.enterProbeBW(now)
	}
	e.updateMinRTT(rs, o, roundStart)
	e.updateGains()
	e.setPacing()
	e.setCwnd(rs)
}

// updateMinRTT is bbr_update_min_rtt: RTprop's filter, and ProbeRTT at its window (v1: 4
// packets, v2: half the BDP) for 200 ms and a round. v2 refreshes the filter's stamp at an
// RTT equal to RTprop too.
func (e *bbrEvent) updateMinRTT(rs RateSample, o Observation, roundStart bool) {
	now := o.Now
	expired := e.minRTTExpired(now)
	if rtt := o.RTT; rtt > 0 && (rtt < e.minRTT || (e.v2.on && rtt == e.minRTT) || expired) {
		e.minRTT, e.minRTTStamp = rtt, now
	}
	if e.p.probeRTTTime > 0 && expired && e.mode != bbrProbeRTT {
		e.enterProbeRTT(e.cwnd, e.prevRecovery)
		e.probeRTTDone = 0
	}
	if e.mode != bbrProbeRTT {
		return
	}
	switch {
	case e.probeRTTDone == 0 && rs.InFlight <= e.probeRTTCwnd():
		e.probeRTTDone = now + e.p.probeRTTTime
		e.probeRTTRoundDone = false
		e.nextRTTDelivered = rs.DeliveredTotal
	case e.probeRTTDone != 0:
		if roundStart {
			e.probeRTTRoundDone = true
		}
		if e.probeRTTRoundDone && now > e.probeRTTDone {
			e.minRTTStamp = now
			e.cwnd = max(e.cwnd, e.priorCwnd)
			e.leaveProbeRTT(now)
		}
	}
}

// nextPhase is bbr_is_next_cycle_phase.
func (e *bbrEvent) nextPhase(rs RateSample, now float64) bool {
	full := now-e.cycleStamp > e.minRTT
	switch {
	case e.pacingGain == 1:
		return full
	case e.pacingGain > 1:
		return full && (rs.Losses > 0 || rs.PriorInFlight >= e.inflight(e.maxBw(), e.pacingGain))
	}
	return full || rs.PriorInFlight <= e.inflight(e.maxBw(), 1)
}

// setCwnd is bbr_set_cwnd with bbr_set_cwnd_to_recover_or_restore.
func (e *bbrEvent) setCwnd(rs RateSample) {
	acked := rs.AckedSacked
	cwnd := e.cwnd
	if acked > 0 {
		if rs.Losses > 0 {
			cwnd = max(cwnd-rs.Losses, 1)
		}
		switch {
		case rs.InRecovery && !e.prevRecovery:
			e.conservation = true
			e.nextRTTDelivered = rs.DeliveredTotal
			cwnd = rs.InFlight + acked
		case e.prevRecovery && !rs.InRecovery:
			cwnd = max(cwnd, e.priorCwnd)
			e.conservation, e.timedOut = false, false
		}
		e.prevRecovery = rs.InRecovery
		if e.conservation {
			cwnd = max(cwnd, rs.InFlight+acked)
		} else {
			target := e.targetCwnd()
			if e.fullBwReached {
				cwnd = min(cwnd+acked, target)
			} else if cwnd < target || rs.DeliveredTotal < bbrInitCwnd {
				cwnd += acked
			}
			cwnd = max(cwnd, bbrMinCwnd)
		}
	}
	cwnd = min(cwnd, e.maxCwnd)
	if e.mode == bbrProbeRTT {
		cwnd = min(cwnd, bbrMinCwnd)
	}
	e.cwnd = max(cwnd, 1)
}
