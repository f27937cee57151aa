package lab

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot"
)

// provenanceSuite is the "provenance" experiment of `esr run` and the notebooks.
var provenanceSuite = Suite{Name: SuiteProvenance, Doc: "§4.3: Figure 3, the deployed render, the relation-type query",
	Evaluate: provenanceRows, Report: provenanceReport}

// provenanceRows evaluates the retention classes on provenance and
// relation-type QAs from retained state only, and on provenance QAs with the
// deployed render.
func provenanceRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	mems := append([]memory.Spec{}, paper.RetentionClasses...)
	state, err := s.Evaluate(ctx, mems, []esr.QueryType{esr.Provenance, esr.RelationType}, s.Options, eval.StateOnly)
	if err != nil {
		return nil, err
	}
	opt := s.Options
	opt.Deployed = true
	dep, err := s.Evaluate(ctx, mems, []esr.QueryType{esr.Provenance}, opt, eval.DeployedRender)
	if err != nil {
		return nil, err
	}
	return append(state, dep...), nil
}

// provenanceReport is §4.3: Figure 3 from retained state only, the deployed
// render reversal, and the relation-type query.
func provenanceReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: string(SuiteProvenance), Rows: rows, Figures: map[FigureID]*plot.Plot{}}
	t3, err := figure3Table(rows, eval.StateOnly, s.Stats)
	if err != nil {
		return nil, err
	}
	res.Tables = append(res.Tables, t3)
	t, err := figure3Table(rows, eval.DeployedRender, s.Stats)
	res.Add(Figure3ProvenanceDeployed, t, err)
	t, err = relationTypeTable(rows, s.Stats)
	res.Add(RelationTypeQuery, t, err)
	return res, res.draw(Figure3ProvenanceFigure, Figure3ProvenanceDeployedFigure)
}

// RetentionSteps are the paired differences between Figure 3's classes the
// paper's text reports (§4.3), each with its registry term in table paper.F3.
var RetentionSteps = []eval.Term{
	{Label: "fine − discard", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.CoarseDiscard), Key: paper.FineDiscard},
	{Label: "retain − discard", A: memory.SpecOf(memory.CoarseRetain), B: memory.SpecOf(memory.CoarseDiscard), Key: paper.RetainDiscard},
	{Label: "fine − retain", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.CoarseRetain), Key: paper.FineRetain},
}

// deployedStep is fine − coarse under the deployed render, keyed in table
// paper.F3Deployed (the paper's reversal).
var deployedStep = eval.Term{Label: "fine − coarse", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.CoarseRetain), Key: paper.FineCoarse}

// ProvenancePlot is the paper's Figure 3: provenance accuracy by retention
// class with Wilson intervals. With a paper table (paper.F3, F3Deployed,
// TempLAMA), each class's published accuracy (the table's cell under the
// class name) is an open ring on its bar.
func ProvenancePlot(acc []eval.Accuracy, title string, paperTables ...paper.Table) *plot.Plot {
	var pts []report.IntervalPoint
	for _, a := range acc {
		pt := report.IntervalPoint{Label: a.Memory.String(), Est: a.Acc, Lo: a.Lo, Hi: a.Hi}
		for _, table := range paperTables {
			if v, ok := paper.Lookup(paper.ClassCell(table, a.Memory)); ok {
				pt.Paper, pt.HasPaper = v, true
			}
		}
		pts = append(pts, pt)
	}
	return report.BarPlot(title, "provenance accuracy", pts)
}

// Table lists Figure 3's accuracies beside the paper's, plus the
// paired differences the text reports, for one condition.
func figure3Table(rows []eval.Outcome, condition eval.Variant, opt eval.StatOptions) (*eval.Table, error) {
	name, title, table := string(Figure3Provenance), "Figure 3: provenance accuracy from retained state only", paper.F3
	if condition.Equal(eval.DeployedRender) {
		name, title, table = string(Figure3ProvenanceDeployed), "§4.3 deployed render (raw events appended): provenance accuracy", paper.F3Deployed
	}
	t := &eval.Table{ID: eval.TableID(name), Title: title, Columns: []string{"class / comparison", "n", "ours", "95% CI", "paper"}}
	acc := eval.ProvenanceAccuracy(rows, paper.RetentionClasses, condition)
	if len(acc) == 0 {
		return nil, fmt.Errorf("no provenance rows for condition %q", condition)
	}
	for _, a := range acc {
		t.AddRow(a.Memory, a.N, eval.PropCell(a.Acc), eval.WilsonCell(a), paper.Cell(paper.ClassCell(table, a.Memory), false))
	}
	f := eval.And(eval.QueryType(esr.Provenance), eval.Variants(condition))
	terms := RetentionSteps
	if condition.Equal(eval.DeployedRender) {
		terms = []eval.Term{deployedStep}
	}
	cs, _ := eval.CompareTerms(rows, terms, f, opt)
	for _, c := range cs {
		t.AddRow(c.Label, c.N, eval.SignedCell(c.Delta), c.CI(), paper.Cell(table.Key(c.Key), true))
	}
	t.Notes = eval.UnreadableNotes([]string{"accuracy intervals: Wilson; differences: " + opt.IntervalNote(), eval.FamilyNote(eval.Select(rows, f))}, rows, f)
	return t, nil
}

// relationTypeTable is the §4.3 relation-type query: fine-ledger −
// coarse-retain pooled, and accuracy by stratum (refines vs the rest), with
// the paper's accuracies on refinement items. Readers answer a relation
// type only from a status cell they read (esr/reader), so a store that
// shows none gives nothing to read on any item.
func relationTypeTable(rows []eval.Outcome, opt eval.StatOptions) (*eval.Table, error) {
	f := eval.QueryType("relation-type")
	t := &eval.Table{ID: RelationTypeQuery, Title: "§4.3 relation-type query: did the last change refine or replace?",
		Columns: []string{"row", "n", "ours", "95% CI", "paper"}}
	c, err := eval.Compare(rows, eval.Term{Label: "fine − retain", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.CoarseRetain)}, f, opt)
	if err != nil {
		return nil, err
	}
	t.AddRow("fine-ledger − coarse-retain", c.N, eval.SignedCell(c.Delta), c.CI(), paper.Cell(paper.TypeFineRetain, true))
	for _, a := range eval.AccuracyBy(rows, memory.Specs(memory.CoarseRetain, memory.FineLedger), func(o *eval.Outcome) string { return string(o.Phenomenon) }, f, opt.WithDefaults().Level) {
		paperCell := eval.TextCell("—")
		if a.Group == string(esr.Refinement) {
			paperCell = paper.Cell(paper.ClassCell(paper.TypeRefines, a.Memory), false)
		}
		t.AddRow(a.Memory.String()+" on "+a.Group, a.N, eval.PropCell(a.Acc), eval.WilsonCell(a), paperCell)
	}
	t.Notes = eval.UnreadableNotes([]string{
		fmt.Sprintf("paper: on the %s items whose prior value is gold-defined; on refinement items fine-d %s and coarse-retain %s (both near floor) because its rule scorer collapses REFINES onto SUPERSEDES",
			report.Thousands(int(paper.Number(paper.TypeN))), paper.Cell(paper.ClassCell(paper.TypeRefines, memory.SpecOf(memory.FineLedger)), false), paper.Cell(paper.ClassCell(paper.TypeRefines, memory.SpecOf(memory.CoarseRetain)), false)),
		"a simulated reader answers a relation type only from a status cell it reads (REFINED → refines, DEPRECATED → replaces); where the render shows none (coarse-retain's closed edges, no status column, a reader that ignores status) it answers replaces, never refines",
		eval.FamilyNote(eval.Select(rows, f))}, rows, f)
	return t, nil
}
