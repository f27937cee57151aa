package experiment

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/learn"
	"github.com/esrkit/esrkit/esr/report"
)

// Scorer conditions of the refines recovery.
const (
	ScorerRule    = "rule-scorer"
	ScorerLearned = "learned-scorer"
)

// refinesRows evaluates fine-ledger and graphrag-abstain on the refines
// stratum (snapshot and relation-type) once with the rule scorer and once
// with the learned pair scorer's out-of-fold predictions (5-fold by stream),
// so no stream is answered by a model trained on it. Without gold relations
// there is nothing to learn from and it returns no rows.
func refinesRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	if len(s.Bench.Relations) == 0 {
		return nil, nil
	}
	cv, err := learn.CrossValidate(s.Bench, 5, s.Stats.withDefaults().Seed, learn.DefaultLambda)
	if err != nil {
		return nil, err
	}
	var rows []eval.Outcome
	for _, arm := range []struct {
		cond string
		rel  esr.Relator
	}{{ScorerRule, s.Options.Relator}, {ScorerLearned, cv.OutOfFold()}} {
		cfg := eval.Config{Memories: []string{"fine-ledger", "graphrag-abstain"}, Readers: s.Readers, Judge: s.Judge,
			QueryTypes: []esr.QueryType{esr.Snapshot, esr.RelationType}, Phenomena: []esr.Phenomenon{esr.Refinement},
			Options: s.Options, Condition: arm.cond, Progress: s.Progress}
		cfg.Options.Relator = arm.rel
		r, err := Evaluate(ctx, s.Bench, cfg)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// RefinesTable is the refines recovery of Table 3 / Table 7: fine-ledger −
// GraphRAG+abstain on the refines stratum with the rule scorer and with the
// learned scorer, for snapshot and relation-type questions.
func RefinesTable(rows []eval.Outcome, opt StatOptions) (*report.Table, error) {
	t := &report.Table{Name: "table7-refines-recovery", Title: "Refines: fine-ledger − GraphRAG+abstain, rule vs learned pair scorer",
		Columns: []string{"query", "scorer", "n", "fine acc", "GRA acc", "Δ", "95% CI", "paper Δ"}}
	paper := map[string]string{ScorerRule: "−0.086", ScorerLearned: "+0.147"}
	n := 0
	for _, q := range []string{"snapshot", "relation-type"} {
		for _, cond := range []string{ScorerRule, ScorerLearned} {
			c, err := Compare(rows, cond, "fine-ledger", "graphrag-abstain", And(QueryType(q), Condition(cond)), opt)
			if err != nil {
				continue
			}
			n++
			p := "—"
			if q == "snapshot" {
				p = paper[cond]
			}
			t.AddRow(q, cond, c.N, fmtProp(c.AccA), fmtProp(c.AccB), fmtSigned(c.Delta), fmtCI(c.Lo, c.Hi), p)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("no refines rows")
	}
	t.Notes = []string{"learned scorer: softmax regression on pair features, out-of-fold (5 folds by stream); the paper's is a BERT scorer",
		familyNote(rows)}
	return t, nil
}
