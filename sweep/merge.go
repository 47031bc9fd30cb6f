package sweep

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// ErrMerge is wrapped by every error of Merge and of reading sweep outputs.
var ErrMerge = errors.New("sweep outputs do not merge")

// Merge merges the outputs of a sweep's shards into the output of the whole sweep:
// every part must have the same axes, metrics and (where known) spec and axis values;
// a point given twice must have identical rows (it is kept once); and every point of the
// grid must be present. Axis values unknown from every part (CSV) are recovered from the
// rows in point order. The result has rows sorted by point and no shard.
func Merge(parts ...*Table) (*Table, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: no sweep outputs given", ErrMerge)
	}
	first := parts[0]
	m := &Table{Metrics: first.Metrics, Shards: 1, Axes: make([]Axis, len(first.Axes))}
	for k, a := range first.Axes {
		m.Axes[k].Name = a.Name
	}
	byPoint := map[int]Row{}
	for i, t := range parts {
		if err := m.absorbHeader(t, i); err != nil {
			return nil, err
		}
		for _, r := range t.Rows {
			if t.Shards > 1 && r.Point%t.Shards != t.Shard {
				return nil, fmt.Errorf("%w: part %d is shard %d/%d but holds point %d, which belongs to shard %d/%d", ErrMerge, i+1, t.Shard, t.Shards, r.Point, r.Point%t.Shards, t.Shards)
			}
			if prev, dup := byPoint[r.Point]; dup {
				if !sameRow(prev, r) {
					return nil, fmt.Errorf("%w: point %d appears twice with different values (part %d and an earlier one)", ErrMerge, r.Point, i+1)
				}
				continue
			}
			byPoint[r.Point] = r
		}
	}
	m.Rows = slices.SortedFunc(maps.Values(byPoint), func(a, b Row) int { return a.Point - b.Point })
	recoverValues(m)
	return m, m.checkGrid()
}

// absorbHeader checks part i's columns and spec against the merge's and takes what the
// merge does not know yet.
func (m *Table) absorbHeader(t *Table, i int) error {
	names := func(axes []Axis) []string {
		out := make([]string, len(axes))
		for k, a := range axes {
			out[k] = a.Name
		}
		return out
	}
	if !slices.Equal(names(t.Axes), names(m.Axes)) || !slices.Equal(t.Metrics, m.Metrics) {
		return fmt.Errorf("%w: part %d has axes %v and metrics %v, part 1 has axes %v and metrics %v",
			ErrMerge, i+1, names(t.Axes), t.Metrics, names(m.Axes), m.Metrics)
	}
	for k, a := range t.Axes {
		switch {
		case a.Values == nil:
		case m.Axes[k].Values == nil:
			m.Axes[k].Values = a.Values
		case !slices.Equal(a.Values, m.Axes[k].Values):
			return fmt.Errorf("%w: part %d has axis %s = %v, an earlier part has %v", ErrMerge, i+1, a.Name, a.Values, m.Axes[k].Values)
		}
	}
	switch {
	case t.Fingerprint == "":
	case m.Fingerprint == "":
		m.Scenario, m.Engine, m.Seed, m.Fingerprint = t.Scenario, t.Engine, t.Seed, t.Fingerprint
	case t.Fingerprint != m.Fingerprint:
		return fmt.Errorf("%w: part %d comes from another sweep (scenario %s, engine %s, seed %d, fingerprint %s; an earlier part: %s, %s, %d, %s)",
			ErrMerge, i+1, t.Scenario, t.Engine, t.Seed, t.Fingerprint, m.Scenario, m.Engine, m.Seed, m.Fingerprint)
	}
	return nil
}

// recoverValues sets the values of axes that no part knew from the rows sorted by point:
// in row-major order each axis's values first appear in the order they are swept.
func recoverValues(m *Table) {
	for k := range m.Axes {
		if m.Axes[k].Values != nil {
			continue
		}
		var vs []float64
		for _, r := range m.Rows {
			if !slices.Contains(vs, r.Params[k]) {
				vs = append(vs, r.Params[k])
			}
		}
		m.Axes[k].Values = vs
	}
}

// checkGrid checks that the rows are exactly the points of the grid, each with its values.
// Missing points are looked for first: they are the likely cause of any other mismatch
// (values recovered from CSV rows can be wrong when a shard is missing).
func (m *Table) checkGrid() error {
	for _, a := range m.Axes {
		if len(a.Values) == 0 {
			return fmt.Errorf("%w: axis %s has no values", ErrMerge, a.Name)
		}
	}
	n := m.Points()
	total := n
	if len(m.Rows) > 0 {
		total = max(n, m.Rows[len(m.Rows)-1].Point+1)
	}
	if len(m.Rows) < total {
		var missing []int
		for i, j := 0, 0; i < total && len(missing) < 10; i++ {
			if j < len(m.Rows) && m.Rows[j].Point == i {
				j++
				continue
			}
			missing = append(missing, i)
		}
		return fmt.Errorf("%w: %d of %d points missing, the first %v (is a shard missing?)", ErrMerge, total-len(m.Rows), total, missing)
	}
	plan := plan{Spec: Spec{Axes: m.Axes}}
	for _, r := range m.Rows {
		if r.Point >= n {
			return fmt.Errorf("%w: point %d is outside the grid of %d points", ErrMerge, r.Point, n)
		}
		if want := plan.values(r.Point); !slices.Equal(r.Params, want) {
			return fmt.Errorf("%w: point %d has %s, the grid has %s there", ErrMerge, r.Point, pointKey(m.Axes, r.Params), pointKey(m.Axes, want))
		}
	}
	return nil
}

func sameRow(a, b Row) bool {
	if !slices.Equal(a.Params, b.Params) || len(a.Metrics) != len(b.Metrics) {
		return false
	}
	for k := range a.Metrics {
		x, y := a.Metrics[k], b.Metrics[k]
		if (x == nil) != (y == nil) || (x != nil && *x != *y) {
			return false
		}
	}
	return true
}
