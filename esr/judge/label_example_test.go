package judge_test

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
)

// Classify splits the rejected answers of Figure 1's snapshot question: an
// answer naming the value the key held before (60 s) is outdated, not just
// wrong, unless it denies it or also names the gold.
func ExampleClassify() {
	_, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	prior := judge.PriorValues(&qa, atoms)
	fmt.Println("gold", qa.GoldAnswer, "prior", prior)
	for _, a := range []esr.Answer{esr.Says("30 seconds"), esr.Says("60 s"), esr.Says("not 60 s"), esr.Says("60 s, then 30 s"), esr.Says("45 s"), esr.Abstain} {
		v, err := judge.Exact{}.Judge(context.Background(), &qa, a)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-16s %s\n", a, judge.Classify(v, &qa, prior, a))
	}
	// Output:
	// gold 30 s prior [60 s]
	// 30 seconds       correct
	// 60 s             outdated
	// not 60 s         wrong
	// 60 s, then 30 s  wrong
	// 45 s             wrong
	// ABSTAIN          abstained
}
