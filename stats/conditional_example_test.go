package stats_test

import (
	"fmt"

	"github.com/esrkit/esrkit/stats"
)

// Conditioning removes what a third variable explains: here the answer (x)
// and the layout (y) are both fixed by the memory (z), so they share a full
// bit overall but nothing once the memory is known.
func ExampleConditionalMutualInformation() {
	z := []string{"fine", "fine", "fine", "fine", "coarse", "coarse", "coarse", "coarse"}
	x := []string{"30 s", "30 s", "30 s", "30 s", "60 s", "60 s", "60 s", "60 s"}
	y := []string{"ledger", "ledger", "ledger", "ledger", "list", "list", "list", "list"}
	mi, err := stats.MutualInformationLabels(x, y)
	if err != nil {
		panic(err)
	}
	cmi, err := stats.ConditionalMutualInformation(x, y, z)
	if err != nil {
		panic(err)
	}
	fmt.Printf("I(X; Y) = %.3f bits, I(X; Y | Z) = %.3f bits over %d cells\n", mi.MI, cmi.PlugIn, cmi.Cells)
	// Output:
	// I(X; Y) = 1.000 bits, I(X; Y | Z) = 0.000 bits over 2 cells
}
