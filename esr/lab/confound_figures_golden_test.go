package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// decompositionInput is a fixed render-matched decomposition: the five
// terms pooled and for two families, the paper's Table 2 values as rings.
func decompositionInput() []eval.Comparison {
	var cs []eval.Comparison
	for i, fam := range []string{eval.Pooled, "sim:fit-llama-3.1-8b", "sim:fit-qwen3-8b"} {
		s := 0.02 * float64(i)
		for _, c := range []eval.Comparison{
			{Label: eval.TermRender, Key: eval.KeyRender, Delta: 0.150 + s, Lo: 0.110 + s, Hi: 0.190 + s},
			{Label: eval.TermFineMechanism, Key: eval.KeyFineMechanism, Delta: 0.030 - s, Lo: -0.010 - s, Hi: 0.070 - s},
			{Label: eval.TermCoarsePaper, Key: eval.KeyCoarseMechanism, Delta: 0.090, Lo: 0.050, Hi: 0.130},
			{Label: eval.TermCoarseMatched, Delta: 0.010 + s, Lo: -0.020 + s, Hi: 0.040 + s},
			{Label: eval.TermCoarseLayout, Delta: 0.080 - s, Lo: 0.040 - s, Hi: 0.120 - s},
		} {
			c.Family = fam
			cs = append(cs, c)
		}
	}
	return cs
}

func TestDecompositionPlotGolden(t *testing.T) {
	const title = "Render-matched decomposition (golden fixture)"
	cs := decompositionInput()
	goldenimg.Check(t, lab.DecompositionPlot(cs, title, "t2"), "decomposition-plot")
	cs[1].Delta += 0.02 // the pooled fine-d mechanism moves
	goldenimg.CheckDiffers(t, lab.DecompositionPlot(cs, title, "t2"), "decomposition-plot")
}
