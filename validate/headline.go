package validate

import (
	"sync"

	"github.com/tcpfluid/tcpfluid/model"
)

// TolHeadline bounds a headline quantity: the seeds' figures and tables are read to about
// 10%, and the reproduction is asked to agree that well.
var TolHeadline = Tolerance{Kind: Relative, Bound: 0.10, Reason: "the seeds' own figures and tables are read to about 10%"}

// Headline is what a scenario's source reports, checked in both engines by Validate.
type Headline struct {
	// About says what the metrics are and why they are the source's.
	About string
	// Metrics computes the headline metrics from both engines' results.
	Metrics func(sc *model.Scenario, fluid, pkt *model.Result) []Metric
	// SACK runs the packet senders with SACK recovery (packet.Settings.SACK); SACKWhy
	// says why the source's senders had it.
	SACK    bool
	SACKWhy string
}

var (
	headlinesMu sync.RWMutex
	headlines   = map[string]Headline{}
)

// RegisterHeadline makes h the headline of the scenario named scenario: Scenario then
// adds its metrics (package seeds registers the seeds' own). It panics on a second
// headline for one scenario, which is a programming error.
func RegisterHeadline(scenario string, h Headline) {
	headlinesMu.Lock()
	defer headlinesMu.Unlock()
	if _, dup := headlines[scenario]; dup {
		panic("validate: headline registered twice: " + scenario)
	}
	headlines[scenario] = h
}

// HeadlineOf is the headline registered for a scenario name.
func HeadlineOf(scenario string) (Headline, bool) {
	headlinesMu.RLock()
	defer headlinesMu.RUnlock()
	h, ok := headlines[scenario]
	return h, ok
}

// PerFlow is a headline of one quantity per result row, judged by t.
func PerFlow(name string, q func(model.FlowResult) float64, t Tolerance) func(*model.Scenario, *model.Result, *model.Result) []Metric {
	return func(sc *model.Scenario, fl, pk *model.Result) []Metric {
		var ms []Metric
		for r := range fl.Flows {
			m := t.Judge(name, q(fl.Flows[r]), q(pk.Flows[r]))
			m.SetRow(sc, fl.Flows[r])
			ms = append(ms, m)
		}
		return ms
	}
}
