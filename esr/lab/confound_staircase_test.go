package lab_test

import (
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// oneQuestion is notebook 00's staircase: one question (lab.WorkedQuestion.
// Accuracies) on the three memories a worked question reads, five readers
// each right (1) or wrong (0), four of them wrong on every memory.
func oneQuestion() []eval.Accuracy {
	mems := []memory.Class{memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger}
	var acc []eval.Accuracy
	for _, g := range []struct {
		name string
		acc  []float64
	}{
		{reader.Pooled.String(), []float64{0, 0.2, 0.2}},
		{"sim:fit-llama-3.1-8b", []float64{0, 0, 0}},
		{"sim:fit-mistral-7b", []float64{0, 0, 0}},
		{"sim:fit-qwen2.5-7b", []float64{0, 0, 0}},
		{"sim:fit-qwen3-8b", []float64{0, 1, 1}},
		{"sim:fit-qwen3-14b", []float64{0, 0, 0}},
	} {
		for i, m := range mems {
			n := 1
			if g.name == reader.Pooled.String() {
				n = 5
			}
			acc = append(acc, eval.Accuracy{Group: g.name, Memory: memory.SpecOf(m), N: n, Acc: g.acc[i]})
		}
	}
	return acc
}

// Notebook 00's staircase reads at once: the four readers wrong on every
// memory are each seen (not drawn on top of one another at 0), the legend
// covers no line or point, and no column is left empty for a memory the
// question was not read on.
func TestStaircasePlotOfOneQuestionReadsAtOnce(t *testing.T) {
	for _, acc := range [][]eval.Accuracy{oneQuestion(), withCoarse(oneQuestion())} {
		p := lab.StaircasePlot(acc, "One question through the staircase (Figure 1)")
		report.Fit(p, report.FigureWidth, report.FigureHeight)
		if got := report.FigureProblems(p, report.FigureWidth, report.FigureHeight); len(got) > 0 {
			t.Errorf("%d memories: %q", len(acc)/6, got)
		}
		mems := map[string]bool{}
		for _, a := range acc {
			mems[a.Memory.String()] = true
		}
		var labelled int
		for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
			if tk.Label != "" {
				labelled++
			}
		}
		if labelled != len(mems) {
			t.Errorf("%d memories read, %d columns drawn", len(mems), labelled)
		}
		// Each reader's point its own place: no two glyphs within 1% of
		// each axis.
		var gs []plot.GlyphBox // the scatters' glyphs, not the lines' vertices
		for _, b := range p.GlyphBoxes(p) {
			if b.Rectangle.Max.X == plotter.DefaultGlyphStyle.Radius || b.Rectangle.Max.X == vg.Points(5) {
				gs = append(gs, b)
			}
		}
		if len(gs) != len(acc) {
			t.Errorf("%d glyphs, want %d (one per accuracy)", len(gs), len(acc))
		}
		for i := range gs {
			for j := i + 1; j < len(gs); j++ {
				if math.Abs(gs[i].X-gs[j].X) <= 0.01 && math.Abs(gs[i].Y-gs[j].Y) <= 0.01 {
					t.Errorf("%d memories: glyphs %d and %d lie on one another at (%.3f, %.3f)", len(mems), i, j, gs[i].X, gs[i].Y)
				}
			}
		}
	}
}

// withCoarse adds coarse-retain, every reader wrong on it.
func withCoarse(acc []eval.Accuracy) []eval.Accuracy {
	seen := map[string]bool{}
	for _, a := range acc {
		if !seen[a.Group] {
			seen[a.Group] = true
			acc = append(acc, eval.Accuracy{Group: a.Group, Memory: memory.SpecOf(memory.CoarseRetain), N: a.N, Acc: 0})
		}
	}
	return acc
}
