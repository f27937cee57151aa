package judge_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/judge"
)

// The exact judge normalises case, units and punctuation, and recognises an
// abstention.
func ExampleExact() {
	for _, a := range []esr.Answer{esr.Says("30 s"), esr.Says("30 seconds"), esr.Says("60 s"), esr.Abstain} {
		v := judge.Exact{}.Decide("30 s", nil, a)
		fmt.Printf("%-12s correct=%v abstained=%v (%s)\n", a, v.Correct, v.Abstained, v.Rule)
	}
	// Output:
	// 30 s         correct=true abstained=false (exact)
	// 30 seconds   correct=true abstained=false (exact)
	// 60 s         correct=false abstained=false (no-match)
	// ABSTAIN      correct=false abstained=true (abstain)
}
