package sweep

// Experiment is a built-in scenario made to show what one algorithm parameter does, with
// the sweep that shows it: its axis and metrics, the defaults of a sweep of that built-in
// that names none (the scenario's Description says what the numbers show and why).
type Experiment struct {
	Axes    []string // the --param values, name=grid
	Metrics []string // the metrics that answer the question
	// Replications is the default replications, for scenarios with random loss.
	Replications int
}

// Experiments are the built-in experiments, by scenario name (model.Builtin).
var Experiments = map[string]Experiment{
	"seed000-colo-gamma": {
		Axes:    []string{"colo.gamma=0.5:3:6"},
		Metrics: []string{MetricFirstLossDrops, MetricFirstLoss, MetricPeakQueue, MetricTime90, MetricDropped, MetricThroughput},
	},
	"seed000-colo-alpha": {
		Axes:         []string{"colo.alpha_max=2:32:4"},
		Metrics:      []string{MetricThroughput, MetricMeanQueue, MetricLossRate, MetricLossEvents, MetricMeanCwnd},
		Replications: 8,
	},
	"seed000-colo-beta": {
		Axes:         []string{"colo.beta_min=0.3:0.9:7", "p=0,1e-5"},
		Metrics:      []string{FlowShare + ":colo", FlowThroughput + ":colo", MetricThroughput, MetricJain, MetricLossEvents},
		Replications: 8,
	},
}
