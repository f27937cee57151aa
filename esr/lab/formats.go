package lab

import (
	"context"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// formatsSuite is the "formats" experiment of `esr run` and the notebooks.
var formatsSuite = Suite{Name: SuiteFormats, Doc: "Table 17: render-format ablation (compact, verbose, minimal, json ledger renders)",
	Evaluate: formatRows,
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		long, cs, err := table17ByFamily(rows, s.Stats)
		if err != nil {
			return nil, err
		}
		res := &Result{Name: "formats", Rows: rows, Tables: []*eval.Table{buildTable17(cs, rows, s.Stats), long},
			Comparisons: map[TableID][]eval.Comparison{Table17RenderFormats: cs}}
		return res, res.draw(Table17RenderFormatsFigure)
	}}

// formatRows evaluates the render-matched trio (graphrag-abstain,
// render-only, fine-ledger) on reverted-revert snapshot QAs once per format
// variant; render-only always shares fine-ledger's format.
func formatRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	var rows []eval.Outcome
	for _, v := range renderFormats {
		opt := s.Options
		opt.LedgerFormat, opt.FactFormat = v.LedgerFormat, v.FactFormat
		r, err := eval.Evaluate(ctx, s.Bench, eval.Config{Memories: memory.Specs(memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger),
			Readers: s.Readers, Judge: s.Judge, QueryTypes: []esr.QueryType{esr.Snapshot},
			Phenomena: []esr.Phenomenon{esr.RevertedRevert}, Options: opt, Variant: eval.FormatVariant(v.Name), Progress: s.Progress})
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}
