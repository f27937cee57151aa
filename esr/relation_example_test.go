package esr_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// A relation is read from its name (rows and flags spell it either way), and
// coarse invalidation closes the earlier edge on every relation that
// disagrees with it: the distinctions the fine ledger keeps, the coarse one
// drops.
func ExampleParseRelation() {
	for _, name := range []string{"same-state", "REFINES", "supersedes", "contradicts", "unrelated"} {
		r, err := esr.ParseRelation(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-11s closes the earlier edge under coarse invalidation: %v\n", r, r.Invalidates())
	}
	_, err := esr.ParseRelation("replaces")
	fmt.Println(err)
	// Output:
	// SAME_STATE  closes the earlier edge under coarse invalidation: false
	// REFINES     closes the earlier edge under coarse invalidation: true
	// SUPERSEDES  closes the earlier edge under coarse invalidation: true
	// CONTRADICTS closes the earlier edge under coarse invalidation: true
	// UNRELATED   closes the earlier edge under coarse invalidation: false
	// "replaces" is not a relation (want one of [UNRELATED SAME_STATE REFINES SUPERSEDES CONTRADICTS])
}

// CONTRADICTS deprecates nothing: both values stay in M, the key is
// unresolved, and the snapshot abstains instead of guessing the newer value.
func ExampleKeyLedger_Unresolved() {
	_, atoms := bench.Figure1()
	contradicts := func(a, b *esr.Atom) esr.Relation { return esr.Contradicts }
	var kl esr.KeyLedger
	kl.Add(&atoms[0], contradicts)
	kl.Add(&atoms[1], contradicts)
	fmt.Println(kl.Unresolved(), kl.StatusText())
	fmt.Println(kl.CurrentValues())
	fmt.Println(kl.Snapshot())
	// Output:
	// true unresolved
	// [60 s 30 s]
	// ABSTAIN
}
