package provenance

import (
	"fmt"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

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
	terms := RetentionSteps
	cs, _ := eval.CompareTerms(rows, terms, f, opt)
	for _, c := range cs {
		out = append(out, paper.Versus(c, paper.Key{Table: "f3", Term: c.Key}))
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
	pState := paper.Number(paper.Key{Table: "f3", Term: RetentionSteps[2].Key})
	s := fmt.Sprintf("Provenance, fine − coarse: state only %s %s (%s), deployed render %s %s (%s). The paper: %s state only, %s deployed, a reversal.",
		report.Signed(state.Delta), state.CI(), paper.FindingOf(state), report.Signed(dep.Delta), dep.CI(), paper.FindingOf(dep),
		report.Signed(pState), report.Signed(paper.Number(paper.Key{Table: "f3/deployed", Term: deployedStep.Key})))
	switch {
	case state.TooFew || dep.TooFew:
		s += " Ours has " + eval.FirstTooFew(state, dep) + " to tell whether the sign reverses."
	case state.Lo > 0 && dep.Hi < 0:
		s += " Ours reverses too: appending the raw events turns fine's lead into a loss."
	case state.Lo > 0 && dep.Lo > 0:
		s += " Ours does not reverse: fine keeps its lead with the raw events appended."
	default:
		s += fmt.Sprintf(" Ours shows no reversal with intervals on both sides of 0 (the deployed render moves fine − coarse by %s).", report.Signed(dep.Delta-state.Delta))
	}
	return s
}
