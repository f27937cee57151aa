package experiment

import (
	"context"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// Flips answers one QA along the render-matched staircase graphrag-abstain
// → render-only → fine-ledger with every reader and says, per reader, where
// its answer turned right or wrong: at the render step (same atoms and
// dates, the ledger's layout) or at the mechanism step (same layout, the
// status switched on). Every word of it comes from the answers computed.
func Flips(ctx context.Context, s *esr.Stream, atoms []esr.Atom, qa esr.QA, readers []reader.Reader, opt memory.Options) (string, error) {
	steps := []string{memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger}
	key, _ := qa.Locate(atoms)
	q := qa.Query(key)
	states := make([]memory.State, len(steps))
	for i, m := range steps {
		st, err := memory.Build(m, s, atoms, opt)
		if err != nil {
			return "", err
		}
		states[i] = st
	}
	var b strings.Builder
	for _, r := range readers {
		var answers []string
		var right []bool
		for i, st := range states {
			out, err := r.Read(ctx, reader.Input{QID: qa.QID, Question: qa.Question, QueryType: qa.Type(),
				Context: st.Render(q), MayAbstain: st.MayAbstain(), Memory: steps[i], State: st, Query: q})
			if err != nil {
				return "", err
			}
			v, err := judge.Exact{}.Judge(ctx, &qa, out.Answer)
			if err != nil {
				return "", err
			}
			answers, right = append(answers, out.Answer.String()), append(right, v.Correct)
		}
		var where []string
		for i, step := range []string{"render", "mechanism"} {
			switch {
			case !right[i] && right[i+1]:
				where = append(where, "turns right at the "+step+" step")
			case right[i] && !right[i+1]:
				where = append(where, "turns wrong at the "+step+" step")
			}
		}
		verdict := "never changes"
		if len(where) > 0 {
			verdict = strings.Join(where, " and ")
		} else if right[0] {
			verdict = "is right on all three"
		} else {
			verdict = "is wrong on all three"
		}
		fmt.Fprintf(&b, "- `%s`: %s → %s → %s: %s.\n", r.Name(), answers[0], answers[1], answers[2], verdict)
	}
	return b.String(), nil
}
