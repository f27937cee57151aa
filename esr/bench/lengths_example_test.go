package bench_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/bench"
)

// StreamLengths maps each question to its stream's event count, what
// Table 12's length bins (eval.LengthBin) stratify by.
func ExampleStreamLengths() {
	fmt.Println(bench.StreamLengths(bench.Figure1Bench()))
	// Output:
	// map[figure1-provenance:3 figure1-snapshot:3]
}
