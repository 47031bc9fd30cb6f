package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tcpfluid/tcpfluid/model"
)

// ParseShard parses "k/n": shard k of n, 0 <= k < n.
func ParseShard(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(strings.TrimSpace(ks))
	n, errN := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || errK != nil || errN != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("%w: shard %q, want k/n with whole numbers 0 <= k < n, e.g. 0/4", model.ErrSettings, s)
	}
	return k, n, nil
}
