package judge_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/judge"
)

// A short sentence that contains the gold counts as the gold unless it also
// names another value; NoContainment turns that rule off and asks for the
// value alone.
func ExampleExact_containment() {
	a := esr.Says("The timeout is 30 s now.")
	for _, j := range []judge.Exact{{}, {NoContainment: true}} {
		v := j.Decide("30 s", nil, a)
		fmt.Printf("NoContainment=%v: correct=%v (%s)\n", j.NoContainment, v.Correct, v.Rule)
	}
	v := judge.Exact{}.Decide("30 s", nil, esr.Says("30 s, previously 60 s"))
	fmt.Printf("both values: correct=%v (%s)\n", v.Correct, v.Rule)
	// Output:
	// NoContainment=false: correct=true (contains)
	// NoContainment=true: correct=false (no-match)
	// both values: correct=false (no-match)
}
