package model

import (
	"fmt"
	"math"
	"sort"
)

// Slack is how far an engine's counts may stray from exact bookkeeping: Pkts packets and a
// fraction Rel of the count. The packet engine counts whole packets (no slack).
type Slack struct {
	Pkts, Rel float64
	// Inflation: the engine's windows grow with duplicate ACKs (RFC 6582's fast-recovery
	// inflation, the ACKs of go-back-N's duplicates after a timeout), which deliver no new
	// packet, so a window's growth is not held to the deliveries. The packet engine's.
	Inflation bool
}

// CheckInvariants reports the first property a result of scenario sc breaks that every
// engine keeps: every figure finite and not negative, a flow delivering and dropping no
// more than it sent (within slack, for the fluid's located random losses and integration
// error), a loss
// rate of at most 1, a link busy at most all the time, a flow's window within its receiver
// window and growing only while the ACKs of packets delivered reach it (delivered up to a
// return lag before; unless slack.Inflation), and a trace's queues within their buffers. The packet and fluid fuzz targets and tests hold every run to it.
func (r *Result) CheckInvariants(sc *Scenario, slack Slack) error {
	finite := func(what string, v float64) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%s = %v, want a finite number >= 0", what, v)
		}
		return nil
	}
	if r.Flows == nil || r.Links == nil {
		return fmt.Errorf("flows %v, links %v: want lists, empty when there are none", r.Flows, r.Links)
	}
	for _, f := range r.Flows {
		at := fmt.Sprintf("flow %d/%d", f.Flow, f.Subflow)
		for _, q := range []struct {
			name string
			v    float64
		}{{"mean_throughput_bps", f.MeanThroughputBps}, {"mean_cwnd_pkts", f.MeanCwndPkts}, {"sent_pkts", f.SentPkts},
			{"delivered_pkts", f.DeliveredPkts}, {"dropped_pkts", f.DroppedPkts}, {"goodput_bps", f.GoodputBps}, {"active_s", f.ActiveS}} {
			if err := finite(at+" "+q.name, q.v); err != nil {
				return err
			}
		}
		if f.DeliveredPkts+f.DroppedPkts > f.SentPkts*(1+slack.Rel)+slack.Pkts {
			return fmt.Errorf("%s: delivered %v + dropped %v > sent %v", at, f.DeliveredPkts, f.DroppedPkts, f.SentPkts)
		}
		// Every loss event but a timeout answers a packet lost (a timeout may time out a
		// loss already counted, or none).
		if f.SentPkts > 0 && float64(f.LossEvents-f.Timeouts) > f.SentPkts*(1+slack.Rel)+slack.Pkts {
			return fmt.Errorf("%s: %d loss events (%d of them timeouts) for %v packets sent: a loss rate above 1",
				at, f.LossEvents, f.Timeouts, f.SentPkts)
		}
	}
	for _, l := range r.Links {
		if err := finite("link "+l.Link+" mean_queue_pkts", l.MeanQueuePkts); err != nil {
			return err
		}
		if err := finite("link "+l.Link+" dropped_pkts", l.DroppedPkts); err != nil {
			return err
		}
		if !(l.Utilisation >= 0 && l.Utilisation <= 1+1e-9) {
			return fmt.Errorf("link %s: utilisation %v, want 0 to 1", l.Link, l.Utilisation)
		}
	}
	type key struct{ flow, sub int }
	seen := map[key][]Sample{}
	lags := map[key]float64{} // returnLagS, once a subflow
	restorer := make([]bool, len(sc.Flows))
	for i, f := range sc.Flows {
		restorer[i] = slack.Inflation || f.RouteAware || restores(f.Algorithm)
	}
	for _, s := range r.Trace {
		if s.Flow < 0 {
			if li := sc.LinkIndex(s.Link); li >= 0 && s.QueuePkts > sc.Links[li].BufferPkts*(1+1e-6)+1e-6 {
				return fmt.Errorf("t = %g s: link %s queues %v packets, buffer %v", s.TS, s.Link, s.QueuePkts, sc.Links[li].BufferPkts)
			}
			continue
		}
		if s.Flow >= len(sc.Flows) {
			continue
		}
		f := &sc.Flows[s.Flow]
		w0 := max(max(f.InitialCwnd, 1), MinLossWindow) // a loss never leaves less than MinLossWindow
		if rwnd := f.RwndBytes / f.MSSBytes; s.CwndPkts > max(rwnd, w0)*(1+slack.Rel+1e-9)+1e-9 {
			return fmt.Errorf("t = %g s: flow %d's window %v packets is above its receiver window %v", s.TS, s.Flow, s.CwndPkts, rwnd)
		}
		// A window grows only as ACKs of new deliveries arrive (a route-aware sender
		// restores its window when its path returns, and a WindowRestorer its saved one,
		// without one; see restorer). An ACK reaches the sender up to a return lag after
		// its packet is counted delivered, so growth since sample p needs deliveries since
		// a return lag before p. A loss event that moved ssthresh may set the window up to
		// ssthresh + 3 packets, the three duplicate ACKs' inflation (RFC 6582; a simulator's
		// recovery reported, simrecovery.go), above a small window that the reduction's
		// floor left where it was.
		k := key{s.Flow, s.Subflow}
		if past := seen[k]; len(past) > 0 && !restorer[s.Flow] {
			p := past[len(past)-1]
			lag, ok := lags[k]
			if !ok {
				lag = returnLagS(sc, f, s.Subflow)
				lags[k] = lag
			}
			allowed := max(p.CwndPkts, w0)
			if s.Ssthresh != p.Ssthresh {
				allowed = max(allowed, s.Ssthresh+3)
			}
			if s.DeliveredPkts <= deliveredBy(past, p.TS-lag) && s.CwndPkts > allowed+slack.Pkts+1e-9 {
				return fmt.Errorf("t = %g s: flow %d's window grew from %v to %v packets with no packet delivered since %g s", s.TS, s.Flow, p.CwndPkts, s.CwndPkts, p.TS-lag)
			}
		}
		seen[k] = append(seen[k], s)
	}
	return nil
}

// deliveredBy is the delivered count of the last of a subflow's samples at or before t:
// 0 before the first (nothing was delivered before the trace began).
func deliveredBy(past []Sample, t float64) float64 {
	i := sort.Search(len(past), func(i int) bool { return past[i].TS > t })
	if i == 0 {
		return 0
	}
	return past[i-1].DeliveredPkts
}

// returnLagS bounds, in seconds, how long after a packet of flow f's subflow sub is counted
// delivered its ACK can reach the sender: its path's round-trip propagation at the longest
// delays the scenario's events give its links (the fluid counts a packet delivered as it
// leaves its path's last link), plus one packet's transmission on each link, the floor a
// round trip of zero delay takes.
func returnLagS(sc *Scenario, f *Flow, sub int) float64 {
	paths := f.PathNames()
	if sub < 0 || sub >= len(paths) {
		return 0
	}
	p := sc.PathIndex(paths[sub])
	if p < 0 {
		return 0
	}
	lag := 0.0
	for _, li := range sc.PathLinks(p) {
		if li < 0 {
			continue
		}
		l := &sc.Links[li]
		d := l.DelayS
		for _, e := range sc.Events {
			if e.Link == l.Name {
				d = max(d, e.DelayS)
			}
		}
		lag += 2 * d
		if l.CapacityBps > 0 {
			lag += f.MSSBytes * 8 / l.CapacityBps
		}
	}
	return lag
}

// restores reports whether the named algorithm is a WindowRestorer.
func restores(name string) bool {
	a, err := New(name)
	if err != nil {
		return false
	}
	_, ok := a.(WindowRestorer)
	return ok
}
