package experiment

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/internal/paper"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/eval"
	"github.com/esrkit/esrkit/internal/report"
)

// CSC path-recall stages (paper Tables 7–9), cumulative: each adds one
// oracle substitution to the one before.
const (
	StageBaseline = "baseline"      // the rule scorer
	StagePair     = "pair-oracle"   // + gold relations on every co-keyed pair
	StageRow      = "row-oracle"    // + the key's rendered status forced to gold
	StageStrict   = "strict-decode" // + a reader told to abstain strictly on unresolved status
)

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
	base := eval.Config{Memories: []string{memory.FineLedger, memory.GraphRAGAbstain}, Readers: s.Readers, Judge: s.Judge,
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.CrossSourceConflict},
		Options: s.Options, Progress: s.Progress}
	stages := []struct {
		name    string
		rel     esr.Relator
		row     bool
		readers []reader.Reader
	}{
		{StageBaseline, s.Options.Relator, false, s.Readers},
		{StagePair, gold, false, s.Readers},
		{StageRow, gold, true, s.Readers},
	}
	if len(strict) > 0 {
		stages = append(stages, struct {
			name    string
			rel     esr.Relator
			row     bool
			readers []reader.Reader
		}{StageStrict, gold, true, strict})
	}
	var rows []eval.Outcome
	for _, st := range stages {
		cfg := base
		cfg.Condition, cfg.Readers = st.name, st.readers
		cfg.Options.Relator = st.rel
		if st.row {
			cfg.PerQA = forceGold
		}
		r, err := Evaluate(ctx, s.Bench, cfg)
		if err != nil {
			return nil, err
		}
		// Strict readers answer for the same families as the standard ones.
		rows = append(rows, r...)
	}
	return rows, nil
}

// CSCChainTable lays out the chain: fine-ledger accuracy at each stage
// (on cross-source conflict the gold is ABSTAIN, so accuracy is the abstain
// rate; one column says both), its paired difference against GraphRAG+abstain at baseline
// (the paper's Table 9 column), and the step gained over the stage before.
func CSCChainTable(rows []eval.Outcome, opt StatOptions) (*report.Table, error) {
	t := &report.Table{Name: "table9-csc-chain", Title: "Tables 7–9: cross-source-conflict path recall (fine-ledger, cumulative oracle stages)",
		Columns: []string{"stage", "n", "acc (= abstain rate)", "Δ vs GraphRAG+abstain (baseline)", "95% CI", "paper acc", "paper Δ"}}
	// Pair each stage's fine-ledger rows with baseline graphrag-abstain rows
	// by (qid, family): relabel the control rows' condition to the stage.
	var control []eval.Outcome
	for _, o := range rows {
		if o.Memory == memory.GraphRAGAbstain && o.Condition == StageBaseline {
			control = append(control, o)
		}
	}
	n := 0
	for _, stage := range []string{StageBaseline, StagePair, StageRow, StageStrict} {
		acc := AccuracyBy(rows, []string{memory.FineLedger}, nil, Condition(stage), opt.withDefaults().Level)
		if len(acc) == 0 {
			continue
		}
		n++
		var paired []eval.Outcome
		for _, o := range rows {
			if o.Memory == memory.FineLedger && o.Condition == stage {
				o.Condition = ""
				paired = append(paired, o)
			}
		}
		for _, o := range control {
			o.Condition = ""
			paired = append(paired, o)
		}
		c, err := Compare(paired, stage, memory.FineLedger, memory.GraphRAGAbstain, nil, opt)
		p := paper.Table9[stage]
		if err != nil {
			t.AddRow(stage, acc[0].N, fmtProp(acc[0].Acc), "—", "—", fmtProp(p[0]), fmtSigned(p[1]))
			continue
		}
		t.AddRow(stage, acc[0].N, fmtProp(acc[0].Acc), fmtSigned(c.Delta), fmtCI(c.Lo, c.Hi), fmtProp(p[0]), fmtSigned(p[1]))
	}
	if n == 0 {
		return nil, fmt.Errorf("no cross-source-conflict rows")
	}
	gra := AccuracyBy(rows, []string{memory.GraphRAGAbstain}, func(o *eval.Outcome) string { return o.Condition }, nil, opt.withDefaults().Level)
	for _, a := range gra {
		t.AddRow("GraphRAG+abstain ("+a.Group+")", a.N, fmtProp(a.Acc), "—", "—", "—", "—")
	}
	t.Notes = []string{"the gold answer of a cross-source conflict is ABSTAIN, so a stage's accuracy is its abstain rate (the two columns would be equal)",
		"stages are cumulative: pair-oracle forces gold relations; row-oracle also forces the row's status to gold; strict-decode also tells the reader to abstain whenever the status is unresolved",
		fmt.Sprintf("paper: RL %s → %s → %s → %s; GraphRAG+abstain %s (standard), %s (strict prompt)",
			fmtProp(paper.Table9[StageBaseline][0]), fmtProp(paper.Table9[StagePair][0]), fmtProp(paper.Table9[StageRow][0]), fmtProp(paper.Table9[StageStrict][0]),
			PaperCell("t9/graphrag-abstain/standard", false), PaperCell("t9/graphrag-abstain/strict", false)), opt.IntervalNote(), familyNote(rows)}
	return t, nil
}

// StrictReaders maps readers to their strict-decode variants where one
// exists (set by the reader package's owner; nil means no strict stage).
var StrictReaders func([]reader.Reader) []reader.Reader

// boundarySuite is the "boundary" experiment of `esr run` and the notebooks.
var boundarySuite = Suite{Name: "boundary", Doc: "§4.4 / Appendix B: per-stratum table (Table 5), the cross-source-conflict path-recall chain (Tables 7–9) and the refines recovery with a learned pair scorer",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		strata, err := s.evaluate(ctx, Table5Memories, []esr.QueryType{esr.Snapshot}, s.Options, "")
		if err != nil {
			return nil, err
		}
		var strict []reader.Reader
		if StrictReaders != nil {
			strict = StrictReaders(s.Readers)
		}
		csc, err := cscRows(ctx, s, strict)
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
		res := &Result{Name: "boundary", Rows: rows, Figures: map[string]*plot.Plot{}}
		res.Tables = append(res.Tables, Table5(Select(rows, Condition("")), s.Stats))
		isStage := func(o *eval.Outcome) bool {
			return o.Condition == StageBaseline || o.Condition == StagePair || o.Condition == StageRow || o.Condition == StageStrict
		}
		t, err := CSCChainTable(Select(rows, isStage), s.Stats)
		res.add("table9-csc-chain", t, err)
		scorer := Select(rows, Condition(ScorerRule, ScorerLearned))
		t, err = RefinesTable(scorer, s.Stats)
		res.add("table7-refines-recovery", t, err)
		t, err = Table10(scorer, s.Stats)
		res.add("table10-learned-scorer", t, err)
		if len(s.Bench.Relations) > 0 {
			t, err = refinesRecall(s)
			res.add("refines-recall-"+s.Bench.Name(), t, err)
		}
		return res, nil
	}}

// refinesRecall is the REFINES audit of the relation source the suite ran
// with (the rule scorer by default) against the bench's gold relations, per
// refinement kind. The learned scorer's audit needs a cross-validation
// (seconds), which a report built from cached rows should not redo:
// RefinesAudit(b, cv.OutOfFold(), …) gives it (notebook 44-boundary).
func refinesRecall(s Setup) (*report.Table, error) {
	rule := s.Options.Relator
	if rule == nil {
		rule = relate.Rule{}
	}
	return RefinesRecallTable([][]RefinesScore{RefinesAudit(s.Bench, rule, RefinementKinds(s.Bench))}, s.Bench.Name())
}
