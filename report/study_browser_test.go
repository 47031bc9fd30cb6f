package report

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The main job's page works from a fresh clone with nothing but Go: no
// node_modules and no $TCPFLUID_ECHARTS. The test runs `go run ./cmd/tcpfluid`
// in a copy of the module's files (those git tracks or would track, so no
// node_modules), and the same program built, copied to a directory of its own
// under the system's temporary directory and run there, and opens each
// report in headless Chromium: every chart must be drawn by ECharts with all
// its series and some data.
func TestStudyPageWorksOffline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the default study twice")
	}
	browser := findBrowser(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// The environment of a fresh machine: no ECharts to find.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, EChartsEnv+"=") {
			env = append(env, kv)
		}
	}
	run := func(t *testing.T, dir string, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		var out limitedBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out.tail())
		}
	}

	t.Run("go run in a fresh copy", func(t *testing.T) {
		t.Parallel()
		clone := filepath.Join(t.TempDir(), "tcpfluid")
		copyModule(t, root, clone)
		if _, err := os.Stat(filepath.Join(clone, "node_modules")); err == nil {
			t.Fatal("the copy has a node_modules")
		}
		run(t, clone, goTool, "run", "./cmd/tcpfluid", "--out", "tcpfluid-report")
		checkStudyPage(t, browser, filepath.Join(clone, "tcpfluid-report"))
	})
	t.Run("binary copied to a temporary directory", func(t *testing.T) {
		t.Parallel()
		build := t.TempDir()
		run(t, root, goTool, "build", "-o", filepath.Join(build, "tcpfluid"), "./cmd/tcpfluid")
		away, err := os.MkdirTemp(os.TempDir(), "tcpfluid-binary-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(away) })
		copyFile(t, filepath.Join(build, "tcpfluid"), filepath.Join(away, "tcpfluid"), 0o755)
		run(t, away, filepath.Join(away, "tcpfluid"), "--out", "report")
		checkStudyPage(t, browser, filepath.Join(away, "report"))
	})
}

// checkStudyPage opens dir/index.html and checks that it loads ECharts from
// nowhere but itself and that every chart, one per static figure, is drawn
// with data.
func checkStudyPage(t *testing.T, browser, dir string) {
	t.Helper()
	html := readFile(t, filepath.Join(dir, "index.html"))
	if bytes.Contains(html, []byte("<script src=")) {
		t.Error("index.html loads a script from elsewhere; want ECharts inlined")
	}
	svgs, _ := filepath.Glob(filepath.Join(dir, "figures", "*.svg"))
	pdfs, _ := filepath.Glob(filepath.Join(dir, "figures", "*.pdf"))
	if len(svgs) == 0 || len(pdfs) != len(svgs) {
		t.Errorf("%d SVG and %d PDF figures; want one of each per chart", len(svgs), len(pdfs))
	}
	states := chartStates(headless(t, browser, nil, "file://"+filepath.Join(dir, "index.html"), "--dump-dom"))
	if len(states) != len(svgs) {
		t.Errorf("%d charts on the page, %d static figures; want one chart per figure", len(states), len(svgs))
	}
	for _, svg := range svgs {
		id := strings.TrimSuffix(filepath.Base(svg), ".svg")
		s, ok := states[id]
		switch {
		case !ok:
			t.Errorf("chart %s: not on the page, or no rendering status", id)
		case s.rendered != "yes" || s.series < 1 || s.points < 1:
			t.Errorf("chart %s: rendered=%q with %d series and %d points; want it drawn with data", id, s.rendered, s.series, s.points)
		}
	}
	t.Logf("%d charts drawn from %s", len(states), dir)
}

// copyModule copies the files of the module at root that git tracks or
// would track (so not node_modules, tcpfluid-report/ or binaries) to dst.
func copyModule(t *testing.T, root, dst string) {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git ls-files in %s: %v", root, err)
	}
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, rel)
		st, err := os.Stat(src)
		if err != nil || st.IsDir() {
			continue // deleted in the work tree, or a submodule
		}
		copyFile(t, src, filepath.Join(dst, rel), st.Mode().Perm())
	}
}

func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
