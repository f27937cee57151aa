package theory_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/theory"
)

// Fano's floor on a relation audit: a scorer that confuses REFINES with
// SUPERSEDES half the time leaves too little information about the gold
// labels for any decoder of its labels to be always right.
func ExampleFano() {
	var gold, pred []esr.Relation
	add := func(g, p esr.Relation, n int) {
		for i := 0; i < n; i++ {
			gold, pred = append(gold, g), append(pred, p)
		}
	}
	add(esr.SameState, esr.SameState, 20)
	add(esr.Supersedes, esr.Supersedes, 20)
	add(esr.Refines, esr.Refines, 10)
	add(esr.Refines, esr.Supersedes, 10)
	f, err := theory.Fano(gold, pred)
	if err != nil {
		panic(err)
	}
	fmt.Printf("n = %d, H(Y) = %.3f bits, I(Y; Ŷ) = %.3f bits\n", f.N, f.HY, f.I)
	fmt.Printf("error %.3f ≥ plug-in floor %.3f\n", f.ErrorRate, f.BoundPlugIn)
	// Output:
	// n = 60, H(Y) = 1.585 bits, I(Y; Ŷ) = 1.126 bits
	// error 0.167 ≥ plug-in floor 0.062
}
