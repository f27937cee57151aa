package lab

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot"
)

// strataSuite is the "strata" experiment of `esr run` and the notebooks.
var strataSuite = Suite{Name: SuiteStrata, Doc: "§4.4: per-stratum accuracy (Table 5) and stream-length bins (Table 12)",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return s.Evaluate(ctx, paper.StrataMemories, []esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		return &Result{Name: "strata", Rows: rows, Figures: map[FigureID]*plot.Plot{},
			Tables: []*eval.Table{buildTable5(rows, s.Stats), buildTable12(rows, bench.StreamLengths(s.Bench), s.Stats)}}, nil
	}}

// buildTable5 is per-stratum accuracy of RevisionLedger, GraphRAG+abstain and
// the paper's Graphiti (coarse-retain, the idealised store) with the two
// paired deltas, on snapshot rows.
func buildTable5(rows []eval.Outcome, opt eval.StatOptions) *eval.Table {
	t := &eval.Table{ID: Table5Strata, Title: "Table 5: per-stratum accuracy (snapshot), ours (paper)",
		Columns: []string{"stratum", "n", "RL", "GraphRAG+abstain", coarseName, "Δ RL−GRA", "MDE RL−GRA", "Δ RL−coarse-retain", "MDE RL−coarse-retain"}}
	for _, p := range esr.Phenomena {
		f := eval.SnapshotIn(p)
		acc := map[string]eval.Accuracy{}
		for _, a := range eval.AccuracyBy(rows, paper.StrataMemories, nil, f, opt.WithDefaults().Level) {
			acc[a.Memory.String()] = a
		}
		if len(acc) == 0 {
			continue
		}
		cell := func(m string) string {
			a, ok := acc[m]
			if !ok {
				return "—"
			}
			return fmt.Sprintf("%.3f (%s)", a.Acc, paper.Cell(paper.T5Cell(p, a.Memory), false))
		}
		d1, e1 := eval.Compare(rows, termRLGRA, f, opt)
		d2, e2 := eval.Compare(rows, eval.TermFineCoarse, f, opt)
		delta := func(c eval.Comparison, err error) string {
			if err != nil {
				return "—"
			}
			return report.Signed(c.Delta) + " " + c.CI()
		}
		n := acc[memory.FineLedger].N
		t.AddRow(string(p), n, cell(memory.FineLedger), cell(memory.GraphRAGAbstain), cell(memory.CoarseRetain), delta(d1, e1), eval.MDECell(d1, e1), delta(d2, e2), eval.MDECell(d2, e2))
	}
	t.Notes = []string{"MDE: the smallest true Δ detectable at two-sided α = 0.05 with 80% power by a McNemar test on n independent pairs with the observed discordant share (Connor 1987); rows pooled over families are correlated, so the true MDE is larger", opt.IntervalNote(), eval.FamilyNote(rows)}
	return t
}
