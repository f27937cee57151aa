package lab

import (
	"github.com/esrkit/esrkit/esr/eval"

	"context"
	"slices"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// AnswerGrid answers one QA with every memory × reader and lays the answers
// out as a table (one row per memory, one column per reader), marking right
// answers ✓ and wrong ones ✗. The staircase memories come first, next to
// each other, so the render step (graphrag-abstain → render-only) and the
// mechanism step (render-only → fine-ledger) read down adjacent rows; the
// other memories follow in the order given. It is the quickstart's view of
// the render confound on a single stream.
func AnswerGrid(ctx context.Context, s *esr.Stream, atoms []esr.Atom, qa esr.QA, memories []memory.Spec, readers []reader.Reader, opt memory.Options) (*eval.Table, error) {
	t := &eval.Table{ID: eval.TableID("answer-grid-" + qa.QID), Title: "Answers to “" + qa.Question + "” (gold: " + qa.GoldAnswer + ")",
		Columns: []string{"memory"}}
	for _, r := range readers {
		t.Columns = append(t.Columns, r.Spec().String())
	}
	key, _ := qa.Locate(atoms)
	q := qa.Query(key)
	var ordered []memory.Spec
	for _, m := range Staircase {
		if slices.Contains(memories, m) {
			ordered = append(ordered, m)
		}
	}
	for _, m := range memories {
		if !slices.Contains(ordered, m) {
			ordered = append(ordered, m)
		}
	}
	unread := false
	stated := reader.StatedValues(atoms, q.Key)
	for _, m := range ordered {
		st, err := memory.Build(m, s, atoms, opt)
		if err != nil {
			return nil, err
		}
		row := []any{m}
		for _, r := range readers {
			out, err := r.Read(ctx, reader.Input{QID: qa.QID, Question: qa.Question, QueryType: qa.Type(),
				Context: st.Render(q), MayAbstain: st.MayAbstain(), Memory: m, State: st, Query: q, Stated: stated})
			if err != nil {
				return nil, err
			}
			v, _ := judge.Exact{}.Judge(ctx, &qa, out.Answer)
			cell := eval.VerdictCell(out.Answer.String(), v.Correct)
			if out.Unreadable {
				cell, unread = eval.TextCell(eval.NotMeasured), true
			}
			row = append(row, cell)
		}
		t.AddRow(row...)
	}
	t.Notes = []string{"✓ right, ✗ wrong under the exact judge; the first rows are the staircase (d-blind control, render-only, fine-ledger, coarse-retain); oracle reads the memory's structured state, the other readers read its render"}
	if unread {
		t.Notes = append(t.Notes, eval.NotMeasured+": the simulated reader cannot read the layout (raw text with no value pattern for the attribute), so the cell says nothing about the memory")
	}
	return t, nil
}
