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
const browserTimeout = 60 * time.Second

// findBrowser returns the headless browser, failing the test in CI (where
// .ci/run installs Debian's chromium) and skipping it elsewhere when there is
// none.
func findBrowser(t *testing.T) string {
	t.Helper()
	for _, name := range browserNames {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	const what = "no headless browser on PATH (looked for chromium, chromium-browser, google-chrome)"
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s; .ci/run must install chromium (apt-get install -y chromium)", what)
	}
	t.Skip(what)
	return ""
}

// headless runs the browser on url with the given extra flags (e.g.
// --dump-dom or --screenshot) and env (nil: the test's environment) and
// returns its standard output.
func headless(t *testing.T, browser string, env []string, url string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=5000",
	}, flags...)
	cmd := exec.CommandContext(ctx, browser, append(args, url)...)
	cmd.Env = env
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\nstderr (tail):\n%s", browser, err, stderr.tail())
	}
	return out
}

// chartState is what the page's closing script records on a chart's <figure>.
type chartState struct {
	rendered       string // "yes" or "no"
	series, points int
	fallback       string // the static figure shown in the chart's place, if any
	fallbackShown  string // "yes" once that image has loaded
}

var (
	figureTag = regexp.MustCompile(`<figure class="chart"[^>]*>`)
	attr      = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
)

// chartStates reads the state of every chart from a DOM dumped after the page
// loaded, by figure ID.
func chartStates(dom []byte) map[string]chartState {
	states := make(map[string]chartState)
	for _, tag := range figureTag.FindAll(dom, -1) {
		a := make(map[string]string)
		for _, m := range attr.FindAllSubmatch(tag, -1) {
			a[string(m[1])] = string(m[2])
		}
		var s chartState
		s.rendered = a["data-rendered"]
		s.series, _ = strconv.Atoi(a["data-series"])
		s.points, _ = strconv.Atoi(a["data-points"])
		s.fallback, s.fallbackShown = a["data-fallback"], a["data-fallback-shown"]
		states[a["id"]] = s
	}
	return states
}

// TestBrowserRendersEveryChart opens the sample report in headless Chromium,
// with the embedded ECharts inlined (the default) and copied alongside, and
// reads back the attributes that the page's closing script sets on every
// chart: each must hold an ECharts instance with all its series and exactly
// the drawable points. With ECharts missing, every chart must show its
// static figure instead.
func TestBrowserRendersEveryChart(t *testing.T) {
	browser := findBrowser(t)
	wantSeries := make(map[string]int)
	for _, s := range samplePage().Sections {
		for _, f := range s.Figures {
			wantSeries[f.ID] = len(f.Series)
		}
		for _, h := range s.Heatmaps {
			wantSeries[h.ID] = 1
		}
	}
	for _, mode := range []EChartsMode{EChartsInline, EChartsLocal} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := writeSample(t, Options{ECharts: mode, Static: []string{}})
			states := chartStates(headless(t, browser, nil, "file://"+filepath.Join(dir, "index.html"), "--dump-dom"))
			for id, want := range wantSeries {
				s, ok := states[id]
				switch {
				case !ok:
					t.Errorf("chart %s: no rendering status in the dumped DOM (did the page's script run?)", id)
				case s.rendered != "yes" || s.series != want:
					t.Errorf("chart %s: rendered=%q with %d series; want an ECharts instance with %d", id, s.rendered, s.series, want)
				case s.points != sampleDrawnPoints[id]:
					t.Errorf("chart %s has %d points, want the %d drawable ones", id, s.points, sampleDrawnPoints[id])
				}
			}
			t.Logf("%s: %d charts rendered by %s", mode, len(states), filepath.Base(browser))
		})
	}
	t.Run("static figures when ECharts is missing", func(t *testing.T) {
		dir := writeSample(t, Options{ECharts: EChartsLocal, Static: []string{"svg", "png"}})
		if err := os.Remove(filepath.Join(dir, "echarts.min.js")); err != nil {
			t.Fatal(err)
		}
		states := chartStates(headless(t, browser, nil, "file://"+filepath.Join(dir, "index.html"), "--dump-dom"))
		for id := range wantSeries {
			s := states[id]
			if s.rendered != "no" || s.fallback != "figures/"+id+".svg" || s.fallbackShown != "yes" {
				t.Errorf("chart %s without ECharts: rendered=%q, fallback %q shown=%q; want figures/%s.svg shown", id, s.rendered, s.fallback, s.fallbackShown, id)
			}
		}
	})
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
