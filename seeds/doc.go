// Package seeds is the one place each of the project's five seed documents lives: for each
// seed, the built-in scenarios that re-create its experiments (in package model, by name),
// the headline checks `tcpfluid validate` holds both engines to (registered with package
// validate when this package is imported), the notebook that re-creates its figures, and
// the experiments only it has (seed 003's Table 3). Index lists them.
package seeds

// Seed is one seed document and where tcpfluid re-creates it.
type Seed struct {
	ID     string // "000" … "004"
	Title  string
	Source string
	// Scenarios are the built-in scenarios of its experiments (model.Builtin, written in
	// model/seedNNN.go); each has a
	// headline (validate.HeadlineOf) or, for seed 003, Table3Experiment.
	Scenarios []string
	// Notebook is the Jupyter notebook, relative to the repository root.
	Notebook string
}

// Index lists the seeds in order.
var Index = []Seed{
	{ID: "000", Title: "COLO TCP: concave slow start, adaptive increase and decrease", Source: "Lee & Chung, JKIICE 18(7), 2014",
		Scenarios: []string{"seed000-dumbbell", "seed000-colo-random-loss", "seed000-slow-start",
			"seed000-colo-gamma", "seed000-colo-alpha", "seed000-colo-beta"}, Notebook: "notebooks/seed000-colo-tcp.ipynb"},
	{ID: "001", Title: "MPTCP LIA and VLIA on paths of very different BDP", Source: "Kim, Han & Lee, JITAE 2020",
		Scenarios: []string{"seed001-mptcp"}, Notebook: "notebooks/seed001-mptcp.ipynb"},
	{ID: "002", Title: "Route-change-aware TCP for wireless mesh networks", Source: "Lee & Moon (Korean paper)",
		Scenarios: []string{"seed002-mesh"}, Notebook: "notebooks/seed002-route-change.ipynb"},
	{ID: "003", Title: "ns-2 study of Tahoe, Reno, NewReno and Vegas (Table 3)", Source: "Miyakawa (Japanese thesis, with its ns-2 script and Table 3)",
		Scenarios: []string{"seed003-dumbbell"}, Notebook: "notebooks/seed003-ns2-variants.ipynb"},
	{ID: "004", Title: "TCP window scaling on a long fat network", Source: "Korean network-simulation note, TCP Window Scaling (1) and (2)",
		Scenarios: []string{"seed004-lfn"}, Notebook: "notebooks/seed004-window-scaling.ipynb"},
}
