package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/tcpfluid/tcpfluid/fluid"
	"github.com/tcpfluid/tcpfluid/model"
)

// foldNote is the note run writes to standard error before a fluid run that folds, on its
// own (fluid.FoldingAuto), flows whose private links' delays differ a little: how many
// classes it runs them as, and how to run them unfolded; "" when it folds none so.
func foldNote(c *cli.Context, sc *model.Scenario) string {
	set := foldOf(c)
	if c.IsSet("fold-delay") || fluid.FoldDelayOf(sc, set) == 0 {
		return ""
	}
	return fmt.Sprintf("tcpfluid run: note: %d classes of flows differ only in their private links' delays: they run as %d classes "+
		"of delays within %g%%, which moves each flow's delay by under that (--fold-delay 0 runs them unfolded: 1000 take 10 s "+
		"synchronized, 14 s proportional, where folded they take 0.4 and 0.6 s)\n",
		fluid.ClassCount(sc, fluid.Settings{Folding: fluid.FoldingCopies}), fluid.ClassCount(sc, set), 100*fluid.AutoFoldDelay)
}
