package lab

import (
	"fmt"
	"math"

	"github.com/esrkit/esrkit/esr/paper"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// Per-table verdicts: for each table of the paper that the notebooks
// recompute, the finding the paper draws from it and whether ours draws the
// same one, with every number taken from the rows and the registry.

// Table11Verdicts compares each cell of Table 11 with the paper's (Versus),
// then says whether the pure half's gain is mostly render or mechanism in
// ours and in the paper.
func Table11Verdicts(rows []eval.Outcome, pure map[string]bool, opt eval.StatOptions) []string {
	mono := eval.SnapshotIn(esr.Monotonic)
	notPure := func(o *eval.Outcome) bool { return !pure[o.QID] }
	p := eval.And(mono, eval.QIDs(pure))
	specs := []struct {
		label string
		a, b  memory.Spec
		key   paper.Key
		f     eval.Filter
	}{
		{"with deprecated: RL − GRA", memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain), paper.T11WithDeprecated, eval.And(mono, notPure)},
		{"pure: RL − GRA", memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain), paper.T11Pure.Key(eval.KeyLedgerVsBaseline), p},
		{"pure: render", memory.SpecOf(memory.RenderOnly), memory.SpecOf(memory.GraphRAGAbstain), paper.T11Pure.Key(eval.KeyRender), p},
		{"pure: fine residual", memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.RenderOnly), paper.T11Pure.Key(paper.FineResidual), p},
	}
	var out []string
	var render, resid eval.Comparison
	for i, s := range specs {
		c, err := eval.Compare(rows, eval.Term{Label: s.label, A: s.a, B: s.b}, s.f, opt)
		if err != nil {
			continue
		}
		out = append(out, paper.Versus(c, s.key))
		switch i {
		case 2:
			render = c
		case 3:
			resid = c
		}
	}
	if render.N > 0 && resid.N > 0 {
		ours, theirs := "render", "render"
		if math.Abs(resid.Delta) > math.Abs(render.Delta) {
			ours = "the fine residual"
		}
		if math.Abs(paper.Number(paper.T11Pure.Key(paper.FineResidual))) > math.Abs(paper.Number(paper.T11Pure.Key(eval.KeyRender))) {
			theirs = "the fine residual"
		}
		s := fmt.Sprintf("On the pure half (no revision at all) ours is mostly %s (%s against %s); the paper's is mostly %s (%s against %s).",
			ours, fmtSigned(render.Delta), fmtSigned(resid.Delta), theirs, fmtSigned(paper.Number(paper.T11Pure.Key(eval.KeyRender))), fmtSigned(paper.Number(paper.T11Pure.Key(paper.FineResidual))))
		if ours != theirs {
			s += " A different term carries the pure half's gain."
		}
		out = append(out, s)
	}
	return out
}
