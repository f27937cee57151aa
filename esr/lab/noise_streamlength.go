package lab

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/paper"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/coverage"
)

// buildTable12 is fine − coarse (RevisionLedger − Graphiti) by stream-length bin
// over snapshot rows: the paper's confounded observational precursor.
func buildTable12(rows []eval.Outcome, lengths map[string]int, opt eval.StatOptions) *eval.Table {
	t := &eval.Table{ID: Table12StreamLength, Title: "Table 12: fine − coarse by stream length (observational, confounded)",
		Columns: []string{"events (ours)", "paper's bin", "n", "ours Δ", "95% CI", "paper Δ"}}
	for i, b := range coverage.LengthBins {
		label := b.Label
		f := eval.And(eval.QueryType(esr.Snapshot), func(o *eval.Outcome) bool { return eval.LengthBin(lengths[o.QID]) == label })
		c, err := eval.Compare(rows, eval.TermFineCoarse.Named(label), f, opt)
		if err != nil {
			t.AddRow(label, b.Paper, 0, "—", "—", eval.SignedCell(paper.Table12[i]))
			continue
		}
		t.AddRow(label, b.Paper, c.N, eval.SignedCell(c.Delta), c.CI(), eval.SignedCell(paper.Table12[i]))
	}
	t.Notes = []string{"stream length co-varies with relation mix and difficulty: suggestive at best", opt.IntervalNote(), eval.FamilyNote(rows)}
	return t
}
