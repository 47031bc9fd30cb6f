package report

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// browserNames are the headless browsers the test looks for, in order.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// browserTimeout bounds one headless run; a page normally renders in about
// the 5 s of virtual time granted.
const browserTimeout = 45 * time.Second

// missing fails the test in CI, where the browser and ECharts are installed
// by .ci/run, and skips it elsewhere.
func missing(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s; .ci/run must install chromium (apt-get install -y chromium) and ECharts (npm ci at the module root)", what)
	}
	t.Skip(what)
}

// TestBrowserRendersEveryChart opens the sample report in headless Chromium,
// with ECharts inlined and copied alongside, and reads back the attributes
// that the page's closing script sets on every chart: each must hold an
// ECharts instance with all its series and exactly the drawable points.
func TestBrowserRendersEveryChart(t *testing.T) {
	var browser string
	for _, name := range browserNames {
		if path, err := exec.LookPath(name); err == nil {
			browser = path
			break
		}
	}
	if browser == "" {
		missing(t, "no headless browser on PATH (looked for chromium, chromium-browser, google-chrome)")
	}
	echarts, err := FindECharts()
	if err != nil {
		missing(t, err.Error())
	}

	wantSeries := make(map[string]int)
	for _, s := range samplePage().Sections {
		for _, f := range s.Figures {
			wantSeries[f.ID] = len(f.Series)
		}
		for _, h := range s.Heatmaps {
			wantSeries[h.ID] = 1
		}
	}
	figureTag := regexp.MustCompile(`<figure class="chart" id="([^"]+)" data-chart="[^"]+" data-rendered="([^"]*)" data-series="(\d+)" data-points="(\d+)">`)

	for _, mode := range []EChartsMode{EChartsInline, EChartsLocal} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := writeSample(t, Options{ECharts: mode, EChartsFile: echarts, Static: []string{}})
			ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, browser,
				"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--user-data-dir="+t.TempDir(), "--virtual-time-budget=5000", "--dump-dom",
				"file://"+filepath.Join(dir, "index.html"))
			var stderr limitedBuffer
			cmd.Stderr = &stderr
			dom, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v\nstderr (tail):\n%s", browser, err, stderr.tail())
			}
			seen := make(map[string]bool)
			for _, m := range figureTag.FindAllStringSubmatch(string(dom), -1) {
				id, rendered := m[1], m[2]
				series, _ := strconv.Atoi(m[3])
				points, _ := strconv.Atoi(m[4])
				seen[id] = true
				if rendered != "yes" || series < 1 {
					t.Errorf("chart %s: rendered=%q with %d series; want an ECharts instance with at least one series", id, rendered, series)
				}
				if series != wantSeries[id] {
					t.Errorf("chart %s has %d series, want %d", id, series, wantSeries[id])
				}
				if points != sampleDrawnPoints[id] {
					t.Errorf("chart %s has %d points, want the %d drawable ones", id, points, sampleDrawnPoints[id])
				}
			}
			for id := range wantSeries {
				if !seen[id] {
					t.Errorf("chart %s: no rendering status in the dumped DOM (did the page's script run?)", id)
				}
			}
			t.Logf("%s: %d charts rendered by %s", mode, len(seen), filepath.Base(browser))
		})
	}
}

// limitedBuffer keeps the last bytes written to it: Chromium logs freely to
// stderr, and only the end is useful when it fails.
type limitedBuffer struct{ b []byte }

const limitedBufferSize = 4096

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.b = append(l.b, p...)
	if len(l.b) > limitedBufferSize {
		l.b = l.b[len(l.b)-limitedBufferSize:]
	}
	return len(p), nil
}

func (l *limitedBuffer) tail() string { return string(l.b) }
