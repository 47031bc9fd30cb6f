package seeds

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Table3Ranking is Table 3's throughput ranking, highest first.
var Table3Ranking = []string{"vegas", "newreno", "tahoe", "reno"}

// Table3PhaseRuns is how many ns-2.35 runs of the seed's script count how often ns-2 itself
// orders each pair as Table 3 does: both CBR sources started 0, 1, …, 19 ms later
// (packet/testdata/seed003_ns2.json; shift 0 is the thesis's run).
const Table3PhaseRuns = 20

// table3PhaseAgree is, for each pair of Table3Ranking (higher first), in how many of the
// Table3PhaseRuns runs ns-2.35 receives more distinct segments of the higher algorithm.
// TestTable3PhaseAgree recounts it from the stored runs.
var table3PhaseAgree = map[[2]string]int{
	{"vegas", "newreno"}: 20, {"vegas", "tahoe"}: 20, {"vegas", "reno"}: 20,
	{"newreno", "tahoe"}: 6, {"newreno", "reno"}: 12,
	{"tahoe", "reno"}: 20,
}

// Table3SignificanceLevel is the two-sided sign test's level at which ns-2's runs decide a
// pair's order: below it the order holds whatever the CBR phase, above it the thesis's
// order of the pair is the phase of its one run.
const Table3SignificanceLevel = 0.05

// Table3Order is one pair of Table 3's ranking, Higher above Lower, and whether each engine
// orders their goodput so.
type Table3Order struct {
	Higher string `json:"higher"`
	Lower  string `json:"lower"`
	// NS2Agree of NS2Runs ns-2.35 runs order the pair as Table 3 does; PValue is the
	// two-sided sign test's p-value of that count.
	NS2Agree int     `json:"ns2_agree"`
	NS2Runs  int     `json:"ns2_runs"`
	PValue   float64 `json:"p_value"`
	// Judged: PValue < Table3SignificanceLevel and ns-2 agrees with the table more often
	// than not. A pair not judged is counted and shown, never failed.
	Judged   bool `json:"judged"`
	FluidOK  bool `json:"fluid_ok"`  // the fluid engine's goodput orders the pair as Table 3
	PacketOK bool `json:"packet_ok"` // the packet engine's does
}

// table3Orders sets every pair of Table3Ranking beside each engine's goodputs by algorithm.
func table3Orders(fluidGoodput, packetGoodput map[string]float64) []Table3Order {
	var orders []Table3Order
	for i, hi := range Table3Ranking {
		for _, lo := range Table3Ranking[i+1:] {
			agree := table3PhaseAgree[[2]string{hi, lo}]
			p := signTestP(agree, Table3PhaseRuns)
			orders = append(orders, Table3Order{
				Higher: hi, Lower: lo, NS2Agree: agree, NS2Runs: Table3PhaseRuns, PValue: p,
				Judged:  p < Table3SignificanceLevel && 2*agree > Table3PhaseRuns,
				FluidOK: fluidGoodput[hi] > fluidGoodput[lo], PacketOK: packetGoodput[hi] > packetGoodput[lo],
			})
		}
	}
	return orders
}

// signTestP is the two-sided sign test's p-value of k successes in n fair trials.
func signTestP(k, n int) float64 {
	b := distuv.Binomial{N: float64(n), P: 0.5}
	tail := min(b.CDF(float64(k)), 1-b.CDF(float64(k-1)))
	return math.Min(1, 2*tail)
}
