package lab_test

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// Noise sweeps corrupt both arms identically: at p=0 the relation-noise arm
// equals the clean run, and with the oracle reader fine and coarse tie on
// reverted reverts at every dropout level where both keep the same atoms.
func TestNoiseSweepDeterministic(t *testing.T) {
	b := benchtest.Mini(10)
	s := lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}}
	r1, err := lab.NoiseSweep(context.Background(), s, eval.RelationNoiseAxis, paper.NoiseLevels, 5)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := lab.NoiseSweep(context.Background(), s, eval.RelationNoiseAxis, paper.NoiseLevels, 5)
	if len(r1) != len(r2) || len(r1) != 6*10*2 {
		t.Fatalf("rows %d vs %d, want 120", len(r1), len(r2))
	}
	for i := range r1 {
		if r1[i] != r2[i] {
			t.Fatalf("row %d differs between identical sweeps", i)
		}
	}
	cs := eval.SweepComparisons(r1, eval.RelationNoiseAxis, paper.NoiseLevels, eval.StatOptions{B: 200})
	if len(cs) != 6 || cs[0].Delta != 0 {
		t.Errorf("clean level: fine − coarse = %v (want 0 with the oracle reader on clean reverts)", cs[0].Delta)
	}
}
