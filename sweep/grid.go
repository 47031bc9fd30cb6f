package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
	"gonum.org/v1/gonum/floats"
)

// Axis is one parameter of a sweep and its values, in the order they are run.
type Axis struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// ParseAxis parses the CLI's --param value name=grid (ParseGrid).
func ParseAxis(s string) (Axis, error) {
	name, grid, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Axis{}, fmt.Errorf("%w: sweep parameter %q: want name=grid such as colo.gamma=0.5:3:6 or rtt=50ms,100ms", model.ErrSettings, s)
	}
	values, err := ParseGrid(name, grid)
	if err != nil {
		return Axis{}, err
	}
	return Axis{Name: name, Values: values}, nil
}

// ParseGrid parses the values of the sweep parameter name from one of
//
//	min:max:count      count values evenly spaced from min to max, both included
//	min:max:count:log  count values evenly spaced on a log scale (min > 0), e.g. p=1e-6:1e-2:5:log
//	v1,v2,...          the values listed, in that order (one value fixes the parameter)
//
// Values are in the parameter's unit: rtt and duration are durations (50ms, 1.5s; a plain
// number is seconds), capacity a rate (10Mbps; plain: bit/s), buffer a multiple of the
// bandwidth-delay product (0.5 or 0.5bdp), p, flows and algorithm parameters plain
// numbers. count is 1 to MaxAxisValues (1 only when min = max), min < max otherwise; values
// are rounded to 12 significant digits and must be distinct and in the parameter's range.
// Errors wrap model.ErrSettings and name the parameter, the value and the allowed range.
func ParseGrid(name, grid string) ([]float64, error) {
	p, err := lookupParam(name)
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: sweep parameter %s = %q: "+format, append([]any{model.ErrSettings, name, grid}, args...)...)
	}
	var values []float64
	if parts := strings.Split(grid, ":"); len(parts) > 1 {
		values, err = parseRange(parts, p.parse, bad)
	} else {
		values, err = parseList(grid, p.parse, bad)
	}
	if err != nil {
		return nil, err
	}
	if err := checkValues(name, p, values); err != nil {
		return nil, err
	}
	return values, nil
}

func parseRange(parts []string, parse func(string) (float64, error), bad func(string, ...any) error) ([]float64, error) {
	if len(parts) > 4 || (len(parts) == 4 && strings.TrimSpace(parts[3]) != "log") || len(parts) == 2 {
		return nil, bad("want min:max:count or min:max:count:log")
	}
	lo, err := parse(parts[0])
	if err != nil {
		return nil, bad("min: %w", err)
	}
	hi, err := parse(parts[1])
	if err != nil {
		return nil, bad("max: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(parts[2]))
	if err != nil || n < 1 || n > MaxAxisValues {
		return nil, bad("count %q, want a whole number from 1 to %d", strings.TrimSpace(parts[2]), MaxAxisValues)
	}
	logScale := len(parts) == 4
	switch {
	case n == 1 && lo != hi:
		return nil, bad("count 1 with min %v != max %v, want min = max (or a count >= 2)", lo, hi)
	case n > 1 && !(lo < hi):
		return nil, bad("min %v >= max %v, want min < max", lo, hi)
	case logScale && !(lo > 0):
		return nil, bad("log spacing from min %v, want min > 0", lo)
	case n == 1:
		return []float64{lo}, nil
	}
	values := make([]float64, n)
	if logScale {
		floats.LogSpan(values, lo, hi)
	} else {
		floats.Span(values, lo, hi)
	}
	for i, v := range values {
		values[i], _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', gridDigits, 64), 64)
	}
	return values, nil
}

func parseList(grid string, parse func(string) (float64, error), bad func(string, ...any) error) ([]float64, error) {
	items := strings.Split(grid, ",")
	if len(items) > MaxAxisValues {
		return nil, bad("%d values, want at most %d", len(items), MaxAxisValues)
	}
	values := make([]float64, len(items))
	for i, item := range items {
		if strings.TrimSpace(item) == "" {
			return nil, bad("value %d is empty, want min:max:count, min:max:count:log or a comma list", i+1)
		}
		v, err := parse(item)
		if err != nil {
			return nil, bad("value %d: %w", i+1, err)
		}
		values[i] = v
	}
	return values, nil
}

// checkValues checks that an axis has values, that they are distinct and in range.
func checkValues(name string, p paramKind, values []float64) error {
	if len(values) == 0 || len(values) > MaxAxisValues {
		return fmt.Errorf("%w: sweep parameter %s: %d values, want 1 to %d", model.ErrSettings, name, len(values), MaxAxisValues)
	}
	seen := make(map[float64]bool, len(values))
	for _, v := range values {
		if seen[v] {
			return fmt.Errorf("%w: sweep parameter %s: value %v appears twice, want distinct values", model.ErrSettings, name, v)
		}
		seen[v] = true
		if err := p.check(v); err != nil {
			return fmt.Errorf("%w: sweep parameter %s = %v: %w", model.ErrSettings, name, v, err)
		}
	}
	return nil
}

// parseBDP reads a multiple of the bandwidth-delay product: 0.5 or 0.5bdp.
func parseBDP(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if len(t) > 3 && strings.EqualFold(t[len(t)-3:], "bdp") {
		t = t[:len(t)-3]
	}
	v, err := model.ParseNumber(t)
	if err != nil {
		return 0, fmt.Errorf("%w (buffer: a multiple of the bandwidth-delay product, 0.5 or 0.5bdp)", err)
	}
	return v, nil
}
