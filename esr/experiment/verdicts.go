package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

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
		label, a, b, key string
		f                eval.Filter
	}{
		{"with deprecated: RL − GRA", memory.FineLedger, memory.GraphRAGAbstain, "t11/with-deprecated", eval.And(mono, notPure)},
		{"pure: RL − GRA", memory.FineLedger, memory.GraphRAGAbstain, "t11/pure/RL − GRA", p},
		{"pure: render", memory.RenderOnly, memory.GraphRAGAbstain, "t11/pure/render", p},
		{"pure: fine residual", memory.FineLedger, memory.RenderOnly, "t11/pure/fine residual", p},
	}
	var out []string
	var render, resid eval.Comparison
	for i, s := range specs {
		c, err := eval.Compare(rows, s.label, s.a, s.b, s.f, opt)
		if err != nil {
			continue
		}
		out = append(out, Versus(c, s.key))
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
		if math.Abs(paper.Number(paper.Key{Table: "t11", Term: "pure/fine residual"})) > math.Abs(paper.Number(paper.Key{Table: "t11", Term: "pure/render"})) {
			theirs = "the fine residual"
		}
		s := fmt.Sprintf("On the pure half (no revision at all) ours is mostly %s (%s against %s); the paper's is mostly %s (%s against %s).",
			ours, fmtSigned(render.Delta), fmtSigned(resid.Delta), theirs, fmtSigned(paper.Number(paper.Key{Table: "t11", Term: "pure/render"})), fmtSigned(paper.Number(paper.Key{Table: "t11", Term: "pure/fine residual"})))
		if ours != theirs {
			s += " A different term carries the pure half's gain."
		}
		out = append(out, s)
	}
	return out
}

// Figure3Verdict compares the provenance ordering of the retention classes
// with the paper's (coarse-discard < graphrag-abstain < coarse-retain <
// fine-ledger) and each paired difference the paper reports (Versus).
func Figure3Verdict(rows []eval.Outcome, opt eval.StatOptions) []string {
	acc := eval.ProvenanceAccuracy(rows, paper.RetentionClasses, eval.StateOnly)
	if len(acc) == 0 {
		return nil
	}
	ours := append([]eval.Accuracy(nil), acc...)
	sort.SliceStable(ours, func(i, j int) bool { return ours[i].Acc < ours[j].Acc })
	theirs := append([]string(nil), paper.RetentionClasses...)
	sort.SliceStable(theirs, func(i, j int) bool {
		return paper.Number(paper.Key{Table: "f3", Term: theirs[i]}) < paper.Number(paper.Key{Table: "f3", Term: theirs[j]})
	})
	var o []string
	for _, a := range ours {
		o = append(o, a.Memory)
	}
	s := "Ordered by provenance accuracy, ours: " + strings.Join(o, " < ") + "; the paper's: " + strings.Join(theirs, " < ") + "."
	if strings.Join(o, ",") == strings.Join(theirs, ",") {
		s += " The same ordering."
	} else {
		s += " A different ordering."
	}
	out := []string{s}
	f := eval.And(eval.QueryType("provenance"), eval.Condition(eval.StateOnly))
	terms := []eval.Term{{Label: "fine − discard", A: memory.FineLedger, B: memory.CoarseDiscard}, {Label: "retain − discard", A: memory.CoarseRetain, B: memory.CoarseDiscard}, {Label: "fine − retain", A: memory.FineLedger, B: memory.CoarseRetain}}
	cs, _ := eval.CompareTerms(rows, terms, f, opt)
	for _, c := range cs {
		out = append(out, Versus(c, "f3/"+c.Label))
	}
	return out
}

// DeployedReversalVerdict is §4.3's deployed-render reversal: fine −
// coarse on provenance with the retained state only and with the raw
// events appended, ours beside the paper's, and whether appending the
// events reverses the sign in ours as in the paper.
func DeployedReversalVerdict(rows []eval.Outcome, opt eval.StatOptions) string {
	prov := eval.QueryType("provenance")
	state, err1 := eval.Compare(rows, "fine − coarse (state only)", memory.FineLedger, memory.CoarseRetain, eval.And(prov, eval.Condition(eval.StateOnly)), opt)
	dep, err2 := eval.Compare(rows, "fine − coarse (deployed render)", memory.FineLedger, memory.CoarseRetain, eval.And(prov, eval.Condition(eval.DeployedRender)), opt)
	if err1 != nil || err2 != nil {
		return ""
	}
	pState := paper.Number(paper.Key{Table: "f3", Term: "fine − retain"})
	s := fmt.Sprintf("Provenance, fine − coarse: state only %s %s (%s), deployed render %s %s (%s). The paper: %s state only, %s deployed, a reversal.",
		fmtSigned(state.Delta), state.CI(), finding(state), fmtSigned(dep.Delta), dep.CI(), finding(dep),
		fmtSigned(pState), fmtSigned(paper.Number(paper.Key{Table: "f3", Term: "deployed/fine − coarse"})))
	switch {
	case state.TooFew || dep.TooFew:
		s += " Ours has " + eval.FirstTooFew(state, dep) + " to tell whether the sign reverses."
	case state.Lo > 0 && dep.Hi < 0:
		s += " Ours reverses too: appending the raw events turns fine's lead into a loss."
	case state.Lo > 0 && dep.Lo > 0:
		s += " Ours does not reverse: fine keeps its lead with the raw events appended."
	default:
		s += fmt.Sprintf(" Ours shows no reversal with intervals on both sides of 0 (the deployed render moves fine − coarse by %s).", fmtSigned(dep.Delta-state.Delta))
	}
	return s
}
