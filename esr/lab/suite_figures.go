package lab

import (
	"fmt"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
)

// drawers draw each figure from what its Report keeps in the Result (its
// comparisons and rows), never from anything else, so a Result read back
// without its figures (a notebook cell's, kept beside the cached rows)
// draws the same figure without building the suite's Report again.
var drawers = map[FigureID]func(r *Result) (*plot.Plot, error){
	Table2DecompositionFigure: func(r *Result) (*plot.Plot, error) {
		cs, err := r.Terms(Table2Decomposition)
		return decompositionPlot(cs, "Render-matched decomposition, reverted-revert", "t2"), err
	},
	Figure3ProvenanceFigure: func(r *Result) (*plot.Plot, error) {
		return ProvenancePlot(eval.ProvenanceAccuracy(r.Rows, paper.RetentionClasses, eval.StateOnly), "Provenance accuracy by retention class (state only)", "f3"), nil
	},
	Figure3ProvenanceDeployedFigure: func(r *Result) (*plot.Plot, error) {
		return ProvenancePlot(eval.ProvenanceAccuracy(r.Rows, paper.RetentionClasses, eval.DeployedRender), "Provenance accuracy, deployed render (raw events appended)", "f3/deployed"), nil
	},
	AppendixDProvenanceFigure: func(r *Result) (*plot.Plot, error) {
		return ProvenancePlot(eval.ProvenanceAccuracy(r.Rows, paper.RetentionClasses, eval.StateOnly), "Provenance by retention class (external benchmark; rings: the paper's TempLAMA)", "templama"), nil
	},
	Figure5NoiseFigure: func(r *Result) (*plot.Plot, error) {
		rel, err := r.Terms(Table13NoiseSweeps.On(string(eval.RelationNoiseAxis)))
		if err != nil {
			return nil, err
		}
		drop, err := r.Terms(Table13NoiseSweeps.On(string(eval.AtomDropoutAxis)))
		return sweepPlot(rel, drop), err
	},
	Table17RenderFormatsFigure: func(r *Result) (*plot.Plot, error) {
		cs, err := r.Terms(Table17RenderFormats)
		return formatPlot(cs), err
	},
}

// draw draws figures ids into r.Figures, as the Report's last step.
func (r *Result) draw(ids ...FigureID) error {
	if r.Figures == nil {
		r.Figures = map[FigureID]*plot.Plot{}
	}
	for _, id := range ids {
		p, err := drawers[id](r)
		if err != nil {
			return fmt.Errorf("suite %s: figure %s: %w", r.Name, id, err)
		}
		r.Figures[id] = p
	}
	return nil
}
