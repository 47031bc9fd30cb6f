package model

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"sort"
	"strconv"
	"strings"
)

// ErrScenario is returned (wrapped) for a scenario that is malformed or out of range. The
// message names the field path (links[1].capacity), its value and the allowed range.
var ErrScenario = errors.New("invalid scenario")

// Scenario defaults resolved by Validate.
const (
	DefaultMSSBytes        = 1460.0   // bytes, the Ethernet-sized segment
	DefaultRwndBytes       = 65535.0  // bytes, the largest window without scaling (RFC 7323 §2)
	DefaultScaledRwndBytes = 1 << 30  // bytes, 2^30: about the largest window with scaling, 65535·2^14 (RFC 7323 §2.3)
	DefaultInitialCwnd     = 1.0      // packets, ns-2's windowInit_
	DefaultCBRPacketBytes  = 1000.0   // bytes, seed 003's CBR packet_size_
	maxUnscaledRwndBytes   = 65535.0  // bytes, a 16-bit window field
	maxScaledRwndBytes     = 1 << 30  // bytes
	bdpRoundingSlack       = 1e-9     // relative; keeps 50.00000000000001 packets from rounding to 51
	defaultREDMinThPkts    = 5.0      // ns-2 Queue/RED thresh_
	defaultREDMaxThPkts    = 15.0     // ns-2 Queue/RED maxthresh_
	defaultREDMaxP         = 1.0 / 10 // ns-2 Queue/RED linterm_ = 10 ⇒ max_p = 1/linterm_
	defaultREDWeight       = 0.002    // ns-2 Queue/RED q_weight_
	defaultDropRule        = DropSynchronized
)

// FieldError is a validation error about one field of a scenario. Field is its path in the
// scenario file's key names, e.g. "links[1].capacity".
type FieldError struct {
	Field string
	Line  int    // line in the scenario file, 0 when unknown
	Msg   string // value and allowed range, e.g. "-5 bit/s, want > 0"
	Err   error  // an underlying cause such as ErrUnknownAlgorithm or ErrParam, or nil
}

func (e *FieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%v: line %d: %s = %s", ErrScenario, e.Line, e.Field, e.Msg)
	}
	return fmt.Sprintf("%v: %s = %s", ErrScenario, e.Field, e.Msg)
}

// Unwrap lets errors.Is find ErrScenario and the underlying cause.
func (e *FieldError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrScenario, e.Err}
	}
	return []error{ErrScenario}
}

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Validate checks every field and resolves defaults in place: names ("l0", "p0", "f0",
// "c0"), the drop rule (synchronized), queue (drop-tail), RED thresholds (ns-2 defaults),
// loss model (none), MSS (1460 bytes), receiver window (65535 bytes, or 2^30 with window
// scaling), initial window (1 packet), CBR packet size (1000 bytes); it resolves BufferBDP
// to BufferPkts and sorts events by time (stably). It is idempotent. Errors wrap
// ErrScenario and are *FieldError values naming the field, its value and the allowed range.
func (s *Scenario) Validate() error {
	if !finite(s.DurationS) || s.DurationS <= 0 {
		return fieldErr("duration", "%v s, want > 0", s.DurationS)
	}
	if !finite(s.SendJitterS) || s.SendJitterS < 0 {
		return fieldErr("send_jitter", "%v s, want >= 0 (0: no jitter)", s.SendJitterS)
	}
	if s.LostRetransmit && !s.SACK {
		return fieldErr("lost_retransmit", "true without sack, want sack: true (a lost retransmission shows in the SACKs)")
	}
	switch s.DropRule {
	case "":
		s.DropRule = defaultDropRule
	case DropSynchronized, DropProportional, DropRandom:
	default:
		return fieldErr("drop_rule", "%q, want %q, %q or %q", s.DropRule, DropSynchronized, DropProportional, DropRandom)
	}
	if len(s.Links) == 0 {
		return fieldErr("links", "none, want at least one link")
	}
	if len(s.Paths) == 0 {
		return fieldErr("paths", "none, want at least one path")
	}
	s.index = nil
	ix := &nameIndex{links: make(map[string]int, len(s.Links)), paths: make(map[string]int, len(s.Paths))}
	for i := range s.Links {
		if err := s.validateLink(i, ix.links); err != nil {
			return err
		}
	}
	s.index = ix // the links are indexed; validatePath indexes each path it checks
	for i := range s.Paths {
		if err := s.validatePath(i, ix.paths); err != nil {
			return err
		}
	}
	traffic := make(map[string]string, len(s.Flows)+len(s.CBR)) // flow and CBR names share one namespace in results
	var last Algorithm                                          // the previous flow's configuration
	for i := range s.Flows {
		if err := s.validateFlow(i, traffic, &last); err != nil {
			return err
		}
	}
	for i := range s.CBR {
		if err := s.validateCBR(i, traffic); err != nil {
			return err
		}
	}
	for i := range s.Events {
		if err := s.validateEvent(i); err != nil {
			return err
		}
	}
	sort.SliceStable(s.Events, func(a, b int) bool { return s.Events[a].AtS < s.Events[b].AtS })
	return s.resolveBuffers()
}

func (s *Scenario) validateLink(i int, seen map[string]int) error {
	l := &s.Links[i]
	at := fmt.Sprintf("links[%d]", i)
	if l.Name == "" {
		l.Name = fmt.Sprintf("l%d", i)
	}
	if j, dup := seen[l.Name]; dup {
		return fieldErr(at+".name", "%q, want a name unique among links (links[%d] has it)", l.Name, j)
	}
	seen[l.Name] = i
	if !finite(l.CapacityBps) || l.CapacityBps <= 0 {
		return fieldErr(at+".capacity", "%v bit/s, want > 0", l.CapacityBps)
	}
	if !finite(l.DelayS) || l.DelayS < 0 {
		return fieldErr(at+".delay", "%v s, want >= 0", l.DelayS)
	}
	if !finite(l.BufferBDP) || l.BufferBDP < 0 {
		return fieldErr(at+".buffer", "%v bdp, want > 0", l.BufferBDP)
	}
	if l.BufferBDP == 0 && (!finite(l.BufferPkts) || l.BufferPkts <= 0) {
		return fieldErr(at+".buffer", "%v packets, want > 0 packets or > 0 bdp", l.BufferPkts)
	}
	switch l.Queue {
	case "":
		l.Queue = QueueDropTail
	case QueueDropTail:
	case QueueRED:
	case QueueCoDel, QueueFQCoDel, QueuePIE:
	default:
		return fieldErr(at+".queue", "%s", queueKinds(l.Queue))
	}
	if l.Queue == QueueRED {
		if err := l.RED.resolve(at + ".red"); err != nil {
			return err
		}
	} else if l.RED != (RED{}) {
		return fieldErr(at+".red", "%+v, want unset unless queue is %q", l.RED, QueueRED)
	}
	if err := l.resolveAQM(at); err != nil {
		return err
	}
	switch l.Loss {
	case "":
		l.Loss = LossNone
		fallthrough
	case LossNone:
		if l.LossP != 0 {
			return fieldErr(at+".loss.p", "%v with loss model %q, want 0 (or model %q or %q)", l.LossP, LossNone, LossRandom, LossPeriodic)
		}
	case LossRandom, LossPeriodic:
		if !finite(l.LossP) || l.LossP <= 0 || l.LossP >= 1 {
			return fieldErr(at+".loss.p", "%v, want 0 < p < 1", l.LossP)
		}
	default:
		return fieldErr(at+".loss.model", "%q, want %q, %q or %q", l.Loss, LossNone, LossRandom, LossPeriodic)
	}
	return nil
}

// resolve fills ns-2's RED defaults for zero fields and checks the ranges.
func (r *RED) resolve(at string) error {
	if r.MinThPkts == 0 {
		r.MinThPkts = defaultREDMinThPkts
	}
	if r.MaxThPkts == 0 {
		r.MaxThPkts = defaultREDMaxThPkts
	}
	if r.MaxP == 0 {
		r.MaxP = defaultREDMaxP
	}
	if r.Weight == 0 {
		r.Weight = defaultREDWeight
	}
	switch {
	case !finite(r.MinThPkts) || r.MinThPkts < 0:
		return fieldErr(at+".min_thresh", "%v packets, want >= 0", r.MinThPkts)
	case !finite(r.MaxThPkts) || r.MaxThPkts <= r.MinThPkts:
		return fieldErr(at+".max_thresh", "%v packets, want > min_thresh (%v packets)", r.MaxThPkts, r.MinThPkts)
	case !finite(r.MaxP) || r.MaxP <= 0 || r.MaxP > 1:
		return fieldErr(at+".max_p", "%v, want 0 < max_p <= 1", r.MaxP)
	case !finite(r.Weight) || r.Weight <= 0 || r.Weight > 1:
		return fieldErr(at+".q_weight", "%v, want 0 < q_weight <= 1", r.Weight)
	}
	return nil
}

func (s *Scenario) validatePath(i int, seen map[string]int) error {
	p := &s.Paths[i]
	at := fmt.Sprintf("paths[%d]", i)
	if p.Name == "" {
		p.Name = fmt.Sprintf("p%d", i)
	}
	if j, dup := seen[p.Name]; dup {
		return fieldErr(at+".name", "%q, want a name unique among paths (paths[%d] has it)", p.Name, j)
	}
	seen[p.Name] = i
	if len(p.Links) == 0 {
		return fieldErr(at+".links", "empty, want at least one link")
	}
	for j, name := range p.Links {
		if s.LinkIndex(name) < 0 {
			return fieldErr(fmt.Sprintf("%s.links[%d]", at, j), "%q, want one of the links %v", name, s.linkNames())
		}
		for k := range j {
			if p.Links[k] == name {
				return fieldErr(fmt.Sprintf("%s.links[%d]", at, j), "%q again, want each link at most once on a path", name)
			}
		}
	}
	if rtt := s.PathRTTS(i); rtt <= 0 {
		return fieldErr(at+".links", "%v with a round-trip propagation delay of %v s, want > 0 s (some link delay > 0)", p.Links, rtt)
	}
	return nil
}

// checkSpan checks a start and stop time pair against the scenario duration.
func (s *Scenario) checkSpan(at string, start, stop float64) error {
	if !finite(start) || start < 0 || start >= s.DurationS {
		return fieldErr(at+".start", "%v s, want 0 <= start < duration (%v s)", start, s.DurationS)
	}
	if !finite(stop) || (stop != 0 && (stop <= start || stop > s.DurationS)) {
		return fieldErr(at+".stop", "%v s, want 0 (the end) or start (%v s) < stop <= duration (%v s)", stop, start, s.DurationS)
	}
	return nil
}

func uniqueTraffic(names map[string]string, name, at string) error {
	if prev, dup := names[name]; dup {
		return fieldErr(at+".name", "%q, want a name unique among flows and cbr (%s has it)", name, prev)
	}
	names[name] = at
	return nil
}

func (s *Scenario) validateFlow(i int, names map[string]string, last *Algorithm) error {
	f := &s.Flows[i]
	at := "flows[" + strconv.Itoa(i) + "]"
	if f.Name == "" {
		f.Name = "f" + strconv.Itoa(i)
	}
	if err := uniqueTraffic(names, f.Name, at); err != nil {
		return err
	}
	// A scenario's count expands into runs of flows alike: one configuration checks a run.
	var alg Algorithm
	var err error
	if prev := i - 1; prev >= 0 && s.Flows[prev].Algorithm == f.Algorithm && maps.Equal(s.Flows[prev].Params, f.Params) {
		alg = *last
	} else {
		alg, err = Configure(f.Algorithm, f.Params)
		*last = alg
	}
	var pe *ParamError
	switch {
	case errors.As(err, &pe) && pe.Param != "":
		return &FieldError{Field: at + ".params." + pe.Param, Msg: fmt.Sprintf("%v: %v", f.Params[pe.Param], err), Err: err}
	case errors.As(err, &pe):
		return &FieldError{Field: at + ".params", Msg: err.Error(), Err: err}
	case err != nil:
		return &FieldError{Field: at + ".algorithm", Msg: fmt.Sprintf("%q, want one of %v", f.Algorithm, Algorithms()), Err: err}
	}
	if len(f.Paths) > 0 {
		if f.Path != "" {
			return fieldErr(at+".path", "%q together with paths %v, want one of them", f.Path, f.Paths)
		}
		if len(f.Paths) > 1 && !IsMultipath(alg) {
			return fieldErr(at+".paths", "%v for algorithm %q, want a multi-path algorithm (%s) or one path", f.Paths, f.Algorithm,
				strings.Join(MultipathAlgorithms(), ", "))
		}
		for k, name := range f.Paths {
			if s.PathIndex(name) < 0 {
				return fieldErr(fmt.Sprintf("%s.paths[%d]", at, k), "%q, want one of the paths %v", name, s.pathNames())
			}
		}
	} else if s.PathIndex(f.Path) < 0 {
		return fieldErr(at+".path", "%q, want one of the paths %v", f.Path, s.pathNames())
	}
	if err := s.checkSpan(at, f.StartS, f.StopS); err != nil {
		return err
	}
	if !finite(f.SizeBytes) || f.SizeBytes < 0 {
		return fieldErr(at+".size", "%v bytes, want >= 0 (0: long-lived)", f.SizeBytes)
	}
	if f.MSSBytes == 0 {
		f.MSSBytes = DefaultMSSBytes
	}
	if !finite(f.MSSBytes) || f.MSSBytes < 1 {
		return fieldErr(at+".mss", "%v bytes, want >= 1", f.MSSBytes)
	}
	if !finite(f.HeaderBytes) || f.HeaderBytes < 0 {
		return fieldErr(at+".header_bytes", "%v bytes, want >= 0 (0: no header on the wire)", f.HeaderBytes)
	}
	if f.RwndBytes == 0 {
		f.RwndBytes = DefaultRwndBytes
		if f.WindowScaling {
			f.RwndBytes = DefaultScaledRwndBytes
		}
	}
	maxRwnd, how := maxUnscaledRwndBytes, "without window_scaling"
	if f.WindowScaling {
		maxRwnd, how = maxScaledRwndBytes, "with window_scaling"
	}
	if !finite(f.RwndBytes) || f.RwndBytes < f.MSSBytes || f.RwndBytes > maxRwnd {
		return fieldErr(at+".rwnd", "%v bytes, want mss (%v bytes) <= rwnd <= %v bytes %s", f.RwndBytes, f.MSSBytes, maxRwnd, how)
	}
	if f.InitialCwnd == 0 {
		f.InitialCwnd = DefaultInitialCwnd
	}
	if !finite(f.InitialCwnd) || f.InitialCwnd < 1 {
		return fieldErr(at+".initial_cwnd", "%v packets, want >= 1", f.InitialCwnd)
	}
	if !finite(f.InitialSsthresh) || f.InitialSsthresh < 0 {
		return fieldErr(at+".initial_ssthresh", "%v packets, want >= 0 (0: the receiver window)", f.InitialSsthresh)
	}
	return nil
}

func (s *Scenario) validateCBR(i int, names map[string]string) error {
	c := &s.CBR[i]
	at := fmt.Sprintf("cbr[%d]", i)
	if c.Name == "" {
		c.Name = fmt.Sprintf("c%d", i)
	}
	if err := uniqueTraffic(names, c.Name, at); err != nil {
		return err
	}
	if s.PathIndex(c.Path) < 0 {
		return fieldErr(at+".path", "%q, want one of the paths %v", c.Path, s.pathNames())
	}
	if !finite(c.RateBps) || c.RateBps <= 0 {
		return fieldErr(at+".rate", "%v bit/s, want > 0", c.RateBps)
	}
	if c.PacketBytes == 0 {
		c.PacketBytes = DefaultCBRPacketBytes
	}
	if !finite(c.PacketBytes) || c.PacketBytes < 1 {
		return fieldErr(at+".packet_size", "%v bytes, want >= 1", c.PacketBytes)
	}
	return s.checkSpan(at, c.StartS, c.StopS)
}

func (s *Scenario) validateEvent(i int) error {
	e := &s.Events[i]
	at := fmt.Sprintf("events[%d]", i)
	if !finite(e.AtS) || e.AtS < 0 || e.AtS > s.DurationS {
		return fieldErr(at+".at", "%v s, want 0 <= at <= duration (%v s)", e.AtS, s.DurationS)
	}
	switch e.Kind {
	case EventLinkDown, EventLinkUp, EventDelayChange:
	default:
		return fieldErr(at+".kind", "%q, want %q, %q or %q", e.Kind, EventLinkDown, EventLinkUp, EventDelayChange)
	}
	if s.LinkIndex(e.Link) < 0 {
		return fieldErr(at+".link", "%q, want one of the links %v", e.Link, s.linkNames())
	}
	if !finite(e.DelayS) || e.DelayS < 0 {
		return fieldErr(at+".delay", "%v s, want >= 0", e.DelayS)
	}
	return nil
}

// resolveBuffers turns BufferBDP into BufferPkts: BufferBDP × capacity × RTT / (8 × MSS),
// rounded up, where RTT is the longest round-trip propagation delay of the paths crossing
// the link and MSS the largest of the TCP flows on those paths (DefaultMSSBytes if none).
func (s *Scenario) resolveBuffers() error {
	// Each link's slowest path and largest MSS, in one pass over paths and one over flows.
	pathMSS := make([]float64, len(s.Paths))
	for _, f := range s.Flows {
		for _, name := range f.PathNames() {
			if p := s.PathIndex(name); p >= 0 {
				pathMSS[p] = max(pathMSS[p], f.MSSBytes)
			}
		}
	}
	linkRTT, linkMSS := make([]float64, len(s.Links)), make([]float64, len(s.Links))
	for p := range s.Paths {
		rtt := s.PathRTTS(p)
		for _, li := range s.PathLinks(p) {
			linkRTT[li], linkMSS[li] = max(linkRTT[li], rtt), max(linkMSS[li], pathMSS[p])
		}
	}
	for i := range s.Links {
		l := &s.Links[i]
		if l.BufferBDP == 0 {
			continue
		}
		rtt, mss := linkRTT[i], linkMSS[i]
		if rtt == 0 {
			return fieldErr(fmt.Sprintf("links[%d].buffer", i), "%v bdp on a link no path crosses, want a buffer in packets", l.BufferBDP)
		}
		if mss == 0 {
			mss = DefaultMSSBytes
		}
		pkts := l.BufferBDP * l.CapacityBps * rtt / (8 * mss)
		l.BufferPkts = max(1, math.Ceil(pkts*(1-bdpRoundingSlack)))
	}
	return nil
}

func (s *Scenario) linkNames() []string {
	names := make([]string, len(s.Links))
	for i, l := range s.Links {
		names[i] = l.Name
	}
	return names
}

func (s *Scenario) pathNames() []string {
	names := make([]string, len(s.Paths))
	for i, p := range s.Paths {
		names[i] = p.Name
	}
	return names
}

// nameIndex maps link and path names to their indices, as Validate found them. Validate
// replaces it and nothing changes it after, so concurrent readers are safe; a lookup checks
// the entry it finds, and a scenario changed since falls back to a scan.
type nameIndex struct{ links, paths map[string]int }

// LinkIndex returns the index of the named link in s.Links, or -1: a map lookup after
// Validate, a scan before.
func (s *Scenario) LinkIndex(name string) int {
	if s.index != nil {
		if i, ok := s.index.links[name]; ok && i < len(s.Links) && s.Links[i].Name == name {
			return i
		}
	}
	for i, l := range s.Links {
		if l.Name == name {
			return i
		}
	}
	return -1
}

// PathIndex returns the index of the named path in s.Paths, or -1: a map lookup after
// Validate, a scan before.
func (s *Scenario) PathIndex(name string) int {
	if s.index != nil {
		if i, ok := s.index.paths[name]; ok && i < len(s.Paths) && s.Paths[i].Name == name {
			return i
		}
	}
	for i, p := range s.Paths {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// PathLinks returns the indices in s.Links of path p's links, in order from the sender.
// The scenario must be validated (every name resolves).
func (s *Scenario) PathLinks(p int) []int {
	idx := make([]int, len(s.Paths[p].Links))
	for j, name := range s.Paths[p].Links {
		idx[j] = s.LinkIndex(name)
	}
	return idx
}

// PathRTTS is path p's round-trip propagation delay in seconds: twice the sum of its links'
// one-way delays, since the ACKs return over the same delays. Unknown links count as 0.
func (s *Scenario) PathRTTS(p int) float64 {
	sum := 0.0
	for _, name := range s.Paths[p].Links {
		if i := s.LinkIndex(name); i >= 0 {
			sum += s.Links[i].DelayS
		}
	}
	return 2 * sum
}

// FlowRwndPkts is flow i's receiver window in packets, RwndBytes / MSSBytes, not rounded:
// the fluid window cap (65535/1460 = 44.9 packets).
func (s *Scenario) FlowRwndPkts(i int) float64 {
	return s.Flows[i].RwndBytes / s.Flows[i].MSSBytes
}

// FlowPathBDPs is each of flow i's paths' bandwidth-delay product in packets of its MSS:
// the narrowest link's capacity times the round-trip propagation delay, what a sender
// learns at connection setup (interface rate, handshake RTT). Unknown paths and links
// count as 0.
func (s *Scenario) FlowPathBDPs(i int) []float64 {
	names := s.Flows[i].PathNames()
	bdp := make([]float64, len(names))
	for k, name := range names {
		p := s.PathIndex(name)
		if p < 0 || len(s.Paths[p].Links) == 0 {
			continue
		}
		capacity := math.Inf(1)
		for _, l := range s.PathLinks(p) {
			if l < 0 {
				capacity = 0
				break
			}
			capacity = min(capacity, s.CapacityPktsPerS(l, s.Flows[i].MSSBytes))
		}
		bdp[k] = capacity * s.PathRTTS(p)
	}
	return bdp
}

// CapacityPktsPerS is link i's capacity in packets of mssBytes bytes per second.
func (s *Scenario) CapacityPktsPerS(link int, mssBytes float64) float64 {
	return s.Links[link].CapacityBps / (8 * mssBytes)
}
