package model_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
)

// Conversions are exact decimal products, so the tolerance is a few float64 ulps.
const scnUnitTol = 1e-12

func TestParseRate(t *testing.T) {
	tests := []struct {
		in   string
		want float64 // bit/s
	}{
		{"100Mbps", 100e6},
		{"1Gbps", 1e9},
		{"2.5Mb", 2.5e6},
		{"1mb", 1e6}, // ns-2: m is mega for rates
		{"500kbps", 500e3},
		{"500Kbit/s", 500e3},
		{"10MBps", 80e6}, // B = bytes
		{"10 MB/s", 80e6},
		{"64kbits", 64e3},
		{"1Tbps", 1e12},
		{"1e8", 1e8},
		{"  45000000  ", 45e6},
		{"100 Mb/s", 100e6},
		{"0", 0},
		{"-5Mbps", -5e6}, // a range error is Validate's, not the parser's
	}
	for _, tt := range tests {
		got, err := model.ParseRate(tt.in)
		if err != nil {
			t.Errorf("ParseRate(%q): %v", tt.in, err)
			continue
		}
		if !scnRelClose(got, tt.want, scnUnitTol) {
			t.Errorf("ParseRate(%q) = %v bit/s, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want float64 // s
	}{
		{"10ms", 0.01},
		{"1.5s", 1.5},
		{"100us", 1e-4},
		{"100µs", 1e-4},
		{"250ns", 250e-9},
		{"2min", 120},
		{"1h", 3600},
		{"0.01", 0.01},
		{"4.01", 4.01},
		{"1e-3s", 1e-3},
		{"3sec", 3},
	}
	for _, tt := range tests {
		got, err := model.ParseDuration(tt.in)
		if err != nil {
			t.Errorf("ParseDuration(%q): %v", tt.in, err)
			continue
		}
		if !scnRelClose(got, tt.want, scnUnitTol) {
			t.Errorf("ParseDuration(%q) = %v s, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want float64 // bytes
	}{
		{"1460B", 1460},
		{"1460", 1460},
		{"552 bytes", 552},
		{"64KB", 64000},
		{"64kB", 64000},
		{"64KiB", 65536},
		{"50MB", 50e6},
		{"4MiB", 4 << 20},
		{"1GB", 1e9},
		{"1GiB", 1 << 30},
	}
	for _, tt := range tests {
		got, err := model.ParseSize(tt.in)
		if err != nil {
			t.Errorf("ParseSize(%q): %v", tt.in, err)
			continue
		}
		if !scnRelClose(got, tt.want, scnUnitTol) {
			t.Errorf("ParseSize(%q) = %v bytes, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseBuffer(t *testing.T) {
	tests := []struct {
		in        string
		pkts, bdp float64
	}{
		{"20", 20, 0},
		{"20pkts", 20, 0},
		{"20 packets", 20, 0},
		{"1bdp", 0, 1},
		{"0.5BDP", 0, 0.5},
	}
	for _, tt := range tests {
		pkts, bdp, err := model.ParseBuffer(tt.in)
		if err != nil || pkts != tt.pkts || bdp != tt.bdp {
			t.Errorf("ParseBuffer(%q) = %v packets, %v bdp, %v; want %v, %v", tt.in, pkts, bdp, err, tt.pkts, tt.bdp)
		}
	}
}

func TestParseNumber(t *testing.T) {
	for in, want := range map[string]float64{"1e-6": 1e-6, "0.01": 0.01, "+2": 2, ".5": 0.5, "5.": 5} {
		got, err := model.ParseNumber(in)
		if err != nil || got != want {
			t.Errorf("ParseNumber(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	type parser func(string) (float64, error)
	buffer := func(s string) (float64, error) { p, _, err := model.ParseBuffer(s); return p, err }
	tests := []struct {
		name  string
		parse parser
		in    string
		want  []string // substrings: the input and the accepted forms
	}{
		{"rate no number", model.ParseRate, "fast", []string{`rate "fast"`, "no number", "100Mbps"}},
		{"rate unknown unit", model.ParseRate, "10 parsecs", []string{`"10 parsecs"`, `unknown unit "parsecs"`, "want"}},
		{"rate per second alone", model.ParseRate, "5ps", []string{`"ps"`}},
		{"rate prefix alone", model.ParseRate, "5M", []string{`unknown unit "M"`}},
		{"rate duration unit", model.ParseRate, "5ms", []string{`unknown unit "ms"`}},
		{"rate empty", model.ParseRate, "", []string{`rate ""`, "no number"}},
		{"rate NaN", model.ParseRate, "NaN", []string{"no number"}},
		{"rate Inf", model.ParseRate, "Inf", []string{"no number"}},
		{"rate overflow", model.ParseRate, "1e308Tbps", []string{"overflows"}},
		{"rate huge exponent", model.ParseRate, "1e999", []string{"out of range"}},
		{"rate two points", model.ParseRate, "1.2.3Mbps", []string{`unknown unit ".3Mbps"`}},
		{"duration unknown", model.ParseDuration, "3 days", []string{`duration "3 days"`, "10ms"}},
		{"size bits", model.ParseSize, "64Kb", []string{`size "64Kb"`, `unknown unit "Kb"`, "64KiB"}},
		{"size unknown", model.ParseSize, "3 pages", []string{`unknown unit "pages"`}},
		{"buffer unknown", buffer, "3MB", []string{`buffer "3MB"`, "1bdp"}},
		{"number with unit", model.ParseNumber, "1e-6s", []string{`unexpected unit "s"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.parse(tt.in)
			scnWantErr(t, err, tt.want...)
			if !errors.Is(err, model.ErrUnit) {
				t.Errorf("error %v does not wrap ErrUnit", err)
			}
			if v != 0 {
				t.Errorf("value on error = %v, want 0", v)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{model.FormatRate(100e6), "100 Mb/s"},
		{model.FormatRate(65535 * 8 / 0.05), "10.49 Mb/s"},
		{model.FormatRate(999999), "1 Mb/s"},
		{model.FormatRate(2.5e9), "2.5 Gb/s"},
		{model.FormatRate(0), "0 b/s"},
		{model.FormatRate(512), "512 b/s"},
		{model.FormatSize(50e6), "50 MB"},
		{model.FormatSize(1460), "1.46 KB"},
		{model.FormatDuration(0.01), "10 ms"},
		{model.FormatDuration(1.5), "1.5 s"},
		{model.FormatDuration(1e-4), "100 us"},
		{model.FormatDuration(2e-8), "20 ns"},
		{model.FormatDuration(0), "0 s"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// Formatting keeps four significant digits, so a round trip is within 5e-4 relative.
func TestFormatRoundTrip(t *testing.T) {
	for _, v := range []float64{1, 999, 1234.5, 45e6, 10485600, 9.87654e11, 3e13} {
		r, err := model.ParseRate(model.FormatRate(v))
		if err != nil || !scnRelClose(r, v, 5e-4) {
			t.Errorf("rate %v → %q → %v, %v", v, model.FormatRate(v), r, err)
		}
		b, err := model.ParseSize(model.FormatSize(v))
		if err != nil || !scnRelClose(b, v, 5e-4) {
			t.Errorf("size %v → %q → %v, %v", v, model.FormatSize(v), b, err)
		}
		d, err := model.ParseDuration(model.FormatDuration(v * 1e-9))
		if err != nil || !scnRelClose(d, v*1e-9, 5e-4) {
			t.Errorf("duration %v → %q → %v, %v", v*1e-9, model.FormatDuration(v*1e-9), d, err)
		}
	}
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"100Mbps", "1mb", "10ms", "1.5s", "64KiB", "1bdp", "1e-6", "-.5e+3GB/s", "1e", "Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		buffer := func(s string) (float64, error) {
			p, b, err := model.ParseBuffer(s)
			return p + b, err
		}
		for _, parse := range []func(string) (float64, error){model.ParseRate, model.ParseDuration, model.ParseSize, model.ParseNumber, buffer} {
			v, err := parse(s)
			if err != nil {
				if !errors.Is(err, model.ErrUnit) {
					t.Fatalf("%q: error %v does not wrap ErrUnit", s, err)
				}
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%q parsed to %v", s, v)
			}
		}
	})
}

func ExampleParseRate() {
	for _, s := range []string{"100Mbps", "2.5Mb", "1mb", "10MBps", "1e8"} {
		bps, err := model.ParseRate(s)
		fmt.Println(s, "=", bps, "bit/s", err)
	}
	// Output:
	// 100Mbps = 1e+08 bit/s <nil>
	// 2.5Mb = 2.5e+06 bit/s <nil>
	// 1mb = 1e+06 bit/s <nil>
	// 10MBps = 8e+07 bit/s <nil>
	// 1e8 = 1e+08 bit/s <nil>
}

func ExampleParseSize() {
	kb, _ := model.ParseSize("64KB")
	kib, _ := model.ParseSize("64KiB")
	fmt.Println(kb, kib)
	// Output: 64000 65536
}

func ExampleFormatRate() {
	fmt.Println(model.FormatRate(65535 * 8 / 0.05))
	// Output: 10.49 Mb/s
}

// The -Unit parsers are the plain ones for input that must say its unit: a bare number is
// an error listing the units (zero excepted, the same in every unit); everything else
// parses as before.
func TestParseWithUnit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		parse func(string) (float64, error)
		in    string
		want  float64
		units string // "" when the input parses
	}{
		{"duration ms", model.ParseDurationUnit, "100ms", 0.1, ""},
		{"duration zero", model.ParseDurationUnit, "0", 0, ""},
		{"duration bare", model.ParseDurationUnit, "100", 0, "ns, us, ms, s, min, h"},
		{"duration bare exponent", model.ParseDurationUnit, "1e-3", 0, "such as 1e-3s or 1e-3ms"},
		{"rate Gbps", model.ParseRateUnit, "1Gbps", 1e9, ""},
		{"rate bare", model.ParseRateUnit, "1e8", 0, "Mbps"},
		{"size B", model.ParseSizeUnit, "1460B", 1460, ""},
		{"size bare", model.ParseSizeUnit, "1460", 0, "KiB"},
		{"bdp", model.ParseBDP, "0.5bdp", 0.5, ""},
		{"bdp zero", model.ParseBDP, "0", 0, ""},
		{"bdp bare", model.ParseBDP, "1", 0, "1bdp"},
		{"bdp packets", model.ParseBDP, "20pkts", 0, "bandwidth-delay product"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.parse(tt.in)
			if tt.units == "" {
				if err != nil || v != tt.want {
					t.Fatalf("%q = %v, %v; want %v", tt.in, v, err, tt.want)
				}
				return
			}
			var ue *model.UnitError
			if !errors.As(err, &ue) || !errors.Is(err, model.ErrUnit) || !strings.Contains(err.Error(), tt.units) || ue.Input != tt.in {
				t.Fatalf("%q: error %v, want a UnitError listing %q", tt.in, err, tt.units)
			}
			if strings.Contains(ue.Problem(), strconv.Quote(tt.in)) {
				t.Errorf("Problem() %q repeats the input", ue.Problem())
			}
		})
	}
	// Malformed input keeps the plain parser's message.
	if _, err := model.ParseDurationUnit("3 days"); err == nil || !strings.Contains(err.Error(), `unknown unit "days"`) {
		t.Errorf("3 days: %v", err)
	}
}
