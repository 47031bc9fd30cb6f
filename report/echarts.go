package report

import (
	"fmt"
	"os"
	"path/filepath"
)

// EChartsEnv names the environment variable that FindECharts reads first.
const EChartsEnv = "TCPFLUID_ECHARTS"

// eChartsInNodeModules is where npm installs the ECharts build that
// EChartsLocal and EChartsInline use.
var eChartsInNodeModules = filepath.Join("node_modules", "echarts", "dist", "echarts.min.js")

// FindECharts returns the path of an echarts.min.js: $TCPFLUID_ECHARTS when
// set, otherwise node_modules/echarts/dist/echarts.min.js in the working
// directory or the nearest parent that has one, looking no higher than the
// Go module root (the first directory holding go.mod). It returns an error
// wrapping ErrNoECharts when there is none, or when $TCPFLUID_ECHARTS names a
// file that does not exist.
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
