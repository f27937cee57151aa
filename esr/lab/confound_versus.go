package lab

import (
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
)

// Table2Versus sets each Table 2 term the paper reports (render, fine-d and
// coarse-d mechanism), pooled over families in cs (renderMatchedTerms's
// rows), against the paper's: one sentence per term, in the table's order
// (paper.Versus), so notebooks word the comparison one way. When rows'
// families are the shipped calibrated panel on the bench it was fitted on
// (benchName), each term is a calibration target and its sentence says it
// was fitted, before any number.
func Table2Versus(cs []eval.Comparison, rows []eval.Outcome, benchName string) []string {
	fitted := fittedPanel(rowFamilies(rows), benchName)
	var out []string
	for _, t := range eval.RenderMatchedReported {
		for _, c := range cs {
			if c.Of(t) && c.Family == reader.Pooled {
				out = append(out, versusMaybeFitted(c, paper.T2.Key(c.Key), fitted))
			}
		}
	}
	return out
}

// Table3Versus sets each stratum's fine-d mechanism term of cs (Table 3's
// pooled cells) against the paper's cell, one sentence each. Table 3's
// reverted-revert cell is Table 2's fine-d term again: with the calibrated
// panel on its own bench (as Table2Versus decides) that sentence says it
// was fitted.
func Table3Versus(cs []eval.Comparison, rows []eval.Outcome, benchName string) []string {
	fitted := fittedPanel(rowFamilies(rows), benchName)
	var out []string
	for _, c := range cs {
		if c.Family != reader.Pooled {
			continue
		}
		out = append(out, string(c.Stratum)+": "+versusMaybeFitted(c, paper.T3Cell(c.Stratum), fitted && c.Stratum == esr.RevertedRevert))
	}
	return out
}

// versusMaybeFitted is paper.Versus, with "fitted" said first when the
// paper's cell is a calibration target: "render, fitted to the paper's
// value (closeness is the fit, not a check): ours …".
func versusMaybeFitted(c eval.Comparison, key paper.Key, fitted bool) string {
	s := paper.Versus(c, key)
	if !fitted {
		return s
	}
	return c.Label + ", fitted to the paper's value (closeness is the fit, not a check): " + strings.TrimPrefix(s, c.Label+": ")
}
