package lab_test

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// Where each reader's answer changes along the staircase graphrag-abstain →
// render-only → fine-ledger on the Figure 1 question: the render step and
// the mechanism step, computed from the answers.
func ExampleFlips() {
	var rs []reader.Reader
	for _, p := range []string{"time-sorter", "cautious", "majority"} {
		r, err := sim.NewScripted(p)
		if err != nil {
			panic(err)
		}
		rs = append(rs, r)
	}
	s, atoms := bench.Figure1()
	out, err := lab.Flips(context.Background(), s, atoms, bench.Figure1QA(), rs, memory.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// - `scripted:time-sorter`: 30 s → 30 s → 30 s: is right on all three.
	// - `scripted:cautious`: ABSTAIN → ABSTAIN → 30 s: turns right at the mechanism step.
	// - `scripted:majority`: 30 s → 30 s → 30 s: is right on all three.
}
