package sim_test

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// A scripted (simulated) reader that sorts visible dates and one that only
// trusts a status column, on the render-matched control's render of Figure 1
// and on the ledger's: the first answers from both, the second only where
// the mechanism shows a status.
func ExampleNewScripted() {
	s, atoms := bench.Figure1()
	q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey, Question: bench.Figure1Question}
	for _, profile := range []string{"time-sorter", "cautious"} {
		r, err := sim.NewScripted(profile)
		if err != nil {
			panic(err)
		}
		for _, m := range []memory.Class{memory.RenderOnly, memory.FineLedger} {
			st := memory.MustBuild(memory.SpecOf(m), s, atoms, memory.Options{})
			out, err := r.Read(context.Background(), reader.Input{Question: q.Question, QueryType: q.Type, Context: st.Render(q), MayAbstain: true})
			if err != nil {
				panic(err)
			}
			fmt.Printf("%s on %s: %v\n", r.Spec(), m, out.Answer)
		}
	}
	// Output:
	// scripted:time-sorter on render-only: 30 s
	// scripted:time-sorter on fine-ledger: 30 s
	// scripted:cautious on render-only: ABSTAIN
	// scripted:cautious on fine-ledger: 30 s
}
