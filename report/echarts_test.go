package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded ECharts is the build that package.json pins, with its licence files
// next to it, and the checksum its README records; when `npm ci` has been run, the
// installed file is byte for byte the vendored one.
func TestVendoredECharts(t *testing.T) {
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join("..", "package.json")), &pkg); err != nil {
		t.Fatal(err)
	}
	if got := pkg.Dependencies["echarts"]; got != EChartsVersion {
		t.Errorf("package.json pins echarts %q, EChartsVersion is %q", got, EChartsVersion)
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join("..", "package-lock.json")), &lock); err != nil {
		t.Fatal(err)
	}
	if got := lock.Packages["node_modules/echarts"].Version; got != EChartsVersion {
		t.Errorf("package-lock.json has echarts %q, EChartsVersion is %q", got, EChartsVersion)
	}
	if want := `version="` + EChartsVersion + `"`; !bytes.Contains(embeddedECharts, []byte(want)) {
		t.Errorf("the embedded echarts.min.js does not contain %s", want)
	}
	if !bytes.HasPrefix(embeddedECharts, []byte("\n/*\n* Licensed to the Apache Software Foundation")) {
		t.Errorf("the embedded echarts.min.js lost its Apache licence header")
	}
	sum := sha256.Sum256(embeddedECharts)
	readme := string(readFile(t, filepath.Join("third_party", "echarts", "README.md")))
	if !strings.Contains(readme, hex.EncodeToString(sum[:])) || !strings.Contains(readme, EChartsVersion) {
		t.Errorf("third_party/echarts/README.md does not record version %s and SHA-256 %x", EChartsVersion, sum)
	}
	for _, f := range []string{"LICENSE", "NOTICE", "LICENSE-zrender", "LICENSE-d3", "LICENSE-tslib"} {
		if st, err := os.Stat(filepath.Join("third_party", "echarts", f)); err != nil || st.Size() == 0 {
			t.Errorf("third_party/echarts/%s missing or empty: %v", f, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join("..", eChartsInNodeModules)); err == nil && !bytes.Equal(b, embeddedECharts) {
		t.Errorf("%s (npm ci) differs from the vendored third_party/echarts/echarts.min.js", eChartsInNodeModules)
	}
}

// Without Options.EChartsFile, inline and local use the embedded build, whatever
// $TCPFLUID_ECHARTS says and whether or not there is a node_modules.
func TestEmbeddedEChartsByDefault(t *testing.T) {
	t.Setenv(EChartsEnv, filepath.Join(t.TempDir(), "nowhere.js"))
	t.Chdir(t.TempDir())
	dir := writeSample(t, Options{Static: []string{}})
	html := readFile(t, filepath.Join(dir, "index.html"))
	if !bytes.Contains(html, []byte(`version="`+EChartsVersion+`"`)) || bytes.Contains(html, []byte("<script src=")) {
		t.Errorf("the default page does not inline the embedded ECharts %s", EChartsVersion)
	}
	dir = writeSample(t, Options{ECharts: EChartsLocal, Static: []string{}})
	if js := readFile(t, filepath.Join(dir, "echarts.min.js")); !bytes.Equal(js, embeddedECharts) {
		t.Errorf("EChartsLocal copied %d bytes, not the embedded build", len(js))
	}
}

// An interactive linear axis labels its ticks with the decimals of its step, whatever
// its first tick: a utilisation axis from 0 to 1 in steps of 0.2 reads 0, 0.2, 0.4, ...,
// not 0, 0, 0, 1, 1, 1 (the decimals of the first label, "0").
func TestEChartsAxisDecimals(t *testing.T) {
	for _, c := range []struct {
		lo, hi, fixedMax float64
		want             string
	}{
		{0, 0.98, 1, "toFixed(1)"},
		{0.5, 0.98, 1, "toFixed(1)"},
		{0, 950, math.Inf(1), "toFixed(0)"},
		{0, 0.0975, math.Inf(1), "toFixed(2)"},
	} {
		a := linearAxis(c.lo, c.hi, c.fixedMax, false)
		label := echartsAxis(a, "y", 40)["axisLabel"].(map[string]any)
		if f := fmt.Sprint(label["formatter"]); !strings.Contains(f, c.want) {
			t.Errorf("axis over [%g, %g] (top %g), ticks %v: formatter %s, want %s", c.lo, c.hi, c.fixedMax, a.ticks, f, c.want)
		}
	}
}
