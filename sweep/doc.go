// Package sweep runs one scenario at every point of a grid of parameters (Run) and
// measures each run: scenario parameters (buffer, rtt, p, capacity, flows, duration) and
// algorithm parameters (algo.param) as axes (params.go, grid.go), the metrics (metrics.go),
// the table and its JSON and CSV forms (table.go), shards (shard.go) and their merge
// (merge.go). A point's seed derives from the sweep's seed and the point alone, so shards
// merge into exactly the whole sweep's table.
package sweep
