package sweep

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// ErrMerge is wrapped by every error of Merge and of reading sweep outputs.
var ErrMerge = errors.New("sweep outputs do not merge")

// Merge merges the outputs of a sweep's shards into the output of the whole sweep. The
// parts must come from one sweep: the same format (when read), scenario, engine and
// options, seed, replications, axes with their values, metrics and fingerprint; each part's
// rows must belong to its shard; and together they must hold every point of the grid
// exactly once. Errors name the part (its Source, else "part N") and what differs. The
// result has the rows sorted by point, no shard and no format.
func Merge(parts ...*Table) (*Table, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: no sweep outputs given", ErrMerge)
	}
	name := func(i int) string {
		if parts[i].Source != "" {
			return parts[i].Source
		}
		return fmt.Sprintf("part %d", i+1)
	}
	first := parts[0]
	m := *first
	m.Shard, m.Shards, m.Format, m.Source, m.Rows = 0, 1, "", "", nil
	byPoint := map[int]int{} // point → part
	var rows []Row
	for i, t := range parts {
		if err := sameSweep(first, t); err != nil {
			return nil, fmt.Errorf("%w: %s and %s come from different sweeps: %s", ErrMerge, name(i), name(0), err)
		}
		for _, r := range t.Rows {
			if t.Shards > 1 && r.Point%t.Shards != t.Shard {
				return nil, fmt.Errorf("%w: %s is shard %d/%d but holds point %d, which belongs to shard %d/%d", ErrMerge, name(i), t.Shard, t.Shards, r.Point, r.Point%t.Shards, t.Shards)
			}
			if j, dup := byPoint[r.Point]; dup {
				return nil, fmt.Errorf("%w: point %d is in both %s and %s (a shard given twice, or shards of different splits?)", ErrMerge, r.Point, name(j), name(i))
			}
			byPoint[r.Point] = i
			rows = append(rows, r)
		}
	}
	m.Rows = slices.SortedFunc(slices.Values(rows), func(a, b Row) int { return a.Point - b.Point })
	if err := m.checkGrid(parts); err != nil {
		return nil, err
	}
	return &m, nil
}

// sameSweep says how part t differs from part a, or nil.
func sameSweep(a, t *Table) error {
	names := func(axes []Axis) []string {
		out := make([]string, len(axes))
		for k, x := range axes {
			out[k] = x.Name
		}
		return out
	}
	switch {
	case t.Format != a.Format:
		return fmt.Errorf("format %s, not %s (merge outputs of one --format)", t.Format, a.Format)
	case t.Scenario != a.Scenario:
		return fmt.Errorf("scenario %s, not %s", t.Scenario, a.Scenario)
	case t.Engine != a.Engine:
		return fmt.Errorf("engine %s, not %s", t.Engine, a.Engine)
	case t.Options != a.Options:
		return fmt.Errorf("engine options %q, not %q", t.Options, a.Options)
	case t.Seed != a.Seed:
		return fmt.Errorf("seed %d, not %d", t.Seed, a.Seed)
	case t.Replications != a.Replications:
		return fmt.Errorf("%d replications, not %d", t.Replications, a.Replications)
	case !slices.Equal(names(t.Axes), names(a.Axes)):
		return fmt.Errorf("axes %v, not %v", names(t.Axes), names(a.Axes))
	case !slices.Equal(t.Metrics, a.Metrics):
		return fmt.Errorf("metrics %v, not %v", t.Metrics, a.Metrics)
	}
	for k := range t.Axes {
		if !slices.Equal(t.Axes[k].Values, a.Axes[k].Values) {
			return fmt.Errorf("axis %s = %v, not %v", t.Axes[k].Name, t.Axes[k].Values, a.Axes[k].Values)
		}
	}
	if t.Fingerprint != a.Fingerprint {
		return fmt.Errorf("fingerprint %s, not %s (another base scenario, algorithm parameters or bottleneck)", t.Fingerprint, a.Fingerprint)
	}
	if !maps.Equal(t.Hints, a.Hints) {
		return fmt.Errorf("hints differ")
	}
	return nil
}

// checkGrid checks that the rows are exactly the points of the grid, each with its values.
// Missing points are looked for first and named with the shards that would hold them.
func (m *Table) checkGrid(parts []*Table) error {
	n := m.Points()
	var missing []int
	j := 0
	count := 0
	for i := range n {
		if j < len(m.Rows) && m.Rows[j].Point == i {
			j++
			continue
		}
		count++
		if len(missing) < 10 {
			missing = append(missing, i)
		}
	}
	if count > 0 {
		hint := " (is a shard missing?)"
		if shards := parts[0].Shards; shards > 1 && !slices.ContainsFunc(parts, func(t *Table) bool { return t.Shards != shards }) {
			var absent []string
			for k := range shards {
				if !slices.ContainsFunc(parts, func(t *Table) bool { return t.Shard == k }) {
					absent = append(absent, fmt.Sprintf("%d/%d", k, shards))
				}
			}
			if len(absent) > 0 {
				hint = fmt.Sprintf(" (shards %v are missing)", absent)
			}
		}
		return fmt.Errorf("%w: %d of %d points missing, the first %v%s", ErrMerge, count, n, missing, hint)
	}
	p := plan{Spec: Spec{Axes: m.Axes}}
	for _, r := range m.Rows {
		if r.Point >= n {
			return fmt.Errorf("%w: point %d is outside the grid of %d points", ErrMerge, r.Point, n)
		}
		if want := p.values(r.Point); !slices.Equal(r.Params, want) {
			return fmt.Errorf("%w: point %d has %s, the grid has %s there", ErrMerge, r.Point, pointKey(m.Axes, r.Params), pointKey(m.Axes, want))
		}
	}
	return nil
}
