package lab

import (
	"context"
	"runtime"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
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
	res.Tables = append(res.Tables, head, buildTable2(cs, table2Scope, rows), table2ByFamily(cs, table2Scope, rows))
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

// table2Scope is the questions Table 2 reads, as its title names them.
const table2Scope = "reverted-revert (snapshot)"

// Table2Of is the render-confound suite's Table 2 for readers on b (the
// render-matched decomposition, pooled: Result.Table(Table2Decomposition))
// and its comparisons, pooled and per family (Result.Terms), computed from
// only the rows Table 2 reads: the suite's memories on b's reverted-revert
// snapshot questions (198 on the bundled synthetic bench, against the
// suite's 3,563 snapshot questions), evaluated on as many streams at once
// as there are cores. A notebook cell that tries a reader of its own
// reruns in about a second; the suite's other tables need its full run.
func Table2Of(ctx context.Context, b *bench.Bench, readers []reader.Reader, opt eval.StatOptions) (*eval.Table, []eval.Comparison, error) {
	rows, err := eval.Evaluate(ctx, b, eval.Config{Memories: paper.RenderConfoundMemories, Readers: readers,
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}, Concurrency: runtime.GOMAXPROCS(0)})
	if err != nil {
		return nil, nil, err
	}
	cs, err := renderMatchedTerms(rows, eval.RevertedRevertSnapshot, opt)
	if err != nil {
		return nil, nil, err
	}
	return buildTable2(cs, table2Scope, rows), cs, nil
}
