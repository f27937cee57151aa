package nbhelp

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// Compare shows esr compare's tables in Markdown; text from the rows (an
// answer holding a tag and a "|") is shown as its characters, never as
// markup or another cell.
func ExampleCompare() {
	ma, mb := memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.RenderOnly)
	row := func(m memory.Spec, qid string, right bool) eval.Outcome {
		o := eval.Outcome{QID: qid, Source: "s", Gold: "30 s", Phenomenon: esr.RevertedRevert, QueryType: esr.Snapshot, Memory: m,
			Reader: reader.Spec{Kind: reader.KindScripted, Name: "time-sorter"}, Family: reader.Family{Kind: reader.KindScripted, Name: "time-sorter"},
			Answer: "<b>60 s</b> | 30 s", Label: judge.LabelOutdated}
		if right {
			o.Answer, o.Correct, o.Label = "30 s", true, judge.LabelCorrect
		}
		return o
	}
	a := eval.StoredRunOf("a.jsonl", []eval.Outcome{row(ma, "q1", false), row(ma, "q2", true)})
	b := eval.StoredRunOf("b.jsonl", []eval.Outcome{row(mb, "q1", true), row(mb, "q2", true)})
	rc := Must(eval.CompareRuns(Ctx, a, b, eval.RunCompareOptions{Stats: eval.StatOptions{B: 200, Seed: 1, Level: 0.95}}))
	fmt.Print(compareMarkdown(rc))
	// Output:
	// **B − A: b.jsonl (B) against a.jsonl (A)**
	//
	// | memory A | memory B | family | scope | n | acc A | acc B | B − A | 95% CI | p | gained | lost |
	// |---|---|---|---|---|---|---|---|---|---|---|---|
	// | fine-ledger | render-only | scripted:time-sorter | all | 2 | 0.500 | 1.000 | +0.500 | (too few questions) | 1.0000 | 1 | 0 |
	// | fine-ledger | render-only | scripted:time-sorter | stratum reverted\_revert | 2 | 0.500 | 1.000 | +0.500 | (too few questions) | 1.0000 | 1 | 0 |
	// | fine-ledger | render-only | scripted:time-sorter | query type snapshot | 2 | 0.500 | 1.000 | +0.500 | (too few questions) | 1.0000 | 1 | 0 |
	//
	// - 95% CI: question-clustered paired percentile bootstrap (resamples questions with all their families' rows), B = 200; p: exact paired permutation test over pairs
	// - run A's rows name no judge: taken as scored by exact (esr eval's default --judge; rows do not record it)
	// - run B's rows name no judge: taken as scored by exact (esr eval's default --judge; rows do not record it)
	// - renders of the flipped questions are not shown: they are rebuilt from the benchmark, and none was given (esr compare --data DIR)
	//
	// **Flips: pairs right in one run only**
	//
	// | memory A | memory B | qid | question | stratum | query type | reader | condition | gold | answer A | answer B | label A | label B | decision A | decision B | direction | render lines changed |
	// |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
	// | fine-ledger | render-only | q1 |  | reverted\_revert | snapshot | scripted:time-sorter |  | 30 s | &lt;b&gt;60 s&lt;/b&gt; \| 30 s | 30 s | outdated | correct |  |  | gained |  |
}
