package eval_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// lastLine is a reader a user might write: it answers the last value it
// sees in the render (a row's third cell, or the text after " is "),
// reading neither status nor dates. A text rule, not a model, it names
// itself a scripted reader: every table its rows feed says it is
// simulated.
type lastLine struct{}

func (lastLine) Spec() reader.Spec {
	return reader.Spec{Kind: reader.KindScripted, Name: "last-line"}
}
func (l lastLine) Family() reader.Family { return reader.Family(l.Spec()) }

func (lastLine) Read(_ context.Context, in reader.Input) (reader.Output, error) {
	ans := esr.Abstain
	for _, line := range strings.Split(in.Context, "\n") {
		if cells := strings.Split(line, "|"); len(cells) >= 3 { // a table row's cells
			ans = esr.Says(strings.TrimSpace(cells[2]))
		}
	}
	return reader.Output{Answer: ans, Raw: ans.String()}, nil
}

// The paper's loop, memory × reader × judge → outcome row, on the Figure 1
// stream (A → B → A): every memory is built from the same atoms, rendered,
// read by each reader and judged; rows are then compared by question.
func ExampleEvaluate() {
	b := bench.Figure1Bench()
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{
		Memories: memory.Specs(memory.FineLedger, memory.RenderOnly),
		Readers:  []reader.Reader{reader.Oracle{}, lastLine{}},
	})
	if err != nil {
		panic(err)
	}
	for _, o := range rows {
		fmt.Printf("%-18s %-11s %-18s %-9q correct=%v\n", o.QID, o.Memory, o.Reader, o.Answer, o.Correct)
	}
	// Output:
	// figure1-provenance fine-ledger oracle             "60 s"    correct=true
	// figure1-provenance fine-ledger scripted:last-line "30 s"    correct=false
	// figure1-provenance render-only oracle             "ABSTAIN" correct=false
	// figure1-provenance render-only scripted:last-line "30 s"    correct=false
	// figure1-snapshot   fine-ledger oracle             "30 s"    correct=true
	// figure1-snapshot   fine-ledger scripted:last-line "30 s"    correct=true
	// figure1-snapshot   render-only oracle             "ABSTAIN" correct=false
	// figure1-snapshot   render-only scripted:last-line "30 s"    correct=true
}

// A row's condition is a typed Variant; its string form is what row files
// carry, read by ParseVariant and written by String.
func ExampleParseVariant() {
	for _, s := range []string{"format=json", "wording=strict", "relation-noise p=0.3", "state-only", ""} {
		v := eval.ParseVariant(s)
		fmt.Printf("%q format=%q wording=%q noise=%v label=%q → %q\n", s, v.Format, v.Wording, v.Noise, v.Label, v.String())
	}
	// Output:
	// "format=json" format="json" wording="" noise={ 0} label="" → "format=json"
	// "wording=strict" format="" wording="strict" noise={ 0} label="" → "wording=strict"
	// "relation-noise p=0.3" format="" wording="" noise={relation-noise 0.3} label="" → "relation-noise p=0.3"
	// "state-only" format="" wording="" noise={ 0} label="state-only" → "state-only"
	// "" format="" wording="" noise={ 0} label="" → ""
}

// CompareTerms computes named paired differences; each comparison carries
// its term's registry key (Comparison.Key), which is how the paper's number
// is looked up, and says when there are too few questions for an interval.
func ExampleCompareTerms() {
	rows, err := eval.Evaluate(context.Background(), bench.Figure1Bench(), eval.Config{
		Memories: memory.Specs(memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger),
		Readers:  []reader.Reader{reader.Oracle{}},
	})
	if err != nil {
		panic(err)
	}
	cs, err := eval.CompareTerms(rows, []eval.Term{eval.TermRender, eval.TermFineMechanism}, nil, eval.DefaultStats)
	if err != nil {
		panic(err)
	}
	for _, c := range cs {
		fmt.Printf("key %q: %s\n", c.Key, eval.Describe(c))
	}
	// Output:
	// key "render": render (render-only − graphrag-abstain) is +0.000, too few questions for a 95% interval or a verdict (n = 2, 0 discordant pairs)
	// key "fine-d mechanism": fine-d mechanism (fine-ledger − render-only) is +1.000, too few questions for a 95% interval or a verdict (n = 2, 2 discordant pairs)
}
