package model

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrUnit is returned (wrapped) for a quantity that does not parse: a malformed number, an
// unknown unit, or a value that is not finite.
var ErrUnit = errors.New("invalid quantity")

// Accepted forms, quoted in every parse error so the user sees what to write instead.
const (
	rateForms     = "a number of bit/s with an optional unit: 100Mbps, 1Gbps, 2.5Mb, 1mb, 500kbps, 10MBps (B = bytes), 1e8"
	durationForms = "a number of seconds with an optional unit: 10ms, 1.5s, 100us, 2min, 0.01"
	sizeForms     = "a number of bytes with an optional unit: 1460B, 64KB (= 64000 bytes), 64KiB (= 65536 bytes), 50MB, 1460"
	bufferForms   = "packets (20, 20pkts) or a multiple of the bandwidth-delay product (1bdp, 0.5bdp)"
	numberForms   = "a plain number such as 1e-6 or 0.01"
)

// decimalPrefix maps an SI prefix letter to its factor. Rates follow ns-2, where "1mb"
// means one megabit per second: a milli-bit per second is never meant, so m and M agree.
var decimalPrefix = map[byte]float64{'k': 1e3, 'K': 1e3, 'm': 1e6, 'M': 1e6, 'g': 1e9, 'G': 1e9, 't': 1e12, 'T': 1e12}

// splitQuantity splits "2.5 Mbps" into the number 2.5 and the unit "Mbps". The number must
// be finite; the unit is what follows it with surrounding blanks removed.
func splitQuantity(s string) (float64, string, error) {
	t := strings.TrimSpace(s)
	end := numberPrefix(t)
	if end == 0 {
		return 0, "", errors.New("no number")
	}
	v, err := strconv.ParseFloat(t[:end], 64)
	if err != nil {
		return 0, "", fmt.Errorf("number %q out of range", t[:end])
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, "", errors.New("not a finite number")
	}
	return v, strings.TrimSpace(t[end:]), nil
}

// numberPrefix returns the length of the decimal floating-point literal at the start of s:
// an optional sign, digits with at most one point, and an optional exponent. It never
// consumes a letter that is not part of an exponent, so "1e-6" is a number and "1Gbps"
// stops before the G.
func numberPrefix(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return i
}

// UnitError is the error of a quantity that does not parse: what was being read (Kind:
// rate, duration, size, buffer or number), the Input, what is wrong with it (Cause) and the
// accepted forms (Forms). It wraps ErrUnit. Error gives one line: `duration "10 parsecs":
// unknown unit "parsecs"; want ...`; a caller that names the input itself (a command-line
// flag) can use Problem, the part after the input.
type UnitError struct {
	Kind, Input, Cause, Forms string
}

func (e *UnitError) Error() string {
	return fmt.Sprintf("%v: %s %q: %s", ErrUnit, e.Kind, e.Input, e.Problem())
}

// Problem is the message without the kind and the input: `unknown unit "parsecs"; want ...`.
func (e *UnitError) Problem() string { return e.Cause + "; want " + e.Forms }

func (e *UnitError) Unwrap() error { return ErrUnit }

func unitError(kind, input, forms string, cause error) error {
	return &UnitError{Kind: kind, Input: input, Cause: cause.Error(), Forms: forms}
}

// ParseRate parses a bit rate and returns bit/s. A plain number is bit/s. Units are an
// optional decimal prefix (k, M, G, T; m is read as M, following ns-2's "1mb"), then b or
// bit(s) for bits or B or byte(s) for bytes (× 8), then an optional "ps" or "/s":
// 100Mbps, 1Gbps, 2.5Mb, 1mb, 500kbps, 10MB/s.
func ParseRate(s string) (float64, error) {
	v, unit, err := splitQuantity(s)
	if err != nil {
		return 0, unitError("rate", s, rateForms, err)
	}
	f, ok := rateFactor(unit)
	if !ok {
		return 0, unitError("rate", s, rateForms, fmt.Errorf("unknown unit %q", unit))
	}
	return finiteProduct("rate", s, rateForms, v, f)
}

func rateFactor(unit string) (float64, bool) {
	if unit == "" {
		return 1, true
	}
	for _, per := range []string{"ps", "/s"} {
		if strings.HasSuffix(unit, per) {
			unit = strings.TrimSuffix(unit, per)
			break
		}
	}
	prefix := 1.0
	if len(unit) > 1 {
		if f, ok := decimalPrefix[unit[0]]; ok {
			prefix, unit = f, unit[1:]
		}
	}
	switch unit {
	case "b", "bit", "bits":
		return prefix, true
	case "B", "byte", "bytes":
		return 8 * prefix, true
	}
	return 0, false
}

// ParseDuration parses a time and returns seconds. A plain number is seconds; units are
// ns, us (or µs), ms, s, min and h.
func ParseDuration(s string) (float64, error) {
	v, unit, err := splitQuantity(s)
	if err != nil {
		return 0, unitError("duration", s, durationForms, err)
	}
	var f float64
	switch unit {
	case "", "s", "sec":
		f = 1
	case "ms":
		f = 1e-3
	case "us", "µs", "μs":
		f = 1e-6
	case "ns":
		f = 1e-9
	case "min":
		f = 60
	case "h":
		f = 3600
	default:
		return 0, unitError("duration", s, durationForms, fmt.Errorf("unknown unit %q", unit))
	}
	return finiteProduct("duration", s, durationForms, v, f)
}

// ParseSize parses an amount of data and returns bytes. A plain number is bytes. Decimal
// units are powers of 1000 (KB = 1000 B, MB = 10^6 B, GB = 10^9 B, TB; kB is KB); binary
// units are powers of 1024 (KiB, MiB, GiB, TiB). A lower-case b (bits) is rejected rather than guessed.
func ParseSize(s string) (float64, error) {
	v, unit, err := splitQuantity(s)
	if err != nil {
		return 0, unitError("size", s, sizeForms, err)
	}
	var f float64
	switch unit {
	case "", "B", "byte", "bytes":
		f = 1
	case "KB", "kB":
		f = 1e3
	case "MB":
		f = 1e6
	case "GB":
		f = 1e9
	case "TB":
		f = 1e12
	case "KiB":
		f = 1 << 10
	case "MiB":
		f = 1 << 20
	case "GiB":
		f = 1 << 30
	case "TiB":
		f = 1 << 40
	default:
		return 0, unitError("size", s, sizeForms, fmt.Errorf("unknown unit %q", unit))
	}
	return finiteProduct("size", s, sizeForms, v, f)
}

// ParseBuffer parses a queue limit: packets (20, 20pkts, 20packets) or a multiple of the
// link's bandwidth-delay product (1bdp, 0.5BDP). Exactly one of the results is set from
// the input; the other is 0.
func ParseBuffer(s string) (pkts, bdp float64, err error) {
	v, unit, err := splitQuantity(s)
	if err != nil {
		return 0, 0, unitError("buffer", s, bufferForms, err)
	}
	switch strings.ToLower(unit) {
	case "", "p", "pkt", "pkts", "packet", "packets":
		return v, 0, nil
	case "bdp":
		return 0, v, nil
	}
	return 0, 0, unitError("buffer", s, bufferForms, fmt.Errorf("unknown unit %q", unit))
}

// Unit lists of the quantities, quoted when a unit is required and missing.
const (
	rateUnits     = "bps, kbps, Mbps, Gbps, Tbps (bits; B for bytes: MBps)"
	durationUnits = "ns, us, ms, s, min, h"
	sizeUnits     = "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB"
)

// requireUnit refuses a bare number other than zero (the same in every unit): where a
// reader could take "100" for milliseconds as easily as for seconds, the unit must be said.
// The error shows the number with each of the example units.
func requireUnit(kind, s, units string, examples ...string) error {
	v, unit, err := splitQuantity(s)
	if err != nil || unit != "" || v == 0 {
		return nil // the parser reports malformed input; units and zero are fine
	}
	forms := make([]string, len(examples))
	for i, u := range examples {
		forms[i] = strings.TrimSpace(s) + u
	}
	return &UnitError{Kind: kind, Input: s, Cause: "no unit",
		Forms: fmt.Sprintf("one of %s, such as %s", units, strings.Join(forms, " or "))}
}

// ParseRateUnit is ParseRate for input that must carry its unit (command-line flags): a
// bare number other than 0 is an error listing the units.
func ParseRateUnit(s string) (float64, error) {
	if err := requireUnit("rate", s, rateUnits, "Mbps"); err != nil {
		return 0, err
	}
	return ParseRate(s)
}

// ParseDurationUnit is ParseDuration for input that must carry its unit: "100" is an
// error (100 s or 100 ms?), "100ms" and "0" are not.
func ParseDurationUnit(s string) (float64, error) {
	if err := requireUnit("duration", s, durationUnits, "s", "ms"); err != nil {
		return 0, err
	}
	return ParseDuration(s)
}

// ParseSizeUnit is ParseSize for input that must carry its unit: a bare number other than
// 0 is an error listing the units.
func ParseSizeUnit(s string) (float64, error) {
	if err := requireUnit("size", s, sizeUnits, "B"); err != nil {
		return 0, err
	}
	return ParseSize(s)
}

// ParseBDP parses a buffer that must be a multiple of the bandwidth-delay product
// ("0.5bdp"); packets and bare numbers are errors.
func ParseBDP(s string) (float64, error) {
	pkts, bdp, err := ParseBuffer(s)
	if err != nil {
		return 0, err
	}
	if v, unit, _ := splitQuantity(s); unit == "" || pkts != 0 {
		if v == 0 && unit == "" {
			return 0, nil
		}
		return 0, &UnitError{Kind: "buffer", Input: s, Cause: "not a multiple of the bandwidth-delay product",
			Forms: "a number with the unit bdp, such as 1bdp or 0.5bdp"}
	}
	return bdp, nil
}

// ParseNumber parses a plain number without a unit, such as a loss rate (1e-6) or an
// algorithm parameter. Range checks belong to the caller, which knows the allowed range.
func ParseNumber(s string) (float64, error) {
	v, unit, err := splitQuantity(s)
	if err != nil {
		return 0, unitError("number", s, numberForms, err)
	}
	if unit != "" {
		return 0, unitError("number", s, numberForms, fmt.Errorf("unexpected unit %q", unit))
	}
	return v, nil
}

func finiteProduct(kind, input, forms string, v, f float64) (float64, error) {
	r := v * f
	if math.IsInf(r, 0) {
		return 0, unitError(kind, input, forms, errors.New("overflows float64"))
	}
	return r, nil
}

// FormatRate writes bit/s for people: 1e8 → "100 Mb/s", 1.049e7 → "10.49 Mb/s". ParseRate
// reads the result back (to four significant digits).
func FormatRate(bps float64) string {
	return formatSI(bps, "b/s", []string{"", "k", "M", "G", "T"})
}

// FormatSize writes bytes for people with decimal prefixes: 5e7 → "50 MB".
func FormatSize(bytes float64) string {
	return formatSI(bytes, "B", []string{"", "K", "M", "G", "T"})
}

// FormatDuration writes seconds for people: 0.01 → "10 ms", 1.5 → "1.5 s".
func FormatDuration(s float64) string {
	a := math.Abs(s)
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0) || a == 0 || a >= 1:
		return trimFloat(s) + " s"
	case a >= 1e-3:
		return trimFloat(s*1e3) + " ms"
	case a >= 1e-6:
		return trimFloat(s*1e6) + " us"
	}
	return trimFloat(s*1e9) + " ns"
}

func formatSI(v float64, unit string, prefixes []string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return trimFloat(v) + " " + unit
	}
	i := 0
	// Round first so 999999 prints as "1 M…" rather than "1000 k…".
	for i < len(prefixes)-1 && math.Abs(round4(v)) >= 1000 {
		v /= 1000
		i++
	}
	return trimFloat(v) + " " + prefixes[i] + unit
}

func round4(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	return r
}

func trimFloat(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
