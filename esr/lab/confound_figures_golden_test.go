package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// decompositionInput is a fixed render-matched decomposition: the five
// terms pooled and for two families, the paper's Table 2 values as rings.
func decompositionInput() []eval.Comparison {
	var cs []eval.Comparison
	for i, fam := range []reader.Family{reader.Pooled, {Kind: reader.KindSim, Name: "fit-llama-3.1-8b"}, {Kind: reader.KindSim, Name: "fit-qwen3-8b"}} {
		s := 0.02 * float64(i)
		for _, c := range []eval.Comparison{
			termCmp(eval.TermRender, fam, 0.150+s, 0.110+s, 0.190+s),
			termCmp(eval.TermFineMechanism, fam, 0.030-s, -0.010-s, 0.070-s),
			termCmp(eval.TermCoarsePaper, fam, 0.090, 0.050, 0.130),
			termCmp(eval.TermCoarseMatched, fam, 0.010+s, -0.020+s, 0.040+s),
			termCmp(eval.TermCoarseLayout, fam, 0.080-s, 0.040-s, 0.120-s),
		} {
			cs = append(cs, c)
		}
	}
	return cs
}

func TestDecompositionPlotGolden(t *testing.T) {
	const title = "Render-matched decomposition (golden fixture)"
	cs := decompositionInput()
	goldenimg.Check(t, lab.DecompositionPlot(cs, title, paper.T2), "decomposition-plot")
	cs[1].Delta += 0.02 // the pooled fine-d mechanism moves
	goldenimg.CheckDiffers(t, lab.DecompositionPlot(cs, title, paper.T2), "decomposition-plot")
}

// termCmp is a fixed comparison of term t for family fam.
func termCmp(t eval.Term, fam reader.Family, d, lo, hi float64) eval.Comparison {
	return eval.Comparison{Term: eval.Term{Label: t.Label, A: t.A, B: t.B, Key: t.Key}, Scope: eval.Scope{Family: fam}, Delta: d, Lo: lo, Hi: hi}
}
