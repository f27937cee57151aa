package judge_test

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
)

// Audit plants answers of known kinds (the gold in other words, the
// outdated value, both values, a hedge, …) and reports how often a judge
// accepts each kind: a judge that accepts an outdated value would score a
// memory that never revises.
func ExampleAudit() {
	panels := judge.PlantAnswers(bench.Figure1Bench())
	res, err := judge.Audit(context.Background(), judge.Exact{}, panels, judge.AuditOptions{})
	if err != nil {
		panic(err)
	}
	for _, r := range res.Rates {
		fmt.Printf("%-14s expect %-6s accepted %d of %d\n", r.Kind, r.Expect, r.Accepted, r.N)
	}
	fmt.Println(res.Verdict)
	// Output:
	// gold           expect accept accepted 1 of 1
	// paraphrase     expect accept accepted 1 of 1
	// outdated       expect reject accepted 0 of 1
	// was-now        expect policy accepted 0 of 1
	// now-previously expect policy accepted 0 of 1
	// hedge          expect policy accepted 1 of 1
	// abstain        expect reject accepted 0 of 1
	// unrelated      expect reject accepted 0 of 0
	// incorrect      expect reject accepted 0 of 1
	// negated        expect reject accepted 0 of 1
	// strict
}
