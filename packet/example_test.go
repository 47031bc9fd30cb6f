package packet_test

import (
	"context"
	"fmt"

	"github.com/tcpfluid/tcpfluid/model"
	"github.com/tcpfluid/tcpfluid/packet"
)

// Seed 004's window-scaling experiment: a 50 MB transfer over a 45 Mb/s, 50 ms path,
// capped at 44 packets per round trip by the 65535-byte receiver window without scaling.
func ExampleRun() {
	s, err := model.Builtin("seed004-lfn")
	if err != nil {
		panic(err)
	}
	r, err := packet.Run(context.Background(), s, packet.Settings{})
	if err != nil {
		panic(err)
	}
	for _, f := range r.Flows {
		fmt.Printf("%-10s goodput %4.1f Mb/s, done after %4.1f s\n", f.Name, f.GoodputBps/1e6, *f.CompletionTimeS)
	}
	// Output:
	// no-scaling goodput 10.2 Mb/s, done after 39.4 s
	// scaling    goodput 39.6 Mb/s, done after 10.1 s
}
