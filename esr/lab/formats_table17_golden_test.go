package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// formatInput is a fixed Table 17: the three terms of every format
// variant, pooled and for one family (FormatPlot draws the pooled render
// and fine residual only).
func formatInput() []eval.Comparison {
	var cs []eval.Comparison
	fine, gra, ctl := memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain), memory.SpecOf(memory.RenderOnly)
	for i, v := range lab.RenderFormats {
		cond := eval.FormatVariant(v.Name)
		r := 0.05 + 0.03*float64(i)
		m := 0.12 - 0.02*float64(i)
		for _, fam := range []reader.Family{reader.Pooled, {Kind: reader.KindSim, Name: "fit-qwen3-8b"}} {
			cs = append(cs,
				eval.Comparison{Term: eval.Term{Label: "RL − GRA", A: fine, B: gra}, Scope: eval.Scope{Family: fam, Variant: cond}, Delta: r + m, Lo: r + m - 0.05, Hi: r + m + 0.05},
				eval.Comparison{Term: eval.Term{Label: "render", A: ctl, B: gra}, Scope: eval.Scope{Family: fam, Variant: cond}, Delta: r, Lo: r - 0.04, Hi: r + 0.04},
				eval.Comparison{Term: eval.Term{Label: "fine residual", A: fine, B: ctl}, Scope: eval.Scope{Family: fam, Variant: cond}, Delta: m, Lo: m - 0.03, Hi: m + 0.03})
		}
	}
	return cs
}

func TestFormatPlotGolden(t *testing.T) {
	cs := formatInput()
	goldenimg.Check(t, lab.FormatPlot(cs), "format-plot")
	cs[2].Delta += 0.02 // compact's pooled fine residual
	goldenimg.CheckDiffers(t, lab.FormatPlot(cs), "format-plot")
}
