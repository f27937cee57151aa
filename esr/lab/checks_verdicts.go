package lab

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/reader"
)

// table19Verdict is the paper's reading of Table 19 (RevisionLedger beats
// GraphRAG+abstain in every (wording, family) cell, while the wording moves
// the control's calibration) checked on ours: in how many cells Δ RL − GRA
// is positive with its interval above 0.
func table19Verdict(rows []eval.Outcome, opt eval.StatOptions) string {
	cells, above, below := 0, 0, 0
	for _, v := range wordingVariants {
		cond := wordingCondition(v)
		sub := eval.Select(rows, eval.Variants(cond))
		for _, fam := range eval.Distinct(sub, func(o *eval.Outcome) reader.Family { return o.Family }) {
			c, err := eval.Compare(rows, termRLGRA, eval.And(eval.Variants(cond), eval.Family(fam)), opt)
			if err != nil {
				continue
			}
			cells++
			switch {
			case !c.Significant():
			case c.Lo > 0:
				above++
			case c.Hi < 0:
				below++
			}
		}
	}
	if cells == 0 {
		return ""
	}
	s := fmt.Sprintf("RevisionLedger − GraphRAG+abstain is above 0 (interval excludes 0) in %d of %d (wording, family) cells and below 0 in %d; the paper finds RevisionLedger ahead in all six of its cells.", above, cells, below)
	if above == cells {
		s += " Ours is ahead in every cell too; this compares directions only, not sizes (the table sets each cell's size beside the paper's)."
	} else {
		s += " Not in every cell of ours: the wording can reverse or erase the ledger's lead for some of these readers."
	}
	return s
}
