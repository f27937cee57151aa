package lab

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// Scorer conditions of the refines recovery.
const (
	scorerRule    = "rule-scorer"
	scorerLearned = "learned-scorer"
)

// refinesTable is the refines recovery of Table 3 / Table 7: fine-ledger −
// GraphRAG+abstain on the refines stratum with the rule scorer and with the
// learned scorer, for snapshot and relation-type questions.
func refinesTable(rows []eval.Outcome, opt eval.StatOptions) (*eval.Table, error) {
	t := &eval.Table{ID: Table7RefinesRecovery, Title: "Refines: fine-ledger − GraphRAG+abstain, rule vs learned pair scorer",
		Columns: []string{"query", "scorer", "n", "fine acc", "GRA acc", "Δ", "95% CI", "paper Δ"}}
	paperDelta := map[string]eval.Cell{scorerRule: paper.Cell(paper.T7Rule, true), scorerLearned: paper.Cell(paper.T7Learned, true)}
	n := 0
	for _, q := range []esr.QueryType{esr.Snapshot, esr.RelationType} {
		for _, cond := range []string{scorerRule, scorerLearned} {
			c, err := eval.Compare(rows, termRLGRA.Named(cond), eval.And(eval.QueryType(q), eval.Phenomenon(esr.Refinement), eval.Variants(eval.LabelVariant(cond))), opt)
			if err != nil {
				continue
			}
			n++
			p := eval.TextCell("—")
			if q == "snapshot" {
				p = paperDelta[cond]
			}
			t.AddRow(q, cond, c.N, eval.PropCell(c.AccA), eval.PropCell(c.AccB), eval.SignedCell(c.Delta), c.CI(), p)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("no refines rows")
	}
	t.Notes = []string{"learned scorer: softmax regression on pair features, out-of-fold (5 folds by stream); the paper's is a BERT scorer", opt.IntervalNote(),
		eval.FamilyNote(rows)}
	return t, nil
}

// buildTable10 is the end-to-end learned-scorer RevisionLedger per stratum
// (snapshot): accuracy with the learned and the rule scorer, the controls,
// and the paired within-ledger gain learned − rule.
func buildTable10(rows []eval.Outcome, opt eval.StatOptions) (*eval.Table, error) {
	t := &eval.Table{ID: Table10LearnedScorer, Title: "Table 10: end-to-end learned-scorer RevisionLedger (snapshot), ours (paper)",
		Columns: []string{"stratum", "n", "RL learned", "RL rule", "GraphRAG+abstain", coarseName, "Δ learned − rule", "95% CI"}}
	snap := eval.QueryType(esr.Snapshot)
	for _, p := range esr.Phenomena {
		f := eval.And(snap, eval.Phenomenon(p))
		acc := map[string]float64{}
		n := 0
		for _, cond := range []string{scorerRule, scorerLearned} {
			for _, a := range eval.AccuracyBy(rows, paper.StrataMemories, nil, eval.And(f, eval.Variants(eval.LabelVariant(cond))), 0.95) {
				acc[cond+"/"+a.Memory.String()] = a.Acc
				n = a.N
			}
		}
		if n == 0 {
			continue
		}
		// Pair the ledger's two arms by (qid, family): relabel conditions.
		var pair []eval.Outcome
		for _, o := range eval.Select(rows, eval.And(f, func(o *eval.Outcome) bool { return o.Memory.Is(memory.FineLedger) })) {
			o.Memory, o.Variant = memory.Spec{Class: memory.Class("fine-ledger/" + o.Variant.String())}, eval.Variant{}
			pair = append(pair, o)
		}
		c, err := eval.Compare(pair, eval.Term{Label: "learned − rule", A: memory.Spec{Class: "fine-ledger/" + scorerLearned}, B: memory.Spec{Class: "fine-ledger/" + scorerRule}}, nil, opt)
		pp := paper.Table10[string(p)]
		cell := func(k string, paper float64) string { return fmt.Sprintf("%.3f (%.3f)", acc[k], paper) }
		delta, ci := "—", "—"
		if err == nil {
			delta, ci = report.Signed(c.Delta)+" ("+report.Signed(pp[4])+")", c.CI()
		}
		t.AddRow(string(p), n, cell(scorerLearned+"/fine-ledger", pp[0]), cell(scorerRule+"/fine-ledger", pp[1]),
			cell(scorerRule+"/graphrag-abstain", pp[2]), cell(scorerRule+"/coarse-retain", pp[3]), delta, ci)
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("table 10: no scorer rows")
	}
	t.Notes = []string{"learned scorer: softmax regression on pair features, out-of-fold by stream (the paper's: BERT)", opt.IntervalNote(), eval.FamilyNote(rows)}
	return t, nil
}
