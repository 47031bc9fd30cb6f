package fluid

import (
	"fmt"
	"os"
)

func dbgTO(kind string, f *subflow) {
	if os.Getenv("TFDBG") != "" {
		fmt.Fprintf(os.Stderr, "TO %s %d\n", kind, f.flow)
	}
}

func dbgTOt(kind string, f *subflow, t float64) {
	if os.Getenv("TFDBG") != "" {
		fmt.Fprintf(os.Stderr, "TO %s %d %.3f\n", kind, f.flow, t)
	}
}
