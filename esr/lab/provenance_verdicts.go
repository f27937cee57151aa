package lab

import (
	"fmt"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
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
	theirs := append([]memory.Spec(nil), paper.RetentionClasses...)
	sort.SliceStable(theirs, func(i, j int) bool {
		return paper.Number(paper.ClassCell(paper.F3, theirs[i])) < paper.Number(paper.ClassCell(paper.F3, theirs[j]))
	})
	var o []string
	for _, a := range ours {
		o = append(o, a.Memory.String())
	}
	s := "Ordered by provenance accuracy, ours: " + strings.Join(o, " < ") + "; the paper's: " + strings.Join(memory.Strings(theirs), " < ") + "."
	if strings.Join(o, ",") == strings.Join(memory.Strings(theirs), ",") {
		s += " The same ordering."
	} else {
		s += " A different ordering."
	}
	out := []string{s}
	f := eval.And(eval.QueryType(esr.Provenance), eval.Variants(eval.StateOnly))
	terms := RetentionSteps
	cs, _ := eval.CompareTerms(rows, terms, f, opt)
	for _, c := range cs {
		out = append(out, paper.Versus(c, paper.F3.Key(c.Key)))
	}
	return out
}

// DeployedReversalVerdict is §4.3's deployed-render reversal: fine −
// coarse on provenance with the retained state only and with the raw
// events appended, ours beside the paper's, and whether appending the
// events reverses the sign in ours as in the paper.
func DeployedReversalVerdict(rows []eval.Outcome, opt eval.StatOptions) string {
	prov := eval.QueryType(esr.Provenance)
	state, err1 := eval.Compare(rows, eval.Term{Label: "fine − coarse (state only)", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.CoarseRetain)}, eval.And(prov, eval.Variants(eval.StateOnly)), opt)
	dep, err2 := eval.Compare(rows, eval.Term{Label: "fine − coarse (deployed render)", A: memory.SpecOf(memory.FineLedger), B: memory.SpecOf(memory.CoarseRetain)}, eval.And(prov, eval.Variants(eval.DeployedRender)), opt)
	if err1 != nil || err2 != nil {
		return ""
	}
	pState := paper.Number(paper.F3.Key(paper.FineRetain))
	s := fmt.Sprintf("Provenance, fine − coarse: state only %s %s (%s), deployed render %s %s (%s). The paper: %s state only, %s deployed, a reversal.",
		report.Signed(state.Delta), state.CI(), paper.FindingOf(state), report.Signed(dep.Delta), dep.CI(), paper.FindingOf(dep),
		report.Signed(pState), report.Signed(paper.Number(paper.F3Deployed.Key(deployedStep.Key))))
	if state.TooFew || dep.TooFew {
		return s + " Ours has " + eval.FirstTooFew(state, dep) + " to tell whether the sign reverses."
	}
	return s + " " + reversalWords(state.Lo, state.Hi, dep.Lo, dep.Hi, dep.Delta-state.Delta)
}

// reversalWords says, from where each interval lies against 0, whether
// fine − coarse reverses from the state-only render (interval [sLo, sHi])
// to the deployed render ([dLo, dHi]) as the paper's does (a lead turned
// into a loss): both intervals above 0, both below, one on each side
// (either way round), or one or both including 0; move is how far the
// deployed render moves fine − coarse.
func reversalWords(sLo, sHi, dLo, dHi, move float64) string {
	side := func(lo, hi float64) int {
		switch {
		case lo > 0:
			return 1
		case hi < 0:
			return -1
		}
		return 0
	}
	by := " (the deployed render moves fine − coarse by " + report.Signed(move) + ")."
	switch s, d := side(sLo, sHi), side(dLo, dHi); {
	case s > 0 && d < 0:
		return "Ours reverses too: appending the raw events turns fine's lead into a loss (the state-only interval lies above 0, the deployed one below)."
	case s < 0 && d > 0:
		return "Ours reverses the other way: appending the raw events turns fine's loss into a lead (the state-only interval lies below 0, the deployed one above)."
	case s > 0 && d > 0:
		return "Ours does not reverse: fine keeps its lead with the raw events appended (both intervals lie above 0)" + by
	case s < 0 && d < 0:
		return "Ours does not reverse: fine trails coarse with the state only and with the raw events appended (both intervals lie below 0)" + by
	case s == 0 && d == 0:
		return "Ours cannot tell whether the sign reverses: both intervals include 0" + by
	case s == 0:
		return "Ours cannot tell whether the sign reverses: the state-only interval includes 0, the deployed one lies " + aboveBelow(d) + " 0" + by
	default:
		return "Ours cannot tell whether the sign reverses: the deployed interval includes 0, the state-only one lies " + aboveBelow(s) + " 0" + by
	}
}

func aboveBelow(side int) string {
	if side > 0 {
		return "above"
	}
	return "below"
}
