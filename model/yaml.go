package model

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// LoadScenario reads one YAML document describing a scenario and validates it. Decoding is
// strict: an unknown or repeated key is an error naming its line and place
// (`line 7: unknown key "bandwith" in links[0]`), and validation errors carry the line of
// the offending value. Keys are snake_case; quantities take units (see ParseRate,
// ParseDuration, ParseSize, ParseBuffer):
//
//	name, description, duration (10s), drop_rule (synchronized | proportional)
//	links:  name, capacity (100Mbps), delay (10ms, one way), buffer (20 packets or 1bdp),
//	        queue (droptail | red | codel | fq_codel | pie, or a mapping of kind, ecn,
//	        mark_threshold and the AQM's settings: see yamlDecoder.queue), red: {min_thresh,
//	        max_thresh (packets), max_p, q_weight}, loss: {model: none | random | periodic,
//	        p: 1e-5}
//	paths:  name, links: [l0, l1]
//	flows:  name, count (N identical flows named name#0 … name#N−1), algorithm,
//	        params: {name: value}, path, start, stop (0: the end),
//	        size (50MB; 0: long-lived), mss (552B), header_bytes (40B: TCP/IP header on the
//	        wire per data packet, and the ACK size; default 0), rwnd (64KB, bytes) or
//	        rwnd_pkts (8000, packets of mss, as ns-2's window_), window_scaling (true |
//	        false), initial_cwnd, ecn (true: ECN-capable), pacing (true: Linux's pacing of a
//	        window sender, packet engine)
//	cbr:    name, path, rate (1Mbps), packet_size (1000B), start, stop
//	events: at (40s), kind (link-down | link-up | delay-change), link, delay (new one-way delay)
//
// testdata/scenarios/example.yaml is a commented example.
func LoadScenario(r io.Reader) (*Scenario, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: empty document", ErrScenario)
		}
		return nil, fmt.Errorf("%w: %w", ErrScenario, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: want one YAML document, found more (or a syntax error after the first: %v)", ErrScenario, err)
	}
	d := yamlDecoder{lines: map[string]int{}}
	s := &Scenario{}
	if err := d.scenario(&doc, s); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.Line = d.lineOf(fe.Field)
		}
		return nil, err
	}
	return s, nil
}

// LoadScenarioFile loads a scenario from a YAML file; an unnamed scenario takes the file's
// base name without its extension.
func LoadScenarioFile(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := LoadScenario(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return s, nil
}

// yamlDecoder walks the node tree by hand so that every error knows its line and its field
// path, and records the line of every value for validation errors found later.
type yamlDecoder struct {
	lines map[string]int // field path ("links[1].capacity") → line of its value
}

// lineOf returns the line of the field or of its nearest recorded parent, 0 if none.
func (d *yamlDecoder) lineOf(field string) int {
	for field != "" {
		if l, ok := d.lines[field]; ok {
			return l
		}
		cut := strings.LastIndexAny(field, ".[")
		if cut < 0 {
			break
		}
		field = field[:cut]
	}
	return 0
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a scalar"
	}
	return "an unsupported node"
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func where(at string) string {
	if at == "" {
		return "the scenario"
	}
	return at
}

func (d *yamlDecoder) errAt(n *yaml.Node, at, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s: %s", ErrScenario, n.Line, where(at), fmt.Sprintf(format, args...))
}

// field decodes the value of one known key at the given path.
type field struct {
	key string
	set func(n *yaml.Node, at string) error
}

// mapping decodes a mapping node with the given known keys; unknown and repeated keys are
// errors.
func (d *yamlDecoder) mapping(n *yaml.Node, at string, fields []field) error {
	n = resolveAlias(n)
	if n.Kind != yaml.MappingNode {
		return d.errAt(n, at, "got %s, want a mapping of keys", kindName(n.Kind))
	}
	d.lines[at] = n.Line
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolveAlias(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return d.errAt(k, at, "got %s as a key, want a name", kindName(k.Kind))
		}
		if seen[k.Value] {
			return fmt.Errorf("%w: line %d: repeated key %q in %s", ErrScenario, k.Line, k.Value, where(at))
		}
		seen[k.Value] = true
		known := false
		for _, f := range fields {
			if f.key == k.Value {
				known = true
				if err := f.set(v, join(at, f.key)); err != nil {
					return err
				}
				break
			}
		}
		if !known {
			keys := make([]string, len(fields))
			for j, f := range fields {
				keys[j] = f.key
			}
			return fmt.Errorf("%w: line %d: unknown key %q in %s (known keys: %s)", ErrScenario, k.Line, k.Value, where(at), strings.Join(keys, ", "))
		}
	}
	return nil
}

// sequence calls item for each element of a list node.
func (d *yamlDecoder) sequence(n *yaml.Node, at string, item func(i int, n *yaml.Node, at string) error) error {
	n = resolveAlias(n)
	if n.Kind != yaml.SequenceNode {
		return d.errAt(n, at, "got %s, want a list", kindName(n.Kind))
	}
	d.lines[at] = n.Line
	for i, c := range n.Content {
		if err := item(i, c, fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return err
		}
	}
	return nil
}

func (d *yamlDecoder) scalar(n *yaml.Node, at string) (string, error) {
	n = resolveAlias(n)
	if n.Kind != yaml.ScalarNode {
		return "", d.errAt(n, at, "got %s, want a single value", kindName(n.Kind))
	}
	d.lines[at] = n.Line
	return n.Value, nil
}

// quantity returns a setter that parses a scalar with parse into *dst.
func (d *yamlDecoder) quantity(dst *float64, parse func(string) (float64, error)) func(*yaml.Node, string) error {
	return func(n *yaml.Node, at string) error {
		v, err := d.scalar(n, at)
		if err != nil {
			return err
		}
		x, err := parse(v)
		if err != nil {
			return fmt.Errorf("%w: line %d: %s: %w", ErrScenario, resolveAlias(n).Line, at, err)
		}
		*dst = x
		return nil
	}
}

func (d *yamlDecoder) text(dst *string) func(*yaml.Node, string) error {
	return func(n *yaml.Node, at string) error {
		v, err := d.scalar(n, at)
		*dst = v
		return err
	}
}

func (d *yamlDecoder) flag(dst *bool) func(*yaml.Node, string) error {
	return func(n *yaml.Node, at string) error {
		v, err := d.scalar(n, at)
		if err != nil {
			return err
		}
		// yaml.v3 also reads YAML 1.1's yes/no and on/off into a bool.
		if err := resolveAlias(n).Decode(dst); err != nil {
			return d.errAt(n, at, "%q, want true or false", v)
		}
		return nil
	}
}

func (d *yamlDecoder) scenario(doc *yaml.Node, s *Scenario) error {
	n := doc
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return fmt.Errorf("%w: empty document", ErrScenario)
		}
		n = n.Content[0]
	}
	var dropRule string
	err := d.mapping(n, "", []field{
		{"name", d.text(&s.Name)},
		{"description", d.text(&s.Description)},
		{"duration", d.quantity(&s.DurationS, ParseDuration)},
		{"drop_rule", d.text(&dropRule)},
		{"sack", d.flag(&s.SACK)},
		{"lost_retransmit", d.flag(&s.LostRetransmit)},
		{"send_jitter", d.quantity(&s.SendJitterS, ParseDuration)},
		{"links", func(n *yaml.Node, at string) error {
			return d.sequence(n, at, func(_ int, n *yaml.Node, at string) error {
				var l Link
				err := d.link(n, at, &l)
				s.Links = append(s.Links, l)
				return err
			})
		}},
		{"paths", func(n *yaml.Node, at string) error {
			return d.sequence(n, at, func(_ int, n *yaml.Node, at string) error {
				var p Path
				err := d.mapping(n, at, []field{
					{"name", d.text(&p.Name)},
					{"links", func(n *yaml.Node, at string) error {
						return d.sequence(n, at, func(_ int, n *yaml.Node, at string) error {
							name, err := d.scalar(n, at)
							p.Links = append(p.Links, name)
							return err
						})
					}},
				})
				s.Paths = append(s.Paths, p)
				return err
			})
		}},
		{"flows", func(n *yaml.Node, at string) error {
			return d.sequence(n, at, func(_ int, n *yaml.Node, at string) error {
				var f Flow
				count := 1.0
				err := d.flow(n, at, &f, &count)
				if err != nil {
					s.Flows = append(s.Flows, f)
					return err
				}
				s.Flows = appendCount(s.Flows, f, int(count))
				return nil
			})
		}},
		{"cbr", func(n *yaml.Node, at string) error {
			return d.sequence(n, at, func(_ int, n *yaml.Node, at string) error {
				var c CBR
				err := d.mapping(n, at, []field{
					{"name", d.text(&c.Name)},
					{"path", d.text(&c.Path)},
					{"rate", d.quantity(&c.RateBps, ParseRate)},
					{"packet_size", d.quantity(&c.PacketBytes, ParseSize)},
					{"start", d.quantity(&c.StartS, ParseDuration)},
					{"stop", d.quantity(&c.StopS, ParseDuration)},
				})
				s.CBR = append(s.CBR, c)
				return err
			})
		}},
		{"events", func(n *yaml.Node, at string) error {
			return d.sequence(n, at, func(_ int, n *yaml.Node, at string) error {
				var e TimedEvent
				var kind string
				err := d.mapping(n, at, []field{
					{"at", d.quantity(&e.AtS, ParseDuration)},
					{"kind", d.text(&kind)},
					{"link", d.text(&e.Link)},
					{"delay", d.quantity(&e.DelayS, ParseDuration)},
				})
				e.Kind = EventKind(kind)
				s.Events = append(s.Events, e)
				return err
			})
		}},
	})
	s.DropRule = DropRule(dropRule)
	return err
}

func (d *yamlDecoder) link(n *yaml.Node, at string, l *Link) error {
	var queue, loss string
	err := d.mapping(n, at, []field{
		{"name", d.text(&l.Name)},
		{"capacity", d.quantity(&l.CapacityBps, ParseRate)},
		{"delay", d.quantity(&l.DelayS, ParseDuration)},
		{"buffer", func(n *yaml.Node, at string) error {
			v, err := d.scalar(n, at)
			if err != nil {
				return err
			}
			if l.BufferPkts, l.BufferBDP, err = ParseBuffer(v); err != nil {
				return fmt.Errorf("%w: line %d: %s: %w", ErrScenario, resolveAlias(n).Line, at, err)
			}
			return nil
		}},
		{"queue", func(n *yaml.Node, at string) error { return d.queue(n, at, l, &queue) }},
		{"red", func(n *yaml.Node, at string) error {
			return d.mapping(n, at, []field{
				{"min_thresh", d.quantity(&l.RED.MinThPkts, ParseNumber)},
				{"max_thresh", d.quantity(&l.RED.MaxThPkts, ParseNumber)},
				{"max_p", d.quantity(&l.RED.MaxP, ParseNumber)},
				{"q_weight", d.quantity(&l.RED.Weight, ParseNumber)},
			})
		}},
		{"loss", func(n *yaml.Node, at string) error {
			return d.mapping(n, at, []field{
				{"model", d.text(&loss)},
				{"p", d.quantity(&l.LossP, ParseNumber)},
			})
		}},
	})
	l.Queue, l.Loss = QueueKind(queue), LossModel(loss)
	return err
}

// queue decodes a link's queue: a kind (droptail, red, codel, fq_codel, pie), or a mapping
// of the kind and its AQM and ECN settings:
//
//	queue: {kind: codel, target: 5ms, interval: 100ms, ecn: true}
//	queue: {kind: fq_codel, quantum: 1514B, target: 5ms, interval: 100ms, ecn: true}
//	queue: {kind: pie, target: 15ms, t_update: 15ms, alpha: 0.125, beta: 1.25, max_burst: 150ms, ecn_max_p: 0.1}
//	queue: {kind: droptail, mark_threshold: 65}    # DCTCP's step marking, in packets
//	queue: {kind: red, ecn: true}                  # RED's own parameters stay in red:
//
// target and interval go to the kind's discipline (CoDel, FQ-CoDel's CoDel, or PIE's
// target); settings that do not belong to the kind are refused by validation.
func (d *yamlDecoder) queue(n *yaml.Node, at string, l *Link, kind *string) error {
	if resolveAlias(n).Kind != yaml.MappingNode {
		return d.text(kind)(n, at)
	}
	var target, interval float64
	err := d.mapping(n, at, []field{
		{"kind", d.text(kind)},
		{"ecn", d.flag(&l.ECN)},
		{"mark_threshold", d.quantity(&l.MarkThresholdPkts, ParseNumber)},
		{"target", d.quantity(&target, ParseDuration)},
		{"interval", d.quantity(&interval, ParseDuration)},
		{"quantum", d.quantity(&l.FQCoDel.QuantumBytes, ParseSize)},
		{"t_update", d.quantity(&l.PIE.TUpdateS, ParseDuration)},
		{"alpha", d.quantity(&l.PIE.Alpha, ParseNumber)},
		{"beta", d.quantity(&l.PIE.Beta, ParseNumber)},
		{"max_burst", d.quantity(&l.PIE.MaxBurstS, ParseDuration)},
		{"ecn_max_p", d.quantity(&l.PIE.ECNMaxProb, ParseNumber)},
	})
	if err != nil {
		return err
	}
	switch QueueKind(*kind) {
	case QueueCoDel:
		l.CoDel = CoDel{TargetS: target, IntervalS: interval}
	case QueueFQCoDel:
		l.FQCoDel.CoDel = CoDel{TargetS: target, IntervalS: interval}
	case QueuePIE:
		l.PIE.TargetS = target
		if interval != 0 {
			return d.errAt(n, at, "interval %v s on queue %q, want t_update (PIE has no interval)", interval, QueuePIE)
		}
	default:
		if target != 0 || interval != 0 {
			return d.errAt(n, at, "target or interval on queue %q, want them only with %q, %q or %q", *kind, QueueCoDel, QueueFQCoDel, QueuePIE)
		}
	}
	return nil
}

func (d *yamlDecoder) flow(n *yaml.Node, at string, f *Flow, count *float64) error {
	var rwndPkts float64
	rwndPktsSet := false
	err := d.mapping(n, at, []field{
		{"name", d.text(&f.Name)},
		{"count", d.quantity(count, ParseNumber)},
		{"algorithm", d.text(&f.Algorithm)},
		{"params", func(n *yaml.Node, at string) error {
			n = resolveAlias(n)
			if n.Kind != yaml.MappingNode {
				return d.errAt(n, at, "got %s, want a mapping of parameter names to numbers", kindName(n.Kind))
			}
			f.Params = map[string]float64{}
			fields := make([]field, 0, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				var v float64
				name := resolveAlias(n.Content[i]).Value
				fields = append(fields, field{name, func(n *yaml.Node, at string) error {
					err := d.quantity(&v, ParseNumber)(n, at)
					f.Params[name] = v
					return err
				}})
			}
			return d.mapping(n, at, fields)
		}},
		{"path", d.text(&f.Path)},
		{"paths", func(n *yaml.Node, at string) error {
			return d.sequence(n, at, func(_ int, n *yaml.Node, at string) error {
				var name string
				err := d.text(&name)(n, at)
				f.Paths = append(f.Paths, name)
				return err
			})
		}},
		{"route_aware", d.flag(&f.RouteAware)},
		{"delayed_ack", d.flag(&f.DelayedAck)},
		{"initial_ssthresh", d.quantity(&f.InitialSsthresh, ParseNumber)},
		{"start", d.quantity(&f.StartS, ParseDuration)},
		{"stop", d.quantity(&f.StopS, ParseDuration)},
		{"size", d.quantity(&f.SizeBytes, ParseSize)},
		{"mss", d.quantity(&f.MSSBytes, ParseSize)},
		{"header_bytes", d.quantity(&f.HeaderBytes, ParseSize)},
		{"rwnd", d.quantity(&f.RwndBytes, ParseSize)},
		{"rwnd_pkts", func(n *yaml.Node, at string) error {
			rwndPktsSet = true
			return d.quantity(&rwndPkts, ParseNumber)(n, at)
		}},
		{"window_scaling", d.flag(&f.WindowScaling)},
		{"initial_cwnd", d.quantity(&f.InitialCwnd, ParseNumber)},
		{"ecn", d.flag(&f.ECN)},
		{"pacing", d.flag(&f.Pacing)},
	})
	if err != nil {
		return err
	}
	if c := *count; c < 1 || c > MaxFlowCount || c != math.Trunc(c) {
		return fmt.Errorf("%w: line %d: %s.count = %v, want a whole number in [1, %g]", ErrScenario, d.lines[at+".count"], at, c, float64(MaxFlowCount))
	}
	if !rwndPktsSet {
		return nil
	}
	line := d.lines[at+".rwnd_pkts"]
	if _, both := d.lines[at+".rwnd"]; both {
		return fmt.Errorf("%w: line %d: %s: both rwnd and rwnd_pkts are set, want one", ErrScenario, line, at)
	}
	if rwndPkts <= 0 {
		return fmt.Errorf("%w: line %d: %s.rwnd_pkts = %v packets, want > 0", ErrScenario, line, at, rwndPkts)
	}
	mss := f.MSSBytes
	if mss == 0 {
		mss = DefaultMSSBytes
	}
	f.RwndBytes = rwndPkts * mss
	d.lines[at+".rwnd"] = line // range errors on the resolved window point at rwnd_pkts
	return nil
}

// WriteScenarioYAML writes a scenario as the YAML document LoadScenario reads: keys as
// LoadScenario lists them, quantities with units where the unit form reads back exactly
// (100Mbps, 10ms, 1GiB, 1bdp), otherwise plain numbers in bit/s, seconds, bytes and packets;
// zero and default fields are left out. LoadScenario of the output gives back the scenario
// as validated (a buffer given in BDP stays in BDP).
func WriteScenarioYAML(w io.Writer, s *Scenario) error {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	put := func(m *yaml.Node, key string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	}
	str := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: "!!str"} }
	num := func(v float64) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: formatExact(v)} }
	flag := func(v bool) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatBool(v)} }
	unit := func(v float64, parse func(string) (float64, error), units ...any) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: formatUnit(v, parse, units...)}
	}
	rate := func(v float64) *yaml.Node {
		return unit(v, ParseRate, 1e9, "Gbps", 1e6, "Mbps", 1e3, "kbps", 1.0, "bps")
	}
	dur := func(v float64) *yaml.Node { return unit(v, ParseDuration, 1.0, "s", 1e-3, "ms", 1e-6, "us") }
	size := func(v float64) *yaml.Node {
		return unit(v, ParseSize, float64(1<<30), "GiB", float64(1<<20), "MiB", float64(1<<10), "KiB", 1e9, "GB", 1e6, "MB", 1e3, "KB", 1.0, "B")
	}
	seq := func() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode} }
	mapping := func() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }
	names := func(ns []string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, x := range ns {
			n.Content = append(n.Content, str(x))
		}
		return n
	}

	if s.Name != "" {
		put(doc, "name", str(s.Name))
	}
	if s.Description != "" {
		put(doc, "description", str(s.Description))
	}
	put(doc, "duration", dur(s.DurationS))
	if s.DropRule != "" {
		put(doc, "drop_rule", str(string(s.DropRule)))
	}
	if s.SACK {
		put(doc, "sack", flag(true))
	}
	if s.LostRetransmit {
		put(doc, "lost_retransmit", flag(true))
	}
	if s.SendJitterS > 0 {
		put(doc, "send_jitter", dur(s.SendJitterS))
	}
	links := seq()
	for _, l := range s.Links {
		m := mapping()
		put(m, "name", str(l.Name))
		put(m, "capacity", rate(l.CapacityBps))
		put(m, "delay", dur(l.DelayS))
		if l.BufferBDP > 0 {
			put(m, "buffer", &yaml.Node{Kind: yaml.ScalarNode, Value: formatExact(l.BufferBDP) + "bdp"})
		} else {
			put(m, "buffer", num(l.BufferPkts))
		}
		if q := queueNode(l, str, num, flag, dur, size); q != nil {
			put(m, "queue", q)
		}
		if l.Queue == QueueRED {
			red := mapping()
			put(red, "min_thresh", num(l.RED.MinThPkts))
			put(red, "max_thresh", num(l.RED.MaxThPkts))
			put(red, "max_p", num(l.RED.MaxP))
			put(red, "q_weight", num(l.RED.Weight))
			put(m, "red", red)
		}
		if (l.Loss != "" && l.Loss != LossNone) || l.LossP != 0 {
			loss := mapping()
			if l.Loss != "" {
				put(loss, "model", str(string(l.Loss)))
			}
			put(loss, "p", num(l.LossP))
			put(m, "loss", loss)
		}
		links.Content = append(links.Content, m)
	}
	put(doc, "links", links)
	paths := seq()
	for _, p := range s.Paths {
		m := mapping()
		put(m, "name", str(p.Name))
		put(m, "links", names(p.Links))
		paths.Content = append(paths.Content, m)
	}
	put(doc, "paths", paths)
	flows := seq()
	for i := 0; i < len(s.Flows); {
		f, n := foldCount(s.Flows[i:])
		i += n
		m := mapping()
		put(m, "name", str(f.Name))
		if n > 1 {
			put(m, "count", num(float64(n)))
		}
		put(m, "algorithm", str(f.Algorithm))
		if len(f.Params) > 0 {
			params := mapping()
			for _, k := range slices.Sorted(maps.Keys(f.Params)) {
				put(params, k, num(f.Params[k]))
			}
			put(m, "params", params)
		}
		if len(f.Paths) > 0 {
			put(m, "paths", names(f.Paths))
		} else {
			put(m, "path", str(f.Path))
		}
		for _, b := range []struct {
			key string
			v   bool
		}{{"route_aware", f.RouteAware}, {"delayed_ack", f.DelayedAck}, {"window_scaling", f.WindowScaling},
			{"ecn", f.ECN}, {"pacing", f.Pacing}} {
			if b.v {
				put(m, b.key, flag(true))
			}
		}
		for _, q := range []struct {
			key string
			v   float64
			n   func(float64) *yaml.Node
		}{
			{"start", f.StartS, dur}, {"stop", f.StopS, dur}, {"size", f.SizeBytes, size}, {"mss", f.MSSBytes, size},
			{"header_bytes", f.HeaderBytes, size}, {"rwnd", f.RwndBytes, size}, {"initial_cwnd", f.InitialCwnd, num},
			{"initial_ssthresh", f.InitialSsthresh, num},
		} {
			if q.v != 0 {
				put(m, q.key, q.n(q.v))
			}
		}
		flows.Content = append(flows.Content, m)
	}
	put(doc, "flows", flows)
	if len(s.CBR) > 0 {
		cbr := seq()
		for _, c := range s.CBR {
			m := mapping()
			put(m, "name", str(c.Name))
			put(m, "path", str(c.Path))
			put(m, "rate", rate(c.RateBps))
			if c.PacketBytes != 0 {
				put(m, "packet_size", size(c.PacketBytes))
			}
			if c.StartS != 0 {
				put(m, "start", dur(c.StartS))
			}
			if c.StopS != 0 {
				put(m, "stop", dur(c.StopS))
			}
			cbr.Content = append(cbr.Content, m)
		}
		put(doc, "cbr", cbr)
	}
	if len(s.Events) > 0 {
		events := seq()
		for _, e := range s.Events {
			m := mapping()
			put(m, "at", dur(e.AtS))
			put(m, "kind", str(string(e.Kind)))
			put(m, "link", str(e.Link))
			if e.DelayS != 0 {
				put(m, "delay", dur(e.DelayS))
			}
			events.Content = append(events.Content, m)
		}
		put(doc, "events", events)
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return enc.Close()
}

// formatExact is v's shortest exact decimal form.
func formatExact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// formatUnit writes v in the shortest of the forms number+unit of the (factor, unit) pairs
// of units that parse reads back exactly, numbers of at least 1 first (100ms, 1GiB, 1460B,
// not 0.1s), else as a plain number with the last pair's unit.
func formatUnit(v float64, parse func(string) (float64, error), units ...any) string {
	best, small := formatExact(v)+units[len(units)-1].(string), true
	for i := 0; i+1 < len(units); i += 2 {
		f, u := units[i].(float64), units[i+1].(string)
		s, lt1 := shortestIn(v, f, u, parse), math.Abs(v/f) < 1
		if got, err := parse(s); err == nil && got == v && (small && !lt1 || lt1 == small && len(s) < len(best)) {
			best, small = s, lt1
		}
	}
	return best
}

// shortestIn is v in unit u of factor f with the fewest significant digits that parse
// reads back as v (500us, not the 500.00000000000006us of v/f), else v/f in full.
func shortestIn(v, f float64, u string, parse func(string) (float64, error)) string {
	for digits := 1; digits < 17; digits++ {
		s := strconv.FormatFloat(v/f, 'g', digits, 64) + u
		if got, err := parse(s); err == nil && got == v && !strings.ContainsAny(s, "eE") {
			return s
		}
	}
	return formatExact(v/f) + u
}

// queueNode is link l's queue as YAML: its kind alone, or the mapping yamlDecoder.queue
// reads when the link marks or its AQM has settings; nil for a plain drop-tail queue.
func queueNode(l Link, str func(string) *yaml.Node, num func(float64) *yaml.Node, flag func(bool) *yaml.Node,
	dur, size func(float64) *yaml.Node) *yaml.Node {
	kind := l.Queue
	if kind == "" {
		kind = QueueDropTail
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	put := func(k string, v *yaml.Node) { m.Content = append(m.Content, str(k), v) }
	opt := func(k string, v float64, n func(float64) *yaml.Node) {
		if v != 0 {
			put(k, n(v))
		}
	}
	put("kind", str(string(kind)))
	if l.ECN {
		put("ecn", flag(true))
	}
	opt("mark_threshold", l.MarkThresholdPkts, num)
	switch kind {
	case QueueCoDel:
		opt("target", l.CoDel.TargetS, dur)
		opt("interval", l.CoDel.IntervalS, dur)
	case QueueFQCoDel:
		opt("quantum", l.FQCoDel.QuantumBytes, size)
		opt("target", l.FQCoDel.TargetS, dur)
		opt("interval", l.FQCoDel.IntervalS, dur)
	case QueuePIE:
		opt("target", l.PIE.TargetS, dur)
		opt("t_update", l.PIE.TUpdateS, dur)
		opt("alpha", l.PIE.Alpha, num)
		opt("beta", l.PIE.Beta, num)
		opt("max_burst", l.PIE.MaxBurstS, dur)
		opt("ecn_max_p", l.PIE.ECNMaxProb, num)
	}
	switch {
	case len(m.Content) > 2:
		return m
	case kind == QueueDropTail:
		return nil
	}
	return str(string(kind))
}
