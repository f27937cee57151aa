package relate_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
)

// Two sources state different limits a day apart (Figure 2's L2 tier): the
// rule scorer reads the second as contradicting the first, not replacing
// it, so the ledger keeps both values and abstains.
func ExampleRule_crossSource() {
	l2 := bench.Tiers()[1]
	a, b := &l2.Atoms[0], &l2.Atoms[1]
	rel := relate.Rule{}.ForStream(l2.Stream, l2.Atoms)
	fmt.Printf("%s (%s) → %s (%s): %s\n", a.Display(), a.ActorName(), b.Display(), b.ActorName(), rel(a, b))
	// Output:
	// 1,000 requests/day (page-a) → 10,000 requests/day (page-b): CONTRADICTS
}
