package eval_test

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// Compare takes a term, a value: its pair A − B, the label tables print and
// its name in the paper's registry. A comparison says where it was computed
// by a typed Scope; tables and verdicts find a comparison by its term
// (Comparison.Of, FindTerm) and its scope, never by the printed label.
func ExampleCompare() {
	rows, err := eval.Evaluate(context.Background(), bench.Figure1Bench(), eval.Config{
		Memories: memory.Specs(memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger),
		Readers:  []reader.Reader{reader.Oracle{}},
	})
	if err != nil {
		panic(err)
	}
	c, err := eval.Compare(rows, eval.TermFineMechanism.Named("fine residual"), eval.QueryType(esr.Snapshot), eval.DefaultStats)
	if err != nil {
		panic(err)
	}
	c.Scope = eval.Scope{Family: reader.Pooled, QueryType: esr.Snapshot}
	fmt.Printf("%s: %s − %s = %+.3f (n = %d), scope %s\n", c.Label, c.A, c.B, c.Delta, c.N, c.Scope)
	fmt.Println(c.Of(eval.TermFineMechanism), c.Of(eval.TermRender), c.Key)
	// Output:
	// fine residual: fine-ledger − render-only = +1.000 (n = 1), scope query type snapshot
	// true false fine-d mechanism
}

// The interval kind is a value; its text form ("cluster", "pair") is read
// once where a user types it: a flag of type IntervalKind parses it.
func ExampleIntervalKind() {
	opt := eval.DefaultStats
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.TextVar(&opt.Interval, "interval", eval.IntervalCluster, "cluster or pair")
	if err := fs.Parse([]string{"-interval", "pair"}); err != nil {
		panic(err)
	}
	fmt.Println(opt.Interval, opt.Interval == eval.IntervalPair)
	fs.SetOutput(io.Discard)
	err := fs.Parse([]string{"-interval", "rows"})
	fmt.Println(err != nil)
	// Output:
	// pair true
	// true
}

// A run resumes by its rows' keys: Keys gives the set a Config.Done takes,
// so rows already written are neither answered nor written again.
func ExampleKeys() {
	cfg := eval.Config{Memories: memory.Specs(memory.FineLedger), Readers: []reader.Reader{reader.Oracle{}}}
	first, err := eval.Evaluate(context.Background(), bench.Figure1Bench(), cfg)
	if err != nil {
		panic(err)
	}
	cfg.Memories = memory.Specs(memory.FineLedger, memory.GraphRAGAbstain)
	cfg.Done = eval.Keys(first)
	rest, err := eval.Evaluate(context.Background(), bench.Figure1Bench(), cfg)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(first), len(rest), rest[0].Memory)
	// Output:
	// 2 2 graphrag-abstain
}

// A table's cells are typed: a writer styles a cell by its kind and every
// writer prints its text.
func ExampleTable_AddRow() {
	t := &eval.Table{ID: "demo", Columns: []string{"memory", "n", "accuracy", "Δ", "answer"}}
	t.AddRow("fine-ledger", 120, eval.PropCell(0.7125), eval.SignedCell(0.159), eval.VerdictCell("30 s", true))
	for _, c := range t.Rows[0] {
		fmt.Printf("%q numeric=%v\n", c.Text, c.Kind.Numeric())
	}
	fmt.Print(t.Text())
	// Output:
	// "fine-ledger" numeric=false
	// "120" numeric=true
	// "0.713" numeric=true
	// "+0.159" numeric=true
	// "30 s ✓" numeric=false
	// memory       n    accuracy  Δ       answer
	// -----------  ---  --------  ------  ------
	// fine-ledger  120  0.713     +0.159  30 s ✓
}
