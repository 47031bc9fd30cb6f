package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/model"
)

// Flags of the CLI. Every value is parsed and range-checked when the flag is read, so a
// wrong one is a usage error (exit 2) of one line naming the flag, the value and what is
// allowed, before any work starts; flags not given keep their defaults, and a default is
// never substituted for a value given. Quantities with a unit (durations, rates, sizes)
// must say it: "--rtt 100" is an error listing the units, "--rtt 100ms" is not (0 may go
// without).

// bound is the interval a value must lie in; infinite ends are open. NaN and infinities
// are never inside.
type bound struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

var (
	anyFinite   = bound{lo: math.Inf(-1), hi: math.Inf(1), loOpen: true, hiOpen: true}
	positive    = bound{lo: 0, hi: math.Inf(1), loOpen: true, hiOpen: true}
	nonNegative = bound{lo: 0, hi: math.Inf(1), hiOpen: true}
	// probability is a loss rate that may be 0 (none): 0 <= p < 1.
	probability = bound{lo: 0, hi: 1, hiOpen: true}
)

// closed is [lo, hi].
func closed(lo, hi float64) bound { return bound{lo: lo, hi: hi} }

func (b bound) contains(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	if v < b.lo || (b.loOpen && v == b.lo) || v > b.hi || (b.hiOpen && v == b.hi) {
		return false
	}
	return true
}

// describe writes the bound with format for the ends: "> 0", ">= 1", "< 1", "from 1 to
// 1000", "in [0, 1)".
func (b bound) describe(format func(float64) string) string {
	loInf, hiInf := math.IsInf(b.lo, -1), math.IsInf(b.hi, 1)
	op := func(open bool, strict, loose string) string {
		if open {
			return strict
		}
		return loose
	}
	switch {
	case loInf && hiInf:
		return "(any finite value)"
	case hiInf && b.lo == 0:
		return op(b.loOpen, "> 0", ">= 0")
	case hiInf:
		return op(b.loOpen, "> ", ">= ") + format(b.lo)
	case loInf:
		return op(b.hiOpen, "< ", "<= ") + format(b.hi)
	case !b.loOpen && !b.hiOpen:
		return "from " + format(b.lo) + " to " + format(b.hi)
	}
	return "in " + op(b.loOpen, "(", "[") + format(b.lo) + ", " + format(b.hi) + op(b.hiOpen, ")", "]")
}

// kind is what a quantity flag reads: its noun, parser, how values are written back and
// an example.
type kind struct {
	noun, placeholder string
	parse             func(string) (float64, error)
	format            func(float64) string
	example           string
}

var (
	durationKind = kind{"duration", "DURATION", model.ParseDurationUnit, model.FormatDuration, "100ms"}
	rateKind     = kind{"rate", "RATE", model.ParseRateUnit, model.FormatRate, "100Mbps"}
	sizeKind     = kind{"size", "SIZE", model.ParseSizeUnit, formatBytes, "1460B"}
	numberKind   = kind{"number", "X", model.ParseNumber, num, "1e-4"}
	packetsKind  = kind{"number of packets", "PKTS", model.ParseNumber, num, "100"}
	bdpKind      = kind{"buffer", "BDP", model.ParseBDP, func(v float64) string { return num(v) + "bdp" }, "1bdp"}
)

// formatBytes writes a size in the largest binary unit that divides it (1 GiB, 64 KiB),
// else in bytes (1460 B).
func formatBytes(v float64) string {
	for _, u := range []struct {
		name string
		size float64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if v >= u.size && math.Mod(v, u.size) == 0 {
			return num(v/u.size) + " " + u.name
		}
	}
	return num(v) + " B"
}

// want is the error text of a value outside b.
func (k kind) want(b bound) string {
	return fmt.Sprintf("want a %s %s, such as %s", k.noun, b.describe(k.format), k.example)
}

// problem is what is wrong with input that does not parse, without repeating the input.
func problem(err error) error {
	var ue *model.UnitError
	if errors.As(err, &ue) {
		return errors.New(ue.Problem())
	}
	return err
}

// quantityValue is a cli.Generic holding one checked quantity.
type quantityValue struct {
	kind  kind
	bound bound
	text  string // the value as given, or the default's
	v     float64
}

func (q *quantityValue) Set(s string) error {
	v, err := q.kind.parse(strings.TrimSpace(s))
	if err != nil {
		return problem(err)
	}
	if !q.bound.contains(v) {
		return errors.New(q.kind.want(q.bound))
	}
	q.text, q.v = s, v
	return nil
}

func (q *quantityValue) String() string { return q.text }

// quantityFlag is a flag holding one quantity of kind k within b; def is the default as
// it would be written ("" for none: the value is then 0 and the flag's absence must be
// checked with IsSet).
func quantityFlag(name, def string, k kind, b bound, usage string) *cli.GenericFlag {
	q := &quantityValue{kind: k, bound: b}
	if def != "" {
		if err := q.Set(def); err != nil {
			panic(fmt.Sprintf("--%s default %q: %v", name, def, err))
		}
	}
	return &cli.GenericFlag{Name: name, Value: q, Usage: usage + ": `" + k.placeholder + "` " + b.describe(k.format)}
}

func durationFlag(name, def string, b bound, usage string) *cli.GenericFlag {
	return quantityFlag(name, def, durationKind, b, usage)
}

func rateFlag(name, def string, b bound, usage string) *cli.GenericFlag {
	return quantityFlag(name, def, rateKind, b, usage)
}

func sizeFlag(name, def string, b bound, usage string) *cli.GenericFlag {
	return quantityFlag(name, def, sizeKind, b, usage)
}

func numberFlag(name, def string, b bound, usage string) *cli.GenericFlag {
	return quantityFlag(name, def, numberKind, b, usage)
}

// quantity is the value of a flag made by quantityFlag.
func quantity(c *cli.Context, name string) float64 {
	return flagValue[*quantityValue](c, name).v
}

// flagValue is flag name's value, of the type its constructor made.
func flagValue[T any](c *cli.Context, name string) T {
	v, ok := c.Generic(name).(T)
	if !ok {
		panic(fmt.Sprintf("flag --%s: %T, not %T", name, c.Generic(name), v))
	}
	return v
}

// bufferValue is a cli.Generic holding a queue limit in packets (500pkts) or in
// bandwidth-delay products (1bdp), > 0 and with its unit: a bare number is refused.
type bufferValue struct {
	text      string
	pkts, bdp float64
}

func (b *bufferValue) Set(s string) error {
	s = strings.TrimSpace(s)
	pkts, bdp, err := model.ParseBuffer(s)
	if err != nil {
		return problem(err)
	}
	if strings.TrimRight(s, "0123456789.") != s {
		return errors.New("want packets or bandwidth-delay products with the unit, such as 500pkts or 1bdp")
	}
	if !(pkts+bdp > 0) || math.IsInf(pkts+bdp, 0) {
		return errors.New("want a finite buffer > 0, such as 500pkts or 1bdp")
	}
	b.text, b.pkts, b.bdp = s, pkts, bdp
	return nil
}

func (b *bufferValue) String() string { return b.text }

// bufferFlag is a flag holding a buffer in packets or BDPs; def is the default as typed.
func bufferFlag(name, def, usage string) *cli.GenericFlag {
	b := &bufferValue{}
	if err := b.Set(def); err != nil {
		panic(fmt.Sprintf("--%s default %q: %v", name, def, err))
	}
	return &cli.GenericFlag{Name: name, Value: b, Usage: usage + ": `BUFFER` > 0, packets (500pkts) or bandwidth-delay products (1bdp)"}
}

// bufferOf is the value of a flag made by bufferFlag: packets or BDPs, the other 0.
func bufferOf(c *cli.Context, name string) (pkts, bdp float64) {
	b := flagValue[*bufferValue](c, name)
	return b.pkts, b.bdp
}

// intValue is a cli.Generic holding a whole number in [lo, hi]; it reads 1e6 too.
type intValue struct {
	lo, hi int64
	text   string
	v      int64
}

func (n *intValue) Set(s string) error {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		f, ferr := model.ParseNumber(s)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<62 {
			return errors.New(n.want())
		}
		v = int64(f)
	}
	if v < n.lo || v > n.hi {
		return errors.New(n.want())
	}
	n.text, n.v = s, v
	return nil
}

func (n *intValue) String() string { return n.text }

func (n *intValue) want() string {
	if n.hi == math.MaxInt64 {
		return fmt.Sprintf("want a whole number >= %d", n.lo)
	}
	return fmt.Sprintf("want a whole number from %d to %d", n.lo, n.hi)
}

// intFlag is a whole-number flag in [lo, hi]; def "" for none (then the value is 0).
func intFlag(name, def string, lo, hi int64, usage string) *cli.GenericFlag {
	n := &intValue{lo: lo, hi: hi}
	if def != "" {
		if err := n.Set(def); err != nil {
			panic(fmt.Sprintf("--%s default %q: %v", name, def, err))
		}
	}
	rng := fmt.Sprintf("from %d to %d", lo, hi)
	if hi == math.MaxInt64 {
		rng = fmt.Sprintf(">= %d", lo)
	}
	return &cli.GenericFlag{Name: name, Value: n, Usage: usage + ": `N` " + rng}
}

func intOf(c *cli.Context, name string) int { return int(flagValue[*intValue](c, name).v) }

// seedValue is a cli.Generic holding a uint64 seed.
type seedValue struct {
	text string
	v    uint64
}

func (s *seedValue) Set(in string) error {
	v, err := strconv.ParseUint(strings.TrimSpace(in), 10, 64)
	if err != nil {
		return fmt.Errorf("want a whole number from 0 to %d", uint64(math.MaxUint64))
	}
	s.text, s.v = in, v
	return nil
}

func (s *seedValue) String() string { return s.text }

func seedFlag(usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: "seed", Value: &seedValue{text: "1", v: 1}, Usage: usage + ": `N` from 0 to 2^64-1"}
}

func seedOf(c *cli.Context) uint64 { return flagValue[*seedValue](c, "seed").v }

// enumValue is a cli.Generic holding one of a fixed set of words.
type enumValue struct {
	choices []string
	v       string
}

func (e *enumValue) Set(s string) error {
	s = strings.TrimSpace(s)
	for _, c := range e.choices {
		if strings.EqualFold(s, c) {
			e.v = c
			return nil
		}
	}
	return errors.New("want " + oneOf(e.choices))
}

func (e *enumValue) String() string { return e.v }

// oneOf writes "a", "a or b", "one of a, b, c".
func oneOf(choices []string) string {
	switch len(choices) {
	case 1:
		return choices[0]
	case 2:
		return choices[0] + " or " + choices[1]
	}
	return "one of " + strings.Join(choices, ", ")
}

// enumFlag is a flag holding one of choices; def "" for none.
func enumFlag(name, def string, choices []string, usage string) *cli.GenericFlag {
	if def != "" && !slices.Contains(choices, def) {
		panic(fmt.Sprintf("--%s default %q not in %v", name, def, choices))
	}
	return &cli.GenericFlag{Name: name, Value: &enumValue{choices: choices, v: def}, Usage: usage + ": `" + strings.ToUpper(placeholderOf(name)) + "` " + oneOf(choices)}
}

func placeholderOf(name string) string {
	if _, last, ok := strings.Cut(name, "-"); ok {
		return last
	}
	return name
}

func enumOf(c *cli.Context, name string) string { return flagValue[*enumValue](c, name).v }

// listValue is a cli.Generic holding a comma list of quantities of one kind within a bound.
type listValue struct {
	kind  kind
	bound bound
	text  string
	v     []float64
}

func (l *listValue) Set(s string) error {
	items := splitList(s)
	if len(items) == 0 {
		return fmt.Errorf("want a comma list of %ss, such as %s,%s", l.kind.noun, l.kind.example, l.kind.example)
	}
	var vs []float64
	for _, item := range items {
		v, err := l.kind.parse(item)
		if err != nil {
			return fmt.Errorf("%q: %w", item, problem(err))
		}
		if !l.bound.contains(v) {
			return fmt.Errorf("%q: %s", item, l.kind.want(l.bound))
		}
		vs = append(vs, v)
	}
	l.text, l.v = s, vs
	return nil
}

func (l *listValue) String() string { return l.text }

func listFlag(name, def string, k kind, b bound, usage string) *cli.GenericFlag {
	l := &listValue{kind: k, bound: b}
	if def != "" {
		if err := l.Set(def); err != nil {
			panic(fmt.Sprintf("--%s default %q: %v", name, def, err))
		}
	}
	return &cli.GenericFlag{Name: name, Value: l, Usage: usage + ": a comma list of `" + k.placeholder + "S` " + b.describe(k.format)}
}

func listOf(c *cli.Context, name string) []float64 { return flagValue[*listValue](c, name).v }

// algoListValue is a cli.Generic holding a comma list of distinct registered algorithms.
type algoListValue struct {
	one  bool // a single algorithm
	text string
	v    []string
}

func (a *algoListValue) Set(s string) error {
	items := splitList(s)
	if len(items) == 0 || (a.one && len(items) > 1) {
		if a.one {
			return errors.New("want one algorithm (see tcpfluid algos)")
		}
		return errors.New("want a comma list of algorithms (see tcpfluid algos)")
	}
	for i, name := range items {
		if _, err := model.New(name); err != nil {
			return unknownAlgorithm(name, err)
		}
		if slices.Contains(items[:i], name) {
			return fmt.Errorf("%s twice", name)
		}
	}
	a.text, a.v = s, items
	return nil
}

func (a *algoListValue) String() string { return a.text }

// algosFlag is a comma list of algorithms; def "" for none.
func algosFlag(def, usage string) *cli.GenericFlag {
	v := &algoListValue{}
	if def != "" {
		_ = v.Set(def)
	}
	return &cli.GenericFlag{Name: "algo", Value: v, Usage: usage + " (`ALGOS`: a comma list of the names tcpfluid algos lists)"}
}

// algoFlag is one algorithm; def "" for none.
func algoFlag(def, usage string) *cli.GenericFlag {
	v := &algoListValue{one: true}
	if def != "" {
		_ = v.Set(def)
	}
	return &cli.GenericFlag{Name: "algo", Value: v, Usage: usage + " (`ALGO`: a name tcpfluid algos lists)"}
}

func algosOf(c *cli.Context) []string { return flagValue[*algoListValue](c, "algo").v }

func algoOf(c *cli.Context) string {
	if v := algosOf(c); len(v) > 0 {
		return v[0]
	}
	return ""
}

// paramSetting is one --param algo.name=value.
type paramSetting struct {
	text, algo, name string
	value            float64
}

// paramsValue is a cli.Generic collecting repeated --param algo.name=value flags (a comma
// list in one flag too), each checked against its algorithm: known algorithm, known
// parameter, value in its range.
type paramsValue struct{ v []paramSetting }

func (p *paramsValue) Set(s string) error {
	for _, item := range splitList(s) {
		ps, err := parseParam(item)
		if err != nil {
			return err
		}
		p.v = append(p.v, ps)
	}
	return nil
}

func (p *paramsValue) String() string {
	var out []string
	for _, ps := range p.v {
		out = append(out, ps.text)
	}
	return strings.Join(out, ",")
}

// unknownAlgorithm is the usage error for a name model.New refused with err: the known
// algorithms, or, where only the variant after "@" is unknown, the algorithm's variants.
func unknownAlgorithm(name string, err error) error {
	algo, variant := model.SplitVariant(name)
	if !errors.Is(err, model.ErrUnknownAlgorithm) {
		return err
	}
	vs, known := model.VariantsOf(algo)
	if variant == "" || known != nil {
		return fmt.Errorf("unknown algorithm %q; want %s", name, oneOf(model.Algorithms()))
	}
	var names []string
	for _, v := range vs {
		names = append(names, algo+model.VariantSep+v.Name)
	}
	if len(names) == 0 {
		return fmt.Errorf("%s has no variants (got %q); want %s", algo, name, algo)
	}
	return fmt.Errorf("%s has no variant %q; want %s", algo, variant, oneOf(names))
}

// parseParam reads and checks "algo.name=value".
func parseParam(s string) (paramSetting, error) {
	key, val, ok := strings.Cut(s, "=")
	algo, name, ok2 := strings.Cut(strings.TrimSpace(key), ".")
	if !ok || !ok2 || algo == "" || name == "" {
		return paramSetting{}, fmt.Errorf("want algo.name=value, such as cubic.beta=0.7")
	}
	a, err := model.New(algo)
	if err != nil {
		return paramSetting{}, unknownAlgorithm(algo, err)
	}
	var names []string
	for _, p := range a.Params() {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, name) {
		if len(names) == 0 {
			return paramSetting{}, fmt.Errorf("%s has no parameters", algo)
		}
		return paramSetting{}, fmt.Errorf("%s has no parameter %q; want %s", algo, name, oneOf(names))
	}
	v, err := model.ParseNumber(val)
	if err != nil {
		return paramSetting{}, fmt.Errorf("%w", problem(err))
	}
	if err := a.Set(name, v); err != nil {
		return paramSetting{}, fmt.Errorf("%v", strings.TrimPrefix(err.Error(), model.ErrParam.Error()+": "))
	}
	return paramSetting{text: s, algo: algo, name: name, value: v}, nil
}

func paramFlag(usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: "param", Value: &paramsValue{}, Usage: usage + " (repeatable; see tcpfluid algos)"}
}

func paramsOf(c *cli.Context) []paramSetting { return flagValue[*paramsValue](c, "param").v }

// paramMap turns the --param flags into a per-algorithm map.
func paramMap(c *cli.Context) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, p := range paramsOf(c) {
		if out[p.algo] == nil {
			out[p.algo] = map[string]float64{}
		}
		out[p.algo][p.name] = p.value
	}
	return out
}

// checkParamTargets refuses a --param for an algorithm that none of algos runs.
func checkParamTargets(c *cli.Context, algos []string) error {
	for _, p := range paramsOf(c) {
		if !slices.Contains(algos, p.algo) {
			return usagef("--param %s: no flow runs %s (the algorithms here: %s)", p.text, p.algo, strings.Join(algos, ", "))
		}
	}
	return nil
}

// boolFlag is a switch; its help shows no "(default: false)".
func boolFlag(name, usage string) *cli.BoolFlag {
	return &cli.BoolFlag{Name: name, Usage: usage, DisableDefaultText: true}
}

// stringFlag is free text (a file or directory name): placeholder in the usage.
func stringFlag(name, def, usage string) *cli.StringFlag {
	return &cli.StringFlag{Name: name, Value: def, Usage: usage}
}

// workersFlag is the number of runs at once.
func workersFlag() *cli.GenericFlag {
	f := intFlag("workers", "", 1, 4096, "runs at once")
	f.DefaultText = "all cores"
	return f
}

// splitList splits a comma list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// showValue writes a flag's value for an error: bare, or quoted when it is empty or has
// blanks.
func showValue(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"'") {
		return strconv.Quote(s)
	}
	return s
}

// flagErr is the usage error of flag name with its value text: `--rtt 0: want ...`.
func flagErr(c *cli.Context, name, format string, args ...any) error {
	text := ""
	if g, ok := c.Generic(name).(fmt.Stringer); ok {
		text = g.String()
	}
	return usagef("--%s %s: %s", name, showValue(text), fmt.Sprintf(format, args...))
}
