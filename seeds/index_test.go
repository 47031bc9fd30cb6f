package seeds

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/validate"
)

// Index is complete: every seed's scenarios are built-ins with a headline (seed 003's is
// its Table 3), its notebook exists, and every built-in named after a seed is listed.
func TestIndex(t *testing.T) {
	listed := map[string]bool{}
	for _, s := range Index {
		for _, name := range s.Scenarios {
			listed[name] = true
			if !strings.HasPrefix(name, "seed"+s.ID) {
				t.Errorf("seed %s lists %s", s.ID, name)
			}
			if _, err := model.Builtin(name); err != nil {
				t.Errorf("seed %s: %v", s.ID, err)
			}
			if _, ok := validate.HeadlineOf(name); !ok && s.ID != "003" {
				t.Errorf("seed %s: %s has no headline", s.ID, name)
			}
		}
		if _, err := os.Stat(filepath.Join("..", s.Notebook)); err != nil {
			t.Errorf("seed %s: notebook: %v", s.ID, err)
		}
	}
	for _, name := range model.BuiltinNames() {
		if strings.HasPrefix(name, "seed") && !listed[name] {
			t.Errorf("built-in %s is in no seed's Index entry", name)
		}
	}
	if !slices.IsSortedFunc(Index, func(a, b Seed) int { return strings.Compare(a.ID, b.ID) }) {
		t.Errorf("Index is not in seed order")
	}
}
