package lab

import (
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
)

// Table2Versus sets each Table 2 term the paper reports (render, fine-d and
// coarse-d mechanism), pooled over families in cs (renderMatchedTerms's
// rows), against the paper's: one sentence per term, in the table's order
// (paper.Versus), so notebooks word the comparison one way.
func Table2Versus(cs []eval.Comparison) []string {
	var out []string
	for _, t := range eval.RenderMatchedReported {
		for _, c := range cs {
			if c.Of(t) && c.Family == reader.Pooled {
				out = append(out, paper.Versus(c, paper.T2.Key(c.Key)))
			}
		}
	}
	return out
}
