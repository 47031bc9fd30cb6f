// Package sweep runs one scenario at every point of a grid of parameters (Run) and
// measures each run: scenario parameters (buffer, rtt, p, capacity, flows, duration) and
// algorithm parameters (algo.param) as axes (params.go, grid.go); the aggregate, slow-start
// and per-flow metrics (metrics.go); replications, each metric's mean, standard deviation and
// 95% confidence interval (sweep.go); the table, its JSON and CSV forms and its notes
// (table.go, notes.go); shards (shard.go) and their merge (merge.go); and the built-in
// experiments that show what each COLO parameter does (experiments.go). A run's seed derives
// from the sweep's seed, the point and the replicate alone, so shards merge into exactly
// the whole sweep's table. A failed run leaves its point's row with the error.
package sweep
