package eval_test

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// Two stored runs of one reader, before and after a memory change: B
// answers two more of twelve questions right and one fewer; CompareRuns
// pairs them by question and lists what flipped.
func ExampleCompareRuns() {
	r := reader.Spec{Kind: reader.KindScripted, Name: "time-sorter"}
	var a, b []eval.Outcome
	for i := 0; i < 12; i++ {
		o := eval.Outcome{QID: fmt.Sprintf("q%02d", i), Gold: "critical", Phenomenon: "reverted_revert", QueryType: "snapshot",
			Reader: r, Family: reader.Family(r), Answer: "critical", Correct: i%2 == 0}
		o.Memory = memory.SpecOf(memory.GraphRAGAbstain)
		a = append(a, o)
		o.Memory = memory.SpecOf(memory.FineLedger)
		o.Correct = i%2 == 0 && i != 4 || i == 1 || i == 3
		b = append(b, o)
	}
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("before.jsonl", a), eval.StoredRunOf("after.jsonl", b),
		eval.RunCompareOptions{Stats: eval.StatOptions{B: 1000, Seed: 1}})
	if err != nil {
		panic(err)
	}
	d := rc.Diffs[0]
	// d is B − A: its term's A is run B's memory, N10 the pairs gained.
	fmt.Printf("%s − %s: n=%d, %.3f → %.3f, Δ=%+.3f, p=%.3f, gained %d, lost %d\n", d.A, d.B, d.N, d.AccB, d.AccA, d.Delta, d.P, d.N10, d.N01)
	for _, f := range rc.Flips {
		fmt.Println(f.QID, f.Direction)
	}
	// Output:
	// fine-ledger − graphrag-abstain: n=12, 0.500 → 0.583, Δ=+0.083, p=1.000, gained 2, lost 1
	// q01 gained
	// q03 gained
	// q04 lost
}
