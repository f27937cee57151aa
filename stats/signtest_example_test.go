package stats_test

import (
	"fmt"

	"github.com/esrkit/esrkit/stats"
)

// The sign test reads only the discordant pairs of a paired comparison:
// 9 questions one arm answers and the other misses against 1 the other way
// round is significant at 5%; 6 against 4 is not.
func ExampleSignTestP() {
	fmt.Printf("9 vs 1: p = %.4f\n", stats.SignTestP(9, 1))
	fmt.Printf("6 vs 4: p = %.4f\n", stats.SignTestP(6, 4))
	fmt.Printf("0 vs 0: p = %.4f\n", stats.SignTestP(0, 0))
	// Output:
	// 9 vs 1: p = 0.0215
	// 6 vs 4: p = 0.7539
	// 0 vs 0: p = 1.0000
}
