package fluid_test

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/fluid"

	"github.com/tcpfluid/tcpfluid/model"
)

// Seed 004: without window scaling a 65535-byte receiver window caps a 45 Mb/s, 50 ms path
// at about 10.5 Mb/s; with scaling the transfer fills the link, but for one retransmission
// timeout after slow start overshoots the buffer.
func ExampleRun() {
	sc, err := model.Builtin("seed004-lfn")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := fluid.Run(context.Background(), sc, fluid.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range res.Flows {
		fmt.Printf("%-10s %4.1f Mb/s, 50 MB in %2.0f s\n", f.Name, f.GoodputBps/1e6, *f.CompletionTimeS)
	}
	// Output:
	// no-scaling 10.4 Mb/s, 50 MB in 39 s
	// scaling    41.0 Mb/s, 50 MB in 10 s
}
