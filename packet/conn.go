package packet

import (
	"fmt"
	"math"

	"github.com/tcpfluid/tcpfluid/model"
)

// conn is what the subflows of one scenario flow share: the algorithm's law, the data to
// send, and the observation the law sees. A single-path flow is a conn of one subflow.
// Every subflow is a tcpFlow with its own sequence space, RTT estimator, recovery state,
// timers and receiver; a multi-path law (model.MultipathEventLaw) gives subflow k the
// window CwndOf(k) and hears of subflow k's ACKs, losses and timeouts with
// Observation.Subflow = k and every subflow's RTTs in Observation.Subflows.
type conn struct {
	flow       int32 // the scenario's flow index
	first      int32 // engine index of subflow 0 (the subflows are consecutive)
	n          int   // subflows
	delayedAck bool  // the receiver acknowledges every second in-order packet

	alg   model.Algorithm // with the flow's parameters: a route-aware sender re-creates its law from it
	cfg   model.FlowConfig
	law   model.EventLaw
	multi model.MultipathEventLaw // the same law when n > 1; nil for a single-path flow
	// subObs is the Observation.Subflows slice of a multi-path law, filled in place at
	// every callback (nil for a single-path flow).
	subObs []model.SubflowObservation

	// Data, in packets of MSSBytes: a finite flow's nPkts are handed out in order to
	// whichever subflow sends new data next; the last carries lastPayload bytes.
	nPkts       int64 // math.MaxInt64 for a long-lived flow
	lastPayload float64
	nextData    int64 // data packets handed to subflows so far
}

// newConn checks scenario flow i, builds its law and returns its conn; its subflows are
// engine indices first, first+1, ….
func newConn(s *model.Scenario, i int, first int32) (*conn, error) {
	fl := &s.Flows[i]
	if !(fl.MSSBytes >= 1) || !(fl.RwndBytes >= fl.MSSBytes) || !(fl.InitialCwnd >= 1) || math.IsNaN(fl.SizeBytes) || fl.SizeBytes < 0 || !(fl.HeaderBytes >= 0) || math.IsInf(fl.HeaderBytes, 1) {
		return nil, fmt.Errorf("%w: flow %q: mss %v bytes, rwnd %v bytes, initial cwnd %v packets, size %v bytes, header %v bytes, want mss >= 1, rwnd >= mss, cwnd >= 1, size >= 0, finite header >= 0 (validate the scenario first)",
			ErrScenario, fl.Name, fl.MSSBytes, fl.RwndBytes, fl.InitialCwnd, fl.SizeBytes, fl.HeaderBytes)
	}
	alg, err := model.Configure(fl.Algorithm, fl.Params)
	if err != nil {
		return nil, fmt.Errorf("%w: flow %q: %w", ErrScenario, fl.Name, err)
	}
	c := &conn{flow: int32(i), first: first, n: len(fl.PathNames()), alg: alg, nPkts: math.MaxInt64}
	if fl.SizeBytes > 0 {
		n := math.Ceil(fl.SizeBytes / fl.MSSBytes)
		if n > 1<<53 {
			return nil, fmt.Errorf("%w: flow %q: size %v bytes is more than 2^53 packets", ErrScenario, fl.Name, fl.SizeBytes)
		}
		c.nPkts = int64(n)
		c.lastPayload = fl.SizeBytes - (n-1)*fl.MSSBytes
	}
	c.delayedAck = fl.DelayedAck
	c.cfg = model.FlowConfig{InitialCwnd: fl.InitialCwnd, InitialSsthresh: fl.InitialSsthresh, MaxCwnd: fl.RwndBytes / fl.MSSBytes,
		MSSBytes: fl.MSSBytes, Subflows: c.n, PacketsPerAck: fl.PacketsPerAck(), PathBDP: s.FlowPathBDPs(i)}
	c.law = alg.NewEvent(c.cfg)
	if c.n > 1 {
		m, ok := c.law.(model.MultipathEventLaw)
		if !ok {
			return nil, fmt.Errorf("%w: flow %q: algorithm %q has no multi-path event face (model.MultipathEventLaw) for paths %v",
				ErrScenario, fl.Name, fl.Algorithm, fl.Paths)
		}
		c.multi = m
		c.subObs = make([]model.SubflowObservation, c.n)
	}
	return c, nil
}

// cwndOf is subflow k's window in the law, packets.
func (c *conn) cwndOf(k int) float64 {
	if c.multi != nil {
		return c.multi.CwndOf(k)
	}
	return c.law.Cwnd()
}

// ssthreshOf is subflow k's slow-start threshold in packets.
func (c *conn) ssthreshOf(k int) float64 { return model.SsthreshOf(c.law, k) }

// complete ends a finite transfer once every data packet has been handed to a subflow
// and every subflow has all it sent acknowledged: each subflow's completion time is the
// conn's.
func (c *conn) complete(sm *sim) {
	for k := range c.n {
		if g := &sm.flows[c.first+int32(k)]; g.sndUna < g.maxSent {
			return
		}
	}
	for k := range c.n {
		g := &sm.flows[c.first+int32(k)]
		if g.running {
			g.completion = sm.now - g.startS
			g.finish(sm.now)
		}
	}
}

// pathDown is a route-aware sender learning that a link of its path failed (seed 002: the
// sender knows a route change from congestion). It stops sending, holds its
// retransmission timer (no timeout, no backoff, no call to the law) and remembers the
// law's window.
func (f *tcpFlow) pathDown(sm *sim) {
	if f.outage || !f.running {
		return
	}
	f.outage = true
	f.wBefore = f.conn.cwndOf(f.sub)
	f.rtoAt = math.Inf(1)
	f.timing = false
}

// resume is a route-aware sender learning that its path is whole again. Whatever was in
// flight was lost on the failed link or its ACK was, so it goes back to snd.una (the
// receiver's cumulative ACKs skip what it already holds) and leaves any fast recovery;
// duplicate ACKs of the data outstanding now start no new fast retransmit.
//
// The window: a single-path sender resumes at W = min(W before the outage, ssthresh) with
// its ssthresh unchanged, the proposal's rule. model.EventLaw has no setter, so the law is
// re-created from the flow's algorithm and parameters with InitialCwnd = that W (at least
// model.MinResumeWindow, at most W before) and InitialSsthresh = the law's ssthresh: the whole
// state of the Reno family (cwnd, ssthresh, slow start iff cwnd < ssthresh), which
// seed 002's proposal is built on, so for Tahoe, Reno and NewReno this is exact. Laws with
// more state restart it (CUBIC's W_max and epoch, Vegas's base RTT). A subflow of a
// multi-path flow cannot re-create the law its siblings share: it resumes with the law's
// window for it, untouched since the outage began (its W before).
func (f *tcpFlow) resume(sm *sim) {
	if !f.outage {
		return
	}
	f.outage = false
	if !f.running {
		return
	}
	c := f.conn
	if c.multi == nil {
		w, ss := f.wBefore, c.law.Ssthresh()
		cfg := c.cfg
		if ss > 0 && !math.IsInf(ss, 0) {
			w = min(w, max(ss, model.MinResumeWindow))
			cfg.InitialSsthresh = ss
		}
		cfg.InitialCwnd = w
		f.account(sm.now)
		c.law = c.alg.NewEvent(cfg)
		f.readCwnd(sm)
	}
	f.recover = f.maxSent
	f.inRecovery, f.inflation, f.partialSeen = false, 0, false
	f.dupacks, f.signalled = 0, 0
	f.sndNxt = f.sndUna
	f.timing = false
	if f.sack {
		f.enterLoss()
	}
	f.trySend(sm)
}
