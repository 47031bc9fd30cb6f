// Command response measures Reno's and CUBIC's response functions (mean window against
// loss rate) with the fluid engine and prints the fitted c/p^d next to the references.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/tcpfluid/tcpfluid/response"
)

func main() {
	rep, err := response.Response(context.Background(), response.Settings{
		Algorithms: []string{"reno", "cubic"},
		PMin:       1e-6, PMax: 1e-2, Points: 5, // loss rates per packet
		RTTS: 0.1, // seconds
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rep.Results {
		fmt.Printf("%-6s W = %.4g / p^%.3f (R² %.4f); reference c·τ^e = %.4g, d = %g (%s)\n",
			r.Algorithm, r.C, r.D, r.R2, r.RefC, r.Reference.D, r.Reference.Source)
	}
}
