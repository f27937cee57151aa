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

// The render-confound suite (§4.1) on a small generated benchmark with two
// scripted readers: Table 2 splits RevisionLedger − GraphRAG+abstain into
// its render term and its mechanism terms.
func ExampleSuite_Run_renderConfound() {
	s := exampleSetup()
	res, err := lab.SuiteRenderConfound.Suite().Run(context.Background(), s)
	if err != nil {
		panic(err)
	}
	t, err := res.Table(lab.Table2Decomposition)
	if err != nil {
		panic(err)
	}
	show(t, nil, "term", "n", "ours Δ", "95% CI")
	// Output:
	// Table 2: render-matched decomposition on reverted-revert (snapshot), pooled
	//
	// term                                                                   n   ours Δ  95% CI
	// ---------------------------------------------------------------------  --  ------  --------------------------
	// render                                                                 30  +0.000  [+0.000, +0.000]
	// fine-d mechanism                                                       30  +0.033  (too few discordant pairs)
	// coarse-d mechanism (paper's: vs the ledger's control; layout changes)  30  +0.133  (too few discordant pairs)
	// coarse-d mechanism (matched: vs its own control)                       30  +0.133  (too few discordant pairs)
	// coarse layout (own control − ledger's control)                         30  +0.000  [+0.000, +0.000]
}
