package lab_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
)

// The notebook sentences follow the numbers: DecompositionSummary names
// the larger term by its estimate and sign, never by its label.
func TestDecompositionSummaryFollowsNumbers(t *testing.T) {
	neg := eval.Comparison{Term: eval.Term{Label: "render", A: memory.SpecOf("render-only"), B: memory.SpecOf("graphrag-abstain")}, N: 10, Delta: -0.2, Lo: -0.3, Hi: -0.1, Level: 0.95}
	nul := eval.Comparison{Term: eval.Term{Label: "fine-d mechanism", A: memory.SpecOf("fine-ledger"), B: memory.SpecOf("render-only")}, N: 10, Delta: 0.01, Lo: -0.02, Hi: 0.04, Level: 0.95}
	neg.Family, nul.Family = reader.Family{Kind: reader.KindSim, Name: "fam"}, reader.Family{Kind: reader.KindSim, Name: "fam"}
	got := lab.DecompositionSummary([]eval.Comparison{neg, nul}, "bench")
	if !strings.Contains(got, "render term is the larger and negative") || strings.Contains(got, "carries most of the gain") {
		t.Errorf("a negative render term is summarised as %q", got)
	}
	m := nul
	m.Delta, m.Lo, m.Hi = 0.5, 0.4, 0.6
	got = lab.DecompositionSummary([]eval.Comparison{neg, m}, "bench")
	if !strings.Contains(got, "mechanism term is the larger and positive") {
		t.Errorf("a larger positive mechanism term is summarised as %q", got)
	}
}

// ExplainGap weighs a pooled term against the paper's (direction, size,
// overlap) and names the families behind it; WhoIsRight splits a memory's
// accuracy by family.
func TestExplainGapAndWhoIsRight(t *testing.T) {
	cs := []eval.Comparison{
		termCmp(eval.TermRender, reader.Pooled, -0.05, -0.08, -0.02),
		termCmp(eval.TermRender, reader.Family{Kind: reader.KindSim, Name: "a"}, -0.25, -0.3, -0.2),
		termCmp(eval.TermRender, reader.Family{Kind: reader.KindSim, Name: "b"}, 0, 0, 0),
	}
	got := lab.ExplainGap(cs, paper.T2)
	if !strings.Contains(got, "opposite direction") || !strings.Contains(got, "do not overlap") || !strings.Contains(got, "sim:a -0.250, sim:b +0.000") {
		t.Errorf("ExplainGap: %q", got)
	}
	rows := []eval.Outcome{{QID: "1", Family: reader.Family{Kind: reader.KindSim, Name: "a"}, Memory: memory.SpecOf("m"), Correct: true}, {QID: "1", Family: reader.Family{Kind: reader.KindSim, Name: "b"}, Memory: memory.SpecOf("m")}}
	if got := lab.WhoIsRight(rows, memory.SpecOf("m"), nil); !strings.Contains(got, "0.500") || !strings.Contains(got, "sim:a 1.000, sim:b 0.000") {
		t.Errorf("WhoIsRight: %q", got)
	}
}
