package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// foldHintClasses is the number of classes from which a fluid run whose flows differ only
// in their private links' delays is worth a hint: the classes' reactions to an overflow
// stop the solver at every quarter of an ACK spacing that holds one (merge.go), and each
// step costs every class's work (1000 distinct RTTs take about 10 s under the synchronized
// rule, minutes under the proportional one, whose drops are located class by class).
const foldHintClasses = 200

// foldHint is the note run writes to standard error before an exact fluid run of sc whose
// classes (fluid.Classes) folding at 5% (--fold-delay 0.05) would cut by half or more;
// "" when there is none to give.
func foldHint(c *cli.Context, sc *model.Scenario) string {
	if c.IsSet("fold-delay") {
		return ""
	}
	exact, folded := classCount(sc, 0), 0
	if exact < foldHintClasses {
		return ""
	}
	if folded = classCount(sc, 0.05); 2*folded > exact {
		return ""
	}
	return fmt.Sprintf("tcpfluid run: hint: %d classes of flows differ only in their private links' delays, and an unfolded fluid run "+
		"steps every class at each of their reactions (1000 take 10 s synchronized, 14 s proportional): --fold-delay 0.05 runs them "+
		"as %d classes, moving each flow's delay by under 5%%\n", exact, folded)
}

// classCount is the number of classes the fluid engine runs sc's flows in with fold.
func classCount(sc *model.Scenario, fold float64) int {
	n := 0
	for i, first := range fluid.Classes(sc, fluid.Settings{FoldDelay: fold}) {
		if first == i {
			n++
		}
	}
	return n
}
