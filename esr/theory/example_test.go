package theory_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/theory"
)

// Corollary 1 splits a fine-vs-coarse accuracy gap into the oracle benefit
// of fine typing β and fine's extra implementation cost κ: here with equal
// oracle accuracies and deployed accuracies 0.408 (fine) and 0.492 (coarse).
func ExampleCorollary1() {
	d := theory.Corollary1(1, 1, 0.408, 0.492)
	fmt.Printf("β = %+.3f, κ = %+.3f, gap = %+.3f\n", d.Beta, d.Kappa, d.Gap)
	// Output:
	// β = +0.000, κ = +0.084, gap = -0.084
}
