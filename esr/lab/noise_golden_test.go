package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// figure5Input is a fixed pair of noise sweeps, fine − coarse at each
// level: relation noise erodes the gain, atom dropout barely moves it.
func figure5Input() (rel, drop []eval.Comparison) {
	for i, p := range paper.NoiseLevels {
		r := 0.20 - 0.06*float64(i)
		d := 0.18 - 0.01*float64(i)
		relAt := eval.Scope{Variant: eval.NoiseVariant(string(eval.RelationNoiseAxis), p)}
		dropAt := eval.Scope{Variant: eval.NoiseVariant(string(eval.AtomDropoutAxis), p)}
		rel = append(rel, eval.Comparison{Term: eval.TermFineCoarse, Scope: relAt, Delta: r, Lo: r - 0.05, Hi: r + 0.05})
		drop = append(drop, eval.Comparison{Term: eval.TermFineCoarse, Scope: dropAt, Delta: d, Lo: d - 0.04, Hi: d + 0.04})
	}
	return rel, drop
}

func TestFigure5Golden(t *testing.T) {
	rel, drop := figure5Input()
	goldenimg.Check(t, lab.SweepPlot(rel, drop), "noise-sweep-plot")
	drop[3].Delta += 0.02
	goldenimg.CheckDiffers(t, lab.SweepPlot(rel, drop), "noise-sweep-plot")
}
