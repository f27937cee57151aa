package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// exploreViewInput is a fixed explorer view: the default settings and the
// render-matched terms of one simulated reader (no family: the explorer
// pools nothing).
func exploreViewInput() *lab.View {
	return &lab.View{Settings: lab.DefaultSettings(), Reader: "sim:fit-llama-3.1-8b", Questions: 60,
		Comparisons: []eval.Comparison{
			{Label: eval.TermRender, Delta: 0.183, Lo: 0.117, Hi: 0.250},
			{Label: eval.TermFineMechanism, Delta: 0.017, Lo: -0.017, Hi: 0.050},
			{Label: eval.TermCoarsePaper, Delta: 0.100, Lo: 0.033, Hi: 0.167},
			{Label: eval.TermCoarseMatched, Delta: 0.000, Lo: 0.000, Hi: 0.000},
			{Label: eval.TermCoarseLayout, Delta: 0.100, Lo: 0.033, Hi: 0.167},
		}}
}

func TestExploreViewPlotGolden(t *testing.T) {
	v := exploreViewInput()
	goldenimg.Check(t, v.Plot(), "explore-view-plot")
	v.Reader = "sim:fit-mistral-7b"
	goldenimg.CheckDiffers(t, v.Plot(), "explore-view-plot")
}
