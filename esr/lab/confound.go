package lab

import (
	"context"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"gonum.org/v1/plot"
)

// renderConfoundSuite is the "render-confound" experiment of `esr run` and the notebooks.
var renderConfoundSuite = Suite{Name: SuiteRenderConfound, Doc: "§4.1: headline, Table 2, Table 3, Table 11",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return s.Evaluate(ctx, paper.RenderConfoundMemories, []esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
	},
	Report: renderConfoundReport}

// renderConfoundReport is §4.1: the headline on reverted-revert, Table 2
// (the render-matched decomposition), Table 3 (the residual by stratum) and
// Table 11 (the monotonic split), with the decomposition figure.
func renderConfoundReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: string(SuiteRenderConfound), Rows: rows, Figures: map[FigureID]*plot.Plot{}}
	rr := eval.RevertedRevertSnapshot
	head, headTerms, err := headlineTable(rows, rr, s.Stats)
	if err != nil {
		return nil, err
	}
	cs, err := renderMatchedTerms(rows, rr, s.Stats)
	if err != nil {
		return nil, err
	}
	res.Tables = append(res.Tables, head, buildTable2(cs, "reverted-revert (snapshot)", rows), table2ByFamily(cs, "reverted-revert (snapshot)", rows))
	res.Comparisons = map[TableID][]eval.Comparison{HeadlineRevertedRevert: headTerms, Table2Decomposition: cs}
	t3, c3, err := buildTable3(rows, s.Stats)
	res.Add(Table3MechanismByStratum, t3, err)
	if err == nil {
		res.Comparisons[Table3MechanismByStratum] = c3
	}
	t11, err := table11(rows, eval.PureMonotonic(s.Bench), s.Stats)
	res.Add(Table11PureMonotonic, t11, err)
	return res, res.draw(Table2DecompositionFigure)
}
