package reference

import (
	"fmt"
	"sort"
)

// Simulator names.
const (
	NS2 = "ns2" // ns-2.35, Agent/TCP/Linux with Agent/TCPSink/Sack1
	NS3 = "ns3" // ns-3.37, TcpSocketBase with a TcpCongestionOps subclass
)

// Module is what one simulator runs for a tcpfluid algorithm.
type Module struct {
	// Name is ns-2's select_ca argument (the Linux module's name) or ns-3's TypeId.
	Name string `json:"name"`
	// Source is the file that implements it in the simulator's source tree.
	Source string `json:"source"`
	// Note says how the module differs from tcpfluid's algorithm of that name.
	Note string `json:"note,omitempty"`
}

// ns2Modules maps tcpfluid's algorithms to ns-2.35's TCP/Linux congestion modules
// (tcp/linux/src/tcp_*.c, copies of Linux 2.6.2x's net/ipv4/tcp_*.c). Every one runs under
// the same sender: SACK with FACK loss marking (ScoreBoard1) and ns-2's rate halving
// (LinuxTcpAgent::send_much, next_pkts_in_flight_).
var ns2Modules = map[string]Module{
	"reno":      {Name: "reno", Source: "tcp/linux/src/tcp_cong.c (tcp_reno_cong_avoid)", Note: "Linux Reno: +1 per cwnd ACKs (snd_cwnd_cnt), ssthresh max(cwnd/2, 2)"},
	"newreno":   {Name: "reno", Source: "tcp/linux/src/tcp_cong.c", Note: "Linux has one Reno; loss recovery is the SACK sender's, not RFC 6582's partial ACKs"},
	"highspeed": {Name: "highspeed", Source: "tcp/linux/src/tcp_highspeed.c", Note: "RFC 3649 Appendix B table (73 rows), a(w) and b(w) in 1/256 and 1/1024 steps"},
	"scalable":  {Name: "scalable", Source: "tcp/linux/src/tcp_scalable.c", Note: "+1 per min(cwnd, 50) ACKs, ssthresh cwnd - cwnd/8 on every loss, no legacy (Reno) region"},
	"cubic":     {Name: "cubic", Source: "tcp/linux/src/tcp_cubic.c", Note: "CUBIC v2.1 of Linux 2.6.2x: beta 819/1024, bic_scale 41, fast convergence, TCP-friendly region on"},
	"bic":       {Name: "bic", Source: "tcp/linux/src/tcp_bic.c", Note: "BIC-TCP: max_increment 16, low_window 14, beta 819/1024, smooth_part 20"},
	"htcp":      {Name: "htcp", Source: "tcp/linux/src/tcp_htcp.c", Note: "H-TCP with use_rtt_scaling and use_bandwidth_switch on"},
	"vegas":     {Name: "vegas", Source: "tcp/linux/src/tcp_vegas.c", Note: "alpha 2, beta 4, gamma 1 packets; Reno slow start and loss response"},
	"compound":  {Name: "compound", Source: "tcp/linux/src/tcp_compound.c", Note: "CTCP as the Caltech/Microsoft Linux port has it"},
}

// ns2Extra are ns-2's other TCP/Linux modules, runnable with --algo as their module name
// (tcpfluid has no fluid law for them).
var ns2Extra = map[string]Module{
	"westwood": {Name: "westwood", Source: "tcp/linux/src/tcp_westwood.c"},
	"hybla":    {Name: "hybla", Source: "tcp/linux/src/tcp_hybla.c"},
	"illinois": {Name: "illinois", Source: "tcp/linux/src/tcp_illinois.c"},
	"veno":     {Name: "veno", Source: "tcp/linux/src/tcp_veno.c"},
	"yeah":     {Name: "yeah", Source: "tcp/linux/src/tcp_yeah.c"},
	"lp":       {Name: "lp", Source: "tcp/linux/src/tcp_lp.c"},
}

// ns3Modules maps tcpfluid's algorithms to ns-3.37's congestion-control TypeIds
// (src/internet/model/tcp-*.cc). Every one runs under TcpSocketBase with SACK, and the
// recovery of ns3::TcpL4Protocol::RecoveryType: ns3::TcpPrrRecovery (RFC 6937) by default.
var ns3Modules = map[string]Module{
	"reno":      {Name: "TcpLinuxReno", Source: "src/internet/model/tcp-linux-reno.cc", Note: "Linux's tcp_reno_cong_avoid counting (cWndCnt), ssthresh max(2, inflight/2)"},
	"newreno":   {Name: "TcpNewReno", Source: "src/internet/model/tcp-congestion-ops.cc", Note: "ns-3's default: +MSS²/cwnd bytes per ACK (RFC 5681 byte form)"},
	"highspeed": {Name: "TcpHighSpeed", Source: "src/internet/model/tcp-highspeed.cc", Note: "RFC 3649 Appendix B table"},
	"scalable":  {Name: "TcpScalable", Source: "src/internet/model/tcp-scalable.cc", Note: "AIFactor 50, MIFactor 0.125"},
	"cubic":     {Name: "TcpCubic", Source: "src/internet/model/tcp-cubic.cc", Note: "beta 0.7, C 0.4, HyStart on, fast convergence on, no TCP-friendly region"},
	"bic":       {Name: "TcpBic", Source: "src/internet/model/tcp-bic.cc", Note: "MaxIncr 16, LowWnd 14, Beta 0.8, SmoothPart 5"},
	"htcp":      {Name: "TcpHtcp", Source: "src/internet/model/tcp-htcp.cc", Note: "DefaultBackoff 0.5, ThroughputRatio 0.2, DeltaL 1 s"},
	"vegas":     {Name: "TcpVegas", Source: "src/internet/model/tcp-vegas.cc", Note: "Alpha 2, Beta 4, Gamma 1 packets"},
}

// ns3Extra are ns-3.37's other congestion-control classes.
var ns3Extra = map[string]Module{
	"westwood": {Name: "TcpWestwood", Source: "src/internet/model/tcp-westwood.cc"},
	"hybla":    {Name: "TcpHybla", Source: "src/internet/model/tcp-hybla.cc"},
	"illinois": {Name: "TcpIllinois", Source: "src/internet/model/tcp-illinois.cc"},
	"veno":     {Name: "TcpVeno", Source: "src/internet/model/tcp-veno.cc"},
	"yeah":     {Name: "TcpYeah", Source: "src/internet/model/tcp-yeah.cc"},
	"lp":       {Name: "TcpLp", Source: "src/internet/model/tcp-lp.cc"},
	"bbr":      {Name: "TcpBbr", Source: "src/internet/model/tcp-bbr.cc"},
	"dctcp":    {Name: "TcpDctcp", Source: "src/internet/model/tcp-dctcp.cc"},
	"ledbat":   {Name: "TcpLedbat", Source: "src/internet/model/tcp-ledbat.cc"},
}

// missing says why a simulator has no module for an algorithm tcpfluid has.
var missing = map[string]map[string]string{
	NS2: {
		"tahoe": "Linux has no Tahoe: TCP/Linux always does fast recovery (ns-2's Agent/TCP is Tahoe, outside TCP/Linux)",
		"colo":  "COLO TCP is seed 000's own algorithm; no simulator ships it",
		"lia":   "MPTCP's coupled increase is not in ns-2.35",
		"olia":  "MPTCP's OLIA is not in ns-2.35",
		"vlia":  "VLIA is seed 001's own algorithm",
		"bbr2":  "ns-2.35's TCP/Linux runs Linux 2.6 modules; BBR v2 was never in mainline Linux (Google's v2alpha tree)",
	},
	NS3: {
		"tahoe":    "ns-3.37 has no Tahoe congestion control",
		"compound": "ns-3.37 has no Compound TCP (no TcpCompound class)",
		"colo":     "COLO TCP is seed 000's own algorithm; no simulator ships it",
		"lia":      "ns-3.37 has no MPTCP",
		"olia":     "ns-3.37 has no MPTCP",
		"vlia":     "ns-3.37 has no MPTCP",
		"bbr2":     "ns-3.37's TcpBbr is BBR v1; it has no BBR v2",
	},
}

// ModuleFor returns the simulator's module for an algorithm: one of tcpfluid's names, or
// one of the simulator's extra modules by its short name. The error wraps ErrUnsupported
// and says why the simulator lacks it.
func ModuleFor(sim, algo string) (Module, error) {
	var known, extra map[string]Module
	switch sim {
	case NS2:
		known, extra = ns2Modules, ns2Extra
	case NS3:
		known, extra = ns3Modules, ns3Extra
	default:
		return Module{}, fmt.Errorf("%w: simulator %q, want ns2 or ns3", ErrExperiment, sim)
	}
	if m, ok := known[algo]; ok {
		return m, nil
	}
	if m, ok := extra[algo]; ok {
		return m, nil
	}
	if why, ok := missing[sim][algo]; ok {
		return Module{}, fmt.Errorf("%w: %s has no %s: %s", ErrUnsupported, sim, algo, why)
	}
	return Module{}, fmt.Errorf("%w: %s has no module for %q", ErrUnsupported, sim, algo)
}

// ModuleRow is one line of the algorithm map: `tcpfluid reference --list`.
type ModuleRow struct {
	Algorithm string  `json:"algorithm"`
	NS2       *Module `json:"ns2"`
	NS3       *Module `json:"ns3"`
	NS2Lacks  string  `json:"ns2_lacks,omitempty"`
	NS3Lacks  string  `json:"ns3_lacks,omitempty"`
	Fluid     bool    `json:"tcpfluid"` // tcpfluid has a law of that name
}

// Modules lists every algorithm either simulator or tcpfluid knows, sorted by name.
// fluid says whether tcpfluid has a law of a name.
func Modules(fluid func(string) bool) []ModuleRow {
	names := map[string]bool{}
	for _, m := range []map[string]Module{ns2Modules, ns2Extra, ns3Modules, ns3Extra} {
		for k := range m {
			names[k] = true
		}
	}
	for _, m := range missing {
		for k := range m {
			names[k] = true
		}
	}
	var rows []ModuleRow
	for n := range names {
		r := ModuleRow{Algorithm: n, Fluid: fluid != nil && fluid(n)}
		if m, err := ModuleFor(NS2, n); err == nil {
			r.NS2 = &m
		} else {
			r.NS2Lacks = missing[NS2][n]
			if r.NS2Lacks == "" {
				r.NS2Lacks = "no such module"
			}
		}
		if m, err := ModuleFor(NS3, n); err == nil {
			r.NS3 = &m
		} else {
			r.NS3Lacks = missing[NS3][n]
			if r.NS3Lacks == "" {
				r.NS3Lacks = "no such class"
			}
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Algorithm < rows[j].Algorithm })
	return rows
}
