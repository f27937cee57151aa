package relate_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
)

// The rule scorer and the render-matched control's source on the pairs of
// Figure 1: the rule scorer reads both updates as supersessions; the
// control calls every pair SAME_STATE.
func ExampleRule() {
	s, atoms := bench.Figure1()
	for _, r := range []esr.Relator{relate.Rule{}, relate.SameState{}} {
		rel := r.ForStream(s, atoms)
		fmt.Printf("%s: a1→a2 %s, a2→a3 %s\n", r.Name(), rel(&atoms[0], &atoms[1]), rel(&atoms[1], &atoms[2]))
	}
	// Output:
	// rule: a1→a2 SUPERSEDES, a2→a3 SUPERSEDES
	// same-state: a1→a2 SAME_STATE, a2→a3 SAME_STATE
}
