package theory_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/theory"
)

// Proposition 1 on a sample of its fibre: surfaces a d-blind reader cannot
// tell apart carry opposite golds, so no rule that sees only the surface
// beats 1/2 on both instances.
func ExampleP1Fibre() {
	r := theory.P1Fibre(200, 1)
	for _, rule := range r.Rules {
		fmt.Printf("%s: %.2f\n", rule.Rule, rule.Acc)
	}
	fmt.Printf("Bayes ceiling over %d signatures: %.2f\n", r.Signatures, r.BayesCeiling)
	// Output:
	// answer φ (the latest value): 0.50
	// answer the other value: 0.00
	// abstain: 0.50
	// answer the most frequent value (ties: latest): 0.43
	// Bayes ceiling over 200 signatures: 0.50
}
