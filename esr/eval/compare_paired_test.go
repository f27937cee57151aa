package eval_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

func TestCompareDeterministicAndPaired(t *testing.T) {
	rows := []eval.Outcome{}
	for i := 0; i < 50; i++ {
		q := fmt.Sprint("q", i)
		rows = append(rows,
			eval.Outcome{QID: q, Memory: memory.SpecOf("A"), Family: reader.Family{Kind: reader.KindSim, Name: "f"}, Correct: i%2 == 0},
			eval.Outcome{QID: q, Memory: memory.SpecOf("B"), Family: reader.Family{Kind: reader.KindSim, Name: "f"}, Correct: i%5 == 0})
	}
	rows = append(rows, eval.Outcome{QID: "unpaired", Memory: memory.SpecOf("A"), Family: reader.Family{Kind: reader.KindSim, Name: "f"}, Correct: true})
	c1, _ := eval.Compare(rows, eval.Term{Label: "x", A: memory.SpecOf("A"), B: memory.SpecOf("B")}, nil, eval.StatOptions{B: 1000, Seed: 3})
	c2, _ := eval.Compare(rows, eval.Term{Label: "x", A: memory.SpecOf("A"), B: memory.SpecOf("B")}, nil, eval.StatOptions{B: 1000, Seed: 3})
	if c1 != c2 {
		t.Errorf("same seed, different result: %v vs %v", c1, c2)
	}
	// 25 of 50 vs 10 of 50: Δ = 0.3; the unpaired row is ignored.
	if c1.N != 50 || math.Abs(c1.Delta-0.3) > 1e-12 || !(c1.Lo < 0.3 && 0.3 < c1.Hi) {
		t.Errorf("comparison %v", c1)
	}
	if _, err := eval.Compare(rows, eval.Term{Label: "x", A: memory.SpecOf("A"), B: memory.SpecOf("C")}, nil, eval.StatOptions{}); err == nil {
		t.Error("no pairs should be an error")
	}
}
