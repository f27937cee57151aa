package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// exploreViewInput is a fixed explorer view: the default settings and the
// render-matched terms of one simulated reader (no family: the explorer
// pools nothing).
func exploreViewInput() *lab.View {
	return &lab.View{Settings: lab.DefaultSettings(), Reader: "sim:fit-llama-3.1-8b", Questions: 60,
		Comparisons: []eval.Comparison{
			termCmp(eval.TermRender, reader.Family{}, 0.183, 0.117, 0.250),
			termCmp(eval.TermFineMechanism, reader.Family{}, 0.017, -0.017, 0.050),
			termCmp(eval.TermCoarsePaper, reader.Family{}, 0.100, 0.033, 0.167),
			termCmp(eval.TermCoarseMatched, reader.Family{}, 0.000, 0.000, 0.000),
			termCmp(eval.TermCoarseLayout, reader.Family{}, 0.100, 0.033, 0.167),
		}}
}

func TestExploreViewPlotGolden(t *testing.T) {
	v := exploreViewInput()
	goldenimg.Check(t, v.Plot(), "explore-view-plot")
	v.Reader = "sim:fit-mistral-7b"
	goldenimg.CheckDiffers(t, v.Plot(), "explore-view-plot")
}
