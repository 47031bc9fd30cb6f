package report

import (
	_ "embed" // the vendored ECharts build
	"fmt"
	"os"
	"path/filepath"
)

// EChartsVersion is the version of the ECharts build embedded in this
// package (third_party/echarts/echarts.min.js, the npm package "echarts" as
// pinned in the module's package.json).
const EChartsVersion = "5.6.0"

// embeddedECharts is the ECharts build that EChartsInline and EChartsLocal use
// unless Options.EChartsFile names another. It is Apache-2.0 licensed; its
// LICENSE and NOTICE are next to it in third_party/echarts.
//
//go:embed third_party/echarts/echarts.min.js
var embeddedECharts []byte

// EChartsEnv names the environment variable that FindECharts reads first.
const EChartsEnv = "TCPFLUID_ECHARTS"

// eChartsInNodeModules is where npm installs the ECharts package.
var eChartsInNodeModules = filepath.Join("node_modules", "echarts", "dist", "echarts.min.js")

// FindECharts returns the path of an echarts.min.js other than the embedded
// one, for callers that want to use a build of their own: $TCPFLUID_ECHARTS
// when set, otherwise node_modules/echarts/dist/echarts.min.js in the working
// directory or the nearest parent that has one, looking no higher than the
// Go module root (the first directory holding go.mod). It returns an error
// wrapping ErrNoECharts when there is none, or when $TCPFLUID_ECHARTS names a
// file that does not exist. Write does not call it: without
// Options.EChartsFile it uses the embedded build.
func FindECharts() (string, error) {
	if env := os.Getenv(EChartsEnv); env != "" {
		if err := isFile(env); err != nil {
			return "", fmt.Errorf("%w: $%s = %q: %v", ErrNoECharts, EChartsEnv, env, err)
		}
		return env, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoECharts, err)
	}
	for dir := wd; ; {
		candidate := filepath.Join(dir, eChartsInNodeModules)
		if isFile(candidate) == nil {
			return candidate, nil
		}
		parent := filepath.Dir(dir)
		if isFile(filepath.Join(dir, "go.mod")) == nil || parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("%w: $%s is unset and there is no %s from %s up to the module root", ErrNoECharts, EChartsEnv, eChartsInNodeModules, wd)
}

// loadECharts returns the echarts.min.js that EChartsLocal and EChartsInline
// use: Options.EChartsFile, or else the embedded build.
func loadECharts(o Options) ([]byte, error) {
	if o.EChartsFile == "" {
		return embeddedECharts, nil
	}
	js, err := os.ReadFile(o.EChartsFile)
	if err != nil {
		return nil, fmt.Errorf("%w: Options.EChartsFile = %q: %v", ErrNoECharts, o.EChartsFile, err)
	}
	return js, nil
}

func isFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	return nil
}
