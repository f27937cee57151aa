package lab

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// renderMatchedTerms is Table 2 on the rows kept by f: the render-matched terms
// pooled and per family.
func renderMatchedTerms(rows []eval.Outcome, f eval.Filter, opt eval.StatOptions) ([]eval.Comparison, error) {
	var out []eval.Comparison
	err := eval.ByFamily(rows, f, func(fam reader.Family, ff eval.Filter) error {
		cs, err := eval.CompareTerms(rows, eval.RenderMatched, ff, opt)
		if err != nil {
			return err
		}
		for i := range cs {
			cs[i].Family = fam
		}
		out = append(out, cs...)
		return nil
	})
	return out, err
}

// buildTable2 formats the pooled rows of a decomposition as the paper's Table 2,
// ours beside the paper's, with the discordant pairs behind each interval
// (A✓B✗ / A✗B✓: a degenerate interval explains itself). With a single
// family its rows stand in for the pooled ones. table2ByFamily has the
// per-family rows.
func buildTable2(cs []eval.Comparison, scope string, rows []eval.Outcome) *eval.Table {
	t := &eval.Table{ID: Table2Decomposition, Title: "Table 2: render-matched decomposition on " + scope + ", pooled",
		Columns: []string{"term", "n", "ours Δ", "95% CI", "discordant (A✓B✗ / A✗B✓)", "p", "paper Δ (DeepSeek-V3)"}}
	pooled := cs[:0:0]
	for _, c := range cs {
		if c.Family == reader.Pooled {
			pooled = append(pooled, c)
		}
	}
	if len(pooled) == 0 {
		pooled = cs
	}
	for _, c := range pooled {
		t.AddRow(c.Label, c.N, eval.SignedCell(c.Delta), c.CI(), eval.DiscordantCell(c), eval.PValueCell(c.P), paper.Cell(paper.T2.Key(c.Key), true))
	}
	t.Notes = []string{"render = render-only − graphrag-abstain; fine-d mechanism = fine-ledger − render-only",
		"coarse-d mechanism two ways: the paper's Table 2 definition (coarse-retain − render-only, the ledger's control, so the layout changes between the arms: JSON facts against the ledger table) and matched (coarse-retain − coarse-retain~render-only, its own control: same facts, ids and order, mechanism off), as the paper's render-matched protocol builds a control; coarse layout = coarse-retain~render-only − render-only, so paper's = matched + layout, pair by pair; the paper reports only its own definition",
		eval.IntervalNoteFor(cs), eval.FamilyNote(rows)}
	return t
}

// table2ByFamily is the per-family half of Table 2: every term for every
// reader family, with its discordant pairs (no paper column: the paper's
// Δ is pooled).
func table2ByFamily(cs []eval.Comparison, scope string, rows []eval.Outcome) *eval.Table {
	t := &eval.Table{ID: Table2Families, Title: "Table 2 by reader family, " + scope,
		Columns: []string{"family", "term", "n", "ours Δ", "95% CI", "discordant (A✓B✗ / A✗B✓)", "p"}}
	omitted := 0
	for _, c := range cs {
		if c.Family == reader.Pooled {
			continue
		}
		if eval.AgreeEverywhere(c) {
			omitted++
			continue
		}
		t.AddRow(c.Family.String(), c.Label, c.N, eval.SignedCell(c.Delta), c.CI(), eval.DiscordantCell(c), eval.PValueCell(c.P))
	}
	t.Notes = []string{eval.IntervalNoteFor(cs), eval.FamilyNote(rows)}
	if omitted > 0 {
		t.Notes = append([]string{fmt.Sprintf("%d rows omitted: on them the two memories agree on every question for that family (Δ +0.000, no discordant pair)", omitted)}, t.Notes...)
	}
	return t
}

// headlineTable is the §4.1 headline on rows kept by f, pooled and per family.
func headlineTable(rows []eval.Outcome, f eval.Filter, opt eval.StatOptions) (*eval.Table, []eval.Comparison, error) {
	t := &eval.Table{ID: HeadlineRevertedRevert, Title: "§4.1 headline comparisons (reverted-revert, snapshot)",
		Columns: []string{"comparison", "family", "n", "ours Δ", "95% CI", "paper Δ"}}
	var all []eval.Comparison
	err := eval.ByFamily(rows, f, func(fam reader.Family, ff eval.Filter) error {
		cs, err := eval.CompareTerms(rows, eval.Headline, ff, opt)
		if err != nil {
			return err
		}
		for _, c := range cs {
			c.Family = fam
			all = append(all, c)
			t.AddRow(c.Label, fam, c.N, eval.SignedCell(c.Delta), c.CI(), paper.Cell(paper.RR.Key(c.Key), true))
		}
		return nil
	})
	t.Notes = []string{opt.IntervalNote(), eval.FamilyNote(eval.Select(rows, f))}
	return t, all, err
}

// buildTable3 is the typed mechanism residual (fine-ledger − render-only) per
// stratum, pooled over families, on snapshot rows.
func buildTable3(rows []eval.Outcome, opt eval.StatOptions) (*eval.Table, []eval.Comparison, error) {
	t := &eval.Table{ID: Table3MechanismByStratum, Title: "Table 3: typed mechanism residual (fine-ledger − render-only) by stratum",
		Columns: []string{"stratum", "n", "ours Δ", "95% CI", "discordant (A✓B✗ / A✗B✓)", "MDE", "paper Δ"}}
	var out []eval.Comparison
	for _, p := range esr.Phenomena {
		c, err := eval.Compare(rows, eval.TermFineMechanism, eval.SnapshotIn(p), opt)
		if err != nil {
			continue
		}
		c.Stratum = p
		out = append(out, c)
		t.AddRow(string(p), c.N, eval.SignedCell(c.Delta), c.CI(), fmt.Sprintf("%d / %d", c.N10, c.N01), eval.MDECell(c, nil), paper.Cell(paper.T3Cell(p), true))
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("table 3: no stratum has both fine-ledger and render-only rows")
	}
	t.Notes = []string{"MDE: the smallest true Δ detectable at two-sided α = 0.05 with 80% power by a McNemar test on n independent pairs with the observed discordant share (Connor 1987); pooled pairs are correlated, so the true MDE is larger", opt.IntervalNote(), eval.FamilyNote(rows)}
	return t, out, nil
}

// table11 splits monotonic snapshot rows into items with deprecated evidence
// and the pure half (pure: qids in the set, see PureMonotonic), and reports
// RL − GraphRAG+abstain on each, and the render term and fine residual on
// the pure half.
func table11(rows []eval.Outcome, pure map[string]bool, opt eval.StatOptions) (*eval.Table, error) {
	mono := eval.SnapshotIn(esr.Monotonic)
	notPure := func(o *eval.Outcome) bool { return !pure[o.QID] }
	t := &eval.Table{ID: Table11PureMonotonic, Title: "Table 11: monotonic split: with deprecated evidence vs pure (no revision)",
		Columns: []string{"slice", "comparison", "n", "ours Δ", "95% CI", "paper Δ"}}
	specs := []struct {
		slice, label string
		a, b         memory.Spec
		paper        paper.Key
		f            eval.Filter
	}{
		{"with deprecated", "RL − GraphRAG+abstain", memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain), paper.T11WithDeprecated, eval.And(mono, notPure)},
		{"pure", "RL − GraphRAG+abstain", memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain), paper.T11Pure.Key(eval.KeyLedgerVsBaseline), eval.And(mono, eval.QIDs(pure))},
		{"pure", "render (render-only − GRA)", memory.SpecOf(memory.RenderOnly), memory.SpecOf(memory.GraphRAGAbstain), paper.T11Pure.Key(eval.KeyRender), eval.And(mono, eval.QIDs(pure))},
		{"pure", "fine residual (RL − render-only)", memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.RenderOnly), paper.T11Pure.Key(paper.FineResidual), eval.And(mono, eval.QIDs(pure))},
	}
	n := 0
	for _, s := range specs {
		c, err := eval.Compare(rows, eval.Term{Label: s.label, A: s.a, B: s.b}, s.f, opt)
		if err != nil {
			continue
		}
		n++
		t.AddRow(s.slice, s.label, c.N, eval.SignedCell(c.Delta), c.CI(), paper.Cell(s.paper, true))
	}
	if n == 0 {
		return nil, fmt.Errorf("table 11: no monotonic rows to split")
	}
	t.Notes = []string{opt.IntervalNote(), eval.FamilyNote(rows)}
	return t, nil
}

// SplitFamilies splits table id, whose rows are the comparisons the Report
// kept for it (row i is Terms(id)[i]), into the rows pooled over every
// family and the per-family rows (named ID-by-family), each keeping the
// notes: a notebook shows the pooled table and folds the other. A row is
// pooled by its comparison's scope, not by its text.
func (r *Result) SplitFamilies(id TableID) (pooled, families *eval.Table, err error) {
	t, err := r.Table(id)
	if err != nil {
		return nil, nil, err
	}
	cs, err := r.Terms(id)
	if err != nil {
		return nil, nil, err
	}
	if len(cs) != len(t.Rows) {
		return nil, nil, fmt.Errorf("suite %s: table %s has %d rows for %d comparisons", r.Name, id, len(t.Rows), len(cs))
	}
	pooled = &eval.Table{ID: t.ID, Title: t.Title + ", pooled", Columns: t.Columns, Notes: t.Notes}
	families = &eval.Table{ID: t.ID + "-by-family", Title: t.Title + ", per family", Columns: t.Columns, Notes: t.Notes}
	for i, row := range t.Rows {
		if cs[i].Family != reader.Pooled {
			families.Rows = append(families.Rows, row)
			continue
		}
		pooled.Rows = append(pooled.Rows, row)
	}
	return pooled, families, nil
}
