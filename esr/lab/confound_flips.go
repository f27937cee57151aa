package lab

import (
	"context"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// Flips answers one QA along the render-matched staircase graphrag-abstain
// → render-only → fine-ledger with every reader and says, per reader, where
// its answer turned right or wrong: at the render step (same atoms and
// dates, the ledger's layout) or at the mechanism step (same layout, the
// status switched on). Every word of it comes from the answers computed.
func Flips(ctx context.Context, s *esr.Stream, atoms []esr.Atom, qa esr.QA, readers []reader.Reader, opt memory.Options) (string, error) {
	w, err := WorkOn(ctx, s, atoms, qa, Staircase[:3], readers, opt)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for ri, name := range w.Readers {
		a := w.Answers[ri]
		var where []string
		for i, step := range []string{"render", "mechanism"} {
			switch {
			case !a[i].Correct && a[i+1].Correct:
				where = append(where, "turns right at the "+step+" step")
			case a[i].Correct && !a[i+1].Correct:
				where = append(where, "turns wrong at the "+step+" step")
			}
		}
		verdict := "is wrong on all three"
		switch {
		case len(where) > 0:
			verdict = strings.Join(where, " and ")
		case a[0].Correct:
			verdict = "is right on all three"
		}
		// The answers are data (the bench's values, a reader's reply):
		// literal in the Markdown, never markup.
		fmt.Fprintf(&b, "- `%s`: %s → %s → %s: %s.\n", name, report.MarkdownText(a[0].Answer), report.MarkdownText(a[1].Answer),
			report.MarkdownText(a[2].Answer), verdict)
	}
	return b.String(), nil
}
