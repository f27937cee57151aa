package lab

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/dyknow"
	"github.com/esrkit/esrkit/internal/report"
	"github.com/esrkit/esrkit/stats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
)

// externalSuite is the "external" experiment of `esr run` and the notebooks.
var externalSuite = Suite{Name: SuiteExternal, Benches: []string{"dyknow"}, Doc: "Appendix D analogue on an external benchmark: provenance retention ordering and the snapshot ceiling",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		prov, err := provenanceRows(ctx, s)
		if err != nil {
			return nil, err
		}
		snap, err := s.Evaluate(ctx, memory.Specs(memory.DirectContext, memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain),
			[]esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
		return append(prov, snap...), err
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		res := &Result{Name: "external", Rows: rows, Figures: map[FigureID]*plot.Plot{}}
		name := s.Bench.Name()
		t, err := provenanceTable(rows, name)
		res.Add(AppendixDProvenance.On(name), t, err)
		mems := memory.Specs(memory.DirectContext, memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain)
		res.Tables = append(res.Tables, snapshotCeilingTable(rows, name, esr.RevertedRevert, mems))
		res.Tables = append(res.Tables, snapshotCeilingTable(rows, name, esr.Monotonic, mems))
		return res, res.draw(AppendixDProvenanceFigure)
	}}

// provenanceTable is the Appendix D analogue: provenance accuracy by
// retention class on an external benchmark (state only), beside the
// paper's TempLAMA ordering.
func provenanceTable(rows []eval.Outcome, name string) (*eval.Table, error) {
	acc := eval.ProvenanceAccuracy(rows, paper.RetentionClasses, eval.StateOnly)
	if len(acc) == 0 {
		return nil, fmt.Errorf("no provenance rows")
	}
	t := &eval.Table{ID: AppendixDProvenance.On(name), Title: "Appendix D analogue: provenance by retention class on " + name + " (exact match)",
		Columns: []string{"class", "n", "ours", "95% CI", "paper (TempLAMA)"}}
	for _, a := range acc {
		t.AddRow(a.Memory, a.N, eval.PropCell(a.Acc), eval.WilsonCell(a), paper.Cell(paper.ClassCell(paper.TempLAMA, a.Memory), false))
	}
	t.Notes = []string{"paper: retention recovers " + paper.TempLAMARetainDiscard.Signed() + " over discarding on TempLAMA; its DyKnow replication (n = " + report.Thousands(int(paper.Number(paper.TempLAMADyKnowN))) + ") concurs", eval.FamilyNote(rows)}
	t.Notes = eval.UnreadableNotes(t.Notes, rows, eval.And(eval.QueryType(esr.Provenance), eval.Variants(eval.StateOnly)))
	return t, nil
}

// snapshotCeilingTable is accuracy of each memory on snapshot questions of
// one stratum (the paper's TempLAMA reverted-revert ceiling: flat list
// 0.965, render-only 0.957, deprecation-marked ledger 1.000). n counts the
// rows measured: a simulated reader that cannot read a layout (raw text)
// leaves its rows out, and a memory with no other row shows NotMeasured.
func snapshotCeilingTable(rows []eval.Outcome, name string, stratum esr.Phenomenon, memories []memory.Spec) *eval.Table {
	t := &eval.Table{ID: AppendixDSnapshot.On(name).On(string(stratum)), Title: "Snapshot accuracy on " + name + ", " + string(stratum),
		Columns: []string{"memory", "n", "acc", "95% CI"}}
	f := eval.And(eval.QueryType(esr.Snapshot), eval.Phenomenon(stratum))
	for _, a := range eval.AccuracyBy(rows, memories, nil, f, 0.95) {
		t.AddRow(a.Memory, a.N, eval.PropCell(a.Acc), eval.WilsonCell(a))
	}
	t.Notes = []string{"a clean (date, value) list makes the current value readable in any layout: a ceiling, not a mechanism test", eval.FamilyNote(rows)}
	t.Notes = eval.UnreadableNotes(t.Notes, rows, eval.And(f, func(o *eval.Outcome) bool { return slices.Contains(memories, o.Memory) }))
	return t
}

// DyKnowRAGTable compares DyKnow's real Llama-2-7B and Mistral-7B RAG
// answers with clean and with noisy retrieved context, paired by question:
// accuracy (DyKnow's own correct label) in each condition, the paired
// difference clean − noisy with its bootstrap interval and the exact
// permutation p-value.
func DyKnowRAGTable(outs []dyknow.Outcome, opt eval.StatOptions) (*eval.Table, error) {
	opt = opt.WithDefaults()
	t := &eval.Table{ID: "dyknow-rag-clean-vs-noisy", Title: "Real LLM answers (DyKnow RAG): clean vs noisy context, paired by question",
		Columns: []string{"model", "n", "clean acc", "noisy acc", "Δ clean − noisy", "95% CI", "p"}}
	paired := dyknow.PairedByModel(outs, false)
	var fams []string
	for f := range paired {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		p := paired[f]
		if len(p.Clean) == 0 {
			continue
		}
		a, b := toFloat(p.Clean), toFloat(p.Noisy)
		ci, err := stats.PairedBootstrapBinary(a, b, opt.B, opt.Level, opt.Seed)
		if err != nil {
			return nil, err
		}
		pt, err := stats.PairedPermutationExact(a, b)
		if err != nil {
			return nil, err
		}
		t.AddRow(f, len(a), eval.PropCell(stat.Mean(a, nil)), eval.PropCell(stat.Mean(b, nil)), eval.SignedCell(ci.Estimate), report.Interval(ci.Lo, ci.Hi), eval.PValueCell(pt.P))
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("no paired DyKnow outcomes")
	}
	t.Notes = []string{"REAL model outputs released with DyKnow (MIT); correctness is DyKnow's own label (correct vs outdated/irrelevant)"}
	return t, nil
}

func toFloat(x []int) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// DyKnowOutcome is one of DyKnow's released LLM RAG answers with its label.
type DyKnowOutcome = dyknow.Outcome

// LoadDyKnowOutcomes reads the real LLM outcomes bundled with the DyKnow
// conversion (data/dyknow/rag_outcomes.jsonl).
func LoadDyKnowOutcomes(dir string) ([]DyKnowOutcome, error) { return dyknow.LoadOutcomes(dir) }
