package paper_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
)

// A published cell is named by a typed Key: the table and the term. Its
// 95% interval, where the paper prints one, is at Key.Lo and Key.Hi; Cell
// prints the value alone (an unknown key prints "—").
func ExampleLookup() {
	k := paper.T2Render
	v, ok := paper.Lookup(k)
	lo, hi, hasCI := paper.Interval(k)
	fmt.Println(k, v, ok)
	fmt.Println(lo, hi, hasCI)
	fmt.Println(paper.Cell(k, true), paper.Cell(paper.T2.Key("no such term"), true))
	// Output:
	// t2/render 0.159 true
	// 0.114 0.207 true
	// +0.159 —
}

// Agree weighs our estimate against the paper's by size and interval
// overlap; Words says it without calling two results "the same finding".
func ExampleAgree() {
	// Ours +0.031 [+0.017, +0.047] against the paper's render term.
	lo, hi, _ := paper.Interval(paper.T2Render)
	a := paper.Agree(0.031, 0.017, 0.047, 0.159, lo, hi, true)
	fmt.Println(a.Words())
	// Output:
	// same direction, about a fifth of the size; the paper's value lies outside our interval and the two intervals do not overlap
}

// Versus reads one of our comparisons against the paper's cell under the
// comparison's registry key (Comparison.Key), never under its label.
func ExampleVersus() {
	t := eval.TermFineMechanism
	c := eval.Comparison{Term: eval.Term{Label: t.Label, A: t.A, B: t.B, Key: t.Key}, Delta: 0.02, Lo: -0.01, Hi: 0.05, Level: 0.95}
	fmt.Println(paper.Versus(c, paper.T2.Key(c.Key)))
	// Output:
	// fine-d mechanism: ours +0.020 [-0.010, +0.050] is not distinguishable from 0; the paper's +0.025 [-0.005, +0.057] is not distinguishable from 0 — neither rules out 0; the paper's value lies inside our interval.
}

// The paper's design: which memories each table compares.
func ExampleStrataMemories() {
	fmt.Println(paper.StrataMemories)
	fmt.Println(paper.RetentionClasses)
	fmt.Println(paper.DeployedBaseline, paper.NoiseLevels)
	// Output:
	// [fine-ledger graphrag-abstain coarse-retain]
	// [coarse-discard graphrag-abstain coarse-retain fine-ledger]
	// graphrag-abstain [0 0.1 0.2 0.3 0.4 0.5]
}

// Prose quotes the paper by typed key: Signed, Prop and Count print the
// registry's number, and a key the registry does not hold panics naming it
// instead of printing a placeholder.
func ExampleKey_Signed() {
	fmt.Printf("render %s, fine-d mechanism %s; κ = %s on N = %s items\n",
		paper.T2Render.Signed(), paper.T2FineMechanism.Signed(), paper.HumanKappa.Prop(), paper.HumanN.Count())
	defer func() { fmt.Println("panic:", recover()) }()
	paper.T2.Key("no such term").Signed()
	// Output:
	// render +0.159, fine-d mechanism +0.025; κ = 0.459 on N = 150 items
	// panic: paper: the registry holds no number t2/no such term
}

// WithInterval quotes a difference with the paper's published interval and
// says whether that interval includes 0, so prose never asserts a
// significance by hand.
func ExampleKey_WithInterval() {
	fmt.Println("render", paper.T2Render.WithInterval())
	fmt.Println("fine-d mechanism", paper.T2FineMechanism.WithInterval())
	// Output:
	// render +0.159 [+0.114, +0.207], its interval excludes 0
	// fine-d mechanism +0.025 [-0.005, +0.057], its interval includes 0
}
