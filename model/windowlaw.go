package model

// WindowLaw turns a congestion-avoidance rule into both faces of a one-window algorithm:
// slow start, the receiver-window cap, Reno-family loss and timeout jumps and the engines'
// optional hooks come with it. Tahoe, Reno, NewReno, Scalable, HighSpeed, BIC and H-TCP
// are WindowLaws; an algorithm outside this package embeds one the same way:
//
//	type aimd struct {
//		model.Base
//		model.WindowLaw
//		a, b float64
//	}
//
//	x := &aimd{}
//	x.Base = model.NewBase("aimd", "AIMD(a, b)", model.Real(&x.a, "a", 1, …), model.Real(&x.b, "b", 0.5, …))
//	x.WindowLaw = model.WindowLaw{Rule: func() model.WindowRule { return aimdRule{x.a, x.b} }}
type WindowLaw struct {
	// Rule makes the rule of one flow's face with the algorithm's current parameters; a
	// rule may keep per-flow state (W_max, the last loss), so each face gets its own.
	Rule func() WindowRule
	// RestartAfterLoss makes every loss restart slow start from one packet (Tahoe).
	RestartAfterLoss bool
	// Memoryless declares that the rule's PerRTT and Congestion depend on the window and
	// the observation alone (what Congestion records serves only a SlowStartReducer's
	// reduction in slow start): a population's mean window then follows the rule itself
	// (MeanFielder).
	Memoryless bool
}

var _ MeanFielder = WindowLaw{}

// MeanFieldRule hands out the rule of a memoryless window law that keeps its window after
// a loss; ok is false otherwise.
func (l WindowLaw) MeanFieldRule() (WindowRule, bool) {
	if !l.Memoryless || l.RestartAfterLoss || l.Rule == nil {
		return nil, false
	}
	return l.Rule(), true
}

// WindowRule is the congestion-avoidance law of a one-window algorithm. Its increase is
// stated per RTT; the fluid face divides it by the RTT and the event face spreads it over
// the W ACKs of a round (increase/W per packet acknowledged), which is the same law.
type WindowRule interface {
	// Start records the flow's start (the time of its first observation).
	Start(o Observation)
	// PerRTT is the window increase per round trip in congestion avoidance, packets. It
	// must not change the rule (the fluid solver calls it at trial points).
	PerRTT(cwnd float64, o Observation) float64
	// Congestion records a congestion event at window cwnd (the rule's own discrete state:
	// W_max, last-loss time, …) and returns the reduced window in packets, before the
	// MinLossWindow floor. A timeout calls it too and then restarts slow start.
	Congestion(cwnd float64, o Observation) float64
}

// NewFluid is the fluid face: x = [cwnd].
func (l WindowLaw) NewFluid(c FlowConfig) FluidLaw {
	cwnd, w := NewWindow(c)
	r := l.Rule()
	w.ThroughSsthresh = slowStartsThrough(r)
	return &windowFluid{init: w, win: w, cwnd0: cwnd, rule: r, restart: l.RestartAfterLoss}
}

// NewEvent is the event face.
func (l WindowLaw) NewEvent(c FlowConfig) EventLaw {
	cwnd, w := NewWindow(c)
	r := l.Rule()
	w.OnePerAck = slowStartsPerAck(r)
	w.ThroughSsthresh = slowStartsThrough(r)
	return &windowEvent{cwnd: cwnd, win: w, rule: r, restart: l.RestartAfterLoss}
}

// PerAckSlowStarter is implemented by window rules whose implementation slow-starts by one
// packet per ACK (Window.OnePerAck): the event face applies it.
type PerAckSlowStarter interface {
	SlowStartPerAck() bool
}

// slowStartsPerAck reports whether rule r is a PerAckSlowStarter that does.
func slowStartsPerAck(r WindowRule) bool {
	s, ok := r.(PerAckSlowStarter)
	return ok && s.SlowStartPerAck()
}

// ThroughSsthresher is implemented by window rules whose implementation slow-starts while
// cwnd ≤ ssthresh (Window.ThroughSsthresh, Linux 2.6.2x): both faces apply it.
type ThroughSsthresher interface {
	SlowStartThroughSsthresh() bool
}

// slowStartsThrough reports whether rule r is a ThroughSsthresher that does.
func slowStartsThrough(r WindowRule) bool {
	s, ok := r.(ThroughSsthresher)
	return ok && s.SlowStartThroughSsthresh()
}

// TimeoutReducer is implemented by window rules whose implementation sets ssthresh at a
// timeout to the window its loss reduction leaves (Congestion), not to half the window:
// Linux's tcp_enter_loss (ns-2.35 LinuxTcpAgent::enter_loss) and ns-3.37's
// TcpSocketBase::ReTxTimeout both call the module's ssthresh, so HighSpeed keeps
// (1 − b(W))·W, Scalable 7/8 of it.
type TimeoutReducer interface {
	ReducesAtTimeout() bool
}

// SlowStartReducer is implemented by window rules whose reduction depends on whether the
// loss or timeout finds the flow in slow start: Linux's tcp_highspeed.c moves its table row
// (ca->ai) only in congestion avoidance, so hstcp_ssthresh in slow start uses the row of
// the last window congestion avoidance saw (the first row, b = 0.5, before any).
type SlowStartReducer interface {
	// CongestionInSlowStart is Congestion for an event that finds the flow in slow start.
	CongestionInSlowStart(cwnd float64, o Observation) float64
}

// congestion is rule r's reduction from cwnd, in slow start (win.SlowStart) by its
// SlowStartReducer face if it has one.
func congestion(r WindowRule, win *Window, cwnd float64, o Observation) float64 {
	if s, ok := r.(SlowStartReducer); ok && win.SlowStart {
		return s.CongestionInSlowStart(cwnd, o)
	}
	return r.Congestion(cwnd, o)
}

// reducesAtTimeout reports whether rule r is a TimeoutReducer that does.
func reducesAtTimeout(r WindowRule) bool {
	t, ok := r.(TimeoutReducer)
	return ok && t.ReducesAtTimeout()
}

// RecoveryExitAcker is implemented by window rules whose implementation hands the
// cumulative ACK that ends a fast recovery — it covers the loss's whole flight — to the
// law at once, as ns-3.37's TcpSocketBase::ProcessAck does (cwnd = ssthresh, then
// IncreaseWindow with every segment it acknowledges): the window gains a flight's worth
// of per-ACK increase as the recovery ends. The hybrid-recovery form applies it
// (windowFluid's EndRecovery); the packet engine's ACK carries it by itself.
type RecoveryExitAcker interface {
	ExitAck() bool
}

// RecoveryOpener is implemented by window rules whose clock restarts when a recovery ends,
// not at the loss (Linux tcp_htcp.c htcp_state: last_cong = jiffies on the return to
// TCP_CA_Open): the event face calls Reopen at its first ACK after a loss or a timeout,
// the hybrid-recovery form where its recovery ends. The hybrid form has no recovery and
// never calls it.
type RecoveryOpener interface {
	Reopen(o Observation)
}

// RemainderDiscarder is implemented by window rules whose implementation, given an ACK of
// several segments, adds the whole packets they make up and clears the rest of its ACK
// counter (ns-3.37 TcpScalable: m_ackCnt = 0): the event face floors its window after such
// an ACK, and the fluid face's recovery exit (RecoveryExitAcker) loses the counter's
// remainder, half a packet on average.
type RemainderDiscarder interface {
	DiscardsRemainder() bool
}

// discards reports whether rule r is a RemainderDiscarder that discards.
func discards(r WindowRule) bool {
	d, ok := r.(RemainderDiscarder)
	return ok && d.DiscardsRemainder()
}

// windowFluid is the fluid face of a one-window algorithm: x = [cwnd].
type windowFluid struct {
	init, win Window
	cwnd0     float64
	rule      WindowRule
	restart   bool
	flight    float64 // packets in flight at the last loss (the window); 0 after a timeout
}

var (
	_ FluidLaw      = (*windowFluid)(nil)
	_ AckIncrement  = (*windowFluid)(nil)
	_ RecoveryEnder = (*windowFluid)(nil)
	_ EventLaw      = (*windowEvent)(nil)
	_ WindowReducer = (*windowEvent)(nil)
)

func (f *windowFluid) Vars() int { return 1 }

func (f *windowFluid) Init(x []float64, o Observation) {
	f.win, f.flight = f.init, 0
	f.rule.Start(o)
	x[0] = f.cwnd0
}

func (f *windowFluid) Deriv(dx, x []float64, o Observation) {
	rtt := ClockRTT(o)
	var rate float64
	if f.win.SlowStart {
		rate = SlowStartRate(x[0], rtt)
	} else {
		rate = f.rule.PerRTT(x[0], o) / rtt
	}
	dx[0] = f.win.Limit(x[0], rate)
}

// AckIncrement: one packet per ACK in slow start; after it, a rule's increase per RTT is
// spread over the round's W ACKs, PerRTT/W each.
func (f *windowFluid) AckIncrement(x []float64, o Observation) float64 {
	if f.win.SlowStart {
		return 1
	}
	return f.rule.PerRTT(x[0], o) / x[0]
}

func (f *windowFluid) Guard(x []float64, _ Observation) float64 { return f.win.Guard(x[0]) }

func (f *windowFluid) Switch(_ []float64, _ Observation) { f.win.SlowStart = false }

func (f *windowFluid) OnLoss(x []float64, o Observation) {
	f.flight = x[0]
	x[0] = f.win.FluidLoss(congestion(f.rule, &f.win, x[0], o), f.restart)
}

func (f *windowFluid) OnTimeout(x []float64, o Observation) {
	f.flight = 0
	s := congestion(f.rule, &f.win, x[0], o)
	x[0] = f.win.Timeout(x[0])
	if reducesAtTimeout(f.rule) {
		f.win.Ssthresh = max(s, MinLossWindow)
	}
}

// EndRecovery counts the recovery's closing ACK for a RecoveryExitAcker rule.
func (f *windowFluid) EndRecovery(x []float64, o Observation) {
	if ea, ok := f.rule.(RecoveryExitAcker); ok && ea.ExitAck() && f.flight > 0 && x[0] > 0 && !f.win.SlowStart {
		add := caIncrease(f.rule, &f.win, x[0], f.flight, o) - x[0]
		if discards(f.rule) {
			add = max(add-0.5, 0)
		}
		x[0] = f.win.Clamp(x[0] + add)
	}
	f.flight = 0
	if ro, ok := f.rule.(RecoveryOpener); ok {
		ro.Reopen(o)
	}
}

func (f *windowFluid) Ssthresh() float64 { return f.win.Reported() }

// windowEvent is the event face of a one-window algorithm.
type windowEvent struct {
	cwnd    float64
	win     Window
	rule    WindowRule
	restart bool
	started bool
	reopen  bool // a loss or timeout waits for its recovery's end (RecoveryOpener)
}

// begin starts the rule's clock at the first callback: the event face has no Init.
func (e *windowEvent) begin(o Observation) {
	if !e.started {
		e.started = true
		e.rule.Start(o)
	}
}

func (e *windowEvent) Cwnd() float64     { return e.cwnd }
func (e *windowEvent) Ssthresh() float64 { return e.win.Reported() }

func (e *windowEvent) OnAck(acked float64, o Observation) {
	e.begin(o)
	if e.reopen {
		e.reopen = false
		if ro, ok := e.rule.(RecoveryOpener); ok {
			ro.Reopen(o)
		}
	}
	if left := e.win.AckSlowStart(&e.cwnd, acked); left > 0 {
		e.cwnd = caIncrease(e.rule, &e.win, e.cwnd, left, o)
		if left > 1 && discards(e.rule) {
			e.cwnd = wholePackets(e.cwnd)
		}
	}
	e.cwnd = e.win.Clamp(e.cwnd)
}

func (e *windowEvent) OnLoss(o Observation) {
	e.begin(o)
	e.cwnd = e.win.Loss(congestion(e.rule, &e.win, e.cwnd, o), e.restart)
	e.reopen = true
}

// OnLossFrom reduces from the sender's window cwnd when it is below the law's
// (WindowReducer).
func (e *windowEvent) OnLossFrom(cwnd float64, o Observation) {
	e.cwnd = min(e.cwnd, cwnd)
	e.OnLoss(o)
}

func (e *windowEvent) OnTimeout(o Observation) {
	e.begin(o)
	s := congestion(e.rule, &e.win, e.cwnd, o)
	e.cwnd = e.win.Timeout(e.cwnd)
	if reducesAtTimeout(e.rule) {
		e.win.Ssthresh = max(s, MinLossWindow)
	}
	e.reopen = true
}
