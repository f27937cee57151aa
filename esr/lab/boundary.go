package lab

import (
	"context"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"gonum.org/v1/plot"
)

// boundarySuite is the "boundary" experiment of `esr run` and the notebooks.
var boundarySuite = Suite{Name: SuiteBoundary, Doc: "§4.4 / Appendix B: per-stratum table (Table 5), the cross-source-conflict path-recall chain (Tables 7–9) and the refines recovery with a learned pair scorer",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		strata, err := s.Evaluate(ctx, paper.StrataMemories, []esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
		if err != nil {
			return nil, err
		}
		csc, err := cscRows(ctx, s, strictVariants(s.Readers))
		if err != nil {
			return nil, err
		}
		ref, err := refinesRows(ctx, s)
		if err != nil {
			return nil, err
		}
		return append(append(strata, csc...), ref...), nil
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		res := &Result{Name: "boundary", Rows: rows, Figures: map[FigureID]*plot.Plot{}}
		res.Tables = append(res.Tables, buildTable5(eval.Select(rows, eval.Variants(eval.Variant{})), s.Stats))
		isStage := func(o *eval.Outcome) bool {
			return o.Variant.String() == stageBaseline || o.Variant.String() == stagePair || o.Variant.String() == stageRow || o.Variant.String() == stageStrict
		}
		t, err := cscChainTable(eval.Select(rows, isStage), s.Stats)
		res.Add(Table9CSCChain, t, err)
		scorer := eval.Select(rows, eval.Variants(eval.LabelVariant(scorerRule), eval.LabelVariant(scorerLearned)))
		t, err = refinesTable(scorer, s.Stats)
		res.Add(Table7RefinesRecovery, t, err)
		t, err = buildTable10(scorer, s.Stats)
		res.Add(Table10LearnedScorer, t, err)
		if len(s.Bench.Relations) > 0 {
			t, err = refinesRecall(s)
			res.Add(refinesRecallTable.On(s.Bench.Name()), t, err)
		}
		return res, nil
	},
	// Its stages and arms run under gold and learned relations.
	OwnRelations: true}

// refinesRecall is the REFINES audit of the relation source the suite ran
// with (the rule scorer by default) against the bench's gold relations, per
// refinement kind. The learned scorer's audit needs a cross-validation
// (seconds), which a report built from cached rows should not redo:
// RefinesAudit(b, cv.OutOfFold(), …) gives it (notebook 44-boundary).
func refinesRecall(s Setup) (*eval.Table, error) {
	rule := s.Options.Relator
	if rule == nil {
		rule = relate.Rule{}
	}
	return RefinesRecallTable([][]RefinesScore{RefinesAudit(s.Bench, rule, RefinementKinds(s.Bench))}, s.Bench.Name())
}

// refinesRows evaluates fine-ledger, graphrag-abstain and coarse-retain on
// every stratum's snapshot questions and on the refines stratum's
// relation-type questions, once with the rule scorer and once with the
// learned pair scorer's out-of-fold predictions (5-fold by stream), so no
// stream is answered by a model trained on it. Without gold relations there
// is nothing to learn from and it returns no rows.
func refinesRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	if len(s.Bench.Relations) == 0 {
		return nil, nil
	}
	cv, err := relate.CrossValidateLearned(s.Bench, 5, s.Stats.WithDefaults().Seed, relate.LearnedLambda)
	if err != nil {
		return nil, err
	}
	var rows []eval.Outcome
	for _, arm := range []struct {
		cond string
		rel  esr.Relator
	}{{scorerRule, s.Options.Relator}, {scorerLearned, cv.OutOfFold()}} {
		cfg := eval.Config{Memories: paper.StrataMemories, Readers: s.Readers, Judge: s.Judge,
			QueryTypes: []esr.QueryType{esr.Snapshot}, Options: s.Options, Variant: eval.LabelVariant(arm.cond), Progress: s.Progress}
		cfg.Options.Relator = arm.rel
		r, err := eval.Evaluate(ctx, s.Bench, cfg)
		if err != nil {
			return nil, err
		}
		cfg.QueryTypes, cfg.Phenomena = []esr.QueryType{esr.RelationType}, []esr.Phenomenon{esr.Refinement}
		t, err := eval.Evaluate(ctx, s.Bench, cfg)
		if err != nil {
			return nil, err
		}
		rows = append(append(rows, r...), t...)
	}
	return rows, nil
}

// cscRows evaluates fine-ledger and graphrag-abstain on cross-source-conflict
// snapshot QAs under each stage. strict are the strict-decode variants of the
// readers (nil: that stage is skipped).
func cscRows(ctx context.Context, s Setup, strict []reader.Reader) ([]eval.Outcome, error) {
	gold := relate.Oracle{Gold: s.Bench.Relations}
	forceGold := func(qa *esr.QA, k esr.Key, opt memory.Options) memory.Options {
		status := esr.KeyStatusOK
		if qa.GoldAbstain() {
			status = esr.KeyStatusUnresolved
		}
		opt.ForceStatus = map[esr.Key]string{k: status}
		return opt
	}
	base := eval.Config{Memories: memory.Specs(memory.FineLedger, memory.GraphRAGAbstain), Readers: s.Readers, Judge: s.Judge,
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.CrossSourceConflict},
		Options: s.Options, Progress: s.Progress}
	stages := []struct {
		name    string
		rel     esr.Relator
		row     bool
		readers []reader.Reader
	}{
		{stageBaseline, s.Options.Relator, false, s.Readers},
		{stagePair, gold, false, s.Readers},
		{stageRow, gold, true, s.Readers},
	}
	if len(strict) > 0 {
		stages = append(stages, struct {
			name    string
			rel     esr.Relator
			row     bool
			readers []reader.Reader
		}{stageStrict, gold, true, strict})
	}
	var rows []eval.Outcome
	for _, st := range stages {
		cfg := base
		cfg.Variant, cfg.Readers = eval.LabelVariant(st.name), st.readers
		cfg.Options.Relator = st.rel
		if st.row {
			cfg.PerQA = forceGold
		}
		r, err := eval.Evaluate(ctx, s.Bench, cfg)
		if err != nil {
			return nil, err
		}
		// Strict readers answer for the same families as the standard ones.
		rows = append(rows, r...)
	}
	return rows, nil
}
