package lab

import (
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/reader/sim"

	"fmt"
	"sort"

	"github.com/esrkit/esrkit/esr/reader"
)

// CapabilitiesTable lists what each reader can do with a render: the
// scripted readers' capabilities, or the model of an LLM reader.
func CapabilitiesTable(readers []reader.Reader) *eval.Table {
	t := &eval.Table{ID: "reader-capabilities", Title: "What each reader can do with a render",
		Columns: []string{"reader", "reads a status column", "sorts by visible dates", "with several candidates", "token budget"}}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	names := make([]string, len(readers))
	for i, r := range readers {
		names[i] = r.Spec().String()
	}
	order := make([]int, len(readers))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
	for _, i := range order {
		switch r := readers[i].(type) {
		case *sim.Scripted:
			c := r.Capabilities()
			budget := eval.TextCell("all")
			if c.TokenBudget > 0 {
				budget = eval.CountCell(c.TokenBudget)
			}
			t.AddRow(r.Spec().String(), yes(c.UsesStatus), yes(c.SortsByTime), c.OnConflict, budget)
		case *sim.Sim:
			p := r.Profile()
			budget := eval.TextCell("all")
			if p.TokenBudget > 0 {
				budget = eval.CountCell(p.TokenBudget)
			}
			pa := (1 - p.FirstRowBias) * p.AbstainOnConflict
			status := fmt.Sprintf("rows p = %.2f, key p = %.2f", p.StatusSkill, p.KeySkill())
			order := fmt.Sprintf("reads a declared newest-first block p = %.2f; sorts dates p = %.2f", p.OrderSkill, p.DateSkill)
			if p.DateDecayPerRow > 0 {
				order += fmt.Sprintf(" (× (1 − %.2f) per row beyond two)", p.DateDecayPerRow)
			}
			if p.ClutterScale > 0 {
				order += fmt.Sprintf("; on a clean render, each less %.2f × (%.2f per 1,000 tokens, %.2f per JSON level; sorts and lapse also %.2f per doubling of rows beyond two, %.2f if flat, %.2f per doubling of other keys' rows, %.2f if dates in prose) in logit",
					p.ClutterScale, p.LengthCost, p.NestCost, p.RowsCost, p.FlatCost, p.DistractorCost, p.ProseDateCost)
			}
			t.AddRow(r.Spec().String(), status, order,
				fmt.Sprintf("first p = %.2f, abstain p = %.2f, majority p = %.2f; lapse p = %.2f", p.FirstRowBias, pa, 1-p.FirstRowBias-pa, p.Lapse), budget)
		case reader.Oracle:
			t.AddRow(r.Spec().String(), "reads the structured state, not the text", "—", "—", "—")
		default:
			t.AddRow(r.Spec().String(), "LLM: whatever the model does", "", "", "")
		}
	}
	t.Notes = []string{"scripted and sim readers are SIMULATED: text rules with these capabilities (sim: each drawn per question with the probability shown), not LLMs"}
	return t
}

// StepsVersusStratum sets one worked question w beside its stratum: how many
// readers its render and mechanism steps move, and which term carries the
// stratum's gain in cs (renderMatchedTerms's pooled rows), so a reader sees
// whether the question is typical of the table.
func StepsVersusStratum(w *WorkedQuestion, cs []eval.Comparison) string {
	if len(w.Memories) < 3 || w.Memories[0] != Staircase[0] || w.Memories[1] != Staircase[1] || w.Memories[2] != Staircase[2] {
		return ""
	}
	moved := func(a, b int) int {
		n := 0
		for ri := range w.Readers {
			if w.Answers[ri][a].Correct != w.Answers[ri][b].Correct {
				n++
			}
		}
		return n
	}
	r, m := moved(0, 1), moved(1, 2)
	big, ok := dominant(pooledTerms(cs, eval.TermRender, eval.TermFineMechanism))
	if !ok {
		return ""
	}
	here := "the render step"
	switch {
	case m > r:
		here = "the mechanism step"
	case m == r:
		here = "neither step more than the other"
	}
	term := "render"
	if big.Of(eval.TermFineMechanism) {
		term = "mechanism"
	}
	typical := "typical of"
	if here != "the "+term+" step" {
		typical = "not typical of"
	}
	if big.TooFew {
		return fmt.Sprintf("On this question the render step changes %d of %d readers' verdicts and the mechanism step %d, so %s moves more; the stratum (Table 2 below) has %s to say which term dominates.",
			r, len(w.Readers), m, here, big.TooFewReason())
	}
	return fmt.Sprintf("On this question the render step changes %d of %d readers' verdicts and the mechanism step %d, so %s moves more; over the whole stratum (Table 2 below) the %s term dominates (%s %s): this question is %s the table.",
		r, len(w.Readers), m, here, term, fmtSigned(big.Delta), big.CI(), typical)
}

// pooledTerms keeps the pooled (or only) comparisons of terms.
func pooledTerms(cs []eval.Comparison, terms ...eval.Term) []eval.Comparison {
	var out []eval.Comparison
	for _, t := range terms {
		if c, ok := pooledOrOnly(cs, t); ok {
			out = append(out, c)
		}
	}
	return out
}
